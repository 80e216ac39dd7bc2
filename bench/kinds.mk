# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/kinds.mk -- test/integration/t_bench_kinds.c runs redlock-bench --kind / --kinds.
test/redlock-test: bench/redlock-bench
