/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-check -- the failover suite's checker (see docs/safety.md and
 * docs/failover.md).
 *
 *   rl-check [--faults FILE] [--nodes N] [--permits P] LOG...
 *
 * (rl-schedule prints the random fault schedule, rl-util the scripts'
 * small helpers.)
 *
 * Reads the logs written by rl-worker (format in rl-worker.c) and verifies
 * mutual exclusion: for every resource, no two holding intervals overlap.
 * A holding interval is [after_us, min(valid_until_us, release_start_us)]:
 * from the moment the acquire call returned to the moment the client had to
 * stop acting as the holder (its validity ran out, or it began releasing).
 * Extends (T lines) split it into segments: [after, min(valid_until,
 * extend start)], [extend end, min(valid_until after the extend, next
 * start)], ...: during an extend call the client does not act, after it the
 * validity it then reads bounds what it may do.
 *
 * Lock kinds (rl-worker --kind; a K line names the kind, A lines carry
 * owner and mode): two holds of a resource may overlap only when both are
 * reads (rw), or both are held by the same re-entrant owner (workers
 * logging the same owner are one owner); those overlaps are counted
 * (reader_overlaps, owner_overlaps: a run where readers never met proves
 * little).  A multi lock's res is its resources joined by '+': each of its
 * holding segments counts on every one of them.  A re-entrant worker's
 * nested acquires (H lines) and releases that kept the lock (D lines)
 * split its interval like extends.  Fencing tokens: a re-entrant hold's
 * token must be above every token of another owner before it (the holds
 * of one owner overlap: their tokens may come in any order).

 * The validity auditor's findings (V lines, rl-worker.c) are violations too:
 * any one fails the check.  Its counters (the last U line of each log) are
 * summed and printed; those of the checks made while an extend was in
 * flight (async workers: the validity published at the extend's start, I
 * lines) are also reported apart.  An I line whose validity ends more than
 * the extend's ttl after it was read (the library kept the old, longer
 * validity for a shorter extend in flight) is counted in
 * extends_inflight_above_ttl (reported, not failed: the auditor judges
 * whether a quorum still covered it).
 *
 * The "naive" interval [after_us, release_start_us] is what a client that
 * never looks at its validity would believe (e.g. a process resumed from a
 * long pause); overlaps of naive intervals are reported, not failed: they
 * are the Kleppmann pause case, which only fencing tokens can close.
 *
 * The faults file (written by the failover scripts) has one line per
 * injected fault:   X start_us end_us back_us kind free text...
 * (the fault lasted start..end; back_us is when every affected server
 * answered again, after its restart).
 *
 * A line "Y setresets=N hostile_conns=N" in the faults file (the rlproxy's
 * counters at the end of the run) is reported as is.  A line "C
 * key=value ..." (rl-cluster's figures of the faults it made) is appended
 * to the RESULT line as it is.
 *
 * Output: a readable report, then one line
 *   RESULT acquisitions=N failures=N faults=N overlaps=N naive_overlaps=N
 *          before=N during=N between=N after=N held_pct=P pauses=N
 *          pauses_expired=N outage_acquisitions=N audit_checks=N
 *          audit_judged=N audit_violations=N audit_min_slack_us=N
 *          audit_max_rtt_us=N audit_unknown=N extends=N extends_failed=N
 *          extends_shorter=N extends_in_slow=N extends_failed_in_slow=N
 *          loop_blocks=N loop_blocks_inflight=N efull=N async_workers=N
 *          small_pending_workers=N proxy_setresets=N proxy_hostile_conns=N
 *          audit_inflight_checks=N audit_inflight_violations=N
 *          audit_inflight_min_slack_us=N extends_inflight=N
 *          extends_inflight_above_ttl=N tokens=N token_violations=N
 *          lost_notices=N watchdog_moves=N
 *          nested_holds=N partial_releases=N reads=N writes=N
 *          reader_overlaps=N owner_overlaps=N multi_acquisitions=N kind=K
 *          logs=N holders=N (workers, or rl-worker --clients clients, that
 *          acquired at least once) resources=N (resources held at least once)
 *          permits=P semaphore_acquisitions=N max_holders=N permit_overlaps=N
 *          crashed_holds=N crashed_returned=N leftover_keys=N (the
 *          semaphore: rl-check-sem.c; leftover_keys from the faults file's
 *          "Z leftover_keys=N masters=M" line, -1 without one)
 *          fault_KIND=N (one per fault kind injected)
 * (audit_inflight_*: the judged checks made while an extend was in flight,
 * their violations and smallest slack, part of audit_judged,
 * audit_violations and audit_min_slack_us; -1 for no slack seen.)
 * (outage_acquisitions: acquisitions made entirely inside a quorum outage;
 * always 0 unless something is badly wrong.)
 * Exit status: 0 when there is no overlap, no auditor violation, no token
 * out of order, never more holders than permits and no key left behind; 1
 * on any; 2 on bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rl-check.h"
