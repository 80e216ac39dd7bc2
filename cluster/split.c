/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* split.c -- a multi-resource lock's script over several slots of one
 * cluster.  A script may name keys of one slot only (CROSSSLOT), so the
 * multi-resource scripts (kinds/multi.c) go as one script per slot, each
 * with its slot's keys and every argument, and their answers make the
 * cluster's one answer:
 *
 *   acquire      0 when every part took its keys, else the first part's
 *                refusal (its key's number in the whole set); a part that
 *                took its keys is undone by the undo of the refused vote
 *   extend       0 when a part extended nothing, else the largest (2: some
 *                key re-grew)
 *   release      1 when every part deleted all its keys, else 0
 *   release_wq   0 when a part did not hold all its keys, else the largest
 *
 * An error (or no reply) from any part is the cluster's answer.  Each part
 * is a request of its own (cluster.c): it follows MOVED and ASK, and keeps
 * its order behind what is on its way for its slot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cluster/split.h"

/* The multi scripts, in the order of the rules above. */
static const int multi[REDLOCK__SPLIT_RULES] = {
    REDLOCK__SCRIPT_MULTI_ACQUIRE, REDLOCK__SCRIPT_MULTI_EXTEND, REDLOCK__SCRIPT_MULTI_RELEASE,
    REDLOCK__SCRIPT_MULTI_RELEASE_WQ
};

void redlock__split_init(redlock__split_scripts *s, const char *const *bodies)
{
    for (int i = 0; i < REDLOCK__SPLIT_RULES; i++) {
        s->body[i] = bodies[multi[i]];
        redlock__sha1_hex(s->body[i], strlen(s->body[i]), s->sha[i]);
    }
}

static int put(redlock__buf *b, const char *s, size_t len)
{
    if (redlock__buf_reserve(b, len) != 0)
        return -1;
    memcpy(b->p + b->len, s, len);
    b->len += len;
    return 0;
}

static int put_bulk(redlock__buf *b, const char *s, size_t len)
{
    char head[32];
    int n = snprintf(head, sizeof head, "$%zu\r\n", len);
    return put(b, head, (size_t)n) || put(b, s, len) || put(b, "\r\n", 2);
}

/* Which multi script a command runs (EVALSHA by its SHA-1, EVAL by its
 * body), or -1. */
static int rule_of(const redlock__split_scripts *s, const char *const *arg, const size_t *len)
{
    int sha = len[0] == 7 && strncasecmp(arg[0], "EVALSHA", 7) == 0;

    if (!sha && !(len[0] == 4 && strncasecmp(arg[0], "EVAL", 4) == 0))
        return -1;
    for (int i = 0; i < REDLOCK__SPLIT_RULES; i++) {
        const char *want = sha ? s->sha[i] : s->body[i];
        if (len[1] == strlen(want) && memcmp(arg[1], want, len[1]) == 0)
            return i;
    }
    return -1;
}

void redlock__split_free(redlock__split *sp)
{
    if (!sp)
        return;
    for (size_t i = 0; i < sp->nparts; i++)
        redlock__buf_free(&sp->part[i].cmd);
    free(sp->part);
    free(sp->gidx);
    free(sp->value);
    free(sp->err);
    free(sp);
}

/* One part's command: the script, its slot's keys, every argument. */
static int encode_part(redlock__split_part *pt, const char *const *arg, const size_t *len,
                       long nargs, size_t nkeys, const size_t *gidx)
{
    char head[32], nk[24];
    int n = snprintf(head, sizeof head, "*%zu\r\n", (size_t)nargs - nkeys + pt->nkeys);
    int k = snprintf(nk, sizeof nk, "%zu", pt->nkeys);

    if (put(&pt->cmd, head, (size_t)n) || put_bulk(&pt->cmd, arg[0], len[0]) ||
        put_bulk(&pt->cmd, arg[1], len[1]) || put_bulk(&pt->cmd, nk, (size_t)k))
        return -1;
    for (size_t i = 0; i < pt->nkeys; i++)
        if (put_bulk(&pt->cmd, arg[3 + gidx[pt->first + i]], len[3 + gidx[pt->first + i]]))
            return -1;
    for (long a = 3 + (long)nkeys; a < nargs; a++)
        if (put_bulk(&pt->cmd, arg[a], len[a]))
            return -1;
    return 0;
}

int redlock__split_plan(const redlock__split_scripts *s, const char *buf, size_t blen,
                        redlock__split **out)
{
    const char *arg[REDLOCK__SPLIT_MAX_ARGS];
    size_t len[REDLOCK__SPLIT_MAX_ARGS], nkeys = 0, *slot;
    size_t end;
    long nargs = redlock__command_read(buf, blen, 0, arg, len, REDLOCK__SPLIT_MAX_ARGS, &end);
    redlock__split *sp;
    int rule;

    *out = NULL;
    if (nargs < 5 || nargs > REDLOCK__SPLIT_MAX_ARGS || (rule = rule_of(s, arg, len)) < 0)
        return 0;
    for (size_t i = 0; i < len[2]; i++)
        nkeys = nkeys * 10 + (size_t)(arg[2][i] - '0');
    if (nkeys < 2 || nkeys > (size_t)nargs - 3 || !(slot = malloc(nkeys * sizeof *slot)))
        return 0;
    int one = 1;
    for (size_t i = 0; i < nkeys; i++) {
        slot[i] = redlock__keyslot(arg[3 + i], len[3 + i]);
        one &= slot[i] == slot[0];
    }
    if (one || !(sp = calloc(1, sizeof *sp)) ||
        !(sp->gidx = malloc(nkeys * sizeof *sp->gidx)) ||
        !(sp->part = calloc(nkeys, sizeof *sp->part))) {
        if (!one && sp)
            redlock__split_free(sp);
        free(slot);
        return one ? 0 : -1;
    }
    sp->rule = rule;
    sp->nkeys = nkeys;
    if (!(sp->value = malloc(len[3 + nkeys] + 1))) {
        free(slot);
        redlock__split_free(sp);
        return -1;
    }
    memcpy(sp->value, arg[3 + nkeys], len[3 + nkeys]);
    sp->vlen = len[3 + nkeys];
    /* parts by slot, in the order of their first key; keys in set order */
    for (size_t i = 0, at = 0; i < nkeys; i++) {
        size_t p = 0;
        while (p < sp->nparts && sp->part[p].slot != slot[i])
            p++;
        if (p < sp->nparts)
            continue;
        sp->part[p].slot = (unsigned)slot[i];
        sp->part[p].first = at;
        for (size_t j = i; j < nkeys; j++)
            if (slot[j] == slot[i])
                sp->gidx[at++] = j;
        sp->part[p].nkeys = at - sp->part[p].first;
        sp->nparts++;
    }
    free(slot);
    for (size_t p = 0; p < sp->nparts; p++)
        if (encode_part(&sp->part[p], arg, len, nargs, nkeys, sp->gidx) != 0) {
            redlock__split_free(sp);
            return -1;
        }
    *out = sp;
    return 1;
}

/* Part p's integer answer into the whole's (rules above). */
static void combine(redlock__split *sp, size_t p, long long v)
{
    long long *acc = &sp->acc;

    if (!sp->got_int) {
        sp->got_int = 1;
        *acc = sp->rule == REDLOCK__SPLIT_RELEASE ? 1 : sp->rule == REDLOCK__SPLIT_ACQUIRE ? 0
                                                                                        : 1;
    }
    switch (sp->rule) {
    case REDLOCK__SPLIT_ACQUIRE:
        sp->part[p].took = v == 0;
        /* the part's key number, in the whole set (1-based, signed) */
        if (v != 0 && *acc == 0 && (size_t)(v < 0 ? -v : v) <= sp->part[p].nkeys) {
            long long g = (long long)sp->gidx[sp->part[p].first + (size_t)(v < 0 ? -v : v) - 1] + 1;
            *acc = v < 0 ? -g : g;
        } else if (v != 0 && *acc == 0) {
            *acc = (long long)sp->nkeys + 1;     /* out of range: an error above */
        }
        break;
    case REDLOCK__SPLIT_RELEASE:
        if (v != 1)
            *acc = 0;
        break;
    default:        /* extend, release_wq: 0 wins, else the largest */
        if (v == 0 || *acc == 0)
            *acc = 0;
        else if (v > *acc)
            *acc = v;
        break;
    }
}

int redlock__split_answer(redlock__split *sp, size_t p, const redlock__reply *r, const char *why)
{
    if (!r) {
        if (!sp->lost && !sp->err) {
            sp->lost = 1;
            snprintf(sp->why, sizeof sp->why, "slot %u: %s", sp->part[p].slot,
                     why ? why : "no reply");
        }
    } else if (r->type == REDLOCK__REPLY_INTEGER) {
        combine(sp, p, r->integer);
    } else if (!sp->err && !sp->lost) {
        /* an error, or an answer no multi script gives: the part's text */
        size_t n = r->type == REDLOCK__REPLY_ERROR ? r->len : 0;
        if ((sp->err = malloc(n + 64)) != NULL)
            sp->errlen = (size_t)snprintf(sp->err, n + 64, "%.*s%s", (int)n, r->str,
                                          n ? "" : "ERR a part's reply is not an integer");
    }
    return ++sp->got == sp->nparts;
}

void redlock__split_reply(const redlock__split *sp, redlock__reply *out)
{
    memset(out, 0, sizeof *out);
    if (sp->err) {
        out->type = REDLOCK__REPLY_ERROR;
        out->str = sp->err;
        out->len = sp->errlen;
    } else {
        out->type = REDLOCK__REPLY_INTEGER;
        out->integer = sp->acc;
        out->str = "";
    }
}

int redlock__split_rollback(const redlock__split_scripts *s, const redlock__split *sp, size_t p,
                            redlock__buf *out)
{
    const redlock__split_part *pt = &sp->part[p];
    const char *arg[REDLOCK__SPLIT_MAX_ARGS];
    size_t len[REDLOCK__SPLIT_MAX_ARGS];
    char head[32];
    size_t end;
    long n = redlock__command_read(pt->cmd.p, pt->cmd.len, 0, arg, len,
                                   REDLOCK__SPLIT_MAX_ARGS, &end);
    int h = snprintf(head, sizeof head, "*%zu\r\n", pt->nkeys + 4);
    const char *sha = s->sha[REDLOCK__SPLIT_RELEASE];

    if (n < 3 + (long)pt->nkeys || n > REDLOCK__SPLIT_MAX_ARGS || put(out, head, (size_t)h) || put_bulk(out, "EVALSHA", 7) ||
        put_bulk(out, sha, strlen(sha)) || put_bulk(out, arg[2], len[2]))
        return -1;
    for (size_t i = 0; i < pt->nkeys; i++)
        if (put_bulk(out, arg[3 + i], len[3 + i]))
            return -1;
    return put_bulk(out, sp->value, sp->vlen);
}
