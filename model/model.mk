# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# The protocol's model (model/*.pml, docs/model.md), checked with Spin.
#   make -j2 model      the exhaustive searches (two at a time with -j2)
#   make model-mutants  each mutant must give a counterexample
#   make model-big      two clients with faults, five masters, longer
#                       horizons: swarm searches (SWARM_RUNS x SWARM_SECONDS
#                       each); long
MODEL_CHECK = sh model/check.sh
# N=3 masters, 2 clients, one extend by client 0 (full or short ttl)
MODEL_BASE0 = -DN=3 -DC=2 -DFAST=3 -DRB_ROUNDS=1 -DATTEMPTS0=1 -DATTEMPTS1=1 -DNOTICE=0
MODEL_BASE = $(MODEL_BASE0) -DMAXT=4
# one client (ttl 5, short ttl 3), the notice
MODEL_ONE = -DN=3 -DC=1 -DFAST=3 -DTTL=5 -DSHORT=3
# ... two extends, one attempt, one roll-back round
MODEL_ONE_X = $(MODEL_ONE) -DEXTENDS=2 -DRB_ROUNDS=1 -DATTEMPTS0=1
# three clients, two permits, three masters
MODEL_SEM = -DN=3 -DC=3 -DKIND=1 -DP=2 -DEXTENDS=0 -DATTEMPTS1=1 -DFAST=3 -DRB_ROUNDS=1
# ... two clients, ttl 3, ticks 0 to 2, master 0's clock jump
MODEL_SEM_T = -DN=3 -DC=2 -DKIND=1 -DP=2 -DEXTENDS=0 -DATTEMPTS1=1 -DFAST=3 -DRB_ROUNDS=1 \
              -DTTL=3 -DMAXT=2 -DJUMPS=1
# the read/write lock: client 0 writes and extends once, the others read
MODEL_RW = -DN=3 -DKIND=2 -DFAST=3 -DRB_ROUNDS=1 -DATTEMPTS0=1 -DATTEMPTS1=1 -DNOTICE=0 -DJUMPS=1

.PHONY: model model-mutants model-big model-mutex model-one-loss model-one-crash \
        model-one-retry model-semaphore model-semaphore-time model-rw model-rw-time
model: model-mutex model-one-loss model-one-crash model-one-retry model-semaphore \
       model-semaphore-time model-rw model-rw-time
model-mutex:
	$(MODEL_CHECK) mutex safe full "$(MODEL_BASE)"
model-one-loss:
	$(MODEL_CHECK) one-loss safe full "$(MODEL_ONE_X) -DLOSSES=1 -DMAXT=5"
model-one-crash:
	$(MODEL_CHECK) one-crash safe full "$(MODEL_ONE_X) -DCRASHES=1 -DPERSIST=2 -DMAXT=5"
model-one-retry:
	$(MODEL_CHECK) one-retry safe full "$(MODEL_ONE) -DEXTENDS=1 -DATTEMPTS0=2 -DRB_ROUNDS=2 -DLOSSES=1 -DMAXT=5"
model-semaphore:
	$(MODEL_CHECK) semaphore safe full "$(MODEL_SEM) -DMAXT=0 -DJUMPS=1"
model-semaphore-time:
	$(MODEL_CHECK) semaphore-time safe full "$(MODEL_SEM_T)"
model-rw:
	$(MODEL_CHECK) rw safe full "$(MODEL_RW) -DC=3 -DMAXT=0"
model-rw-time:
	$(MODEL_CHECK) rw-time safe full "$(MODEL_RW) -DC=2 -DTTL=3 -DMAXT=1"

model-mutants:
	$(MODEL_CHECK) mutant-no-drift unsafe full "$(MODEL_BASE) -DNO_DRIFT"
	$(MODEL_CHECK) mutant-no-rollback unsafe full "$(MODEL_BASE) -DNO_ROLLBACK"
	$(MODEL_CHECK) mutant-no-guard unsafe full "$(MODEL_BASE0) -DEXTENDS=0 -DCRASHES=1 -DMAXT=5 -DNO_GUARD"
	$(MODEL_CHECK) mutant-half-quorum unsafe full "$(MODEL_BASE) -DHALF_QUORUM"
	$(MODEL_CHECK) mutant-keep-validity unsafe full "$(MODEL_BASE) -DKEEP_VALIDITY"
	$(MODEL_CHECK) mutant-no-extend-kill unsafe dfs "$(MODEL_ONE_X) -DMAXT=4 -DLOSSES=1 -DNO_EXTEND_KILL"
	SWARM_RUNS=4 SWARM_SECONDS=120 $(MODEL_CHECK) mutant-semaphore-majority unsafe swarm "$(MODEL_SEM) -DMAXT=0 -DSEM_MAJORITY"
	$(MODEL_CHECK) mutant-clock-majority unsafe full "$(MODEL_SEM_T) -DCLOCK_MAJORITY"

model-big:
	$(MODEL_CHECK) two-restart safe swarm "-DN=3 -DC=2 -DEXTENDS=0 -DATTEMPTS1=2 -DRB_ROUNDS=2 -DCRASHES=1 -DPERSIST=2 -DMAXT=6"
	$(MODEL_CHECK) two-loss safe swarm "-DN=3 -DC=2 -DTTL=5 -DSHORT=3 -DEXTENDS=2 -DATTEMPTS1=2 -DRB_ROUNDS=2 -DLOSSES=2 -DMAXT=6"
	$(MODEL_CHECK) five-masters safe swarm "-DN=5 -DC=2 -DEXTENDS=1 -DATTEMPTS1=2 -DCRASHES=1 -DLOSSES=1 -DMAXT=5"
	$(MODEL_CHECK) semaphore-big safe swarm "$(MODEL_SEM) -DMAXT=5 -DCRASHES=1 -DJUMPS=1"
	$(MODEL_CHECK) rw-big safe swarm "-DN=3 -DC=3 -DKIND=2 -DEXTENDS=1 -DATTEMPTS1=2 -DLOSSES=1 -DMAXT=5 -DJUMPS=1"
