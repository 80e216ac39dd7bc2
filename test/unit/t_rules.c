/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_rules.c -- quorum.c's decision rules and the maximum of a quorum's
 * values: pure, no server. */
#include "check.h"
#include "client/client.h"

static enum redlock__decision after(redlock__rule rule, unsigned n, const char *votes)
{
    redlock__tally t;
    CHECK_EQ(redlock__tally_init(&t, n, rule), 0);
    for (const char *v = votes; *v; v++)
        redlock__tally_set(&t, REDLOCK__PENDING, *v == 'o' ? REDLOCK__OK : REDLOCK__REFUSED);
    return redlock__decide(&t, INT64_MAX);
}

#define U REDLOCK__UNDECIDED
#define W REDLOCK__WON
#define L REDLOCK__LOST

TEST(rules_majority_count_all_any)
{
    redlock__rule maj = { REDLOCK__RULE_MAJORITY, 0 }, all = { REDLOCK__RULE_ALL, 0 };
    redlock__rule any = { REDLOCK__RULE_ANY, 0 }, two = { REDLOCK__RULE_COUNT, 2 };
    redlock__rule four = { REDLOCK__RULE_COUNT, 4 };

    CHECK_EQ(after(maj, 5, "oo"), U);
    CHECK_EQ(after(maj, 5, "ooo"), W);
    CHECK_EQ(after(maj, 5, "xxx"), L);
    CHECK_EQ(after(all, 3, "oo"), U);
    CHECK_EQ(after(all, 3, "ooo"), W);
    CHECK_EQ(after(all, 3, "x"), L);            /* lost at the first refusal */
    CHECK_EQ(after(any, 3, "x"), U);
    CHECK_EQ(after(any, 3, "xo"), W);           /* won at the first OK */
    CHECK_EQ(after(any, 3, "xxx"), L);
    CHECK_EQ(after(two, 5, "o"), U);
    CHECK_EQ(after(two, 5, "xo"), U);
    CHECK_EQ(after(two, 5, "xoo"), W);          /* 2 of 5, not a majority */
    CHECK_EQ(after(two, 5, "xxxx"), L);
    CHECK_EQ(after(four, 5, "xx"), L);
    CHECK_EQ(after(four, 5, "xoooo"), W);
}

TEST(rules_wait_all_decides_only_when_everyone_answered)
{
    redlock__rule wait = { REDLOCK__RULE_WAIT_ALL, 0 };
    CHECK_EQ(after(wait, 3, "oo"), U);          /* a majority, but one is pending */
    CHECK_EQ(after(wait, 3, "xx"), U);
    CHECK_EQ(after(wait, 3, "oox"), W);
    CHECK_EQ(after(wait, 3, "oxx"), L);
    CHECK_EQ(after(wait, 1, "o"), W);
    /* the validity still sinks it early */
    redlock__tally t;
    CHECK_EQ(redlock__tally_init(&t, 3, wait), 0);
    CHECK_EQ(redlock__decide(&t, REDLOCK__MIN_VALIDITY_US - 1), L);
}

/* Every kind's release is decided at the quorum (issue 12), not when the
 * farthest master answered: won with one pending, lost once refusals sink
 * the quorum. */
TEST(rules_release_of_every_kind_decided_at_the_quorum)
{
    const redlock__family *fams[] = { &redlock__mutex, &redlock__reentrant, &redlock__read,
                                      &redlock__write, &redlock__multi };
    for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++) {
        redlock__rule r = fams[i]->release->rule;
        CHECK_EQ(after(r, 3, "oo"), W);
        CHECK_EQ(after(r, 5, "xxx"), L);
        CHECK_EQ(after(r, 5, "oox"), U);
    }
}

TEST(rules_that_n_nodes_cannot_meet_are_refused)
{
    redlock__tally t;
    redlock__rule zero = { REDLOCK__RULE_COUNT, 0 }, six = { REDLOCK__RULE_COUNT, 6 };
    redlock__rule five = { REDLOCK__RULE_COUNT, 5 };
    CHECK_EQ(redlock__tally_init(&t, 5, zero), REDLOCK_EINVAL);
    CHECK_EQ(redlock__tally_init(&t, 5, six), REDLOCK_EINVAL);
    CHECK_EQ(redlock__tally_init(&t, 5, five), 0);
    CHECK_EQ(t.quorum, 5);
    /* the failure code counts against the rule's quorum, not n/2+1 */
    CHECK_EQ(redlock__tally_init(&t, 5, five), 0);
    redlock__tally_set(&t, REDLOCK__PENDING, REDLOCK__REFUSED);
    CHECK_EQ(redlock__refused_quorum(&t), 1);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_ENOQUORUM);
}

TEST(rules_maximum_of_a_quorums_values)
{
    unsigned char votes[5] = { REDLOCK__OK, REDLOCK__REFUSED, REDLOCK__OK, REDLOCK__PENDING,
                               REDLOCK__OK };
    int64_t values[5] = { 7, 100, 9, 200, -3 };
    int64_t max = 0;
    /* only OK votes count: 100 and 200 are not a quorum's */
    CHECK_EQ(redlock__max_of_ok(votes, values, 5, 3, &max), 1);
    CHECK_EQ(max, 9);
    CHECK_EQ(redlock__max_of_ok(votes, values, 5, 4, &max), 0);    /* 3 OK < 4 */
    votes[0] = votes[2] = REDLOCK__TIMEOUT;
    CHECK_EQ(redlock__max_of_ok(votes, values, 5, 1, &max), 1);
    CHECK_EQ(max, -3);
    votes[4] = REDLOCK__DOWN;
    CHECK_EQ(redlock__max_of_ok(votes, values, 5, 0, &max), 0);    /* nobody */
}