#include "rl-common.h"

const char *rl_prog = "rl-check";

/* what the report computes, for its last lines */
typedef struct report {
    int nlogs, nres;   /* logs; resources held at least once */
    int64_t t0, t1;               /* the observed span */
    size_t holders, ntok;
    long long ov, nov, tbad, viol, iviol;
    long long reader_overlaps, owner_overlaps;   /* allowed overlaps seen */
    sem_report sem;               /* the semaphore's rule (rl-check-sem.c) */
    long long before, during, between, after, outage_acq;
    double held_pct;
    long long pauses, expired;
    long long ext_failed, ext_shorter, ext_slow, ext_failed_slow;
    long long fb[NCODES];         /* failed acquires by code */
    char kinds[32][32];           /* fault kinds, how many of each */
    long long kcount[32];
    int nk;
} report;

void check_init(check *ck)
{
    memset(ck, 0, sizeof *ck);
    ck->audit.min_slack = ck->audit.imin_slack = INT64_MAX;
    ck->y_setresets = ck->y_hostile = -1;
    ck->leftover_keys = ck->leftover_scanned = -1;
}

void check_free(check *ck)
{
    for (size_t k = 0; k < ck->nrespool; k++)
        free(ck->respool[k]);
    free(ck->respool);
    free(ck->segs);
    free(ck->acqs);
    free(ck->fails);
    free(ck->faults);
    free(ck->ups);
    free(ck->exts);
}

/* ---- overlaps ------------------------------------------------------------ */

static int ival_cmp(const void *pa, const void *pb)
{
    const ival *a = pa, *b = pb;
    int c = strcmp(a->res, b->res);
    if (c)
        return c;
    return (a->start > b->start) - (a->start < b->start);
}

/* May two holds of one resource overlap?  Readers share it, and so do the
 * holds of one re-entrant owner (several workers may be that owner) and
 * permits of a semaphore (how many at once: rl-check-sem.c); the segments
 * of one acquisition never overlap.  *why: 1 readers, 2 owner, 4 permits. */
static int compatible(const check *ck, size_t a, size_t b, int *why)
{
    const acq *x = &ck->acqs[a], *y = &ck->acqs[b];
    *why = 0;
    if (a == b)
        return 1;
    if (x->mode == 'r' && y->mode == 'r')
        return *why = 1;
    if (x->mode == 's' && y->mode == 's')
        return *why = 4;
    if (x->owner[0] && !strcmp(x->owner, y->owner))
        return *why = 2;
    return 0;
}

static const char *mode_name(const acq *x)
{
    return x->mode == 'x' ? "" : (x->mode == 'r' ? "read" : "write");
}

static void print_overlap(const check *ck, const char *what, const ival *p, const ival *q)
{
    const acq *x = &ck->acqs[p->acq], *y = &ck->acqs[q->acq];
    printf("  %s OVERLAP on %s: worker %d value %s%s%s [%lld, %lld] and worker %d "
           "value %s%s%s [%lld, %lld]: %.3f ms together\n",
           what, p->res, x->worker, x->value, x->mode == 'x' ? "" : " mode ", mode_name(x),
           (long long)p->start, (long long)p->end, y->worker, y->value,
           y->mode == 'x' ? "" : " mode ", mode_name(y), (long long)q->start, (long long)q->end,
           (double)(min64(p->end, q->end) - q->start) / 1000.0);
}

