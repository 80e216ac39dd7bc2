#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/run.sh BINARY [args...]
#
# Runs a test binary with TMPDIR set to a fresh temporary directory, so that
# every redis-server the tests start lives below it.  On exit, any
# redis-server left running in that directory is killed and the directory is
# removed.  $TEST_PREFIX, when set, is put in front of the command line (e.g.
# a valgrind command).  The exit status is the binary's.
set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 BINARY [args...]" >&2
    exit 2
fi

if [ -z "${REDIS_SERVER:-}" ] && ! command -v redis-server >/dev/null 2>&1; then
    echo "$0: redis-server is not on PATH; the tests need a real Redis server" >&2
    echo "$0: install it (Debian/Ubuntu: apt-get install redis-server) or set REDIS_SERVER" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/redlock-test.XXXXXX") || exit 2

cleanup() {
    for proc in /proc/[0-9]*; do
        comm=$(cat "$proc/comm" 2>/dev/null) || continue
        case "$comm" in
        redis-server*) ;;
        *) continue ;;
        esac
        cwd=$(readlink "$proc/cwd" 2>/dev/null) || continue
        case "$cwd" in
        "$tmp" | "$tmp"/*) kill -9 "${proc#/proc/}" 2>/dev/null ;;
        esac
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

TMPDIR=$tmp
export TMPDIR

${TEST_PREFIX:-} "$@"
status=$?
exit $status
