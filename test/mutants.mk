# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/mutants.mk -- the test suite against the library's mutants (included
# by the Makefile; docs/mutants.md).  The library is built again with
# -DREDLOCK_MUTANTS into $(MUT_DIR) (the tree's objects untouched), and the
# test binary on it takes the mutant from $REDLOCK_MUTANT:
#
#   make mutants-suite    docs/mutants.md's table: each mutant's tests must fail
#                         with it and pass without; "K of M mutants killed"
#   make mutants-build    only $(MUT_DIR)/redlock-test
#
#   REDLOCK_MUTANT=NO_DRIFT CHECK_RETRY=0 test/run.sh tmp/mutants/redlock-test NAME...

MUT_DIR ?= tmp/mutants
MUT_OBJS = $(addprefix $(MUT_DIR)/,$(LIB_OBJS))

.PHONY: mutants-suite mutants-build

$(MUT_DIR)/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DREDLOCK_MUTANTS -c -o $@ $<

$(MUT_DIR)/libredlock.a: $(MUT_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# (the programs the tests run, built as for test/redlock-test)
$(MUT_DIR)/redlock-test: $(TEST_SRCS) $(TEST_SUPPORT) $(TEST_HDRS) $(MUT_DIR)/libredlock.a \
                         | test/redlock-test
	$(CC) $(ALL_CFLAGS) -DREDLOCK_MUTANTS $(TEST_INC) -o $@ $(TEST_SRCS) $(TEST_SUPPORT) \
	    $(MUT_DIR)/libredlock.a $(ALL_LDFLAGS) $(TEST_LDFLAGS) $(DEP_LIBS) -lpthread

mutants-build: $(MUT_DIR)/redlock-test

mutants-suite: $(MUT_DIR)/redlock-test
	sh test/mutants.sh $(MUT_DIR)/redlock-test docs/mutants.md $(MUTANTS)