/* Interval j against the still open ones of its resource (act[0..*nact),
 * pruned of those that ended, then j added): the first it may not share
 * the resource with, else NONE; *why ORs 1 (readers met), 2 (one owner). */
#define NONE ((size_t)-1)
static size_t clash(const check *ck, const ival *v, size_t j, size_t *act, size_t *nact,
                    int *why)
{
    size_t k = 0, bad = NONE;
    *why = 0;
    for (size_t m = 0; m < *nact; m++) {
        int w;
        if (v[act[m]].end <= v[j].start)
            continue;   /* ended: dropped */
        act[k++] = act[m];
        if (!compatible(ck, v[act[m]].acq, v[j].acq, &w)) {
            if (bad == NONE)
                bad = act[m];
        } else {
            *why |= w;
        }
    }
    *nact = k;
    act[(*nact)++] = j;
    return bad;
}

/* Count the intervals that overlap an earlier one of the same resource
 * (sorted by start) they may not share it with; print the first few when
 * `print`.  The allowed ones are counted into shared[0] (readers) and
 * shared[1] (one owner) when shared is not NULL. */
static long long overlaps(const check *ck, ival *v, size_t n, int print, const char *what,
                          long long *shared)
{
    long long count = 0;
    if (n == 0)
        return 0;       /* (v is NULL: no acquisition at all) */
    qsort(v, n, sizeof *v, ival_cmp);
    size_t *act = rl_xmalloc(n * sizeof *act);   /* holds still open */
    for (size_t i = 0, j; i < n; i = j) {
        size_t nact = 0;
        for (j = i; j < n && !strcmp(v[j].res, v[i].res); j++) {
            int why;
            size_t bad = clash(ck, v, j, act, &nact, &why);
            if (bad == NONE && shared) {
                shared[0] += (why & 1) != 0;
                shared[1] += (why & 2) != 0;
            }
            if (bad != NONE && ++count <= 3 && print)
                print_overlap(ck, what, &v[bad], &v[j]);
        }
    }
    free(act);
    return count;
}

/* ---- fencing tokens --------------------------------------------------------- */

/* Fencing: per resource, in the order the acquires returned (the holding
 * order, as long as holds do not overlap), every token must be larger than
 * the one before.  Acquisitions without a token are skipped. */
static int acq_after_cmp(const void *pa, const void *pb)
{
    const acq *a = *(const acq *const *)pa, *b = *(const acq *const *)pb;
    int c = strcmp(a->res, b->res);
    if (c)
        return c;
    return (a->after > b->after) - (a->after < b->after);
}

/* re-entrant: the holds of one owner overlap, and their acquires may
 * return in any order; a hold must only come after every other owner's
 * token on the resource: the largest of those before q (sorted[0..k)) */
static const acq *other_owner_max(const acq *const *sorted, size_t k, const acq *q)
{
    const acq *p = NULL;
    for (size_t m = k; m-- > 0 && !strcmp(sorted[m]->res, q->res);)
        if (strcmp(sorted[m]->owner, q->owner) && (!p || sorted[m]->token > p->token))
            p = sorted[m];
    return p;
}

static long long token_violations(const check *ck, size_t *checked)
{
    const acq **s = rl_xmalloc(ck->nacq * sizeof *s);
    size_t n = 0;
    long long bad = 0;
    for (size_t i = 0; i < ck->nacq; i++)
        if (ck->acqs[i].token > 0)
            s[n++] = &ck->acqs[i];
    qsort(s, n, sizeof *s, acq_after_cmp);
    for (size_t k = 1; k < n; k++) {
        const acq *p = s[k - 1], *q = s[k];
        if (q->owner[0] && !(p = other_owner_max(s, k, q)))
            continue;
        if (strcmp(p->res, q->res) || q->token > p->token)
            continue;
        if (++bad <= 3)
            printf("  TOKEN VIOLATION on %s: worker %d token %lld at %lld, then worker %d "
                   "token %lld at %lld\n", q->res, p->worker, p->token, (long long)p->after,
                   q->worker, q->token, (long long)q->after);
    }
    *checked = n;
    free(s);
    return bad;
}

