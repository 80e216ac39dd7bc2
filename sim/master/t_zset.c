/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_zset.c -- sorted sets: an array kept in Redis's order (score, then
 * the member's bytes); the registries of waiters are short queues. */
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

static int cmp(double s, const char *p, size_t len, const sim_zent *z)
{
    if (s != z->score)
        return s < z->score ? -1 : 1;
    size_t n = len < z->m.len ? len : z->m.len;
    int c = memcmp(p, z->m.p, n);
    return c ? c : (len < z->m.len ? -1 : len > z->m.len);
}

static long find(const sim_key *k, const sim_arg *a)
{
    const sim_zent *z = k->items;
    for (size_t i = 0; i < k->n; i++)
        if (z[i].m.len == a->len && memcmp(z[i].m.p, a->p, a->len) == 0)
            return (long)i;
    return -1;
}

static void remove_at(sim_key *k, size_t i, int keep_member)
{
    sim_zent *z = k->items;
    if (!keep_member)
        free(z[i].m.p);
    memmove(&z[i], &z[i + 1], (k->n - i - 1) * sizeof *z);
    k->n--;
}

/* inserts (score, member) in order; member's bytes owned by m */
static int insert(sim_key *k, double score, sim_str m)
{
    if (sim_key_reserve(k, sizeof(sim_zent)))
        return -1;
    sim_zent *z = k->items;
    size_t i = k->n;
    while (i > 0 && cmp(score, m.p, m.len, &z[i - 1]) < 0)
        i--;
    memmove(&z[i + 1], &z[i], (k->n - i) * sizeof *z);
    z[i].score = score;
    z[i].m = m;
    k->n++;
    return 0;
}

int sim_cmd_zadd(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int i = 2, wrong, f = sim_flags(argv, argc, &i, SIM_NX | SIM_XX | SIM_GT | SIM_LT | SIM_CH | SIM_INCR);
    int nx = f & SIM_NX, xx = f & SIM_XX, gt = f & SIM_GT, lt = f & SIM_LT, ch = f & SIM_CH, incr = f & SIM_INCR;
    int pairs = argc - i;
    if (pairs == 0 || pairs % 2)
        return sim_put_syntax(out);
    if (nx && xx)
        return sim_put_error(out, "ERR XX and NX options at the same time are not compatible");
    if ((gt && nx) || (lt && nx) || (gt && lt))
        return sim_put_error(out, "ERR GT, LT, and/or NX options at the same time are not compatible");
    if (incr && pairs > 2)
        return sim_put_error(out, "ERR INCR option supports a single increment-element pair");
    for (int j = i; j < argc; j += 2) {
        double d;
        if (sim_arg_double(&argv[j], &d) != 0)
            return sim_put_error(out, "ERR value is not a valid float");
    }
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_ZSET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    if (!k && xx)
        return incr ? sim_put_nil(out) : sim_put_int(out, 0);
    if (!k && !(k = sim_ks_add(&m->ks, argv[1].p, argv[1].len, SIM_ZSET)))
        return -1;
    long long added = 0, changed = 0;
    double last = 0;
    int skipped = 0;
    for (int j = i; j < argc; j += 2) {
        double s;
        sim_arg_double(&argv[j], &s);
        long at = find(k, &argv[j + 1]);
        if (at >= 0) {
            sim_zent *z = &((sim_zent *)k->items)[at];
            if (nx) {
                skipped = 1;
                continue;
            }
            if (incr)
                s += z->score;
            if ((gt && s <= z->score) || (lt && s >= z->score)) {
                skipped = 1;
                continue;
            }
            last = s;
            if (s != z->score) {
                sim_str mem = z->m;
                remove_at(k, (size_t)at, 1);
                if (insert(k, s, mem))
                    return -1;
                changed++;
            }
        } else {
            if (xx) {
                skipped = 1;
                continue;
            }
            sim_str mem = { NULL, 0 };
            if (sim_str_set(&mem, argv[j + 1].p, argv[j + 1].len) || insert(k, s, mem))
                return -1;
            last = s;
            added++;
        }
    }
    if (added || changed)
        m->dirty++;
    sim_drop_if_empty(m, k);
    if (incr)
        return skipped ? sim_put_nil(out) : sim_put_double(out, last);
    return sim_put_int(out, ch ? added + changed : added);
}

