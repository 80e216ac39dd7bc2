/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* bench.h -- shared types of redlock-bench.
 *
 * The files' layers: a file calls only files below it; what goes back up
 * goes through return values and callbacks (bench_impl, rconn_ops).
 *   main.c        the runs and the summary; calls every layer below
 *   spawn.c       --spawn: the bench's own masters or clusters
 *   kinds.c       --kinds: rounds of phases, one kind after another
 *   phase.c       one measured phase: threads, warm-up, window, live line
 *   lib_client.c, raw.c, handoff.c, report.c, opts_check.c
 *                 the workloads (a client and its loop), the reports, and
 *                 the options' cross-checks
 *   lib_work.c    a library slot's operations and the --rate schedule
 *   opts.c, export.c, mstats.c
 *                 the command line and the names; --hist; the masters' INFO
 *   util.c, hist.c, rawconn.c, holders.c, mconn.c
 *                 counters, clock, formatting; the histogram; the
 *                 baselines' connection; contend's holders' check; the
 *                 masters' stats connections (a cluster vote's masters) */
#ifndef RLB_BENCH_H
#define RLB_BENCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "redlock.h"

struct event_base;

enum {
    WL_CYCLE,   /* try_acquire + release on distinct keys (no contention) */
    WL_CONTEND, /* acquire (retry policy), hold, release on few shared keys */
    WL_TRY,     /* try_acquire (+ release when it worked) on random keys */
    WL_EXTEND,  /* try_acquire, extend many times, release */
    WL_RAW      /* the raw-command baseline only */
};

typedef struct bench_cfg {
    const char *const *nodes;
    size_t nnodes;
    size_t quorum;
    int workload;
    int concurrency;      /* operations in flight, all clients together */
    int clients;          /* independent clients: each its own redlock_client + connections */
    int threads;          /* threads running them (clients share a thread's event_base) */
    double rate;          /* --rate: operations started per second (0: closed loop) */
    const char *tls_ca, *tls_cert, *tls_key, *tls_server_name;  /* NULL: none */
    const char *hist_path; /* --hist FILE, or NULL */
    int metrics;          /* --metrics: the first client's metrics text on stdout */
    const char *metrics_path; /* --metrics-file FILE, or NULL */
    double duration;      /* seconds (when ops == 0) */
    uint64_t ops;         /* stop after this many measured ops (0: duration) */
    double warmup;        /* seconds before measuring */
    int64_t ttl_ms;
    long keys;            /* key space */
    int64_t hold_ms;      /* contend: how long a lock is held */
    int extends;          /* extend: extends per acquisition */
    int fencing;          /* locks with fencing tokens */
    int kind;             /* the locks' kind: REDLOCK_KIND_* (--kind) */
    int resources;        /* multi: resources per lock (--resources) */
    int writers;          /* rw: how many of the clients write (--writers) */
    int permits;          /* semaphore: its permits (--permits) */
    int fake_overlap;     /* --fake-overlap: the holders' check must fail (holders.c) */
    int retry_count;      /* < 0: library default */
    int64_t retry_delay_ms, retry_jitter_ms, node_timeout_ms; /* < 0: default */
    int64_t cluster_refresh_ms;  /* < 0: default */
    int replica_acks;     /* the clients' replica_acks (--replica-acks) */
    int baseline;
    int raw_chained;      /* raw: per-node SET->release chaining */
    int json;
    int rss_check;
    int progress;         /* show the live line */
    int progress_fd;
    uint64_t seed;
    char prefix[64];      /* key prefix unique to this run */
} bench_cfg;