/* ---- intervals -------------------------------------------------------------- */

static int int_cmp(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

/* How many workers (clients) acquired at least once. */
static size_t distinct_holders(const check *ck)
{
    int *w = rl_xmalloc(ck->nacq * sizeof *w);
    size_t n = 0;
    for (size_t i = 0; i < ck->nacq; i++)
        w[i] = ck->acqs[i].worker;
    qsort(w, ck->nacq, sizeof *w, int_cmp);
    for (size_t i = 0; i < ck->nacq; i++)
        n += i == 0 || w[i] != w[i - 1];
    free(w);
    return n;
}

/* the pooled copy of a resource name of `len` bytes */
static const char *pool_name(check *ck, const char *res, size_t len)
{
    for (size_t k = 0; k < ck->nrespool; k++)
        if (strlen(ck->respool[k]) == len && !memcmp(ck->respool[k], res, len))
            return ck->respool[k];
    ck->respool = rl_grow(ck->respool, &ck->caprespool, ck->nrespool + 1, sizeof *ck->respool);
    char *name = ck->respool[ck->nrespool++] = strndup(res, len);
    if (!name)
        exit(2);
    return name;
}

/* One interval per resource of its acquisition (a multi lock's are joined
 * by '+' in its res); appended to *v.  Returns the new count. */
static size_t expand(check *ck, ival **v, size_t *cap, size_t n, ival x)
{
    const char *res = ck->acqs[x.acq].res;
    while (*res) {
        size_t len = strcspn(res, "+");
        *v = rl_grow(*v, cap, n + 1, sizeof **v);
        x.res = pool_name(ck, res, len);
        (*v)[n++] = x;
        res += len + (res[len] == '+');
    }
    return n;
}

static int64_t naive_end(const acq *a) { return a->release ? a->release : a->valid_until; }

/* the observed span: first acquire attempt to last interval end */
static void span(const check *ck, report *r)
{
    r->t0 = INT64_MAX;
    r->t1 = 0;
    for (size_t i = 0; i < ck->nacq; i++) {
        r->t0 = min64(r->t0, ck->acqs[i].before);
        r->t1 = max64(r->t1, naive_end(&ck->acqs[i]));
    }
    for (size_t i = 0; i < ck->nfail; i++) {
        r->t0 = min64(r->t0, ck->fails[i].before);
        r->t1 = max64(r->t1, ck->fails[i].after);
    }
}

/* ---- the report ------------------------------------------------------------- */

/* held share per resource: union of the (sorted) safe intervals */
static void print_held_share(const ival *safe, size_t ns, report *r)
{
    printf("held share (union of validity-bounded holding intervals / span):\n");
    double total_pct = 0;
    int nres = 0;
    for (size_t i = 0, j; i < ns; i = j) {
        int64_t held = 0, cs = safe[i].start, ce = safe[i].end;
        long long cnt = 0;
        for (j = i; j < ns && !strcmp(safe[j].res, safe[i].res); j++) {
            cnt++;
            if (safe[j].start > ce) {
                held += ce - cs;
                cs = safe[j].start;
                ce = safe[j].end;
            } else if (safe[j].end > ce) {
                ce = safe[j].end;
            }
        }
        held += ce - cs;
        double pct = r->t1 > r->t0 ? 100.0 * (double)held / (double)(r->t1 - r->t0) : 0;
        printf("  %-20s %6lld acquisitions, held %5.1f%% of the time\n", safe[i].res, cnt, pct);
        total_pct += pct;
        nres++;
    }
    r->held_pct = nres ? total_pct / nres : 0;
    r->nres = nres;
}

static void print_codes(const long long *by_code)
{
    for (int c = 0; c < NCODES; c++)
        if (by_code[c])
            printf(" %s=%lld", rl_codes[c], by_code[c]);
}

static void print_failures(const check *ck, report *r)
{
    for (size_t i = 0; i < ck->nfail; i++)
        r->fb[ck->fails[i].code]++;
    printf("failed acquires by reason:");
    print_codes(r->fb);
    printf("%s\n", ck->nfail ? "" : " none");
    printf("node events seen by the clients: %lld down, %lld up\n", ck->node_down, ck->node_up);
}

/* acquisitions before / during / between / after the faults */
static void count_phases(const check *ck, report *r)
{
    int64_t first = INT64_MAX, lastend = 0;
    for (size_t k = 0; k < ck->nfault; k++) {
        first = min64(first, ck->faults[k].start);
        lastend = max64(lastend, ck->faults[k].end);
    }
    for (size_t i = 0; i < ck->nacq; i++) {
        int64_t t = ck->acqs[i].after;
        int in = 0;
        for (size_t k = 0; k < ck->nfault && !in; k++)
            in = t >= ck->faults[k].start && t <= ck->faults[k].end;
        if (in)
            r->during++;
        else if (t < first)
            r->before++;
        else if (t > lastend)
            r->after++;
        else
            r->between++;
    }
}

/* recovery: the first acquisition after the fault ended; -1: none */
static int64_t recovery_us(const check *ck, const fault *x)
{
    int64_t rec = -1;
    for (size_t i = 0; i < ck->nacq; i++) {
        if (ck->acqs[i].after <= x->end)
            continue;
        int64_t d = ck->acqs[i].after - x->end;
        if (rec < 0 || d < rec)
            rec = d;
    }
    return rec;
}

/* reconnection: the last "node up" a client logged after the fault ended,
 * before the next fault (at most 5 s later); -1: none */
static int64_t reconnected_us(const check *ck, const fault *x)
{
    int64_t limit = x->end + 5000000, rec_all = -1;
    for (size_t j = 0; j < ck->nfault; j++)
        if (ck->faults[j].start > x->end && ck->faults[j].start < limit)
            limit = ck->faults[j].start;
    for (size_t i = 0; i < ck->nups; i++)
        if (ck->ups[i] > x->end && ck->ups[i] < limit && ck->ups[i] - x->end > rec_all)
            rec_all = ck->ups[i] - x->end;
    return rec_all;
}

static void print_fault(const check *ck, const fault *x, report *r)
{
    long long acq_in = 0, f_in[NCODES] = {0}, f_tot = 0;
    for (size_t i = 0; i < ck->nacq; i++)
        acq_in += ck->acqs[i].before >= x->start && ck->acqs[i].after <= x->end;
    for (size_t i = 0; i < ck->nfail; i++)
        if (ck->fails[i].after >= x->start && ck->fails[i].before <= x->end) {
            f_in[ck->fails[i].code]++;
            f_tot++;
        }
    if (!strcmp(x->kind, "quorum-outage") || !strcmp(x->kind, "aof-kill-major"))
        r->outage_acq += acq_in;
    int64_t rec = recovery_us(ck, x), rec_all = reconnected_us(ck, x);
    printf("  %-14s at %7.3f s for %6.0f ms: %lld acquisitions, %lld failures", x->kind,
           (double)(x->start - r->t0) / 1e6, (double)(x->end - x->start) / 1e3, acq_in, f_tot);
    print_codes(f_in);
    if (x->back > x->end)
        printf("; servers answering %.0f ms after restart", (double)(x->back - x->end) / 1e3);
    if (rec >= 0)
        printf("; recovery %.1f ms", (double)rec / 1e3);
    if (rec_all >= 0)
        printf("; every client reconnected %.1f ms", (double)rec_all / 1e3);
    printf("\n      (%s)\n", x->text);
}

static void print_faults(const check *ck, report *r)
{
    if (!ck->nfault)
        return;
    printf("faults (at: seconds from the first acquire attempt; acquisitions: started\n"
           "and completed inside the fault; failures: overlapping it; times after the\n"
           "fault ended (restart began): servers answering, recovery = first\n"
           "acquisition, every client reconnected = last node-up event logged):\n");
    for (size_t k = 0; k < ck->nfault; k++)
        print_fault(ck, &ck->faults[k], r);
}

static void print_pauses(const check *ck, report *r)
{
    for (size_t i = 0; i < ck->nacq; i++) {
        const acq *a = &ck->acqs[i];
        if (!a->paused)
            continue;
        r->pauses++;
        r->expired += a->left_ms <= 0;
        printf("client pause: worker %d stopped %lld ms while holding %s (validity %lld ms at "
               "acquisition); on resume the library reported %lld ms left: %s\n",
               a->worker, (long long)a->stopped_ms, a->res,
               (long long)((a->valid_until - a->after) / 1000), (long long)a->left_ms,
               a->left_ms <= 0 ? "it knows its lock ran out" : "STILL BELIEVES IT HOLDS");
    }
    if (r->nov)
        printf("note: %lld overlap(s) of naive intervals: a client that ignored its validity "
               "after a pause would have acted together with the next holder (only fencing "
               "tokens close that)\n", r->nov);
    printf("acquisitions before/during/between/after faults: %lld/%lld/%lld/%lld\n", r->before,
           r->during, r->between, r->after);
}

/* extends, by outcome and by whether a slow-master fault was on */
static void print_extends(const check *ck, report *r)
{
    for (size_t i = 0; i < ck->next; i++) {
        const ext *t = &ck->exts[i];
        int slow = 0;
        for (size_t k = 0; k < ck->nfault && !slow; k++)
            slow = !strncmp(ck->faults[k].kind, "slow", 4) && t->end >= ck->faults[k].start &&
                   t->start <= ck->faults[k].end;
        r->ext_failed += t->failed;
        r->ext_shorter += t->shorter;
        r->ext_slow += slow;
        r->ext_failed_slow += slow && t->failed;
    }
    printf("extends: %zu (%lld failed, %lld with a ttl shorter than the validity left; "
           "%lld during slow-master faults, %lld of them failed)\n",
           ck->next, r->ext_failed, r->ext_shorter, r->ext_slow, r->ext_failed_slow);
}

static void print_workers(const check *ck)
{
    if (ck->loop_blocks)
        printf("event loop blocks: %lld (%lld while an operation was in flight)\n",
               ck->loop_blocks, ck->loop_blocks_inflight);
    if (ck->async_workers || ck->small_pending)
        printf("workers: %lld async, %lld with a small max_pending (<= 8)\n", ck->async_workers,
               ck->small_pending);
    if (ck->y_setresets >= 0)
        printf("rlproxy: %lld connections reset right after forwarding a SET, %lld given a "
               "hostile reply\n", ck->y_setresets, ck->y_hostile);
}

/* fault kinds, in the order first injected (at most 32) */
static void print_fault_kinds(const check *ck, report *r)
{
    for (size_t k = 0; k < ck->nfault; k++) {
        int j;
        for (j = 0; j < r->nk && strcmp(r->kinds[j], ck->faults[k].kind); j++)
            ;
        if (j == r->nk) {
            if (r->nk == 32)
                continue;
            snprintf(r->kinds[r->nk], sizeof r->kinds[0], "%s", ck->faults[k].kind);
            r->kcount[r->nk++] = 0;
        }
        r->kcount[j]++;
    }
    if (!r->nk)
        return;
    printf("faults by kind:");
    for (int j = 0; j < r->nk; j++)
        printf(" %s=%lld", r->kinds[j], r->kcount[j]);
    printf("\n");
}

static double slack_ms(int64_t us) { return us == INT64_MAX ? -1.0 : (double)us / 1e3; }

/* the validity auditor */
static void print_audit(const check *ck, report *r)
{
    const audit_sum *u = &ck->audit;
    r->viol = ck->viol_lines > u->viol ? ck->viol_lines : u->viol;
    printf("validity auditor: %lld checks, %lld judged (%lld skipped: an operation started or "
           "completed, or the validity ran out meanwhile), %lld master answers missing; smallest slack "
           "%.3f ms, slowest answer %.3f ms; %lld violation(s)\n",
           u->checks, u->judged, u->skipped, u->unknown, slack_ms(u->min_slack),
           (double)u->max_rtt / 1e3, r->viol);
    for (long long i = 0; i < ck->viol_lines && i < 3; i++)
        printf("  AUDIT VIOLATION %s", ck->first_viol[i]);
    r->iviol = ck->iviol_lines > u->iviol ? ck->iviol_lines : u->iviol;
    printf("  while an extend was in flight (async workers; %lld extends published at their "
           "start, %lld of them above start + ttl): %lld judged, smallest slack %.3f ms; %lld "
           "violation(s)\n",
           ck->ext_inflight, ck->ext_inflight_above, u->ijudged, slack_ms(u->imin_slack),
           r->iviol);
    for (long long i = 0; i < ck->iviol_lines && i < 3; i++) {
        int shown = 0;
        for (long long j = 0; j < ck->viol_lines && j < 3; j++)
            shown |= !strcmp(ck->first_viol[j], ck->first_iviol[i]);
        if (!shown)
            printf("  AUDIT VIOLATION (extend in flight) %s", ck->first_iviol[i]);
    }
}

static long long slack_us(int64_t us) { return (long long)(us == INT64_MAX ? -1 : us); }

static void print_result(const check *ck, const report *r)
{
    const audit_sum *u = &ck->audit;
    printf("RESULT acquisitions=%zu failures=%zu faults=%zu overlaps=%lld naive_overlaps=%lld "
           "before=%lld during=%lld between=%lld after=%lld held_pct=%.1f pauses=%lld "
           "pauses_expired=%lld outage_acquisitions=%lld audit_checks=%lld audit_judged=%lld "
           "audit_violations=%lld audit_min_slack_us=%lld audit_max_rtt_us=%lld "
           "audit_unknown=%lld extends=%zu extends_failed=%lld extends_shorter=%lld "
           "extends_in_slow=%lld extends_failed_in_slow=%lld loop_blocks=%lld "
           "loop_blocks_inflight=%lld efull=%lld async_workers=%lld small_pending_workers=%lld "
           "proxy_setresets=%lld proxy_hostile_conns=%lld audit_inflight_checks=%lld "
           "audit_inflight_violations=%lld audit_inflight_min_slack_us=%lld "
           "extends_inflight=%lld extends_inflight_above_ttl=%lld tokens=%zu "
           "token_violations=%lld lost_notices=%lld watchdog_moves=%lld",
           ck->nacq, ck->nfail, ck->nfault, r->ov, r->nov, r->before, r->during, r->between,
           r->after, r->held_pct, r->pauses, r->expired, r->outage_acq, u->checks, u->judged,
           r->viol, slack_us(u->min_slack), (long long)u->max_rtt, u->unknown, ck->next,
           r->ext_failed, r->ext_shorter, r->ext_slow, r->ext_failed_slow, ck->loop_blocks,
           ck->loop_blocks_inflight, r->fb[CODE_EFULL], ck->async_workers, ck->small_pending,
           ck->y_setresets, ck->y_hostile, u->ijudged, r->iviol, slack_us(u->imin_slack),
           ck->ext_inflight, ck->ext_inflight_above, r->ntok, r->tbad, ck->lost_notices,
           ck->watchdog_moves);
    printf(" nested_holds=%lld partial_releases=%lld reads=%lld writes=%lld "
           "reader_overlaps=%lld owner_overlaps=%lld multi_acquisitions=%lld kind=%s "
           "logs=%d holders=%zu resources=%d",
           ck->nested_holds, ck->partial_releases, ck->reads, ck->writes, r->reader_overlaps,
           r->owner_overlaps, ck->multi_acqs, ck->kinds_seen[0] ? ck->kinds_seen : "mutex",
           r->nlogs, r->holders, r->nres);
    printf(" permits=%d semaphore_acquisitions=%lld max_holders=%lld permit_overlaps=%lld "
           "crashed_holds=%lld crashed_returned=%lld leftover_keys=%lld",
           ck->permits, r->sem.acqs, r->sem.max_holders, r->sem.over, r->sem.crashed,
           r->sem.returned, ck->leftover_keys);
    for (int j = 0; j < r->nk; j++)
        printf(" fault_%s=%lld", r->kinds[j], r->kcount[j]);
    if (ck->c_figures[0])
        printf(" %s", ck->c_figures);
    printf("\n");
}

/* mutual exclusion: overlaps of the validity-bounded segments (failed),
 * of the naive intervals (reported), fencing tokens out of order */
static void check_exclusion(check *ck, report *r)
{
    size_t ns = 0, nn = 0, capn = 0, caps = 0;
    ival *naive = NULL, *safe = NULL;
    for (size_t i = 0; i < ck->nseg; i++)
        ns = expand(ck, &safe, &caps, ns, ck->segs[i]);
    for (size_t i = 0; i < ck->nacq; i++)
        if (naive_end(&ck->acqs[i]) > ck->acqs[i].after)
            nn = expand(ck, &naive, &capn, nn,
                        (ival){ck->acqs[i].after, naive_end(&ck->acqs[i]), i, NULL});
    r->holders = distinct_holders(ck);
    printf("rl-check: %d logs, %zu acquisitions by %zu workers, %zu failed acquires, %zu "
           "faults, span %.1f s\n",
           r->nlogs, ck->nacq, r->holders, ck->nfail, ck->nfault,
           ck->nacq + ck->nfail ? (double)(r->t1 - r->t0) / 1e6 : 0.0);
    long long shared[2] = {0, 0};
    r->ov = overlaps(ck, safe, ns, 1, "validity", shared);
    r->nov = overlaps(ck, naive, nn, 1, "naive", NULL);
    r->reader_overlaps = shared[0];
    r->owner_overlaps = shared[1];
    check_permits(ck, safe, ns, &r->sem);   /* safe: sorted by overlaps() */
    r->tbad = token_violations(ck, &r->ntok);
    if (ck->kinds_seen[0])
        printf("lock kinds: %s; %lld nested holds, %lld releases that kept the lock, %lld "
               "reads, %lld writes, %lld multi-resource acquisitions; allowed overlaps: %lld "
               "of readers, %lld of one re-entrant owner\n",
               ck->kinds_seen, ck->nested_holds, ck->partial_releases, ck->reads, ck->writes,
               ck->multi_acqs, r->reader_overlaps, r->owner_overlaps);
    if (r->ntok)
        printf("fencing tokens: %zu acquisitions with a token, %lld out of order\n", r->ntok,
               r->tbad);
    print_held_share(safe, ns, r);
    free(safe);
    free(naive);
}

/* The logs and faults file named on the command line, read in order; 0,
 * or the exit status. */
static int read_args(check *ck, int argc, char **argv, report *r)
{
    const char *faults = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--faults") && i + 1 < argc) {
            faults = argv[++i];
        } else if (!strcmp(argv[i], "--nodes") && i + 1 < argc) {
            ck->max_nodes = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--permits") && i + 1 < argc) {
            ck->permits = atoi(argv[++i]);
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: rl-check [--faults FILE] [--nodes N] [--permits P] LOG...\n");
            return 2;
        } else if (read_log(ck, argv[i], r->nlogs++) != 0) {
            return 2;
        }
    }
    if (r->nlogs == 0) {
        fprintf(stderr, "rl-check: no log given\n");
        return 2;
    }
    for (size_t i = 0; i < ck->nacq; i++)
        if (ck->acqs[i].mode == 's' && ck->permits < 1) {
            fprintf(stderr, "rl-check: semaphore holds but no permit count (K semaphore P)\n");
            return 2;
        }
    return faults && read_faults(ck, faults) != 0 ? 2 : 0;
}

int main(int argc, char **argv)
{
    static check ck;
    static report r;
    check_init(&ck);
    int rc = read_args(&ck, argc, argv, &r);
    if (rc)
        return rc;
    span(&ck, &r);
    check_exclusion(&ck, &r);
    print_failures(&ck, &r);
    count_phases(&ck, &r);
    print_faults(&ck, &r);
    print_pauses(&ck, &r);
    print_extends(&ck, &r);
    print_workers(&ck);
    print_fault_kinds(&ck, &r);
    print_audit(&ck, &r);
    int bad = r.ov || r.viol || r.tbad || r.sem.over || ck.leftover_keys > 0;
    printf("%s: %lld overlap(s) of validity intervals, %lld auditor violation(s), %lld "
           "fencing token(s) out of order, %lld time(s) more holders than permits, %lld "
           "key(s) left behind\n", bad ? "FAIL" : "OK", r.ov, r.viol, r.tbad, r.sem.over,
           ck.leftover_keys > 0 ? ck.leftover_keys : 0);
    print_result(&ck, &r);
    check_free(&ck);
    return bad;
}
