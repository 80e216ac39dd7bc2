#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# scripts/dev.sh -- one-command set-up and run on a fresh Debian machine.
#
#   sh scripts/dev.sh demo    build, start 5 local masters, show the lock story
#   sh scripts/dev.sh test    build and run the whole test suite
#   sh scripts/dev.sh deps    only install what is missing
#
# Run as root, it installs the Debian packages it needs; otherwise it prints
# the exact apt-get line and stops.
set -eu
cd "$(dirname "$0")/.."

PACKAGES="make gcc clang pkg-config cmake libhiredis-dev libevent-dev libssl-dev openssl faketime redis-server redis-tools valgrind libclang-rt-14-dev gnuplot-nox mandoc groff man-db spin liblua5.1-0-dev"

deps() {
    missing=""
    for p in $PACKAGES; do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "missing Debian packages; run as root:" >&2
        echo "  apt-get update && apt-get install -y$missing" >&2
        exit 1
    fi
    echo "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing >/dev/null
}

# Development builds stop on any warning (WERROR=0 in the environment to
# relax that with a compiler newer than the code).
WERROR="${WERROR:-1}"

case "${1:-}" in
deps) deps ;;
demo) deps; make -s WERROR="$WERROR" demo ;;
test) deps; make -s WERROR="$WERROR" test ;;
*) echo "usage: sh scripts/dev.sh demo|test|deps" >&2; exit 2 ;;
esac