TEST(rules_fence_token_needs_a_quorum_at_the_maximum)
{
    const int64_t F = REDLOCK__FENCE_FLOOR, wall = F * 1000;
    unsigned char votes[5] = { REDLOCK__OK, REDLOCK__OK, REDLOCK__OK, REDLOCK__REFUSED,
                               REDLOCK__TIMEOUT };
    int64_t agreed[5] = { F + 41, F + 41, F + 41, F + 99, F + 99 };
    int64_t split[5] = { F + 41, F + 57, F + 41, F + 99, F + 99 };
    int64_t fresh[5] = { F + 41, 1, F + 41, 0, 0 };
    int64_t token = 0;
    /* the counters of a quorum are the token already: no raise */
    CHECK_EQ(redlock__fence_token(votes, agreed, 5, 3, wall, &token), 1);
    CHECK_EQ(token, F + 41);
    /* one master is ahead: the token is its counter, but only one holds it */
    CHECK_EQ(redlock__fence_token(votes, split, 5, 3, wall, &token), 0);
    CHECK_EQ(token, F + 57);
    /* a counter that starts over (1: new, or lost in a restart): the wall
     * clock, and a raise, even when the others agree */
    CHECK_EQ(redlock__fence_token(votes, fresh, 5, 3, wall, &token), 0);
    CHECK_EQ(token, wall);
    /* ... never below the others' maximum, whatever the wall clock says */
    CHECK_EQ(redlock__fence_token(votes, fresh, 5, 3, 5, &token), 0);
    CHECK_EQ(token, F + 41);
    /* a refused or silent master's value is nobody's token */
    votes[1] = REDLOCK__REFUSED;
    CHECK_EQ(redlock__fence_token(votes, split, 5, 3, wall, &token), -1);
    CHECK_EQ(redlock__fence_token(votes, split, 5, 2, wall, &token), 1);
    CHECK_EQ(token, F + 41);
}

/* A guard's uncounted vote (guard.c) is no OK: it cannot make a quorum,
 * and when it is what sank the quorum the failure says so. */
TEST(rules_an_uncounted_vote_is_no_ok)
{
    redlock__rule maj = { REDLOCK__RULE_MAJORITY, 0 };
    redlock__tally t;
    CHECK_EQ(redlock__tally_init(&t, 3, maj), 0);
    redlock__tally_set(&t, REDLOCK__PENDING, REDLOCK__OK);
    redlock__tally_set(&t, REDLOCK__PENDING, REDLOCK__UNCOUNTED);
    CHECK_EQ(redlock__decide(&t, INT64_MAX), U);
    redlock__tally_set(&t, REDLOCK__PENDING, REDLOCK__UNCOUNTED);
    CHECK_EQ(redlock__decide(&t, INT64_MAX), L);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_EUNCOUNTED);
    CHECK_EQ((int)REDLOCK__UNCOUNTED, REDLOCK_VOTE_UNCOUNTED);
    /* a refusal weighs as much: the lock is held elsewhere */
    CHECK_EQ(redlock__tally_init(&t, 3, maj), 0);
    redlock__tally_set(&t, REDLOCK__PENDING, REDLOCK__REFUSED);
    redlock__tally_set(&t, REDLOCK__PENDING, REDLOCK__UNCOUNTED);
    CHECK_EQ(redlock__decide(&t, INT64_MAX), L);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_ENOQUORUM);
}

/* Votes in the order they came ('o' OK, 'x' refused, 't' timed out, 'd'
 * unreachable, 'u' not counted), up to the decision: its failure code. */
static int code_after(unsigned n, const char *votes)
{
    redlock__rule maj = { REDLOCK__RULE_MAJORITY, 0 };
    redlock__tally t;
    CHECK_EQ(redlock__tally_init(&t, n, maj), 0);
    for (const char *v = votes; *v && redlock__decide(&t, INT64_MAX) == U; v++)
        redlock__tally_set(&t, REDLOCK__PENDING,
                           *v == 'o' ? REDLOCK__OK : *v == 'x' ? REDLOCK__REFUSED
                           : *v == 't' ? REDLOCK__TIMEOUT : *v == 'd' ? REDLOCK__DOWN
                                                          : REDLOCK__UNCOUNTED);
    CHECK_EQ(redlock__decide(&t, INT64_MAX), L);
    return redlock__failure_code(&t);
}

/* Live masters that the guards did not count sank the quorum: EUNCOUNTED,
 * not "masters unreachable", even where the unreachable are more at the
 * decision (the others still pending). */
TEST(rules_uncounted_masters_name_the_failure)
{
    CHECK_EQ(code_after(3, "du"), REDLOCK_EUNCOUNTED);      /* a tie: was ECONNECT */
    CHECK_EQ(code_after(5, "ddu"), REDLOCK_EUNCOUNTED);     /* 2 pending: was ECONNECT */
    CHECK_EQ(code_after(5, "oddu"), REDLOCK_EUNCOUNTED);
    CHECK_EQ(code_after(3, "uu"), REDLOCK_EUNCOUNTED);
    /* the node timeout voted: the pending are silent too, and outnumber */
    CHECK_EQ(code_after(5, "utt"), REDLOCK_ETIMEDOUT);
    CHECK_EQ(code_after(3, "ut"), REDLOCK_ETIMEDOUT);       /* a tie */
    CHECK_EQ(code_after(3, "dd"), REDLOCK_ECONNECT);
    /* a refusal: held elsewhere, as before */
    CHECK_EQ(code_after(3, "xu"), REDLOCK_ENOQUORUM);
    CHECK_EQ(code_after(5, "xdu"), REDLOCK_ENOQUORUM);
}
