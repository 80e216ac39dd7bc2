# The simulated Redis master (sim/master.h): a pure state machine with an
# embedded Lua 5.1, linked by the simulator.  `make sim/libsim_master.a`;
# `make sim-diff` replays the captured command streams (sim/master/capture/)
# against a real redis-server and a simulated master and compares replies.
SIM_MASTER_SRCS = $(filter-out sim/master/difftest.c sim/master/selftest.c,$(sort $(wildcard sim/master/*.c)))
SIM_MASTER_OBJS = $(SIM_MASTER_SRCS:.c=.o)
SIM_MASTER_HDRS = sim/master.h sim/master/internal.h
LUA_CFLAGS := $(shell $(PKG_CONFIG) --cflags lua5.1 2>/dev/null || echo -I/usr/include/lua5.1)
LUA_LIBS := $(shell $(PKG_CONFIG) --libs lua5.1 2>/dev/null || echo -llua5.1)
# what a program linking sim/libsim_master.a adds
SIM_MASTER_LIBS = $(LUA_LIBS) -lcrypto -lm

.PHONY: sim-diff sim-master-clean

$(SIM_MASTER_OBJS): %.o: %.c $(SIM_MASTER_HDRS)
	$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -c -o $@ $<

sim/libsim_master.a: $(SIM_MASTER_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

sim/master/difftest: sim/master/difftest.c sim/libsim_master.a $(SIM_MASTER_HDRS)
	$(CC) $(ALL_CFLAGS) -o $@ sim/master/difftest.c sim/libsim_master.a $(ALL_LDFLAGS) $(DEP_LIBS) \
	    $(SIM_MASTER_LIBS)

sim/master/selftest: sim/master/selftest.c sim/libsim_master.a $(SIM_MASTER_HDRS)
	$(CC) $(ALL_CFLAGS) -o $@ sim/master/selftest.c sim/libsim_master.a $(ALL_LDFLAGS) $(SIM_MASTER_LIBS)

# First what the comparison cannot show (sim/master/selftest.c), then the
# comparison.  Each capture file is one master's stream; the program starts its own
# redis-server on a free loopback port (REDIS_SERVER or redis-server on PATH).
sim-diff: sim/master/difftest sim/master/selftest
	sim/master/selftest
	sim/master/difftest $(sort $(wildcard sim/master/capture/*.txt))

sim-master-clean:
	rm -f $(SIM_MASTER_OBJS) sim/libsim_master.a sim/master/difftest sim/master/selftest
clean: sim-master-clean
