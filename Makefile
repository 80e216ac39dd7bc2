# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# libredlock -- see README.md.  `make` builds the static and shared library;
# `make install` installs them with redlock.h, redlock.pc, the CMake
# package config and the manual pages; `make test` runs the whole suite against real redis-servers.

# The version is written once, in redlock.h (REDLOCK_VERSION_MAJOR/MINOR/PATCH).
VERSION := $(shell awk '$$2 == "REDLOCK_VERSION_MAJOR" { M = $$3 } \
                        $$2 == "REDLOCK_VERSION_MINOR" { m = $$3 } \
                        $$2 == "REDLOCK_VERSION_PATCH" { p = $$3 } \
                        END { if (M != "" && m != "" && p != "") print M "." m "." p }' redlock.h)
ifeq ($(VERSION),)
$(error cannot read REDLOCK_VERSION_MAJOR/MINOR/PATCH from redlock.h)
endif
VERSION_MAJOR := $(firstword $(subst ., ,$(VERSION)))
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
BINDIR ?= $(PREFIX)/bin
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
CMAKEDIR = $(LIBDIR)/cmake/redlock

CC ?= cc
PKG_CONFIG ?= pkg-config
# The library needs libevent and OpenSSL (it reads replies with its own
# parser); the tests, the bench and the test proxy also use hiredis, to talk
# to the servers behind the library's back.
LIB_DEPS = libevent libevent_openssl openssl
DEPS = hiredis $(LIB_DEPS)
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEPS) 2>/dev/null)
LIB_LIBS := $(shell $(PKG_CONFIG) --libs $(LIB_DEPS) 2>/dev/null || echo -levent_openssl -levent -lssl -lcrypto) -pthread
DEP_LIBS := $(shell $(PKG_CONFIG) --libs $(DEPS) 2>/dev/null || echo -lhiredis -levent_openssl -levent -lssl -lcrypto) -pthread

WARN = -std=c11 -Wall -Wextra -Wstrict-prototypes -Wwrite-strings \
       -Wshadow -Wpointer-arith -Wno-missing-field-initializers
