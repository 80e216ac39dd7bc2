/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* handle.c -- lock handles: a resource, the value that proves ownership,
 * the validity the last operation left, and what each master did in it.
 * The operations themselves are acquire.c's (attempts, retries) and
 * operation.c's (extend, release).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lock/lock.h"

#define MAX_KEY (512 * 1024 * 1024)     /* Redis's limit of a string */

const char *redlock__key_reserved(const redlock_client *c, const void *resource, size_t len)
{
    int brace = c->prefixlen ? c->key_prefix[0] == '{' : *(const char *)resource == '{';

    if (brace || memchr(c->key_prefix, '}', c->prefixlen) || memchr(resource, '}', len))
        return "the key (key prefix + resource) starts with '{' or contains '}': such names are "
               "the library's own keys (\"{<key>}:fence\" ...), docs/kinds.md";
    return NULL;
}

size_t redlock__aux_key(const redlock_lock *l, const char *suffix, char *out)
{
    size_t slen = strlen(suffix);

    if (out) {
        memcpy(out, l->key - 1, l->keylen + 2);
        memcpy(out + l->keylen + 2, suffix, slen);
    }
    return l->keylen + 2 + slen;
}

int redlock__lock_create(redlock_lock **out, redlock_client *c, const void *resource,
                         size_t len, const redlock__family *fam)
{
    redlock_lock *l;
    const char *why;

    if (!out)
        return redlock__lock_refuse(c, "out is NULL");
    *out = NULL;
    if (!c)
        return REDLOCK_EINVAL;
    if (!resource || len == 0)
        return redlock__lock_refuse(c, "the resource is NULL or empty");
    if (c->loop.closing)
        return REDLOCK_ECLOSED;
    if (len > MAX_KEY - 2 - c->prefixlen)
        return redlock__lock_refuse(c, "the resource is longer than 512 MiB with the key prefix");
    if ((why = redlock__key_reserved(c, resource, len)))
        return redlock__lock_refuse(c, "%s", why);
    if (!(l = calloc(1, sizeof *l)))
        return REDLOCK_ENOMEM;
    /* "{K}": K, the lock's key, inside the braces that start its library
     * keys (redlock__aux_key) */
    if (!(l->key = malloc(c->prefixlen + len + 2))) {
        free(l);
        return REDLOCK_ENOMEM;
    }
    l->key[0] = '{';
    memcpy(l->key + 1, c->key_prefix, c->prefixlen);
    memcpy(l->key + 1 + c->prefixlen, resource, len);
    l->key[1 + c->prefixlen + len] = '}';
    l->key++;
    l->keylen = c->prefixlen + len;
    l->c = c;
    l->fam = fam;
    redlock__list_add(&c->locks, &l->link);
    *out = l;
    return 0;
}

int redlock__lock_nodes_make(redlock_lock *l)
{
    size_t n = l->c->fleet.n;
    redlock__lock_nodes *d;

    if (l->nodes)
        return 0;
    /* the 8-byte arrays first, then the 4-byte, then the bytes: aligned */
    d = calloc(1, sizeof *d + n * (sizeof *d->rtt + sizeof *d->ok_us + sizeof *d->detail +
                                   sizeof *d->gen + 1) + REDLOCK__VALUE_HEX + 1);
    if (!d)
        return REDLOCK_ENOMEM;
    d->n = n;
    d->rtt = (int64_t *)(d + 1);
    d->ok_us = d->rtt + n;
    d->detail = (char **)(d->ok_us + n);
    d->gen = (uint32_t *)(d->detail + n);
    d->votes = (unsigned char *)(d->gen + n);
    d->rand = (char *)(d->votes + n);
    for (size_t i = 0; i < n; i++)
        d->rtt[i] = -1;
    l->nodes = d;
    return 0;
}

int redlock__lock_flight(redlock_lock *l)
{
    redlock_client *c = l->c;
    redlock__flight *fl = c->free_fl;

    if (l->fl)
        return 0;
    if (fl) {
        c->free_fl = fl->next_free;
        c->fl_pool.nfree--;
    } else {
        if (!(fl = malloc(sizeof *fl)))
            return REDLOCK_ENOMEM;
        evtimer_assign(&fl->retry_timer, c->loop.base, redlock__lock_retry_cb, fl);
    }
    redlock__pool_took(&c->fl_pool);
    /* all but the timer, which is assigned to the flight, not the lock */
    memset(&fl->op, 0, sizeof *fl - offsetof(redlock__flight, op));
    fl->lock = l;
    l->fl = fl;
    return 0;
}

