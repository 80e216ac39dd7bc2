# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/soak/failover.mk -- the failover and safety suite (included by the Makefile).
#
#   make failover        build test/soak/rl-worker, rl-check, rl-schedule, rl-util,
#                        rl-cluster and test/rlproxy
#   make failover-short  the short classic scenario (about 15 s), then one
#                        round of the mixed fault schedule (about 17 s);
#                        SEED=N replays a schedule
#   make failover-mixed  one round of every fault kind, seeded (SEED=N)
#   make failover-kinds  the same round for each lock kind (reentrant, rw,
#                        multi, semaphore of 2 permits; fencing and watchdog),
#                        about 17 s each
#   make failover-sem    the semaphore with persistence: worker crashes, the
#                        aof restarts and every fault kind, for SEM_SECONDS
#                        (60) each, on 5 masters with 2 then 3 permits and on
#                        3 masters with 2 (SEED, SEM_ARGS)
#   make soak            the long soak: the random schedule of every fault
#                        kind, with the validity auditor: SOAK_SECONDS (300),
#                        SOAK_MASTERS (5), SOAK_WORKERS (6), SEED, SOAK_ARGS
#                        (extra failover.sh options)
#   make soak-classic    the former kill/pause/outage/gcpause cycle
#   make soak-fencing    the random schedule with fencing tokens until
#                        100,000 acquisitions (SOAK_FENCING_ACQUISITIONS):
#                        every resource's tokens must grow in acquisition order
#   make soak-million    the random schedule until 1,000,000 acquisitions
#                        (SOAK_ACQUISITIONS), short holds, 8 workers, 16
#                        resources (~800 acquisitions/s: about 21 min on 2 cores)
#   make failover-hot    many clients on one key (rl-worker --clients): 128
#                        clients (4 workers x 32), then 512 (4 x 128), each
#                        HOT_SECONDS (60) of the random schedule without the
#                        hostile kinds, fencing on; SEED, HOT_ARGS
#   make failover-cluster  the votes are Redis Clusters (3 votes x 3 shards x 1
#                        replica, test/soak/failover-cluster.sh): rounds of
#                        failovers (plain, FORCE, TAKEOVER), kill -9 of shard
#                        masters, restarts and held keys lost on a quorum by
#                        replicas that take over without them, for
#                        CLUSTER_SECONDS (300), restart guard on; SEED,
#                        CLUSTER_ARGS
#   make failover-cluster-unguarded  the lose-keys faults with the workers'
#                        restart guard off: must find overlaps (exit 1)
# docs/failover.md describes the fault kinds and the auditor ("Cluster
# votes" for the cluster runs).
#
# test/redlock-test depends on the programs because test/fault/t_failover.c
# runs the short scenario through test/soak/failover.sh.

FAILOVER_BINS = test/soak/rl-worker test/soak/rl-check test/soak/rl-schedule test/soak/rl-util \
	test/soak/rl-cluster
SOAK_SECONDS ?= 300
SOAK_MASTERS ?= 5
SOAK_WORKERS ?= 6
SOAK_ARGS ?=
SOAK_ACQUISITIONS ?= 1000000
SOAK_FENCING_ACQUISITIONS ?= 100000
SEED ?=
HOT_SECONDS ?= 60
HOT_ARGS ?=
HOT_KINDS = slow-minority slow-majority loop-block setreset kill pause outage gcpause
SEED_ARG = $(if $(SEED),--seed $(SEED),)

.PHONY: failover failover-short failover-mixed failover-kinds failover-sem failover-hot soak \
	soak-classic soak-million soak-fencing failover-cluster failover-cluster-unguarded

failover: $(FAILOVER_BINS) test/rlproxy

RL_COMMON = test/soak/rl-common.c test/soak/rl-common.h
RL_WORKER_SRCS = test/soak/rl-worker.c test/soak/rl-many.c test/soak/rl-common.c
RL_CHECK_SRCS = test/soak/rl-check.c test/soak/rl-check-log.c test/soak/rl-check-sem.c test/soak/rl-common.c

test/soak/rl-worker: $(RL_WORKER_SRCS) $(RL_COMMON) test/soak/rl-worker.h redlock.h $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ $(RL_WORKER_SRCS) $(STATIC) $(ALL_LDFLAGS) $(DEP_LIBS) -lpthread

test/soak/rl-check: $(RL_CHECK_SRCS) $(RL_COMMON) test/soak/rl-check.h
	$(CC) $(ALL_CFLAGS) -o $@ $(RL_CHECK_SRCS) $(ALL_LDFLAGS)

test/soak/rl-schedule: test/soak/rl-schedule.c
	$(CC) $(ALL_CFLAGS) -o $@ test/soak/rl-schedule.c $(ALL_LDFLAGS)

# the clusters of failover-cluster.sh, with the tests' clusters.h
RL_CLUSTER_SRCS = test/soak/rl-cluster.c test/support/clusters.c test/support/servers.c \
	test/soak/rl-common.c
