# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/sanitize.mk -- ThreadSanitizer run and libFuzzer fuzzers (included by
# the Makefile).  Everything is built with clang from the sources straight
# into $(SAN_DIR), so these targets never touch the tree's objects (unlike
# `make asan`, they need no `make clean` and can run beside other builds).
#
#   make tsan             the threaded tests (test/integration/t_threads.c) under TSan
#   make fuzz             both fuzzers, FUZZ_SECONDS (30) each, fails on a crash
#   make fuzz-addr        only the address parser fuzzer
#   make fuzz-reply       only the reply-path fuzzer
#   make fuzz-resp        only the bounded reply reader (resp.c) fuzzer
#   make fuzz-build       build test/fuzz/fuzz_addr and test/fuzz/fuzz_reply
#
# The fuzzers start from the committed seeds (test/fuzz/corpus_addr/,
# test/fuzz/corpus_reply/); what they discover goes to $(SAN_DIR)/corpus_*
# and crash/leak/timeout reproducers to $(SAN_DIR)/artifacts/ (tmp/ is
# ignored by git).  Reproduce one with: test/fuzz/fuzz_reply tmp/sanitize/artifacts/crash-...

SAN_CC ?= clang
SAN_DIR ?= tmp/sanitize
FUZZ_SECONDS ?= 30
# extra libFuzzer flags, e.g. FUZZ_FLAGS=-jobs=2 or -rss_limit_mb=4096
FUZZ_FLAGS ?=
FUZZERS = test/fuzz/fuzz_addr test/fuzz/fuzz_reply test/fuzz/fuzz_resp

.PHONY: tsan fuzz fuzz-build fuzz-addr fuzz-reply fuzz-resp

# ---- ThreadSanitizer --------------------------------------------------------

TSAN_FLAGS = -O1 -g -fsanitize=thread -fno-omit-frame-pointer

$(SAN_DIR)/tsan/redlock-test: $(LIB_SRCS) $(LIB_HDRS) $(TEST_SRCS) $(TEST_SUPPORT) $(TEST_HDRS)
	@mkdir -p $(@D)
	$(SAN_CC) $(ALL_CFLAGS) $(TSAN_FLAGS) $(TEST_INC) -o $@ $(LIB_SRCS) $(TEST_SRCS) $(TEST_SUPPORT) \
	    -fsanitize=thread $(ALL_LDFLAGS) $(TEST_LDFLAGS) $(DEP_LIBS) -lpthread

tsan: $(SAN_DIR)/tsan/redlock-test
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 $(TSAN_OPTIONS)" \
	    test/run.sh $(SAN_DIR)/tsan/redlock-test threads

# ---- libFuzzer ----------------------------------------------------------------

FUZZ_CFLAGS = -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer

test/fuzz/fuzz_addr: test/fuzz/fuzz_addr.c $(LIB_SRCS) $(LIB_HDRS)
	$(SAN_CC) $(ALL_CFLAGS) $(FUZZ_CFLAGS) -o $@ test/fuzz/fuzz_addr.c $(LIB_SRCS) \
	    $(ALL_LDFLAGS) $(DEP_LIBS)

test/fuzz/fuzz_reply: test/fuzz/fuzz_reply.c $(LIB_SRCS) $(LIB_HDRS)
	$(SAN_CC) $(ALL_CFLAGS) $(FUZZ_CFLAGS) -o $@ test/fuzz/fuzz_reply.c $(LIB_SRCS) \
	    $(ALL_LDFLAGS) $(DEP_LIBS)

test/fuzz/fuzz_resp: test/fuzz/fuzz_resp.c floor/resp.c floor/resp.h $(LIB_HDRS)
	$(SAN_CC) $(ALL_CFLAGS) $(FUZZ_CFLAGS) -o $@ test/fuzz/fuzz_resp.c floor/resp.c

fuzz-build: $(FUZZERS)

# $(call run_fuzzer,name): fresh work corpus seeded by libFuzzer from the
# committed one; a crash, leak, UB report or timeout fails the target.
define run_fuzzer
	@mkdir -p $(SAN_DIR)/corpus_$(1) $(SAN_DIR)/artifacts
	ASAN_OPTIONS="detect_leaks=1 $(ASAN_OPTIONS)" \
	UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1 $(UBSAN_OPTIONS)" \
	    test/fuzz/fuzz_$(1) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
	    -artifact_prefix=$(SAN_DIR)/artifacts/$(1)- $(FUZZ_FLAGS) \
	    $(SAN_DIR)/corpus_$(1) test/fuzz/corpus_$(1)
endef

fuzz-addr: test/fuzz/fuzz_addr
	$(call run_fuzzer,addr)

fuzz-reply: test/fuzz/fuzz_reply
	$(call run_fuzzer,reply)

fuzz-resp: test/fuzz/fuzz_resp
	$(call run_fuzzer,resp)

fuzz: fuzz-addr fuzz-reply fuzz-resp

# Known-bad inputs kept as regression tests (test/fuzz/corpus_*_regress/):
# each file is run once through its fuzzer.  They reproduce library bugs
# reported in docs/safety.md; the target passes once those are fixed.
FUZZ_REGRESS_ADDR = $(wildcard test/fuzz/corpus_addr_regress/*)
FUZZ_REGRESS_REPLY = $(wildcard test/fuzz/corpus_reply_regress/*)

.PHONY: fuzz-regress
fuzz-regress: $(FUZZERS)
	@status=0; \
	for f in $(FUZZ_REGRESS_ADDR); do test/fuzz/fuzz_addr $$f >$(SAN_DIR)/regress.log 2>&1 \
	    || { echo "FAIL fuzz_addr $$f:"; grep -E "ERROR|SUMMARY|fuzz_" $(SAN_DIR)/regress.log; status=1; }; done; \
	for f in $(FUZZ_REGRESS_REPLY); do test/fuzz/fuzz_reply $$f >$(SAN_DIR)/regress.log 2>&1 \
	    && echo "ok   fuzz_reply $$f" \
	    || { echo "FAIL fuzz_reply $$f:"; grep -E "ERROR|SUMMARY|fuzz_" $(SAN_DIR)/regress.log; status=1; }; done; \
	exit $$status

fuzz: fuzz-regress