void redlock__lock_flight_end(redlock_lock *l)
{
    redlock__flight *fl = l->fl;
    redlock_client *c = l->c;

    if (!fl)
        return;
    if (!c) {
        l->fl = NULL;
        free(fl);       /* the client went first: no timer, no pool */
        return;
    }
    if (fl->armed)
        evtimer_del(&fl->retry_timer);
    if (fl->hot)
        redlock__wake_unwait(l);
    l->fl = NULL;
    c->fl_pool.alive--;
    fl->next_free = c->free_fl;
    c->free_fl = fl;
    if (++c->fl_pool.nfree > REDLOCK__FLIGHT_POOL)
        redlock__trim_soon(&c->trim, &c->loop);
}

int redlock__lock_flight_pool_trim(redlock_client *c)
{
    for (size_t k = redlock__pool_surplus(&c->fl_pool, REDLOCK__FLIGHT_POOL); k > 0; k--) {
        redlock__flight *fl = c->free_fl;
        c->free_fl = fl->next_free;
        c->fl_pool.nfree--;
        free(fl);
    }
    return c->fl_pool.nfree > REDLOCK__FLIGHT_POOL;
}

void redlock__lock_flight_pool_free(redlock_client *c)
{
    while (c->free_fl) {
        redlock__flight *fl = c->free_fl;
        c->free_fl = fl->next_free;
        free(fl);
    }
    c->fl_pool.nfree = 0;
}

/* The value, unless it lives in the nodes' block (the random one). */
static void value_free(redlock_lock *l)
{
    if (!l->nodes || l->value != l->nodes->rand)
        free(l->value);
    l->value = NULL;
}

static void lock_nodes_free(redlock_lock *l)
{
    if (!l->nodes)
        return;
    for (size_t i = 0; i < l->nodes->n; i++)
        free(l->nodes->detail[i]);
    free(l->nodes);
    l->nodes = NULL;
}

int redlock_lock_new(redlock_lock **out, redlock_client *c, const void *resource, size_t len)
{
    REDLOCK__GATED(c, int, redlock__lock_create(out, c, resource, len, &redlock__mutex));
}

size_t redlock__lock_quorum(const redlock_lock *l)
{
    return l->quorum ? l->quorum : l->c->fleet.n / 2 + 1;
}

static int lock_quorum(const redlock_lock *l)
{
    if (!l->c)
        return REDLOCK_ECLOSED;
    return (int)redlock__lock_quorum(l);
}

int redlock_lock_quorum(const redlock_lock *l)
{
    if (!l)
        return REDLOCK_EINVAL;
    REDLOCK__GATED(l->c, int, lock_quorum(l));
}

static int redlock_lock_kind_ungated(const redlock_lock *l)
{
    return l ? l->fam->kind : REDLOCK_EINVAL;
}

int redlock_lock_kind(const redlock_lock *l)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_lock_kind_ungated(l));
}

static int64_t redlock_lock_holds_ungated(const redlock_lock *l)
{
    /* a hold whose validity ran out is not counted */
    return l && l->holds && redlock_lock_validity(l) > 0 ? l->holds : 0;
}

int64_t redlock_lock_holds(const redlock_lock *l)
{
    REDLOCK__GATED((l ? l->c : NULL), int64_t, redlock_lock_holds_ungated(l));
}

