#!/bin/sh
# test/failover/soak.sh -- the long run of the failover suite (`make soak`).
#
#   sh test/failover/soak.sh [--seconds S] [failover.sh options...]
#
# Repeats the fault cycle kill -> pause -> outage -> gcpause (plus the
# persistence kills with --aof) against running workers for S seconds
# (default 300), then checks every acquisition of the whole run with
# rl-check.  Exit status as failover.sh: 0 means zero overlaps.
exec sh "$(dirname "$0")/failover.sh" --gap 1500 "$@" soak