int sim_cmd_zrem(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    long long n = 0;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_ZSET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    for (int i = 2; k && i < argc; i++) {
        long at = find(k, &argv[i]);
        if (at >= 0) {
            remove_at(k, (size_t)at, 0);
            n++;
        }
    }
    if (n) {
        m->dirty++;
        sim_drop_if_empty(m, k);
    }
    return sim_put_int(out, n);
}

int sim_cmd_zcard(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_ZSET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    return sim_put_int(out, k ? (long long)k->n : 0);
}

/* ZRANGE key start stop [WITHSCORES] (by index only) */
int sim_cmd_zrange(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    long long start, stop;
    int withscores = 0, wrong;
    for (int i = 4; i < argc; i++) {
        if (sim_eq(&argv[i], "withscores")) {
            withscores = 1;
        } else if (sim_eq(&argv[i], "byscore") || sim_eq(&argv[i], "bylex") || sim_eq(&argv[i], "rev") ||
                   sim_eq(&argv[i], "limit")) {
            sim_fail(m, "ZRANGE %.*s is not simulated", (int)argv[i].len, argv[i].p);
            return -1;
        } else {
            return sim_put_syntax(out);
        }
    }
    if (sim_arg_ll(&argv[2], &start) != 0 || sim_arg_ll(&argv[3], &stop) != 0)
        return sim_put_notint(out);
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_ZSET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    long long n = k ? (long long)k->n : 0;
    if (start < 0)
        start += n;
    if (stop < 0)
        stop += n;
    if (start < 0)
        start = 0;
    if (stop >= n)
        stop = n - 1;
    if (start > stop || start >= n)
        return sim_put_array(out, 0);
    int rc = sim_put_array(out, (stop - start + 1) * (withscores ? 2 : 1));
    for (long long i = start; i <= stop && rc == 0; i++) {
        const sim_zent *z = &((sim_zent *)k->items)[i];
        rc = sim_put_bulk(out, z->m.p, z->m.len);
        if (withscores && rc == 0)
            rc = sim_put_double(out, z->score);
    }
    return rc;
}

int sim_cmd_zrank(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_ZSET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    long at = k ? find(k, &argv[2]) : -1;
    return at < 0 ? sim_put_nil(out) : sim_put_int(out, at);
}

int sim_cmd_zscore(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    int wrong;
    (void)argc;
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_ZSET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    long at = k ? find(k, &argv[2]) : -1;
    return at < 0 ? sim_put_nil(out) : sim_put_double(out, ((sim_zent *)k->items)[at].score);
}

/* "(x" exclusive, "-inf", "+inf", x */
static int range_end(const sim_arg *a, double *v, int *excl)
{
    sim_arg t = *a;
    *excl = t.len > 0 && t.p[0] == '(';
    if (*excl) {
        t.p++;
        t.len--;
    }
    return sim_arg_double(&t, v);
}

int sim_cmd_zremrangebyscore(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    double lo, hi;
    int lox, hix, wrong;
    (void)argc;
    if (range_end(&argv[2], &lo, &lox) || range_end(&argv[3], &hi, &hix))
        return sim_put_error(out, "ERR min or max is not a float");
    sim_key *k = sim_lookup_type(m, &argv[1], SIM_ZSET, &wrong);
    if (wrong)
        return sim_put_wrongtype(out);
    long long n = 0;
    for (size_t i = 0; k && i < k->n;) {
        double s = ((sim_zent *)k->items)[i].score;
        if ((lox ? s > lo : s >= lo) && (hix ? s < hi : s <= hi)) {
            remove_at(k, i, 0);
            n++;
        } else {
            i++;
        }
    }
    if (n) {
        m->dirty++;
        sim_drop_if_empty(m, k);
    }
    return sim_put_int(out, n);
}
