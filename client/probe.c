/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* probe.c -- the masters' clocks: every master's TIME is read at least
 * every clock_probe_ms.  Each reply (an array of two strings: seconds and
 * microseconds) becomes a clock sample of that master (guard.c keeps the
 * offset against this client's clock and its change).  The same samples
 * are taken at each handshake.
 *
 * Most samples need no probe of their own: when requests go to a master
 * and its last TIME left half a period ago or more, a TIME rides along in
 * the same write (guard.c).  A probe goes out only to the masters whose
 * last TIME left 7/8 of a period ago: nothing was written to them
 * meanwhile.  So an idle client probes each master once a period, and one
 * that writes to a master at least every 3/8 of a period adds no write
 * of its own for that master's clock.
 * Every 5 periods the guards' INFO and CONFIG GET ride the same way (a
 * probe carries them to an idle master).
 *
 * A probe is an operation kind like a lock's: no ttl, decided when every
 * master answered, timed out or was skipped, not counted in the lock
 * statistics; its timeouts count towards reconnecting a master that hangs.
 */
#include "client/client.h"

/* A master whose last TIME left this long ago is due a probe: a whole
 * period, less an eighth so that masters nearly due go with the others
 * (an idle client's masters stay in step: one probe a period). */
static int64_t due_age_us(const redlock__net *net)
{
    return net->clock_probe_ms * 875;
}

/* Called for each master as the probe starts: the fresh ones are skipped. */
static int encode_time(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    const char *argv[1] = { "TIME" };
    size_t len[1] = { 4 };
    redlock__master *m = &op->f->masters[node];
    (void)eval;

    if (op->start_us - m->time_sent_us < due_age_us(op->f->net))
        return REDLOCK__ENCODE_SKIP;
    m->time_sent_us = op->start_us;
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
    .name = "time", .rule = { REDLOCK__RULE_WAIT_ALL, 0 },
    .flags = REDLOCK__KIND_PROBE | REDLOCK__KIND_PER_NODE,
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
    redlock__op_args none = { 0, 0, NULL, NULL, 0, 0, 0, 0 };
    redlock__op *op;
    int64_t now;
    size_t i;
    (void)fd;
    (void)what;

    if (c->probing || c->loop.closing)
        return;
    now = redlock__now(&c->loop);
    for (i = 0; i < c->fleet.n && now - c->fleet.masters[i].time_sent_us < due_age_us(&c->net); i++)
        ;
    if (i == c->fleet.n) {      /* every sample rode along with requests */
        redlock__probe_arm(c);
        return;
    }
    redlock__enter(&c->loop);
    if ((op = redlock__op_new(&c->fleet, &kind_time, &none)) != NULL) {
        c->probing = 1;
        redlock__op_start(op, probe_done, c);
    } else {
        redlock__probe_arm(c);      /* out of memory: next time */
    }
    redlock__leave(&c->loop);
}

/* The next probe: when the master whose TIME left first is due. */
void redlock__probe_arm(redlock_client *c)
{
    int64_t now, first, wait_us;

    if (!c->opt.clock_probe_ms)
        return;
    if (!event_initialized(&c->probe_timer))
        evtimer_assign(&c->probe_timer, c->loop.base, probe_cb, c);
    first = now = redlock__now(&c->loop);
    for (size_t i = 0; i < c->fleet.n; i++) {
        int64_t t = c->fleet.masters[i].time_sent_us;
        if (t < first)
            first = t ? t : now;    /* 0: no handshake yet, a period from now */
    }
    wait_us = first + c->opt.clock_probe_ms * 1000 - now;
    if (wait_us < 1000)
        wait_us = 1000;
    redlock__timer_add(&c->loop, &c->probe_timer, wait_us);
}