int redlock__lock_refuse(redlock_client *c, const char *fmt, ...)
{
    va_list ap;
    if (c) {
        int n = snprintf(c->errstr, sizeof c->errstr, "lock: ");
        va_start(ap, fmt);
        vsnprintf(c->errstr + n, sizeof c->errstr - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return REDLOCK_EINVAL;
}

void redlock__lock_err(redlock_lock *l, const char *fmt, ...)
{
    char buf[REDLOCK__LOCK_ERRSTR];
    char *s;
    int n;
    size_t len;
    va_list ap;

    /* formatted first: an argument may be the old text */
    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    len = (size_t)n + 1;
    if (len > sizeof buf) {
        /* longer than most: formatted again into a buffer of its size */
        if ((s = malloc(len))) {
            va_start(ap, fmt);
            vsnprintf(s, len, fmt, ap);
            va_end(ap);
            free(l->errstr);
            l->errstr = s;
            return;
        }
    } else if ((s = realloc(l->errstr, len))) {
        memcpy(s, buf, len);
        l->errstr = s;
        return;
    }
    /* out of memory: no text rather than a stale one */
    if (l->errstr)
        l->errstr[0] = '\0';
}

void redlock__locks_detach(redlock_client *c)
{
    while (!redlock__list_empty(&c->locks)) {
        redlock_lock *l = redlock__container(c->locks.next, redlock_lock, link);
        redlock__list_del(&l->link);
        redlock__watch_stop(l); /* the timers go with the client's base */
        redlock__lock_drop_late(l);
        redlock__wake_unwait(l);
        redlock__metrics_gone(c, l);
        l->c = NULL;            /* a redlock_lock_free from the callback just frees */
        redlock__lock_cancel(l);      /* last use of l: its callback may free it */
    }
}

static void lock_free_ungated(redlock_lock *l);

void redlock_lock_free(redlock_lock *l)
{
    redlock_client *c = l ? l->c : NULL;
    int g = redlock__gate_enter(c);

    lock_free_ungated(l);
    redlock__gate_leave(c, g);
}

static void lock_free_ungated(redlock_lock *l)
{
    redlock_client *c;

    if (!l || l->freeing)
        return;
    l->freeing = 1;
    c = l->c;
    if (c) {
        redlock__enter(&c->loop);
        redlock__watch_stop(l);
        redlock__metrics_gone(c, l);
        redlock__lock_cancel(l);
        redlock__lock_flight_end(l);
        redlock__lock_drop_late(l);
        redlock__list_del(&l->link);
    }
    free(l->fl);        /* the client went first: no timer to take back */
    redlock__watch_free(l);
    if (l->fam->free)
        l->fam->free(l);
    free(l->errstr);
    free(l->fence_key);
    free(l->key - 1);
    value_free(l);
    lock_nodes_free(l);
    free(l);
    if (c)
        redlock__leave(&c->loop);
}

/* A setter changes what the handle's next acquire puts on the masters: not
 * while the application's operation is in flight, nor while the handle
 * holds its lock (the masters keep the old value or counter: the hold
 * would be orphaned).  The watchdog's extend alone refuses nothing. */
static int setter_refuses(redlock_lock *l, const char *name)
{
    if (l->busy && !redlock__watch_in_flight(l)) {
        redlock__lock_err(l, "%s: an operation is already in flight on this lock", name);
        return REDLOCK_EBUSY;
    }
    if (redlock_lock_validity(l) > 0) {
        redlock__lock_err(l, "%s: the lock is held by this handle (release it first)", name);
        return REDLOCK_EBUSY;
    }
    return 0;
}

/* The hold has ended: a watchdog's extend still in flight for it is
 * forgotten, as when the application's own operation takes over (its late
 * win would bring the hold back under the new setting), and the lost-lock
 * notice comes when the validity's end says, not after that extend. */
static void setter_takes_over(redlock_lock *l)
{
    if (!l->busy)
        return;
    redlock__watch_detach(l);
    redlock__lock_flight_end(l);
    redlock__watch_end_moved(l);
}

static int redlock_lock_set_value_ungated(redlock_lock *l, const void *value, size_t len)
{
    char *v = NULL;
    int rc;

    if (!l || (!value && len))
        return REDLOCK_EINVAL;
    if (len > MAX_KEY) {
        redlock__lock_err(l, "set_value: the value is longer than 512 MiB");
        return REDLOCK_EINVAL;
    }
    if ((rc = setter_refuses(l, "set_value")) != 0)
        return rc;
    if (value) {
        if (!(v = malloc(len + 1)))
            return REDLOCK_ENOMEM;
        memcpy(v, value, len);
        v[len] = '\0';
    }
    setter_takes_over(l);
    /* the old value's hold is over: no extends, no notice for it (as when
     * an acquire starts) */
    redlock__watch_stop(l);
    value_free(l);
    l->value = v;
    l->valuelen = v ? len : 0;
    l->fixed_value = v != NULL;
    l->holds = 0;
    if (l->nodes)
        memset(l->nodes->gen, 0, l->nodes->n * sizeof *l->nodes->gen);
    l->valid_until_us = 0;
    return 0;
}

int redlock_lock_set_value(redlock_lock *l, const void *value, size_t len)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_lock_set_value_ungated(l, value, len));
}

static const char *redlock_lock_value_ungated(const redlock_lock *l, size_t *len)
{
    if (len)
        *len = l && l->value ? l->valuelen : 0;
    return l ? l->value : NULL;
}

