/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-check-sem.c -- the semaphore's rule (rl-worker --kind semaphore): at
 * no moment more than P holders of a resource, P the permits its K line
 * names.  Holds of a semaphore are the same validity-bounded segments as a
 * mutex's (mode 's'); pairs of them may overlap, so the rule is a count:
 * a sweep over each resource's segments in time order.
 *
 * A crashed holder (its log ends holding: no R line and no E line, e.g.
 * kill -9) keeps its permit until its validity ends (the segment counts
 * until then).  Its permit came back when, at or after that end, the
 * resource had P holders at once: with the crashed permit still taken, at
 * most P - 1 others could hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rl-check.h"
#include "rl-common.h"

typedef struct event {
    int64_t t;
    int start;       /* 1 a segment starts, 0 one ends */
    size_t seg;
} event;

/* in time order; at one time, ends before starts (a segment is [start, end)) */
static int event_cmp(const void *pa, const void *pb)
{
    const event *a = pa, *b = pb;
    if (a->t != b->t)
        return (a->t > b->t) - (a->t < b->t);
    return a->start - b->start;
}

static void print_over(const check *ck, const ival *v, const size_t *act, size_t nact,
                       int64_t t)
{
    printf("  PERMIT OVERLAP on %s at %lld: %zu holders of %d permits:", v[act[0]].res,
           (long long)t, nact, ck->permits);
    for (size_t k = 0; k < nact; k++)
        printf(" worker %d value %s [%lld, %lld]%s", ck->acqs[v[act[k]].acq].worker,
               ck->acqs[v[act[k]].acq].value, (long long)v[act[k]].start,
               (long long)v[act[k]].end, k + 1 < nact ? "," : "\n");
}

/* one resource's semaphore segments v[0..n): counts into *s; the times at
 * which it had P holders are appended to *full (*nfull, capacity *capfull) */
static void sweep(const check *ck, const ival *v, size_t n, sem_report *s, int64_t **full,
                  size_t *nfull, size_t *capfull)
{
    event *e = rl_xmalloc(2 * n * sizeof *e);
    size_t *act = rl_xmalloc(n * sizeof *act), nact = 0;
    for (size_t i = 0; i < n; i++) {
        e[2 * i] = (event){v[i].start, 1, i};
        e[2 * i + 1] = (event){v[i].end, 0, i};
    }
    qsort(e, 2 * n, sizeof *e, event_cmp);
    for (size_t k = 0; k < 2 * n; k++) {
        if (!e[k].start) {
            for (size_t m = 0; m < nact; m++)
                if (act[m] == e[k].seg) {
                    act[m] = act[--nact];
                    break;
                }
            continue;
        }
        act[nact++] = e[k].seg;
        if ((long long)nact > s->max_holders)
            s->max_holders = (long long)nact;
        if (nact >= 2)
            s->shares++;
        if ((int)nact == ck->permits) {
            *full = rl_grow(*full, capfull, *nfull + 1, sizeof **full);
            (*full)[(*nfull)++] = e[k].t;
        }
        if ((int)nact > ck->permits && ++s->over <= 3)
            print_over(ck, v, act, nact, e[k].t);
    }
    free(act);
    free(e);
}

/* the end of acquisition a's last segment in v[0..n) */
static int64_t last_end(const ival *v, size_t n, size_t a)
{
    int64_t end = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].acq == a && v[i].end > end)
            end = v[i].end;
    return end;
}

/* The crashed holds among v[0..n) (one resource) and whether their permit
 * came back: P holders at once at or after the hold's end. */
static void crashed(const check *ck, const ival *v, size_t n, const int64_t *full,
                    size_t nfull, sem_report *s)
{
    for (size_t i = 0; i < n; i++) {
        const acq *a = &ck->acqs[v[i].acq];
        if (!a->crashed || last_end(v, n, v[i].acq) != v[i].end)
            continue;   /* counted once, at its last segment */
        s->crashed++;
        int back = 0;
        for (size_t k = 0; k < nfull && !back; k++)
            back = full[k] >= v[i].end;
        s->returned += back;
        printf("  crashed holder: worker %d value %s on %s, valid until %lld: its permit %s\n",
               a->worker, a->value, v[i].res, (long long)v[i].end,
               back ? "came back (P holders at once after it expired)"
                    : "NOT SEEN BACK (never P holders at once after it expired)");
    }
}

void check_permits(const check *ck, const ival *v, size_t n, sem_report *s)
{
    memset(s, 0, sizeof *s);
    /* v is sorted by resource: one sweep per resource */
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && !strcmp(v[j].res, v[i].res); j++)
            ;
        size_t ns = 0;
        ival *sem = rl_xmalloc((j - i) * sizeof *sem);
        for (size_t k = i; k < j; k++)
            if (ck->acqs[v[k].acq].mode == 's')
                sem[ns++] = v[k];
        int64_t *full = NULL;
        size_t nfull = 0, capfull = 0;
        if (ns) {
            sweep(ck, sem, ns, s, &full, &nfull, &capfull);
            crashed(ck, sem, ns, full, nfull, s);
        }
        free(full);
        free(sem);
    }
    for (size_t i = 0; i < ck->nacq; i++)
        s->acqs += ck->acqs[i].mode == 's';
    if (s->acqs || ck->permits)
        printf("semaphore: %d permits, %lld acquisitions, at most %lld holders at once, %lld "
               "starts beside another holder, %lld beyond the permits; %lld crashed holders, "
               "%lld permits seen back\n",
               ck->permits, s->acqs, s->max_holders, s->shares, s->over, s->crashed,
               s->returned);
    if (ck->leftover_keys >= 0)
        printf("keys left on the masters at the end (after every worker stopped): %lld on %lld "
               "masters scanned%s\n",
               ck->leftover_keys, ck->leftover_scanned, ck->leftover_keys ? ": FAIL" : "");
}
