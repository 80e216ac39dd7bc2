# The deterministic simulator (docs/simulator.md): the library's objects and
# libevent, linked statically with sim/'s clock_gettime, gettimeofday and
# getrandom (the time seam) and the dial hook's streams, served in the
# process by sim/sock.c (the transport seam).  Included by the Makefile.
SIM_SRCS = $(sort $(wildcard sim/*.c))
SIM_HDRS = $(wildcard sim/*.h)
SIM_LIBS = -Wl,-Bstatic -levent_openssl -levent_core -Wl,-Bdynamic -lssl -lcrypto -pthread
SIM_SEEDS ?= 1000
# processes for make sim and sim-long (the seeds split among them; one
# report, one hash of the hashes)
SIM_JOBS ?= 2
# SEED (shared with test/soak/failover.mk, empty there by default): 1 here
SIM_SEED = $(or $(SEED),1)
# more options of sim/redlock-sim (--drift-ppm P, --clock-guard-off,
# --restart-guard-off)
SIM_ARGS ?=

.PHONY: sim sim-replay sim-selftest sim-compilers sim-long

sim/redlock-sim: $(SIM_SRCS) $(SIM_HDRS) $(STATIC) sim/libsim_master.a
	$(CC) $(ALL_CFLAGS) -o $@ $(SIM_SRCS) sim/libsim_master.a $(STATIC) $(ALL_LDFLAGS) \
	    $(SIM_LIBS) $(SIM_MASTER_LIBS)

# K seeds; the last line is "K seeds, V violations"
sim: sim/redlock-sim
	sim/redlock-sim --seeds $(SIM_SEEDS) --jobs $(SIM_JOBS) $(SIM_ARGS)

# hours of seeds: blocks of SIM_LONG_BLOCK seeds from SIM_LONG_FIRST on,
# until SIM_LONG_MINUTES have passed or a block has a violation
SIM_LONG_MINUTES ?= 240
SIM_LONG_BLOCK ?= 100000
SIM_LONG_FIRST ?= 1000001
sim-long: sim/redlock-sim
	sh sim/long.sh sim/redlock-sim $(SIM_LONG_MINUTES) $(SIM_LONG_BLOCK) $(SIM_LONG_FIRST) \
	    $(SIM_JOBS) $(SIM_ARGS)

# one seed: "trace S <hash>" (TRACE=1: the readable trace before it)
sim-replay: sim/redlock-sim
	sim/redlock-sim --seed $(SIM_SEED) $(SIM_ARGS) $(if $(filter-out 0,$(TRACE)),--trace)

# the seeds that found library defects, each run again (a hang is a
# failure: timeout): --cluster seed 10, the watchdog's tries that came
# ever closer (docs/simulator.md); seed 3, a client freed during a split
# acquire (test/fault/t_edge_cluster_leaks.c holds it on real servers)
.PHONY: sim-regress
sim-regress: sim/redlock-sim
	timeout 120 sim/redlock-sim --seed 10 --cluster
	timeout 120 sim/redlock-sim --seed 3 --cluster

# a seed twice gives one hash, the next seed another, the checker sees an
# overlap it must see; then 200 seeds in two processes give one hash (a
# process's id or addresses must not reach the trace)
sim-selftest: sim/redlock-sim
	sim/redlock-sim --selftest --seed $(SIM_SEED) $(SIM_ARGS)
	@a=$$(sim/redlock-sim --seeds 200 --first $(SIM_SEED) $(SIM_ARGS) | grep '^seeds'); \
	b=$$(sim/redlock-sim --seeds 200 --first $(SIM_SEED) $(SIM_ARGS) | grep '^seeds'); \
	echo "two processes: $$a; $$b"; \
	if [ "$$a" != "$$b" ]; then echo "selftest FAILED: two processes, two traces"; exit 1; fi

# the simulator's own code built by gcc and by clang (on one library) gives
# one hash for 200 seeds: no order of evaluation the C standard leaves open
# (a call's arguments) may reach the trace
sim-compilers: $(STATIC) sim/libsim_master.a
	@mkdir -p tmp/sim
	gcc $(ALL_CFLAGS) -o tmp/sim/sim-gcc $(SIM_SRCS) sim/libsim_master.a $(STATIC) $(ALL_LDFLAGS) \
	    $(SIM_LIBS) $(SIM_MASTER_LIBS)
	clang $(ALL_CFLAGS) -o tmp/sim/sim-clang $(SIM_SRCS) sim/libsim_master.a $(STATIC) \
	    $(ALL_LDFLAGS) $(SIM_LIBS) $(SIM_MASTER_LIBS)
	@a=$$(tmp/sim/sim-gcc --seeds 200 | grep '^seeds'); b=$$(tmp/sim/sim-clang --seeds 200 | grep '^seeds'); \
	echo "gcc: $$a; clang: $$b"; \
	if [ "$$a" != "$$b" ]; then echo "sim-compilers FAILED: two compilers, two traces"; exit 1; fi

# The simulator on the library built with its mutants (test/mutants.mk's
# objects, docs/mutants.md): --mutant NAME puts one defect back.
# `make sim-mutants`: each mutant of sim/mutants.txt, seeds until the
# first violation (at most its budget), and the same seeds without it
# must give none; ends "K of M mutants found".
$(MUT_DIR)/redlock-sim: $(SIM_SRCS) $(SIM_HDRS) $(MUT_DIR)/libredlock.a sim/libsim_master.a
	$(CC) $(ALL_CFLAGS) -DREDLOCK_MUTANTS -o $@ $(SIM_SRCS) sim/libsim_master.a \
	    $(MUT_DIR)/libredlock.a $(ALL_LDFLAGS) $(SIM_LIBS) $(SIM_MASTER_LIBS)

.PHONY: sim-mutants
sim-mutants: $(MUT_DIR)/redlock-sim
	sh sim/mutants.sh $(MUT_DIR)/redlock-sim sim/mutants.txt $(MUTANTS)
