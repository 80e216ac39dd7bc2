# libredlock -- see README.md.  `make` builds the static and shared library
# and redlock.pc; `make test` runs the whole suite against real redis-servers.

VERSION_MAJOR = 0
VERSION = 0.1.0
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

CC ?= cc
PKG_CONFIG ?= pkg-config
DEPS = hiredis libevent libevent_openssl openssl
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEPS) 2>/dev/null)
DEP_LIBS := $(shell $(PKG_CONFIG) --libs $(DEPS) 2>/dev/null || echo -lhiredis -levent_openssl -levent -lssl -lcrypto)

WARN = -std=c11 -Wall -Wextra -Werror -Wstrict-prototypes -Wwrite-strings \
       -Wshadow -Wpointer-arith -Wno-missing-field-initializers
OPT ?= -O2 -g
# The user's CFLAGS are added, never replaced.
ALL_CFLAGS = $(WARN) $(OPT) -D_GNU_SOURCE -fPIC -fvisibility=hidden \
             -I. $(DEP_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(LDFLAGS)

LIB_SRCS = redlock.c fanout.c node.c addr.c script.c tls.c quorum.c clock.c
LIB_OBJS = $(LIB_SRCS:.c=.o)
LIB_HDRS = redlock.h redlock_private.h

STATIC = libredlock.a
SONAME = libredlock.so.$(VERSION_MAJOR)
SHARED = libredlock.so.$(VERSION)

# Tests by job (test/README.md): test/unit/ needs no server; test/integration/
# and test/fault/ run against real redis-servers; test/support/ serves them all.
UNIT_SRCS = $(wildcard test/unit/*.c)
TEST_SRCS = $(UNIT_SRCS) $(wildcard test/integration/*.c test/fault/*.c)
TEST_SUPPORT = test/support/check.c test/support/servers.c test/support/proxy.c \
               test/support/itest.c
TEST_HDRS = $(wildcard test/support/*.h)
TEST_INC = -Itest/support
BENCH_SRCS = $(wildcard bench/*.c)
PROXY_SRCS = test/support/proxy.c test/support/proxy_main.c

.PHONY: all examples test unit check asan valgrind bench demo install uninstall clean

all: $(STATIC) $(SHARED) redlock.pc

%.o: %.c $(LIB_HDRS)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(STATIC): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(SHARED): $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(ALL_LDFLAGS) $(DEP_LIBS)
	ln -sf $(SHARED) $(SONAME)
	ln -sf $(SONAME) libredlock.so

redlock.pc: redlock.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

# The whole suite in one binary: unit tests of the pure parts (no server
# needed), then the integration and fault tests.
test/redlock-test: $(TEST_SRCS) $(TEST_SUPPORT) $(TEST_HDRS) $(STATIC)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -o $@ $(TEST_SRCS) $(TEST_SUPPORT) $(STATIC) \
	    $(ALL_LDFLAGS) $(DEP_LIBS) -lpthread

# The unit tests alone: no redis-server, no run.sh.
test/redlock-unit: $(UNIT_SRCS) test/support/check.c test/support/check.h $(LIB_HDRS) $(STATIC)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -o $@ $(UNIT_SRCS) test/support/check.c $(STATIC) \
	    $(ALL_LDFLAGS) $(DEP_LIBS)

test/rlproxy: $(PROXY_SRCS) $(TEST_HDRS)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -o $@ $(PROXY_SRCS) $(ALL_LDFLAGS) $(DEP_LIBS)

bench/redlock-bench: $(BENCH_SRCS) test/support/servers.c $(TEST_HDRS) $(STATIC) $(wildcard bench/*.h)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -Ibench -o $@ $(BENCH_SRCS) test/support/servers.c $(STATIC) \
	    $(ALL_LDFLAGS) $(DEP_LIBS) -lm

test: test/redlock-test
	test/run.sh test/redlock-test $(TEST_ARGS)

unit: test/redlock-unit
	test/redlock-unit $(TEST_ARGS)

check: test

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang).
asan:
	$(MAKE) clean
	$(MAKE) test CC=clang OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined"
	$(MAKE) clean

# Integration tests under valgrind memcheck: zero leaks, zero errors.
valgrind: test/redlock-test
	TEST_PREFIX="valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible" \
	    test/run.sh test/redlock-test $(TEST_ARGS)

bench: bench/redlock-bench

examples/redlock-demo: examples/demo.c test/support/servers.c test/support/servers.h $(STATIC)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -o $@ examples/demo.c test/support/servers.c $(STATIC) \
	    $(ALL_LDFLAGS) $(DEP_LIBS)

examples/basic: examples/basic.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ examples/basic.c $(STATIC) $(ALL_LDFLAGS) $(DEP_LIBS)

examples: examples/basic examples/redlock-demo

# The README's main job: the lock story on 5 masters, then a 5-second bench
# with its progress line and summary.  Each part starts and removes its own
# servers.
demo: examples/redlock-demo bench/redlock-bench
	test/run.sh examples/redlock-demo
	@echo
	@echo "redlock-bench: 5 masters, 128 locks in flight, 5 s (bench/demo.sh):"
	test/run.sh bench/demo.sh

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 redlock.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf $(SHARED) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libredlock.so
	install -m 644 redlock.pc $(DESTDIR)$(PKGCONFIGDIR)/

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/redlock.h $(DESTDIR)$(LIBDIR)/$(STATIC) \
	      $(DESTDIR)$(LIBDIR)/$(SHARED) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libredlock.so $(DESTDIR)$(PKGCONFIGDIR)/redlock.pc

clean:
	rm -f $(LIB_OBJS) $(STATIC) $(SHARED) $(SONAME) libredlock.so redlock.pc \
	      test/redlock-test test/redlock-unit test/rlproxy bench/redlock-bench \
	      examples/redlock-demo examples/basic

# Extra targets kept beside the code they build (sanitizers and fuzzers in
# test/sanitize.mk, failover and soak in test/soak/failover.mk).
-include $(wildcard test/*.mk test/*/*.mk bench/*.mk)
