/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* util.c -- redlock-bench's small helpers: the clock, the random numbers,
 * the counters the workloads feed, and number formatting. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "bench.h"

/* ---- helpers used by the workloads ------------------------------------------ */

int64_t rlb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

uint64_t rlb_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

void rlb_set_error(bench_shared *sh, const char *fmt, ...)
{
    pthread_mutex_lock(&sh->err_mu);
    if (!atomic_load(&sh->error)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sh->errmsg, sizeof(sh->errmsg), fmt, ap);
        va_end(ap);
        atomic_store(&sh->error, 1);
    }
    pthread_mutex_unlock(&sh->err_mu);
}

void rlb_request_stop(bench_shared *sh)
{
    int64_t zero = 0;
    atomic_compare_exchange_strong(&sh->stop_at_ns, &zero, rlb_now_ns());
    atomic_store(&sh->stop, 1);
}

int64_t rlb_stop_at(bench_shared *sh)
{
    int64_t v = atomic_load(&sh->stop_at_ns);
    return v ? v : rlb_now_ns();
}

int rlb_may_start(bench_thread *t, int consume, int *meas)
{
    bench_shared *sh = t->sh;
    if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
        return 0;
    *meas = atomic_load_explicit(&sh->measuring, memory_order_relaxed);
    if (consume && sh->cfg->ops && *meas) {
        uint64_t n = atomic_fetch_add_explicit(&sh->started, 1, memory_order_relaxed);
        if (n >= sh->cfg->ops) {
            rlb_request_stop(sh);
            return 0;
        }
    }
    return 1;
}

void rlb_record(bench_thread *t, int meas, int op, int64_t ns, int primary)
{
    if (ns < 0)
        ns = 0;
    if (meas)
        hist_record(t->st.lat[op], (uint64_t)ns);
    if (op == OP_ACQ)
        atomic_fetch_add_explicit(&t->live_acq, 1, memory_order_relaxed);
    if ((primary && t->prog) || (op == OP_ACQ && t->sec)) {
        pthread_mutex_lock(t->prog_mu);
        if (primary && t->prog)
            hist_record(t->prog, (uint64_t)ns);
        if (op == OP_ACQ && t->sec)
            hist_record(t->sec, (uint64_t)ns);
        pthread_mutex_unlock(t->prog_mu);
    }
}

void rlb_mark_release(bench_thread *t, long key, int64_t ns)
{
    bench_shared *sh = t->sh;
    if (!sh->last_release)
        return;
    atomic_store_explicit(&sh->last_releaser[key], t->id, memory_order_relaxed);
    atomic_store_explicit(&sh->last_release[key], ns, memory_order_release);
}

void rlb_record_handoff(bench_thread *t, int meas, long key, int64_t now)
{
    bench_shared *sh = t->sh;
    if (!sh->last_release)
        return;
    int64_t rel = atomic_exchange_explicit(&sh->last_release[key], 0, memory_order_acquire);
    int who = atomic_load_explicit(&sh->last_releaser[key], memory_order_relaxed);
    if (rel > 0 && meas) {
        uint64_t d = (uint64_t)(now > rel ? now - rel : 0);
        hist_record(t->st.handoff, d);
        if (who != t->id)
            hist_record(t->st.handoff_x, d);
    }
}

void rlb_count_op(bench_thread *t, int meas)
{
    atomic_fetch_add_explicit(&t->live_ops, 1, memory_order_relaxed);
    if (meas)
        t->st.ops++;
}

int rlb_code_index(int code)
{
    return (code <= 0 && code >= -10) ? -code : RLB_NCODES - 1;
}

void rlb_count_fail(bench_thread *t, int meas, int op, int code)
{
    atomic_fetch_add_explicit(&t->live_fail, 1, memory_order_relaxed);
    if (meas)
        t->st.fail[op][rlb_code_index(code)]++;
}

void rlb_count_raw_fail(bench_thread *t, int meas, int which)
{
    atomic_fetch_add_explicit(&t->live_fail, 1, memory_order_relaxed);
    if (meas)
        t->st.raw_fail[which]++;
}

int rlb_key(const bench_cfg *cfg, char *buf, size_t len, long k)
{
    int n = snprintf(buf, len, "%s:%ld", cfg->prefix, k);
    return n < (int)len ? n : (int)len - 1;
}

void rlb_run_id(char *buf, size_t len)
{
    snprintf(buf, len, "%lx.%llx", (unsigned long)getpid(),
             (unsigned long long)(rlb_now_ns() / 1000));
}

long rlb_slot_keys(const bench_cfg *cfg, long gidx)
{
    long own = (cfg->keys - gidx + cfg->concurrency - 1) / cfg->concurrency;
    return own < 1 ? 1 : own;
}

/* ---- the workloads' setup and teardown ------------------------------------------ */

int rlb_oom(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory");
    return -1;
}

void *rlb_impl_new(bench_thread *t, size_t size, char *err, size_t errlen)
{
    void *p = calloc(1, size);
    if (!p)
        rlb_oom(err, errlen);
    t->impl = p;
    return p;
}

void rlb_break(bench_thread *t, int *failed, const char *fmt, const char *what)
{
    if (*failed)
        return;
    *failed = 1;
    rlb_set_error(t->sh, fmt, what);
    event_base_loopbreak(t->base);
}

void rlb_event_free(struct event *ev)
{
    if (ev)
        event_free(ev);
}

/* ---- formatting ---------------------------------------------------------------- */

const char *rlb_fmt_count(char *buf, size_t len, uint64_t v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *rlb_fmt_lat(char *buf, size_t len, double ns)
{
    static const char *unit[] = {"ns", "us", "ms", "s"};
    int u = 0;
    while (ns >= 1000.0 && u < 3) {
        ns /= 1000.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%.0f %s", ns, unit[u]);
    else
        snprintf(buf, len, "%.*f %s", ns < 10 ? 2 : ns < 100 ? 1 : 0, ns, unit[u]);
    return buf;
}