test/soak/rl-cluster: $(RL_CLUSTER_SRCS) $(RL_COMMON) test/support/clusters.h test/support/servers.h
	$(CC) $(ALL_CFLAGS) -Itest/support -o $@ $(RL_CLUSTER_SRCS) $(ALL_LDFLAGS) $(DEP_LIBS)

test/soak/rl-util: test/soak/rl-util.c $(RL_COMMON)
	$(CC) $(ALL_CFLAGS) -o $@ test/soak/rl-util.c test/soak/rl-common.c $(ALL_LDFLAGS)

test/redlock-test: $(FAILOVER_BINS) test/fault/fo_run.h

failover-short: $(FAILOVER_BINS) test/rlproxy
	sh test/soak/failover.sh short
	sh test/soak/failover.sh $(SEED_ARG) mixed

failover-mixed: $(FAILOVER_BINS) test/rlproxy
	sh test/soak/failover.sh $(SEED_ARG) mixed

failover-kinds: $(FAILOVER_BINS) test/rlproxy
	for k in reentrant rw multi semaphore; do \
	    sh test/soak/failover.sh $(SEED_ARG) --fencing --watchdog --kind $$k mixed || exit 1; \
	done

SEM_SECONDS ?= 60
SEM_ARGS ?=
failover-sem: $(FAILOVER_BINS) test/rlproxy
	for np in 5:2 5:3 3:2; do \
	    sh test/soak/failover.sh --masters $${np%:*} --permits $${np#*:} --kind semaphore \
	        --workers 6 --watchdog --seconds $(SEM_SECONDS) $(SEED_ARG) $(SEM_ARGS) \
	        crash aof random crash || exit 1; \
	done

# 512 clients wait longer between attempts (idle 0..2 s against 0..0.2 s):
# about the same attempts per second on the key as 128
failover-hot: $(FAILOVER_BINS) test/rlproxy
	sh test/soak/failover.sh --workers 4 --clients-per-worker 32 --resources 1 --hold-max 10 \
	    --idle-max 200 --fencing --seconds $(HOT_SECONDS) --kinds "$(HOT_KINDS)" $(SEED_ARG) \
	    $(HOT_ARGS) random
	sh test/soak/failover.sh --workers 4 --clients-per-worker 128 --resources 1 --hold-max 10 \
	    --idle-max 2000 --fencing --seconds $(HOT_SECONDS) --kinds "$(HOT_KINDS)" $(SEED_ARG) \
	    $(HOT_ARGS) random

CLUSTER_SECONDS ?= 300
CLUSTER_ARGS ?=
failover-cluster: $(FAILOVER_BINS)
	sh test/soak/failover-cluster.sh --seconds $(CLUSTER_SECONDS) $(SEED_ARG) $(CLUSTER_ARGS)

# the settings of failover_cluster_without_the_guard_overlaps (test/fault/
# t_failover_cluster.c): long holds, so that a lock is still held when the
# takeovers have lost its keys
CLUSTER_UNGUARDED = --restart-guard 0 --kinds lose-keys --rounds 4 --workers 8 --resources 4 \
	--ttl 2000 --hold-min 800 --hold-max 1500 --idle-max 0 --extend-pct 0
failover-cluster-unguarded: $(FAILOVER_BINS)
	sh test/soak/failover-cluster.sh $(CLUSTER_UNGUARDED) $(SEED_ARG) $(CLUSTER_ARGS); \
	    st=$$?; [ $$st = 1 ] || { echo "expected overlaps (exit 1), got exit $$st" >&2; exit 1; }

soak: $(FAILOVER_BINS) test/rlproxy
	sh test/soak/soak.sh --seconds $(SOAK_SECONDS) --masters $(SOAK_MASTERS) \
	    --workers $(SOAK_WORKERS) $(SEED_ARG) $(SOAK_ARGS)

soak-classic: $(FAILOVER_BINS)
	sh test/soak/soak.sh --classic --seconds $(SOAK_SECONDS) --masters $(SOAK_MASTERS) \
	    --workers $(SOAK_WORKERS) $(SOAK_ARGS)

soak-fencing: $(FAILOVER_BINS) test/rlproxy
	sh test/soak/soak.sh --acquisitions $(SOAK_FENCING_ACQUISITIONS) \
	    --masters $(SOAK_MASTERS) --workers 8 --resources 16 --hold-max 3 --idle-max 0 \
	    --extend-pct 20 --fencing $(SEED_ARG) $(SOAK_ARGS)

soak-million: $(FAILOVER_BINS) test/rlproxy
	sh test/soak/soak.sh --acquisitions $(SOAK_ACQUISITIONS) --masters $(SOAK_MASTERS) \
	    --workers 8 --resources 16 --hold-max 3 --idle-max 0 --extend-pct 20 \
	    $(SEED_ARG) $(SOAK_ARGS)

# test/fault/t_netfault.c drives test/rlproxy processes
test/redlock-test: test/rlproxy

.PHONY: clean-failover
clean: clean-failover
clean-failover:
	rm -f $(FAILOVER_BINS)
