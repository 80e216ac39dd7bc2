/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* pubsub.c -- SUBSCRIBE, UNSUBSCRIBE, PUBLISH (also from scripts): a
 * message goes to each subscriber's queue of pushes, which the harness
 * delivers on its own schedule (Redis writes them when it can). */
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

static long find(const sim_conn *c, const char *p, size_t len)
{
    for (size_t i = 0; i < c->nchans; i++)
        if (c->chans[i].len == len && memcmp(c->chans[i].p, p, len) == 0)
            return (long)i;
    return -1;
}

static int put_event(sim_buf *out, const char *kind, const char *p, size_t len, size_t count)
{
    return sim_put_array(out, 3) || sim_put_cstr(out, kind) ||
           (p ? sim_put_bulk(out, p, len) : sim_put_nil(out)) || sim_put_int(out, (long long)count);
}

int sim_cmd_subscribe(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    sim_conn *c = m->cur;
    if (!c)
        return sim_put_error(out, "ERR This Redis command is not allowed from script");
    for (int i = 1; i < argc; i++) {
        if (find(c, argv[i].p, argv[i].len) < 0) {
            if (c->nchans == c->capchans) {
                size_t cap = c->capchans ? 2 * c->capchans : 4;
                sim_str *n = realloc(c->chans, cap * sizeof *n);
                if (!n)
                    return -1;
                c->chans = n;
                c->capchans = cap;
            }
            c->chans[c->nchans].p = NULL;
            if (sim_str_set(&c->chans[c->nchans], argv[i].p, argv[i].len))
                return -1;
            c->nchans++;
        }
        if (put_event(out, "subscribe", argv[i].p, argv[i].len, c->nchans))
            return -1;
    }
    return 0;
}

static void drop(sim_conn *c, size_t i)
{
    free(c->chans[i].p);
    memmove(&c->chans[i], &c->chans[i + 1], (c->nchans - i - 1) * sizeof *c->chans);
    c->nchans--;
}

int sim_cmd_unsubscribe(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    sim_conn *c = m->cur;
    if (!c)
        return sim_put_error(out, "ERR This Redis command is not allowed from script");
    if (argc == 1) {
        if (c->nchans == 0)
            return put_event(out, "unsubscribe", NULL, 0, 0);
        while (c->nchans) {
            /* Redis walks its dict: the order may differ (compared as a set) */
            sim_str ch = c->chans[0];
            c->chans[0].p = NULL;
            drop(c, 0);
            int rc = put_event(out, "unsubscribe", ch.p, ch.len, c->nchans);
            free(ch.p);
            if (rc)
                return -1;
        }
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        long at = find(c, argv[i].p, argv[i].len);
        if (at >= 0)
            drop(c, (size_t)at);
        if (put_event(out, "unsubscribe", argv[i].p, argv[i].len, c->nchans))
            return -1;
    }
    return 0;
}

void sim_conn_unsubscribe_all(sim_conn *c)
{
    for (size_t i = 0; i < c->nchans; i++)
        free(c->chans[i].p);
    free(c->chans);
    c->chans = NULL;
    c->nchans = c->capchans = 0;
}

long long sim_publish(sim_master *m, const sim_arg *chan, const sim_arg *msg)
{
    long long n = 0;
    for (size_t i = 0; i < m->nconns; i++) {
        sim_conn *c = m->conns[i];
        if (find(c, chan->p, chan->len) < 0)
            continue;
        if (sim_put_array(&c->pushes, 3) || sim_put_cstr(&c->pushes, "message") ||
            sim_put_bulk(&c->pushes, chan->p, chan->len) || sim_put_bulk(&c->pushes, msg->p, msg->len))
            return -1;
        c->npushes++;
        n++;
    }
    return n;
}

int sim_cmd_publish(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    (void)argc;
    long long n = sim_publish(m, &argv[1], &argv[2]);
    return n < 0 ? -1 : sim_put_int(out, n);
}

/* PUBSUB CHANNELS [pattern] | NUMSUB [channel ...] | NUMPAT (the tests
 * wait with them for a subscription) */
int sim_cmd_pubsub(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    if (sim_eq(&argv[1], "numpat") && argc == 2)
        return sim_put_int(out, 0);
    if (sim_eq(&argv[1], "numsub")) {
        int rc = sim_put_array(out, 2 * (argc - 2));
        for (int i = 2; i < argc && rc == 0; i++) {
            long long n = 0;
            for (size_t j = 0; j < m->nconns; j++)
                n += find(m->conns[j], argv[i].p, argv[i].len) >= 0;
            rc = sim_put_bulk(out, argv[i].p, argv[i].len) || sim_put_int(out, n);
        }
        return rc;
    }
    if (sim_eq(&argv[1], "channels") && argc <= 3) {
        /* each channel once: the first connection that has it lists it */
        long long n = 0;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1 && sim_put_array(out, n))
                return -1;
            for (size_t j = 0; j < m->nconns; j++)
                for (size_t k = 0; k < m->conns[j]->nchans; k++) {
                    const sim_str *ch = &m->conns[j]->chans[k];
                    size_t first = 0;
                    while (first < j && find(m->conns[first], ch->p, ch->len) < 0)
                        first++;
                    if (first < j || (argc == 3 && !sim_glob(argv[2].p, argv[2].len, ch->p, ch->len)))
                        continue;
                    if (pass == 0)
                        n++;
                    else if (sim_put_bulk(out, ch->p, ch->len))
                        return -1;
                }
        }
        return 0;
    }
    sim_fail(m, "PUBSUB %.*s is not simulated", (int)argv[1].len, argv[1].p);
    return -1;
}
