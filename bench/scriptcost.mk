# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/scriptcost.mk -- `make bench-scriptcost [SC_ARGS='CYCLES ROUNDS']`: one
# master's CPU per lock cycle for each form of the commands a cycle could
# send (docs/performance.md, "What a plain lock pays").
.PHONY: bench-scriptcost
bench/scriptcost/scriptcost: bench/scriptcost/scriptcost.c
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) $(DEP_LIBS)
bench-scriptcost: bench/scriptcost/scriptcost
	sh bench/scriptcost/scriptcost.sh $(SC_ARGS)
# (test/integration/t_bench_ops.c runs it)
test/redlock-test: bench/scriptcost/scriptcost
