# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/plot.mk -- `make plot BENCH_HIST=FILE` (a redlock-bench --hist file) or
# `make plot BENCH_JSON=FILE` (its --json output): SVGs in PLOT_DIR (default
# bench-plots) drawn by bench/plot.sh with gnuplot.
PLOT_DIR ?= bench-plots
.PHONY: plot
plot:
	@if [ -z "$(BENCH_HIST)$(BENCH_JSON)" ]; then \
	    echo "make plot BENCH_HIST=FILE (redlock-bench --hist FILE) or BENCH_JSON=FILE" >&2; exit 2; fi
	sh bench/plot.sh $(if $(BENCH_HIST),$(BENCH_HIST),$(BENCH_JSON)) $(PLOT_DIR)
