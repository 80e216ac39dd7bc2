# test/failover.mk -- the failover and safety suite (included by the Makefile).
#
#   make failover        build test/failover/rl-worker and rl-check
#   make failover-short  the short mixed scenario (about 15 s)
#   make soak            the long soak: SOAK_SECONDS (300), SOAK_MASTERS (5),
#                        SOAK_WORKERS (6), SOAK_ARGS (extra failover.sh options)
#
# test/redlock-test depends on the two programs because t_failover.c runs
# the short scenario through test/failover/failover.sh.

FAILOVER_BINS = test/failover/rl-worker test/failover/rl-check
SOAK_SECONDS ?= 300
SOAK_MASTERS ?= 5
SOAK_WORKERS ?= 6
SOAK_ARGS ?=

.PHONY: failover failover-short soak

failover: $(FAILOVER_BINS)

test/failover/rl-worker: test/failover/rl-worker.c redlock.h $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ test/failover/rl-worker.c $(STATIC) $(ALL_LDFLAGS) $(DEP_LIBS)

test/failover/rl-check: test/failover/rl-check.c
	$(CC) $(ALL_CFLAGS) -o $@ test/failover/rl-check.c $(ALL_LDFLAGS)

test/redlock-test: $(FAILOVER_BINS)

failover-short: $(FAILOVER_BINS)
	sh test/failover/failover.sh short

soak: $(FAILOVER_BINS)
	sh test/failover/soak.sh --seconds $(SOAK_SECONDS) --masters $(SOAK_MASTERS) \
	    --workers $(SOAK_WORKERS) $(SOAK_ARGS)

# t_netfault.c drives test/rlproxy processes
test/redlock-test: test/rlproxy
