/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_set.c -- sets: members in an array, in insertion order (the real
 * server's order is its hash table's: a set's replies are compared as
 * sets), random picks from the master's seeded generator. */
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

static long find(const sim_key *k, const sim_arg *a)
{
    const sim_str *it = k->items;
    for (size_t i = 0; i < k->n; i++)
        if (it[i].len == a->len && memcmp(it[i].p, a->p, a->len) == 0)
            return (long)i;
    return -1;
}

int sim_cmd_sadd(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    long long n = 0;
    sim_key *k = sim_lookup_create(m, &argv[1], SIM_SET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    if (!k)
        return -1;
    for (int i = 2; i < argc; i++) {
        if (find(k, &argv[i]) >= 0)
            continue;
        if (sim_key_reserve(k, sizeof(sim_str)))
            return -1;
        sim_str *it = &((sim_str *)k->items)[k->n];
        it->p = NULL;
        if (sim_str_set(it, argv[i].p, argv[i].len))
            return -1;
        k->n++;
        n++;
    }
    m->dirty += n;
    return sim_put_int(out, n);
}

int sim_cmd_srem(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    long long n = 0;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_SET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    for (int i = 2; k && i < argc; i++) {
        long at = find(k, &argv[i]);
        if (at < 0)
            continue;
        sim_key_remove(k, (size_t)at);
        n++;
    }
    if (n) {
        m->dirty += n;
        sim_drop_if_empty(m, k);
    }
    return sim_put_int(out, n);
}

int sim_cmd_sismember(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_SET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    return sim_put_int(out, k && find(k, &argv[2]) >= 0);
}

int sim_cmd_scard(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_SET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    return sim_put_int(out, k ? (long long)k->n : 0);
}

int sim_cmd_smembers(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_SET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    size_t n = k ? k->n : 0;
    int rc = sim_put_array(out, (long long)n);
    for (size_t i = 0; i < n && rc == 0; i++) {
        const sim_str *it = &((sim_str *)k->items)[i];
        rc = sim_put_bulk(out, it->p, it->len);
    }
    return rc;
}

static uint64_t next_rand(sim_master *m)
{
    uint64_t x = m->rng;        /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    m->rng = x;
    return x * 2685821657736338717ULL;
}

/* SRANDMEMBER key [count]: count >= 0 distinct members (all of them when
 * count >= the size), < 0 -count draws with repeats */
int sim_cmd_srandmember(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    long long count = 1;
    if (argc > 3)
        return sim_put_syntax(out);
    if (argc == 3 && sim_arg_ll(&argv[2], &count) != 0)
        return sim_put_notint(out);
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_SET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    const sim_str *it = k ? k->items : NULL;
    size_t n = k ? k->n : 0;
    if (argc == 2) {
        if (!n)
            return sim_put_nil(out);
        const sim_str *s = &it[next_rand(m) % n];
        return sim_put_bulk(out, s->p, s->len);
    }
    if (count < 0) {
        long long c = -count;
        int rc = sim_put_array(out, n ? c : 0);
        for (long long i = 0; n && i < c && rc == 0; i++) {
            const sim_str *s = &it[next_rand(m) % n];
            rc = sim_put_bulk(out, s->p, s->len);
        }
        return rc;
    }
    if ((size_t)count >= n) {
        int rc = sim_put_array(out, (long long)n);
        for (size_t i = 0; i < n && rc == 0; i++)
            rc = sim_put_bulk(out, it[i].p, it[i].len);
        return rc;
    }
    /* count distinct of n: a partial shuffle of the indexes */
    size_t *ix = malloc(n * sizeof *ix);
    if (!ix)
        return -1;
    for (size_t i = 0; i < n; i++)
        ix[i] = i;
    int rc = sim_put_array(out, count);
    for (size_t i = 0; i < (size_t)count && rc == 0; i++) {
        size_t j = i + next_rand(m) % (n - i), t = ix[i];
        ix[i] = ix[j];
        ix[j] = t;
        rc = sim_put_bulk(out, it[ix[i]].p, it[ix[i]].len);
    }
    free(ix);
    return rc;
}
