/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* stats.c -- what a client counts, for the application: per node (the
 * masters' votes, connections, clocks and guards) and for its acquires
 * (attempts, split votes, wake-ups), and how many masters are connected.
 * Each struct grows at its end: the caller's size says how much of it to
 * write.
 */
#include <stdint.h>
#include <string.h>
#include "client/client.h"

static int redlock_client_node_stats__ungated(const redlock_client *c, size_t node, redlock_node_stats *out,
                               size_t size)
{
    const redlock__master *m;
    redlock_node_stats st;

    if (!c || !out || node >= c->fleet.n)
        return REDLOCK_EINVAL;
    m = &c->fleet.masters[node];
    st = m->stats;
    st.address = m->label;
    st.connected = redlock__vote_up(m);
    st.tls = m->addr.tls;
    st.last_error = m->conn.lasterr;
    st.clock_samples = m->clock.samples;
    st.clock_offset_us = m->clock.offset_us;
    st.clock_change_us = m->clock.change_us;
    st.clock_interval_us = m->clock.interval_us;
    st.queued = m->conn.count;
    {
        /* The guards' view now (guard.c).  Reading it reads the clock and
         * writes the text into the client: the struct is not const. */
        redlock_client *w = (redlock_client *)(uintptr_t)c;
        redlock__master *mm = &w->fleet.masters[node];
        int64_t now = redlock__now(&w->loop), until;
        st.guard_flags = redlock__guard_flags(m, now, &st.counted, &until);
        st.counted_in_ms = until > 0 ? (until - now + 999) / 1000 : until;
        st.uptime_s = m->guard.uptime_s;
        st.restarts = m->guard.restarts;
        st.clock_jumps = m->guard.jumps;
        st.guard_detail = redlock__guard_text(mm, now);
    }
    /* a caller built against an older header gets the fields it knows */
    memcpy(out, &st, size < sizeof st ? size : sizeof st);
    return 0;
}

int redlock_client_node_stats_(const redlock_client *c, size_t node, redlock_node_stats *out,
                               size_t size)
{
    REDLOCK__GATED(c, int, redlock_client_node_stats__ungated(c, node, out, size));
}

/* 0.1.0's entry points. */
REDLOCK_API int (redlock_client_node_stats)(const redlock_client *c, size_t node,
                                            redlock_node_stats *out);
int (redlock_client_node_stats)(const redlock_client *c, size_t node, redlock_node_stats *out)
{
    return redlock_client_node_stats_(c, node, out, REDLOCK__STATS_V0_SIZE);
}

static int redlock_client_acquire_stats__ungated(const redlock_client *c,
                                                 redlock_acquire_stats *out, size_t size)
{
    if (!c || !out)
        return REDLOCK_EINVAL;
    memcpy(out, &c->astats, size < sizeof c->astats ? size : sizeof c->astats);
    return 0;
}

int redlock_client_acquire_stats_(const redlock_client *c, redlock_acquire_stats *out,
                                  size_t size)
{
    REDLOCK__GATED(c, int, redlock_client_acquire_stats__ungated(c, out, size));
}

static size_t redlock_client_connected_ungated(const redlock_client *c)
{
    size_t up = 0;
    for (size_t i = 0; c && i < c->fleet.n; i++)
        up += redlock__vote_up(&c->fleet.masters[i]);
    return up;
}

size_t redlock_client_connected(const redlock_client *c)
{
    REDLOCK__GATED(c, size_t, redlock_client_connected_ungated(c));
}
