/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* holders.c -- contend's check of a kind's invariant: who holds each key,
 * as the bench sees it.  A holder counts from its acquire's success to its
 * release's start: a span inside the one the masters grant it, so a
 * correct lock never shows an overlap here, and an overlap seen here is
 * one the masters granted.  The kinds' limits: a mutex, a re-entrant, a
 * writer and a multi-resource lock one holder; a semaphore its permits;
 * readers any number, but never with a writer.  Also the share of the
 * measured time each side held the key. */
#include <stdlib.h>

#include "bench.h"

typedef struct key_holders {
    int n[2];               /* readers, others */
    int64_t since[2];       /* when side s began to hold (n[s] went 0 -> 1) */
    int64_t any_since;
} key_holders;

struct rlb_holders {
    pthread_mutex_t mu;     /* the clients' threads all count here */
    key_holders *keys;
    long nkeys;
    int limit, fake;
    rlb_hold_figs figs;
    int64_t meas_start;     /* 0 until the measurement began */
};

int rlb_holders_allowed(int readers, int others, int limit)
{
    return others <= limit && (others == 0 || readers == 0);
}

int rlb_kind_limit(const bench_cfg *cfg)
{
    return cfg->kind == RLB_KIND_SEMAPHORE ? cfg->permits : 1;
}

int rlb_client_side(const bench_cfg *cfg, int id)
{
    if (cfg->kind == REDLOCK_KIND_READ)
        return 0;
    /* rw: the first --writers clients write */
    return cfg->kind == RLB_KIND_RW ? id < cfg->writers : 1;
}

rlb_holders *rlb_holders_new(long keys, int limit, int fake_overlap)
{
    rlb_holders *h = calloc(1, sizeof(*h));
    if (!h || !(h->keys = calloc((size_t)keys, sizeof(*h->keys)))) {
        free(h);
        return NULL;
    }
    pthread_mutex_init(&h->mu, NULL);
    h->nkeys = keys;
    h->limit = h->figs.limit = limit;
    h->fake = fake_overlap;
    return h;
}

void rlb_holders_free(rlb_holders *h)
{
    if (!h)
        return;
    pthread_mutex_destroy(&h->mu);
    free(h->keys);
    free(h);
}

/* The measured part of [from, to) into *acc. */
static void add_span(const rlb_holders *h, int64_t *acc, int64_t from, int64_t to)
{
    if (!h->meas_start)
        return;
    if (from < h->meas_start)
        from = h->meas_start;
    if (to > from)
        *acc += to - from;
}

/* --fake-overlap: each holder also counts `limit` others, so that the
 * check must fail (the test that it can). */
static int weight(const rlb_holders *h, int side)
{
    return 1 + (h->fake && side == 1 ? h->limit : 0);
}

static void note_meas_start(rlb_holders *h, const bench_shared *sh)
{
    if (!h->meas_start && atomic_load_explicit(&sh->measuring, memory_order_relaxed))
        h->meas_start = atomic_load(&sh->meas_start_ns);
}

void rlb_hold_begin(bench_thread *t, long key, int side, int64_t now)
{
    rlb_holders *h = t->sh->holders;
    if (!h || key < 0 || key >= h->nkeys)
        return;
    pthread_mutex_lock(&h->mu);
    note_meas_start(h, t->sh);
    key_holders *k = &h->keys[key];
    if (k->n[0] + k->n[1] == 0)
        k->any_since = now;
    if (k->n[side] == 0)
        k->since[side] = now;
    k->n[side] += weight(h, side);
    if (!rlb_holders_allowed(k->n[0], k->n[1], h->limit))
        h->figs.violations++;
    if (k->n[side] > h->figs.max_side[side])
        h->figs.max_side[side] = k->n[side];
    if (k->n[0] + k->n[1] > h->figs.max_total)
        h->figs.max_total = k->n[0] + k->n[1];
    pthread_mutex_unlock(&h->mu);
}

void rlb_hold_end(bench_thread *t, long key, int side, int64_t now)
{
    rlb_holders *h = t->sh->holders;
    if (!h || key < 0 || key >= h->nkeys)
        return;
    pthread_mutex_lock(&h->mu);
    note_meas_start(h, t->sh);
    key_holders *k = &h->keys[key];
    k->n[side] -= weight(h, side);
    if (k->n[side] == 0)
        add_span(h, &h->figs.held_ns[side], k->since[side], now);
    if (k->n[0] + k->n[1] == 0)
        add_span(h, &h->figs.any_ns, k->any_since, now);
    pthread_mutex_unlock(&h->mu);
}

void rlb_holders_figs(rlb_holders *h, int64_t now, int64_t meas_start, rlb_hold_figs *out)
{
    pthread_mutex_lock(&h->mu);
    if (!h->meas_start)
        h->meas_start = meas_start;
    *out = h->figs;
    for (long i = 0; i < h->nkeys; i++) {
        const key_holders *k = &h->keys[i];
        for (int s = 0; s < 2; s++)
            if (k->n[s] > 0)
                add_span(h, &out->held_ns[s], k->since[s], now);
        if (k->n[0] + k->n[1] > 0)
            add_span(h, &out->any_ns, k->any_since, now);
    }
    pthread_mutex_unlock(&h->mu);
}
