#ifndef LOGBOOK_CLZ4_SHIM_H
#define LOGBOOK_CLZ4_SHIM_H
#include <lz4.h>
#endif
