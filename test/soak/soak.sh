#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/soak/soak.sh -- the long run of the failover suite (`make soak`).
#
#   sh test/soak/soak.sh [--seconds S] [failover.sh options...]
#   sh test/soak/soak.sh --classic [--seconds S] [options...]
#
# Default: the seeded random schedule (failover.sh `random`): every fault
# kind (slow masters, loop blocks, SET resets, hostile masters, kills,
# pauses, quorum outages, client pauses), round after round, for S seconds
# (default 300) or until --acquisitions N were made, masters behind an
# rlproxy, blocking and async workers extending while they hold, every
# worker running the validity auditor.  --seed N replays a schedule.
# --classic: the former cycle kill -> pause -> outage -> gcpause (plus the
# persistence kills with --aof), masters without proxy.
# Then rl-check checks every acquisition of the whole run and the auditor's
# findings.  Exit status as failover.sh: 0 means zero overlaps and zero
# auditor violations.
if [ "${1:-}" = --classic ]; then
    shift
    exec sh "$(dirname "$0")/failover.sh" --gap 1500 "$@" soak
fi
exec sh "$(dirname "$0")/failover.sh" "$@" random
