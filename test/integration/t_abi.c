/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_abi.c -- a program built against the 0.1.0 header runs against this
 * library (test/abi/old_program.c says what it checks), and a program
 * built against this header gets the grown structs filled. */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TEST(abi_program_built_against_the_old_header)
{
    rlt_servers *s = it_start(3, NULL);
    char cmd[512];
    /* The old program has the restart guard on (the default since 0.2.0,
     * which its header cannot turn off): a master younger than its ttl
     * (1 s) + drift, in whole seconds of uptime, would vote
     * REDLOCK_VOTE_UNCOUNTED, a vote 0.1.0 did not have.  Masters that old
     * all count, so it sees only the votes it knows. */
    for (int i = 0; i < 3; i++)
        it_wait_uptime(s, i, 3);
    snprintf(cmd, sizeof cmd, "test/abi/old-program %s %s %s", rlt_servers_addr(s, 0),
             rlt_servers_addr(s, 1), rlt_servers_addr(s, 2));
    int rc = system(cmd);
    CHECK_MSG(rc == 0, "%s: status %d", cmd, rc);
    rlt_servers_free(s);
}

TEST(abi_sizes_passed_by_the_header)
{
    /* a struct of the current size gets the new defaults ... */
    redlock_options o;
    memset(&o, 0x5a, sizeof o);
    redlock_options_init(&o);
    CHECK_EQ(o.clock_probe_ms, 1000);
    CHECK(o.user == NULL && o.password == NULL);
    CHECK_EQ(o.restart_guard_ms, -1);
    CHECK_EQ(o.clock_guard_ms, -1);
    CHECK_EQ(o.strict, 0);
    /* ... and a shorter one (an older program's) only what it has room for */
    unsigned char buf[sizeof(redlock_options) + 16];
    size_t old = offsetof(redlock_options, clock_probe_ms);
    memset(buf, 0x5a, sizeof buf);
    redlock_options_init_((redlock_options *)(void *)buf, old);
    for (size_t i = old; i < sizeof buf; i++)
        CHECK_EQ(buf[i], 0x5a);
    /* a client made from the short struct takes defaults for the rest
     * (here the bytes past it are garbage: clock_probe_ms would be refused) */
    rlt_servers *s = it_start(1, NULL);
    redlock_client *c = NULL;
    char err[128];
    CHECK_EQ(redlock_client_new_(&c, NULL, rlt_servers_addrs(s), 1,
                                 (redlock_options *)(void *)buf, old, err, sizeof err), 0);
    CHECK_EQ(redlock_client_wait_connected(c, 1, 5000), 0);
    redlock_node_stats st;
    memset(&st, 0x5a, sizeof st);
    CHECK_EQ(redlock_client_node_stats(c, 0, &st), 0);
    CHECK_EQ(st.fulls, 0);
    CHECK_EQ(st.undos, 0);
    CHECK_GE(st.clock_samples, 1);      /* the handshake's TIME */
    redlock_client_free(c);
    rlt_servers_free(s);
}