/* The command line (opts.c): the runs' configuration and what main() uses. */
#define RLB_MAX_REPEAT 1000
#define RLB_MAX_SPAWNED 256   /* --spawn N --shards S: N x S masters at most */
typedef struct bench_opts {
    bench_cfg cfg;
    int spawn;            /* start this many local redis-servers (0: addrs) */
    int shards;           /* --shards: each spawned vote a cluster of this many
                           * masters (0: plain masters) */
    int replicas;         /* --replicas: each of their masters with this many */
    int compare_acks;     /* --compare-replica-acks N (0: no comparison) */
    const char *const *addrs;  /* the masters given on the command line */
    size_t naddrs;
    int repeat;           /* rounds, 1 .. RLB_MAX_REPEAT */
    int raw_mode;         /* --raw-mode (opts.c); -1: by concurrency */
    const char *kinds;    /* --kinds: the kinds to compare with the mutex, or NULL */
    int resources_given;  /* --resources was given (it is for multi locks) */
    int writers_given, permits_given;  /* (for rw, for the semaphore) */
} bench_opts;

/* opts.c: parse the command line into *o, the fixed defaults applied.
 * Returns -1 to go on (to rlb_settle_options), else the exit status: after
 * --help or --self-check, or after reporting a bad command line on stderr. */
int rlb_options(int argc, char **argv, bench_opts *o);
/* opts_check.c: the checks across options and the defaults that depend on
 * others; -1 to go on, else the exit status (2, after a message). */
int rlb_settle_options(bench_opts *o);
enum { RLB_RAW_CHAINED, RLB_RAW_BARRIER };   /* bench_opts.raw_mode */
const char *rlb_workload_name(int workload);
/* --kind's name of REDLOCK_KIND_* k ("mutex", "reentrant", "read", ...). */
const char *rlb_kind_name(int k);
/* The kinds in LIST (comma-separated names, or "all": the workload's) into
 * out[], mutex first, each once; how many, or -1 after saying on stderr
 * what is wrong. */
int rlb_parse_kinds(const char *list, int workload, int *out);
/* The bench's kinds beyond the library's REDLOCK_KIND_* (0 .. 4): the
 * semaphore (the library's kind 5, when built with it) and "rw", a
 * read/write lock whose clients are --writers writers and the rest readers. */
#define RLB_KIND_SEMAPHORE 5
#define RLB_KIND_RW 6
#define RLB_NKINDS 7
/* Does this build have the semaphore (redlock_lock_new_semaphore)? */
#ifdef REDLOCK_KIND_SEMAPHORE
#define RLB_HAVE_SEMAPHORE 1
#else
#define RLB_HAVE_SEMAPHORE 0
#endif
#define RLB_MAX_RESOURCES 64

/* spawn.c: --spawn N [--shards S]: start the votes, point o->cfg at them
 * (nodes, nnodes) and say so; NULL after a message on stderr.  stop: kill
 * them all and remove their files (NULL is ok). */
typedef struct rlb_spawned rlb_spawned;
rlb_spawned *rlb_spawn(bench_opts *o);
void rlb_spawn_stop(rlb_spawned *s);

/* acks.c: --compare-replica-acks N: the mutex's cycle with replica_acks 0
 * and N in interleaved rounds of one run.  Returns the exit status. */
int rlb_run_acks(bench_opts *o);

/* kinds.c: --kinds, each kind against the mutex in the same run
 * (interleaved rounds): the cycle's rate, or contend's figures.  Returns
 * the exit status (3: a kind's holders' invariant was broken). */
int rlb_run_kinds(bench_opts *o);

/* lib_client.c: the metrics text (redlock_client_metrics) of the first
 * client of the last library phase, kept as it is freed (--metrics); NULL
 * when none was.  rlb_write_metrics writes it to stdout or --metrics-file:
 * 0, or 1 after a message. */
const char *rlb_metrics_text(void);
int rlb_write_metrics(const bench_cfg *cfg);

/* One phase's figures for --kinds. */
typedef struct rlb_kind_figs {
    double cycles_per_s;      /* cycle: cycles/s */
    double acq_per_s;         /* contend: acquisitions/s in the window */
    double handoff_p50_ns, wait_p50_ns, wait_p99_ns, jain;
    double masters_cpu_us;    /* the masters' CPU per cycle, us (-1: not available) */
    double held_share;        /* contend: share of the window the key was held */
    int max_holders;
    uint64_t violations;
    /* rw: per side (readers, writers) the wait p50, p99, max (ns) and the
     * share of the time held */
    double side_wait[2][3], side_held[2];
} rlb_kind_figs;

