# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/clusters.mk -- `make bench-clusters [CLUSTERS_ARGS='-r 5 -d 3 -s "1 2 3 4"']`:
# the CPU a lock costs on cluster votes (3 Redis Clusters of 1, 2, 3, 4
# masters) against 3 plain masters, and the rate projected for one core per
# master (bench/clusters.sh: interleaved rounds, ratios to the plain masters
# of the same round).  Figures: docs/performance.md, "Cluster votes".
.PHONY: bench-clusters
bench-clusters: bench/redlock-bench
	sh bench/clusters.sh $(CLUSTERS_ARGS)