const char *redlock_lock_value(const redlock_lock *l, size_t *len)
{
    REDLOCK__GATED((l ? l->c : NULL), const char *, redlock_lock_value_ungated(l, len));
}

static int64_t redlock_lock_validity_ungated(const redlock_lock *l)
{
    int64_t left;

    if (!l || !l->c || !l->valid_until_us)
        return 0;
    /* The client's time never runs back (redlock__now), so this is never
     * more than ttl - drift; a clock seen going back since the grant makes
     * the count mean nothing. */
    left = l->valid_until_us - redlock__now(&l->c->loop);
    if (l->c->loop.clock_steps != l->clock_steps && !REDLOCK__MUTANT(CLOCK_BACK_KEEPS))
        return 0;
    return redlock__ms_floor(left);
}

int64_t redlock_lock_validity(const redlock_lock *l)
{
    REDLOCK__GATED((l ? l->c : NULL), int64_t, redlock_lock_validity_ungated(l));
}

static size_t redlock_lock_nodes_ok_ungated(const redlock_lock *l)
{
    return l ? l->nodes_ok : 0;
}

size_t redlock_lock_nodes_ok(const redlock_lock *l)
{
    REDLOCK__GATED((l ? l->c : NULL), size_t, redlock_lock_nodes_ok_ungated(l));
}

static const char *redlock_lock_errstr_ungated(const redlock_lock *l)
{
    return !l ? "lock is NULL" : l->errstr ? l->errstr : "";
}

const char *redlock_lock_errstr(const redlock_lock *l)
{
    REDLOCK__GATED((l ? l->c : NULL), const char *, redlock_lock_errstr_ungated(l));
}

static int redlock_lock_node_result__ungated(const redlock_lock *l, size_t node, redlock_node_result *out,
                              size_t size)
{
    redlock_node_result r;

    if (!l || !out)
        return REDLOCK_EINVAL;
    if (!l->c)
        return REDLOCK_ECLOSED;
    if (node >= l->c->fleet.n)
        return REDLOCK_EINVAL;
    memset(&r, 0, sizeof r);
    r.vote = l->nodes ? l->nodes->votes[node] : REDLOCK_VOTE_NONE;
    r.rtt_us = l->nodes ? l->nodes->rtt[node] : -1;
    r.detail = redlock__lock_detail(l, node);
    /* a caller built against an older header gets the fields it knows */
    memcpy(out, &r, size < sizeof r ? size : sizeof r);
    return 0;
}

int redlock_lock_node_result_(const redlock_lock *l, size_t node, redlock_node_result *out,
                              size_t size)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_lock_node_result__ungated(l, node, out, size));
}

const char *redlock_vote_name(int vote)
{
    static const char *const names[] = { "none", "ok", "refused", "timeout", "down", "error",
                                         "full",
                                         "uncounted" };
    return vote >= 0 && vote < (int)(sizeof names / sizeof names[0]) ? names[vote] : "unknown";
}

static int redlock_lock_set_fencing_ungated(redlock_lock *l, int on)
{
    char *key;
    size_t len;
    int rc;

    if (!l)
        return REDLOCK_EINVAL;
    if (on && !l->fam->acquire_fenced) {
        redlock__lock_err(l, "set_fencing: this kind of lock has no fencing tokens");
        return REDLOCK_EINVAL;
    }
    if (!on == !l->fence_key)
        return 0;       /* as it is: nothing changes */
    if ((rc = setter_refuses(l, "set_fencing")) != 0)
        return rc;
    if (!on) {
        setter_takes_over(l);
        free(l->fence_key);
        l->fence_key = NULL;
        return 0;
    }
    len = redlock__aux_key(l, ":fence", NULL);
    if (!(key = malloc(len)))
        return REDLOCK_ENOMEM;
    setter_takes_over(l);
    redlock__aux_key(l, ":fence", key);
    l->fence_key = key;
    l->fence_keylen = len;
    return 0;
}

int redlock_lock_set_fencing(redlock_lock *l, int on)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_lock_set_fencing_ungated(l, on));
}

static int64_t redlock_lock_token_ungated(const redlock_lock *l)
{
    return l ? l->token : 0;
}

int64_t redlock_lock_token(const redlock_lock *l)
{
    REDLOCK__GATED((l ? l->c : NULL), int64_t, redlock_lock_token_ungated(l));
}