# WERROR=1 makes warnings errors: development (scripts/dev.sh) and CI builds
# use it; a packager's build with another compiler does not stop on a new
# warning.
WERROR ?=
ifneq ($(filter-out 0,$(WERROR)),)
WARN += -Werror
endif
OPT ?= -O2 -g
# The user's CPPFLAGS and CFLAGS are added, never replaced (after ours, so
# that -D_FORTIFY_SOURCE, -O or -f flags from a packager win).
ALL_CFLAGS = $(WARN) $(OPT) -D_GNU_SOURCE -fPIC -fvisibility=hidden \
             -I. $(DEP_CFLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(LDFLAGS)

# The library by layer, top to bottom (docs/design.md, "The house"): each
# folder is one layer with one private header, the only one the layers above
# include; `make check-layers` fails when a layer reaches up.
LAYERS = client kinds lock fanout cluster master conn floor
LIB_SRCS = redlock.c $(foreach l,$(LAYERS),$(sort $(wildcard $(l)/*.c))) quorum.c clock.c
LIB_OBJS = $(LIB_SRCS:.c=.o)
LIB_HDRS = redlock.h quorum.h clock.h $(foreach l,$(LAYERS),$(wildcard $(l)/*.h))

STATIC = libredlock.a
SONAME = libredlock.so.$(VERSION_MAJOR)
SHARED = libredlock.so.$(VERSION)

# Tests by job (test/README.md): test/unit/ needs no server; test/integration/
# and test/fault/ run against real redis-servers; test/support/ serves them all.
UNIT_SRCS = $(wildcard test/unit/*.c)
# (the simulator's checkers are pure logic: unit-tested here, sim/check.c)
TEST_SRCS = $(UNIT_SRCS) sim/check.c $(wildcard test/integration/*.c test/fault/*.c)
TEST_SUPPORT = $(filter-out test/support/proxy_main.c,$(wildcard test/support/*.c))
TEST_HDRS = $(wildcard test/support/*.h)
TEST_INC = -Itest/support
# the library's reads of the clock pass through the tests (t_loopthread.c
# steps the wall clock it sees)
TEST_LDFLAGS = -Wl,--wrap=clock_gettime
BENCH_SRCS = $(wildcard bench/*.c)
PROXY_SRCS = test/support/proxy.c test/support/proxy_main.c

.PHONY: all examples test test-long unit check asan valgrind bench demo install uninstall clean version \
        check-layers man-lint

all: $(STATIC) $(SHARED) cmd/redlock

%.o: %.c $(LIB_HDRS)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The layers call only downwards: includes and the objects' symbols (nm).
check-layers: $(LIB_OBJS)
	sh scripts/check-layers.sh
	CC="$(CC)" sh scripts/check-layers.sh --self-test

$(STATIC): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(SHARED): $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(ALL_LDFLAGS) $(LIB_LIBS)
	ln -sf $(SHARED) $(SONAME)
	ln -sf $(SONAME) libredlock.so

# The redlock command (docs/command.md): built on the public redlock.h and
# the static library only, as a program on an installed library would be
# (no hiredis).
CMD_SRCS = $(sort $(wildcard cmd/*.c))
cmd/redlock: $(CMD_SRCS) cmd/cmd.h redlock.h $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ $(CMD_SRCS) $(STATIC) $(ALL_LDFLAGS) $(LIB_LIBS)
# the end-to-end tests of the command run it (test/integration/t_cmd_*.c)
test/redlock-test: cmd/redlock

# The manual pages (man/): redlock(1), redlock-bench(1), redlock(3).  Every
# name in redlock(3)'s NAME section is installed as a link to it, so that
# `man redlock_acquire` finds it.
MAN1 = man/redlock.1 man/redlock-bench.1
MAN3 = man/redlock.3
MAN3_LINKS := $(shell awk '/^\.Sh /{ s = $$2 } s == "NAME" && $$1 == ".Nm" && $$2 != "redlock" \
                           { print $$2 ".3" }' man/redlock.3)

# The pages lint clean (mandoc, groff) and name every function of redlock.h,
# every option of the bench and of the command (scripts/check-man.sh); then
# the check must fail on seeded omissions.
man-lint: cmd/redlock
	sh scripts/check-man.sh
	sh scripts/check-man.sh --self-test

# The version redlock.h declares (for scripts and packagers).
version:
	@echo $(VERSION)

# The whole suite in one binary: unit tests of the pure parts (no server
# needed), then the integration and fault tests.
test/redlock-test: $(TEST_SRCS) $(TEST_SUPPORT) $(TEST_HDRS) $(STATIC)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -o $@ $(TEST_SRCS) $(TEST_SUPPORT) $(STATIC) \
	    $(ALL_LDFLAGS) $(TEST_LDFLAGS) $(DEP_LIBS) -lpthread

# Built against the 0.1.0 header, linked with today's library (t_abi.c runs it).
test/redlock-test: test/abi/old-program
test/abi/old-program: test/abi/old_program.c test/abi/redlock-0.1.h $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ test/abi/old_program.c $(STATIC) $(ALL_LDFLAGS) $(LIB_LIBS)

# The previous release (0.1.0: the commit before the version became 0.2.0),
# built from the git history in tmp/, and a mutex client of it that
# t_upgrade.c runs next to today's clients on the same masters.  Without
# the history (a release tarball) the test says so and fails.
PREV_RELEASE = 44e8ed6f302eae31882bf437f3bcd15988a23a47
PREV_DIR = tmp/redlock-0.1.0
ifneq ($(wildcard .git),)
test/redlock-test: test/upgrade/old-client
endif
test/upgrade/old-client: test/upgrade/old_client.c
	rm -rf $(PREV_DIR) && mkdir -p $(PREV_DIR)
	git archive $(PREV_RELEASE) | tar -x -C $(PREV_DIR)
	$(MAKE) -s -C $(PREV_DIR) libredlock.a WARN="-std=c11 -w" OPT="-O2 -g" CFLAGS= CPPFLAGS= \
	    LDFLAGS=
	$(CC) -std=c11 -O2 -g -D_GNU_SOURCE -I$(PREV_DIR) -o $@ $< $(PREV_DIR)/libredlock.a \
	    $(DEP_LIBS)

# The unit tests alone: no redis-server, no run.sh.
test/redlock-unit: $(UNIT_SRCS) test/support/check.c test/support/check.h $(LIB_HDRS) $(STATIC)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -o $@ $(UNIT_SRCS) test/support/check.c $(STATIC) \
	    $(ALL_LDFLAGS) $(DEP_LIBS)

test/rlproxy: $(PROXY_SRCS) $(TEST_HDRS)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -o $@ $(PROXY_SRCS) $(ALL_LDFLAGS) $(DEP_LIBS)

# --spawn starts its masters with the tests' servers.c, and its clusters
# (--shards) with clusters.c.
BENCH_SUPPORT = test/support/servers.c test/support/clusters.c
bench/redlock-bench: $(BENCH_SRCS) $(BENCH_SUPPORT) $(TEST_HDRS) $(STATIC) $(wildcard bench/*.h)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) -Ibench -o $@ $(BENCH_SRCS) $(BENCH_SUPPORT) $(STATIC) \
	    $(ALL_LDFLAGS) $(DEP_LIBS) -lm

test: test/redlock-test
	test/run.sh test/redlock-test $(TEST_ARGS)

# The long suite (TEST_LONG in test/*/: test/README.md, "Two suites").
test-long: test/redlock-test
	CHECK_SUITE=long test/run.sh test/redlock-test $(TEST_ARGS)

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

# Like every example, it needs only the library (and a redis-server to run):
# CI builds each against the installed library.
examples/redlock-demo: examples/demo.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ examples/demo.c $(STATIC) $(ALL_LDFLAGS) $(LIB_LIBS)

examples/basic: examples/basic.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ examples/basic.c $(STATIC) $(ALL_LDFLAGS) $(LIB_LIBS)

examples/async: examples/async.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ examples/async.c $(STATIC) $(ALL_LDFLAGS) $(LIB_LIBS)

# The fencing example; test/integration/t_fencing.c runs it.
examples/fencing: examples/fencing.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ examples/fencing.c $(STATIC) $(ALL_LDFLAGS) $(LIB_LIBS)
test/redlock-test: examples/fencing examples/basic examples/async

# one program per lock kind (docs/kinds.md)
KIND_EXAMPLES = examples/reentrant examples/rwlock examples/multi examples/semaphore
$(KIND_EXAMPLES): examples/%: examples/%.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(STATIC) $(ALL_LDFLAGS) $(LIB_LIBS)
test/redlock-test: $(KIND_EXAMPLES)

# a waiter cancelled, and one with a deadline of its own (redlock_acquire_cancel, _for)
examples/cancel: examples/cancel.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ examples/cancel.c $(STATIC) $(ALL_LDFLAGS) $(LIB_LIBS)
test/redlock-test: examples/cancel

examples: examples/basic examples/async examples/redlock-demo examples/fencing $(KIND_EXAMPLES) \
          examples/cancel

# The README's main job: the lock story on 5 masters, then a 5-second bench
# with its progress line and summary.  Each part starts and removes its own
# servers.
demo: examples/redlock-demo bench/redlock-bench
	test/run.sh examples/redlock-demo
	@echo
	@echo "redlock-bench: 5 masters, 128 locks in flight, 5 s (bench/demo.sh):"
	test/run.sh bench/demo.sh

# ---- install --------------------------------------------------------------
#
# redlock.pc and the CMake package config are written at install time, for
# the PREFIX/LIBDIR/INCLUDEDIR given then (DESTDIR only stages the files: it
# is never written into them).  In redlock.pc, directories under $(PREFIX)
# are written relative to ${prefix}.  The CMake config finds the library
# from its own location ($(CMAKEDIR) is $(LIBDIR)/cmake/redlock) and the
# header relative to the library when both are under $(PREFIX), so a staged
# or moved tree still works.

empty :=
space := $(empty) $(empty)
under_prefix = $(patsubst $(PREFIX)/%,%,$(filter $(PREFIX)/%,$(1)))
pc_dir = $(if $(call under_prefix,$(1)),$${prefix}/$(call under_prefix,$(1)),$(1))
CMAKE_INCLUDEDIR = $(if $(and $(call under_prefix,$(LIBDIR)),$(call under_prefix,$(INCLUDEDIR))),$\
    $(subst $(space),,$(patsubst %,../,$(subst /, ,$(call under_prefix,$(LIBDIR)))))$\
    $(call under_prefix,$(INCLUDEDIR)),$(INCLUDEDIR))
# for the CMake version check: the library's pointer size
SIZEOF_POINTER = $(strip $(shell echo __SIZEOF_POINTER__ | $(CC) -E -P -x c - 2>/dev/null))

INSTALL_SUBST = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' \
    -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@PC_LIBDIR@|$(call pc_dir,$(LIBDIR))|g' \
    -e 's|@PC_INCLUDEDIR@|$(call pc_dir,$(INCLUDEDIR))|g' \
    -e 's|@CMAKE_INCLUDEDIR@|$(CMAKE_INCLUDEDIR)|g' -e 's|@SIZEOF_POINTER@|$(SIZEOF_POINTER)|g'
INSTALL_GENERATED = redlock.pc cmake/redlock-config.cmake cmake/redlock-config-version.cmake

install: all
	@for d in "$(PREFIX)" "$(LIBDIR)" "$(INCLUDEDIR)" "$(PKGCONFIGDIR)" "$(BINDIR)" "$(MANDIR)"; do \
	    case "$$d" in /*) ;; *) echo "make install: \"$$d\" is not an absolute path" \
	        "(PREFIX, LIBDIR, INCLUDEDIR, PKGCONFIGDIR, BINDIR and MANDIR must be)" >&2; exit 1 ;; esac; \
	done
	for f in $(INSTALL_GENERATED); do $(INSTALL_SUBST) $$f.in > $$f || exit 1; done
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	    $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(BINDIR)
	install -m 755 cmd/redlock $(DESTDIR)$(BINDIR)/
	install -m 644 redlock.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf $(SHARED) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libredlock.so
	install -m 644 redlock.pc $(DESTDIR)$(PKGCONFIGDIR)/
	install -m 644 cmake/redlock-config.cmake cmake/redlock-config-version.cmake \
	    $(DESTDIR)$(CMAKEDIR)/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3/
	cd $(DESTDIR)$(MANDIR)/man3 && for l in $(MAN3_LINKS); do ln -sf redlock.3 $$l || exit 1; done

# Removes what install added (the directories it may have created are left,
# except redlock's own CMake directory).
uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/redlock.h $(DESTDIR)$(LIBDIR)/$(STATIC) \
	      $(DESTDIR)$(LIBDIR)/$(SHARED) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libredlock.so $(DESTDIR)$(PKGCONFIGDIR)/redlock.pc \
	      $(DESTDIR)$(CMAKEDIR)/redlock-config.cmake \
	      $(DESTDIR)$(CMAKEDIR)/redlock-config-version.cmake $(DESTDIR)$(BINDIR)/redlock \
	      $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(MAN3)) $(MAN3_LINKS))
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true

clean:
	rm -f $(LIB_OBJS) $(STATIC) $(SHARED) $(SONAME) libredlock.so $(INSTALL_GENERATED) \
	      test/redlock-test test/redlock-unit test/rlproxy bench/redlock-bench bench/scriptcost/scriptcost \
	      examples/redlock-demo examples/basic examples/async examples/fencing $(KIND_EXAMPLES) examples/cancel test/abi/old-program \
	      test/upgrade/old-client cmd/redlock sim/redlock-sim; rm -rf $(PREV_DIR)

# Extra targets kept beside the code they build (sanitizers and fuzzers in
# test/sanitize.mk, failover and soak in test/soak/failover.mk).
-include $(wildcard test/*.mk test/*/*.mk bench/*.mk model/*.mk sim/*.mk)
