/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* metrics.c -- redlock_client_metrics: the client's counters and the
 * histograms of lock/metrics.c as OpenMetrics text (docs/metrics.md), into
 * the caller's buffer, with snprintf's contract: the text's full length is
 * returned whatever fits.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "client/client.h"

typedef struct out {
    char *buf;
    size_t size, len;       /* len: the whole text's, past what fits */
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len + 1 < o->size) {
        size_t room = o->size - 1 - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

__attribute__((format(printf, 2, 3)))
static void putf(out *o, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    put(o, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* A label value, escaped (\\, \", \n). */
static void put_escaped(out *o, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\' || *s == '"')
            put(o, "\\", 1), put(o, s, 1);
        else if (*s == '\n')
            put(o, "\\n", 2);
        else
            put(o, s, 1);
    }
}

/* Microseconds as seconds: "1.5" for 1500000 ("1.0" for a whole). */
static void put_seconds(out *o, int64_t us)
{
    char frac[8];
    size_t n;

    if (us < 0) {
        put(o, "-", 1);
        us = -us;
    }
    n = (size_t)snprintf(frac, sizeof frac, "%06" PRId64, us % 1000000);
    while (n > 1 && frac[n - 1] == '0')
        n--;
    putf(o, "%" PRId64 ".", us / 1000000);
    put(o, frac, n);
}

static void family(out *o, const char *name, const char *type, const char *unit,
                   const char *help)
{
    putf(o, "# TYPE %s %s\n", name, type);
    if (unit)
        putf(o, "# UNIT %s %s\n", name, unit);
    putf(o, "# HELP %s %s\n", name, help);
}

static const char *const kinds[REDLOCK__KINDS] = { "mutex", "reentrant", "read", "write",
                                                   "multi", "semaphore" };
static const char *const acq_outcomes[REDLOCK__ACQ_OUTCOMES] = {
    "acquired", "conflict", "unavailable", "error", "cancelled" };
static const char *const hold_outcomes[REDLOCK__HOLD_OUTCOMES] = {
    "released", "lost", "expired", "freed", "unknown" };
static const char *const ops_outcomes[REDLOCK__OPS_OUTCOMES] = {
    "ok", "refused", "unavailable", "error", "cancelled" };

static void hist(out *o, const char *name, const char *kind, const char *outcome,
                 const redlock__hist *h)
{
    uint64_t n = 0;

    for (size_t i = 0; i <= REDLOCK__BOUNDS; i++) {
        n += h->n[i];
        putf(o, "%s_bucket{kind=\"%s\",outcome=\"%s\",le=\"", name, kind, outcome);
        if (i < REDLOCK__BOUNDS)
            put_seconds(o, redlock__bound_us[i]);
        else
            put(o, "+Inf", 4);
        putf(o, "\"} %" PRIu64 "\n", n);
    }
    putf(o, "%s_count{kind=\"%s\",outcome=\"%s\"} %" PRIu64 "\n", name, kind, outcome, n);
    putf(o, "%s_sum{kind=\"%s\",outcome=\"%s\"} ", name, kind, outcome);
    put_seconds(o, h->sum_us);
    put(o, "\n", 1);
}

static uint64_t hist_count(const redlock__hist *h)
{
    uint64_t n = 0;

    for (size_t i = 0; i <= REDLOCK__BOUNDS; i++)
        n += h->n[i];
    return n;
}

/* A histogram family by kind and outcome: the label sets that counted. */
static void hists(out *o, const char *name, const char *help, const redlock__hist *h,
                  size_t nout, const char *const *outcomes)
{
    family(o, name, "histogram", "seconds", help);
    for (size_t k = 0; k < REDLOCK__KINDS; k++)
        for (size_t i = 0; i < nout; i++)
            if (hist_count(&h[k * nout + i]))
                hist(o, name, kinds[k], outcomes[i], &h[k * nout + i]);
}

static void ops(out *o, const char *name, const char *help,
                const uint64_t (*n)[REDLOCK__OPS_OUTCOMES])
{
    family(o, name, "counter", NULL, help);
    for (size_t k = 0; k < REDLOCK__KINDS; k++)
        for (size_t i = 0; i < REDLOCK__OPS_OUTCOMES; i++)
            if (n[k][i])
                putf(o, "%s_total{kind=\"%s\",outcome=\"%s\"} %" PRIu64 "\n", name, kinds[k],
                     ops_outcomes[i], n[k][i]);
}

static void counter(out *o, const char *name, const char *help, uint64_t v)
{
    family(o, name, "counter", NULL, help);
    putf(o, "%s_total %" PRIu64 "\n", name, v);
}

static void acquire_counters(out *o, const redlock_acquire_stats *a)
{
    counter(o, "redlock_acquire_attempts", "Acquire attempts sent (first and retries).",
            a->attempts);
    counter(o, "redlock_acquire_attempts_won", "Acquire attempts that won a quorum.", a->won);
    counter(o, "redlock_split_votes", "Lost attempts whose masters' votes split between "
            "clients.", a->split_votes);
    counter(o, "redlock_announcements", "Release announcements heard for resources waited "
            "on.", a->announcements);
    counter(o, "redlock_wakeups", "Retries moved earlier by an announcement.", a->wakeups);
    counter(o, "redlock_subscribe_refused", "Masters whose ACL refused the wake-up channel.",
            a->subscribe_refused);
    counter(o, "redlock_notices", "Waiters' notices heard by this client as a holder.",
            a->notices);
    counter(o, "redlock_late_picks", "Picks made after a notice that crossed a plain "
            "release.", a->late_picks);
    counter(o, "redlock_looks", "Polls that looked first (one EXISTS) instead of an attempt.",
            a->looks);
}

/* One sample per master: `name`{node="..."[,extra]} */
static void node_sample(out *o, const char *name, const redlock__master *m, const char *extra)
{
    putf(o, "%s{node=\"", name);
    put_escaped(o, m->label);
    putf(o, "\"%s%s} ", extra ? "," : "", extra ? extra : "");
}

static void node_counter(out *o, const redlock__fleet *f, const char *name, const char *help,
                         size_t field)
{
    char sample[96];

    family(o, name, "counter", NULL, help);
    snprintf(sample, sizeof sample, "%s_total", name);
    for (size_t i = 0; i < f->n; i++) {
        const redlock__master *m = &f->masters[i];
        uint64_t v;
        memcpy(&v, (const char *)&m->stats + field, sizeof v);
        node_sample(o, sample, m, NULL);
        putf(o, "%" PRIu64 "\n", v);
    }
}

static void node_metrics(out *o, const redlock__fleet *f)
{
    static const struct { const char *name; size_t off; } votes[] = {
        { "ok", offsetof(redlock_node_stats, oks) },
        { "refused", offsetof(redlock_node_stats, refused) },
        { "timeout", offsetof(redlock_node_stats, timeouts) },
        { "error", offsetof(redlock_node_stats, errors) },
        { "unreachable", offsetof(redlock_node_stats, unreachable) },
        { "uncounted", offsetof(redlock_node_stats, uncounted) },
    };

    family(o, "redlock_node_up", "gauge", NULL, "1 when the master is connected (its handshake "
           "answered).");
    for (size_t i = 0; i < f->n; i++) {
        node_sample(o, "redlock_node_up", &f->masters[i], NULL);
        putf(o, "%d\n", redlock__vote_up(&f->masters[i]));
    }
    node_counter(o, f, "redlock_node_requests", "Requests sent to the master.",
                 offsetof(redlock_node_stats, requests));
    family(o, "redlock_node_votes", "counter", NULL, "The master's answers by vote.");
    for (size_t i = 0; i < f->n; i++)
        for (size_t v = 0; v < sizeof votes / sizeof *votes; v++) {
            char extra[32];
            uint64_t n;
            memcpy(&n, (const char *)&f->masters[i].stats + votes[v].off, sizeof n);
            snprintf(extra, sizeof extra, "vote=\"%s\"", votes[v].name);
            node_sample(o, "redlock_node_votes_total", &f->masters[i], extra);
            putf(o, "%" PRIu64 "\n", n);
        }
    node_counter(o, f, "redlock_node_connects", "Successful connections (1 + reconnects).",
                 offsetof(redlock_node_stats, connects));
    node_counter(o, f, "redlock_node_full", "Requests refused: max_pending were queued.",
                 offsetof(redlock_node_stats, fulls));
    node_counter(o, f, "redlock_node_undos", "Roll-backs and owed releases sent.",
                 offsetof(redlock_node_stats, undos));
    family(o, "redlock_node_restarts", "counter", NULL, "Restarts seen (the run_id changed "
           "between two handshakes).");
    for (size_t i = 0; i < f->n; i++) {
        node_sample(o, "redlock_node_restarts_total", &f->masters[i], NULL);
        putf(o, "%" PRIu64 "\n", f->masters[i].guard.restarts);
    }
    family(o, "redlock_node_clock_jumps", "counter", NULL, "Clock samples that moved by more "
           "than the drift allowance.");
    for (size_t i = 0; i < f->n; i++) {
        node_sample(o, "redlock_node_clock_jumps_total", &f->masters[i], NULL);
        putf(o, "%" PRIu64 "\n", f->masters[i].guard.jumps);
    }
    family(o, "redlock_node_last_rtt_seconds", "gauge", "seconds", "The master's last "
           "request-to-reply time (no sample before its first reply).");
    for (size_t i = 0; i < f->n; i++) {
        if (f->masters[i].stats.last_rtt_us < 0)
            continue;
        node_sample(o, "redlock_node_last_rtt_seconds", &f->masters[i], NULL);
        put_seconds(o, f->masters[i].stats.last_rtt_us);
        put(o, "\n", 1);
    }
}

static void render(out *o, const redlock_client *c)
{
    const redlock__metrics *m = &c->metrics;

    hists(o, "redlock_acquire_duration_seconds", "Acquires, from their start to their "
          "outcome.", &m->acquire[0][0], REDLOCK__ACQ_OUTCOMES, acq_outcomes);
    hists(o, "redlock_acquire_wait_seconds", "Acquires that waited for a lock held elsewhere: "
          "from their first refused attempt to their outcome.", &m->wait[0][0],
          REDLOCK__ACQ_OUTCOMES, acq_outcomes);
    hists(o, "redlock_hold_duration_seconds", "Holds, from the acquire that won to their "
          "end.", &m->hold[0][0], REDLOCK__HOLD_OUTCOMES, hold_outcomes);
    ops(o, "redlock_extends", "Extends completed.", m->extends);
    ops(o, "redlock_releases", "Releases completed.", m->releases);
    acquire_counters(o, &c->astats);
    family(o, "redlock_masters", "gauge", NULL, "Masters configured.");
    putf(o, "redlock_masters %zu\n", c->fleet.n);
    family(o, "redlock_masters_connected", "gauge", NULL, "Masters connected now.");
    {
        size_t up = 0;
        for (size_t i = 0; i < c->fleet.n; i++)
            up += redlock__vote_up(&c->fleet.masters[i]);
        putf(o, "redlock_masters_connected %zu\n", up);
    }
    node_metrics(o, &c->fleet);
    put(o, "# EOF\n", 6);
}

static int64_t metrics_ungated(const redlock_client *c, char *buf, size_t size)
{
    out o = { buf, size, 0 };

    if (!c)
        return REDLOCK_EINVAL;
    if (!buf && size) {
        /* errstr is the client's only text, written as the constructors do */
        redlock_client *w = (redlock_client *)(uintptr_t)c;
        snprintf(w->errstr, sizeof w->errstr, "metrics: buf is NULL but size is %zu", size);
        return REDLOCK_EINVAL;
    }
    render(&o, c);
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return (int64_t)o.len;
}

int64_t redlock_client_metrics(const redlock_client *c, char *buf, size_t size)
{
    REDLOCK__GATED(c, int64_t, metrics_ungated(c, buf, size));
}
