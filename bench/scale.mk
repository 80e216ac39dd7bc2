# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/scale.mk -- `make bench-scale [SCALE_ARGS='-r 8 -d 10']`: does the hot
# lock's rate hold as clients are added (bench/scale.sh: the contend workload
# at 16, 128 and 512 clients, interleaved rounds, each against the raw
# hand-off chain).  Figures: docs/performance.md, "Many clients, one hot lock".
.PHONY: bench-scale
bench-scale: bench/redlock-bench
	sh bench/scale.sh $(SCALE_ARGS)
