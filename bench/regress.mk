# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/regress.mk -- `make bench-regress [REF=commit] [ROUNDS=5] [REGRESS_ARGS='-d 4 -n 5']`:
# the current code's cost against commit REF's (bench/regress.sh: plain and
# fenced cycles and a hot key, interleaved rounds, the masters measured from
# outside).  The default REF, a6ce73d, is the last commit before wake-up,
# fencing and the guards.  Figures: docs/performance.md, "Regression check".
REF ?= a6ce73d
ROUNDS ?= 5
.PHONY: bench-regress
bench-regress: bench/redlock-bench
	sh bench/regress.sh -r $(ROUNDS) $(REGRESS_ARGS) $(REF)
