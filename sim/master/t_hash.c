/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_hash.c -- hashes: fields in insertion order, as Redis 7's listpack
 * keeps a small hash (the scripts' hashes are small; HKEYS's order is
 * then the same as the real server's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

static long find(const sim_key *k, const sim_arg *f)
{
    const sim_str *it = k->items;
    for (size_t i = 0; i < k->n; i++)
        if (it[2 * i].len == f->len && memcmp(it[2 * i].p, f->p, f->len) == 0)
            return (long)i;
    return -1;
}

/* a new pair (field, value) at the end */
static int append(sim_key *k, const sim_arg *f, const char *v, size_t vlen)
{
    if (sim_key_reserve(k, 2 * sizeof(sim_str)))
        return -1;
    sim_str *it = k->items;
    it[2 * k->n].p = NULL;
    it[2 * k->n + 1].p = NULL;
    if (sim_str_set(&it[2 * k->n], f->p, f->len) || sim_str_set(&it[2 * k->n + 1], v, vlen)) {
        free(it[2 * k->n].p);
        return -1;
    }
    k->n++;
    return 0;
}

int sim_cmd_hset(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    long long added = 0;
    if (argc % 2 != 0)
        return sim_put_arity(out, &argv[0]);
    sim_key *k = sim_lookup_create(m, &argv[1], SIM_HASH, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    if (!k)
        return -1;
    for (int i = 2; i < argc; i += 2) {
        long at = find(k, &argv[i]);
        if (at >= 0) {
            if (sim_str_set(&((sim_str *)k->items)[2 * at + 1], argv[i + 1].p, argv[i + 1].len))
                return -1;
        } else {
            if (append(k, &argv[i], argv[i + 1].p, argv[i + 1].len))
                return -1;
            added++;
        }
    }
    m->dirty++;
    return sim_put_int(out, added);
}

int sim_cmd_hget(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_HASH, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    long at = k ? find(k, &argv[2]) : -1;
    if (at < 0)
        return sim_put_nil(out);
    const sim_str *v = &((sim_str *)k->items)[2 * at + 1];
    return sim_put_bulk(out, v->p, v->len);
}

int sim_cmd_hmget(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_HASH, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    int rc = sim_put_array(out, argc - 2);
    for (int i = 2; i < argc && rc == 0; i++) {
        long at = k ? find(k, &argv[i]) : -1;
        const sim_str *v = at >= 0 ? &((sim_str *)k->items)[2 * at + 1] : NULL;
        rc = v ? sim_put_bulk(out, v->p, v->len) : sim_put_nil(out);
    }
    return rc;
}

int sim_cmd_hdel(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    long long n = 0;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_HASH, &wrong);
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
        m->dirty++;
        sim_drop_if_empty(m, k);
    }
    return sim_put_int(out, n);
}

int sim_cmd_hexists(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_HASH, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    return sim_put_int(out, k && find(k, &argv[2]) >= 0);
}

int sim_cmd_hlen(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_HASH, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    return sim_put_int(out, k ? (long long)k->n : 0);
}

/* what: 1 fields, 2 values, 3 both */
static int walk(sim_master *m, sim_arg *argv, sim_buf *out, int what)
{
    int wrong;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_HASH, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    size_t n = k ? k->n : 0;
    int rc = sim_put_array(out, (long long)(what == 3 ? 2 * n : n));
    for (size_t i = 0; i < n && rc == 0; i++) {
        const sim_str *it = &((sim_str *)k->items)[2 * i];
        if (what & 1)
            rc = sim_put_bulk(out, it[0].p, it[0].len);
        if ((what & 2) && rc == 0)
            rc = sim_put_bulk(out, it[1].p, it[1].len);
    }
    return rc;
}

int sim_cmd_hkeys(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    (void)argc;
    return walk(m, argv, out, 1);
}

int sim_cmd_hvals(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    (void)argc;
    return walk(m, argv, out, 2);
}

int sim_cmd_hgetall(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    (void)argc;
    return walk(m, argv, out, 3);
}

int sim_cmd_hincrby(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    long long by, v = 0;
    (void)argc;
    if (sim_arg_ll(&argv[3], &by) != 0)
        return sim_put_notint(out);
    sim_key *k = sim_lookup_create(m, &argv[1], SIM_HASH, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    if (!k)
        return -1;
    long at = find(k, &argv[2]);
    if (at >= 0) {
        const sim_str *cur = &((sim_str *)k->items)[2 * at + 1];
        sim_arg a = { cur->p, cur->len };
        if (sim_arg_ll(&a, &v) != 0)
            return sim_put_error(out, "ERR hash value is not an integer");
    }
    if ((by > 0 && v > 9223372036854775807LL - by) || (by < 0 && v < (-9223372036854775807LL - 1) - by)) {
        sim_drop_if_empty(m, k);
        return sim_put_error(out, "ERR increment or decrement would overflow");
    }
    v += by;
    char t[32];
    int n = snprintf(t, sizeof t, "%lld", v);
    if (at >= 0 ? sim_str_set(&((sim_str *)k->items)[2 * at + 1], t, (size_t)n)
                : append(k, &argv[2], t, (size_t)n))
        return -1;
    m->dirty++;
    return sim_put_int(out, v);
}
