/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* check.c -- the simulator's checkers: exclusion in true time for every
 * kind, and validity backed by a quorum (check.h).  A run holds a few
 * resources and a few dozen holds at a time: plain arrays, scanned. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/check.h"

typedef struct hold {
    char *res;
    sim_hold_kind kind;
    unsigned long h;
    int64_t since, until;
} hold;

struct sim_check {
    hold *holds;
    size_t n, cap;
    size_t violations;
    char why[512];
};

sim_check *sim_check_new(void)
{
    return calloc(1, sizeof(sim_check));
}

void sim_check_free(sim_check *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->n; i++)
        free(k->holds[i].res);
    free(k->holds);
    free(k);
}

/* The mutex, the semaphore and the read/write lock keep different keys. */
static int family(sim_hold_kind kind)
{
    return kind == SIM_HOLD_READ ? SIM_HOLD_WRITE : (int)kind;
}

static int same(const hold *o, const char *res, sim_hold_kind kind)
{
    return family(o->kind) == family(kind) && strcmp(o->res, res) == 0;
}

static hold *find(const sim_check *k, const char *res, sim_hold_kind kind, unsigned long h)
{
    for (size_t i = 0; i < k->n; i++)
        if (k->holds[i].h == h && same(&k->holds[i], res, kind))
            return &k->holds[i];
    return NULL;
}

static void violation(sim_check *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void violation(sim_check *k, const char *fmt, ...)
{
    va_list ap;

    k->violations++;
    va_start(ap, fmt);
    vsnprintf(k->why, sizeof k->why, fmt, ap);
    va_end(ap);
}

static const char *kind_name(sim_hold_kind kind)
{
    static const char *const names[] = { "mutex", "permit", "read", "write" };
    return names[kind];
}

/* Whether the holds of res believed valid at `now` are more than the kind
 * allows; *other: one of those h meets. */
static int excess(const sim_check *k, const hold *me, unsigned permits, int64_t now,
                  const hold **other)
{
    size_t all = 0, writers = 0;

    *other = NULL;
    for (size_t i = 0; i < k->n; i++) {
        const hold *o = &k->holds[i];
        if (!same(o, me->res, me->kind) || o->until <= now)
            continue;
        all++;
        writers += o->kind == SIM_HOLD_WRITE;
        if (o != me && !*other)
            *other = o;
    }
    switch (me->kind) {
    case SIM_HOLD_MUTEX:
        return all > 1;
    case SIM_HOLD_PERMIT:
        return all > permits;
    default:
        return writers > 1 || (writers == 1 && all > 1);
    }
}

int sim_check_hold(sim_check *k, const char *res, sim_hold_kind kind, unsigned permits,
                   unsigned long h, int64_t now, int64_t until)
{
    hold *me = find(k, res, kind, h);
    const hold *other;

    if (!me) {
        if (k->n == k->cap) {
            size_t cap = k->cap ? 2 * k->cap : 16;
            hold *p = realloc(k->holds, cap * sizeof *p);
            if (!p)
                return 0;
            k->holds = p;
            k->cap = cap;
        }
        me = &k->holds[k->n];
        if (!(me->res = strdup(res)))
            return 0;
        k->n++;
        me->kind = kind;
        me->h = h;
        me->since = now;
    }
    me->until = until;
    if (until <= now || !excess(k, me, permits, now, &other))
        return 0;
    violation(k, "%.3f ms: %s hold %lu of \"%s\" believed until %.3f ms while %s hold %lu "
              "(since %.3f ms) is believed until %.3f ms%s",
              (double)now / 1000, kind_name(kind), h, res, (double)until / 1000,
              kind_name(other->kind), other->h, (double)other->since / 1000,
              (double)other->until / 1000, kind == SIM_HOLD_PERMIT ? " (and more: over P)" : "");
    return -1;
}

void sim_check_end(sim_check *k, const char *res, sim_hold_kind kind, unsigned long h)
{
    hold *me = find(k, res, kind, h);

    if (!me)
        return;
    free(me->res);
    *me = k->holds[--k->n];
}

size_t sim_check_holders(const sim_check *k, const char *res, sim_hold_kind kind, int64_t now)
{
    size_t n = 0;

    for (size_t i = 0; i < k->n; i++)
        n += same(&k->holds[i], res, kind) && k->holds[i].until > now;
    return n;
}

int64_t sim_check_until(const sim_check *k, const char *res, sim_hold_kind kind, unsigned long h)
{
    const hold *me = find(k, res, kind, h);

    return me ? me->until : 0;
}

int sim_check_backed(sim_check *k, const char *res, unsigned long h, int64_t now, int64_t until,
                     size_t granted, size_t q)
{
    if (until <= now || granted >= q)
        return 0;
    violation(k, "%.3f ms: hold %lu of \"%s\" believed until %.3f ms, but only %zu masters "
              "keep its key that long (quorum %zu)",
              (double)now / 1000, h, res, (double)until / 1000, granted, q);
    return -1;
}

size_t sim_check_violations(const sim_check *k)
{
    return k->violations;
}

const char *sim_check_why(const sim_check *k)
{
    return k->why;
}