/* phase.c: one measured phase of the library's workload on cfg; its
 * figures into *f.  -1 on error (message in err). */
int rlb_run_lib_phase(const bench_cfg *cfg, const char *label, rlb_kind_figs *f, char *err,
                      size_t errlen);

enum { OP_ACQ, OP_REL, OP_EXT, OP_N };
#define RLB_NCODES 12     /* index -code for codes 0..-10; 11: anything else */
enum { RAWF_SET, RAWF_REL, RAWF_ERR, RAWF_N };

typedef struct bench_stats {
    hist *lat[OP_N];      /* successful operations' latency, ns */
    hist *handoff;        /* contend: release start -> next acquire, ns */
    hist *handoff_x;      /* the same, when another client acquired it */
    hist *wait_side[2];   /* rw: the readers' and the writers' acquire latency */
    uint64_t cycles;      /* acquire + release both done */
    uint64_t ops;         /* primary operations completed (rlb_count_op) */
    uint64_t acq_ok;      /* successful acquisitions */
    uint64_t tries;       /* acquire attempts completed */
    uint64_t extends_ok;
    /* the library's per-client acquire counters (redlock_client_acquire_stats) */
    uint64_t lib_attempts, lib_won, lib_split_votes, lib_wakeups;
    int have_lib_stats;
    /* --rate: starts made, made late (> 1 ms after their time), still due at the end */
    uint64_t sched_started, sched_late, sched_missed;
    uint64_t sched_max_lag_ns;
    uint64_t fail[OP_N][RLB_NCODES];
    uint64_t raw_fail[RAWF_N];
} bench_stats;

typedef struct bench_shared {
    const bench_cfg *cfg;
    atomic_int stop;
    atomic_int measuring;
    atomic_int error;
    atomic_uint_fast64_t started;     /* measured ops started (--ops) */
    atomic_int threads_done;
    _Atomic int64_t *last_release;    /* contend: per key, ns, 0 = none */
    atomic_int *last_releaser;        /* contend: per key, client id */
    pthread_mutex_t err_mu;
    char errmsg[256];
    pthread_barrier_t b_setup, b_ready, b_done, b_teardown;
    _Atomic int64_t stop_at_ns;       /* when stop was requested */
    _Atomic int64_t meas_start_ns;    /* when the measurement began (0: not yet) */
    struct rlb_holders *holders;      /* contend: who holds each key (holders.c) */
} bench_shared;

typedef struct bench_thread {
    bench_shared *sh;
    int id;
    int nslots;
    int slot_base;        /* global index of this thread's first slot */
    struct event_base *base;
    bench_stats st;
    atomic_uint_fast64_t live_ops;   /* for the progress line */
    atomic_uint_fast64_t live_fail;
    atomic_uint_fast64_t live_acq;   /* successful acquisitions (the series) */
    int leader;                      /* first client of its thread: owns the shared parts */
    int ngroup;                      /* leader: how many clients its thread runs */
    int grp_active;                  /* leader: slots not finished on its thread */
    pthread_mutex_t *prog_mu;        /* the thread's; guards prog and sec */
    hist *prog;                      /* primary latency since the last sample */
    hist *sec;                       /* acquire latency since the last sample */
    uint64_t rng;
    int64_t finish_ns;               /* when its loop ended */
    pthread_t tid;
    void *impl;
} bench_thread;

/* A workload implementation.  setup runs in the thread before the start
 * barrier (connect), once per client, all on the thread's base; run drives
 * the loop for the thread's n clients (t[0] .. t[n-1]) until done; teardown
 * frees, once per client. */
typedef struct bench_impl {
    int (*setup)(bench_thread *t, char *err, size_t errlen);
    void (*run)(bench_thread *t, int n);
    void (*teardown)(bench_thread *t);
} bench_impl;

