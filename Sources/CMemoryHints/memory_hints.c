// The hints are inline functions of the header; a target needs one source file.
#include "memory_hints.h"
