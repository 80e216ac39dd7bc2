# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/kinds.mk -- test/integration/t_bench_kinds.c and t_bench_ops.c run redlock-bench.
test/redlock-test: bench/redlock-bench