extern const bench_impl lib_impl;
extern const bench_impl raw_impl;
extern const bench_impl handoff_impl;   /* the contend workload's baseline */

/* helpers (util.c) */
int64_t rlb_now_ns(void);
uint64_t rlb_rand(uint64_t *s);
void rlb_set_error(bench_shared *sh, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* May another op start?  `consume` counts it against --ops; *meas tells
 * whether the op belongs to the measurement (started after the warm-up).
 * Ops record their results only when their start was measured. */
int rlb_may_start(bench_thread *t, int consume, int *meas);
/* When stop was requested (now if not yet). */
int64_t rlb_stop_at(bench_shared *sh);
void rlb_request_stop(bench_shared *sh);
/* Record a successful op's latency; `primary` also feeds the live line. */
void rlb_record(bench_thread *t, int meas, int op, int64_t ns, int primary);
/* contend: key's release starts now (ns); an acquisition of key at `now`
 * records the hand-off from the last release. */
void rlb_mark_release(bench_thread *t, long key, int64_t ns);
void rlb_record_handoff(bench_thread *t, int meas, long key, int64_t now);
/* A primary op completed (counts for ops/s) */
void rlb_count_op(bench_thread *t, int meas);
void rlb_count_fail(bench_thread *t, int meas, int op, int code);
void rlb_count_raw_fail(bench_thread *t, int meas, int which);
/* Print a key name for key number k into buf; returns its length. */
int rlb_key(const bench_cfg *cfg, char *buf, size_t len, long k);
int rlb_code_index(int code);
/* A name for this run (the pid and the time), for its keys' prefix. */
void rlb_run_id(char *buf, size_t len);
/* cycle/extend: how many keys slot gidx owns (gidx, gidx + concurrency, ...) */
long rlb_slot_keys(const bench_cfg *cfg, long gidx);
/* A workload's setup: "out of memory" into err, -1. */
int rlb_oom(char *err, size_t errlen);
/* A zeroed state of `size` bytes as t->impl; NULL after rlb_oom. */
void *rlb_impl_new(bench_thread *t, size_t size, char *err, size_t errlen);
/* A workload's first failure on t's loop (*failed is set): the run's error,
 * fmt with what, and t's loop ends; later ones change nothing. */
void rlb_break(bench_thread *t, int *failed, const char *fmt, const char *what);
/* holders.c: the kinds' invariant, checked on the bench's own view of who
 * holds a key: a holder counts from its acquire's success to its release's
 * start, inside the time the masters grant it.  Side 0: a reader (shares
 * with readers); side 1: anyone else (at most `limit` at once: 1, or a
 * semaphore's permits, and never with a reader). */
typedef struct rlb_holders rlb_holders;
typedef struct rlb_hold_figs {
    int limit;                /* side 1's most at once */
    int max_total, max_side[2];
    uint64_t violations;      /* acquisitions that found the invariant broken */
    int64_t held_ns[2];       /* measured time with side s held */
    int64_t any_ns;           /* measured time with anyone holding */
} rlb_hold_figs;
rlb_holders *rlb_holders_new(long keys, int limit, int fake_overlap);
void rlb_holders_free(rlb_holders *h);
void rlb_hold_begin(bench_thread *t, long key, int side, int64_t now);
void rlb_hold_end(bench_thread *t, long key, int side, int64_t now);
/* The figures, the open holds counted up to `now`. */
void rlb_holders_figs(rlb_holders *h, int64_t now, int64_t meas_start, rlb_hold_figs *out);
/* The check itself: may `readers` and `others` hold at once under limit? */
int rlb_holders_allowed(int readers, int others, int limit);
/* the limit of cfg's kind; the side of client id's locks */
int rlb_kind_limit(const bench_cfg *cfg);
int rlb_client_side(const bench_cfg *cfg, int id);

struct event;
void rlb_event_free(struct event *ev);   /* event_free unless NULL */

#endif
