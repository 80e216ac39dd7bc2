/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* probe.c -- the masters' clocks: every clock_probe_ms, one fan-out of
 * TIME to every master.  Each reply (an array of two strings: seconds and
 * microseconds) becomes a clock sample of that master (master.c keeps the
 * offset against this client's clock and its change).  The same samples
 * are taken at each handshake; a later guard against masters whose clocks
 * jump builds on them.
 *
 * A probe is an operation kind like a lock's: no ttl, decided when every
 * master answered or timed out, not counted in the lock statistics.
 */
#include "lock_private.h"

static int encode_time(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    const char *argv[1] = { "TIME" };
    size_t len[1] = { 4 };
    (void)op;
    (void)node;
    (void)eval;
    return redlock__resp_command(out, 1, argv, len);
}

static int classify_time(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (redlock__time_parse(r, &op->value[node]) != 0)
        return REDLOCK__ERROR;
    redlock__master_time(&op->f->masters[node], op->value[node], op->start_us,
                         op->start_us + op->rtt[node]);
    return REDLOCK__OK;
}

static const redlock__op_kind kind_time = {
    .name = "time", .rule = { REDLOCK__RULE_WAIT_ALL, 0 }, .flags = REDLOCK__KIND_PROBE,
    .encode = encode_time, .classify = classify_time };

static void probe_done(redlock__op *op, void *privdata)
{
    redlock_client *c = privdata;
    (void)op;
    c->probing = 0;
    if (!c->loop.closing)
        redlock__probe_arm(c);
}

static void probe_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock_client *c = arg;
    redlock__op_args none = { 0, 0, NULL, NULL, 0, 0, 0 };
    redlock__op *op;
    (void)fd;
    (void)what;

    if (c->probing || c->loop.closing)
        return;
    redlock__enter(&c->loop);
    if ((op = redlock__op_new(&c->fleet, &kind_time, &none)) != NULL) {
        c->probing = 1;
        redlock__op_start(op, probe_done, c);
    } else {
        redlock__probe_arm(c);      /* out of memory: next time */
    }
    redlock__leave(&c->loop);
}

void redlock__probe_arm(redlock_client *c)
{
    if (!c->opt.clock_probe_ms)
        return;
    if (!event_initialized(&c->probe_timer))
        evtimer_assign(&c->probe_timer, c->loop.base, probe_cb, c);
    redlock__timer_add(&c->loop, &c->probe_timer, c->opt.clock_probe_ms * 1000);
}
