#!/usr/bin/env bash
# A private PostgreSQL 15 server for the tests of LogbookPostgres, in a directory of its own:
# trust authentication, a Unix socket in that directory, no TCP port.
#
#   Scripts/postgres-test-server.sh start DIR   installs PostgreSQL 15 from Debian's packages
#                                               when missing, creates a cluster in DIR/data and
#                                               starts it with its socket in DIR
#   Scripts/postgres-test-server.sh stop DIR    stops that server and removes DIR
#   Scripts/postgres-test-server.sh restart DIR stops that server at once, as a crash would,
#                                               and starts it again (for the tests)
#   Scripts/postgres-test-server.sh pause DIR   stops it at once, keeping DIR
#   Scripts/postgres-test-server.sh resume DIR  starts a paused server again
#
# The server runs with fsync=off, which the tests do not need; LOGBOOK_POSTGRES_FSYNC=on starts it
# with fsync on, so that a commit waits for the disk (the benchmarks use it).
#
# Once started, the tests find the server with LOGBOOK_POSTGRES_SOCKET=DIR. Run as root (it
# installs packages and runs the server as the `postgres` user) or as the user who owns DIR,
# with PostgreSQL installed already.
set -euo pipefail

bin=/usr/lib/postgresql/15/bin

usage() {
    echo "usage: $0 start|stop|restart|pause|resume DIR" >&2
    exit 2
}

[ $# -eq 2 ] || usage
command=$1
dir=$2

# Runs a server binary as the `postgres` user when this script runs as root (the server refuses
# to run as root), and as the current user otherwise.
as_server_user() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Starts the cluster in DIR/data, with its socket in DIR and no TCP port.
start_server() {
    local fsync=off
    if [ "${LOGBOOK_POSTGRES_FSYNC:-off}" = on ]; then
        fsync=on
    fi
    as_server_user "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait \
        --options="-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=$fsync" start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
}

case "$command" in
start)
    if [ ! -x "$bin/initdb" ]; then
        if [ "$(id -u)" -ne 0 ]; then
            echo "PostgreSQL 15 is not installed; run as root, or: sudo apt-get install -y postgresql" >&2
            exit 1
        fi
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir"
    fi
    as_server_user "$bin/initdb" --pgdata="$dir/data" --auth=trust --username=postgres \
        --encoding=UTF8 --no-instructions >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    start_server
    echo "LOGBOOK_POSTGRES_SOCKET=$dir"
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_server_user "$bin/pg_ctl" --pgdata="$dir/data" --wait --mode=fast stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
restart)
    as_server_user "$bin/pg_ctl" --pgdata="$dir/data" --wait --mode=immediate stop >/dev/null
    start_server
    ;;
pause)
    as_server_user "$bin/pg_ctl" --pgdata="$dir/data" --wait --mode=immediate stop >/dev/null
    ;;
resume)
    start_server
    ;;
*)
    usage
    ;;
esac
