# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# The protocol's model (model/*.pml, docs/model.md), checked with Spin.
#   make model          the exhaustive search of the base configuration
#   make model-mutants  each mutant must give a counterexample
#   make model-big      more configurations (restarts, read/write, the
#                       semaphore, losses, retries); long
MODEL_CHECK = sh model/check.sh
# N=3 masters, 2 clients, one extend by client 0 (full or short ttl)
MODEL_BASE = -DN=3 -DC=2 -DFAST=3 -DRB_ROUNDS=1 -DATTEMPTS0=1 -DATTEMPTS1=1 -DMAXT=4

.PHONY: model model-mutants model-big
model:
	$(MODEL_CHECK) mutex safe full "$(MODEL_BASE)"

model-mutants:
	$(MODEL_CHECK) mutant-no-drift unsafe full "$(MODEL_BASE) -DNO_DRIFT"
	$(MODEL_CHECK) mutant-no-rollback unsafe full "$(MODEL_BASE) -DNO_ROLLBACK"
	$(MODEL_CHECK) mutant-no-guard unsafe full "$(MODEL_BASE) -DEXTENDS=0 -DCRASHES=1 -DMAXT=5 -DNO_GUARD"
	$(MODEL_CHECK) mutant-half-quorum unsafe full "$(MODEL_BASE) -DHALF_QUORUM"
	$(MODEL_CHECK) mutant-keep-validity unsafe full "$(MODEL_BASE) -DKEEP_VALIDITY"

model-big:
	$(MODEL_CHECK) mutex-restart safe full "$(MODEL_BASE) -DEXTENDS=0 -DCRASHES=1 -DMAXT=5"
	$(MODEL_CHECK) rw safe full "$(MODEL_BASE) -DKIND=2 -DEXTENDS=0"
	$(MODEL_CHECK) big-mutex safe bitstate "-DN=3 -DC=2 -DATTEMPTS1=2 -DLOSSES=1 -DCRASHES=1 -DMAXT=8"
	$(MODEL_CHECK) big-semaphore safe bitstate "-DN=3 -DC=3 -DKIND=1 -DP=2 -DEXTENDS=0 -DATTEMPTS1=1 -DMAXT=5"
	$(MODEL_CHECK) mutant-semaphore-majority unsafe bitstate "-DN=3 -DC=3 -DKIND=1 -DP=2 -DEXTENDS=0 -DATTEMPTS1=1 -DMAXT=5 -DSEM_MAJORITY"
