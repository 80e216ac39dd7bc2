/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 * lib_work.h -- the library's workloads: a slot's operations and the --rate
 * schedule (lib_work.c), below a client's life and the thread's loop
 * (lib_client.c), which calls down into lib_work.c and never the reverse. */
#ifndef RLB_LIB_WORK_H
#define RLB_LIB_WORK_H

#include <event2/event.h>

#include "bench.h"
#include "redlock.h"

typedef struct lthread lthread;

typedef struct lslot {
    bench_thread *t;
    lthread *lt;
    long gidx;            /* global slot index */
    long own;             /* cycle/extend: how many keys this slot owns */
    redlock_lock *lock;
    long cur_key;
    uint64_t seq;
    int active;
    int extends_left;
    int held;             /* the lock is held (extend, contend hold) */
    int side;             /* contend: 0 a reader, 1 anyone else (holders.c) */
    int meas;             /* the current op started while measuring */
    int64_t t0;
    int64_t sched_ns;     /* --rate: when the next op is due */
    struct event *timer;  /* hold time, deferred restarts */
    void (*timer_fn)(struct lslot *);
} lslot;

/* One client: its redlock_client, its slots (operations in flight). */
struct lthread {
    redlock_client *cli;
    lslot *slots;
    int active;           /* slots not finished */
    int tearing;
    bench_thread *lead;   /* the first client on this thread (its group count) */
    struct event *tick;   /* the leader's: the end of the run */
    int64_t deadline_ns;  /* setup: connect deadline */
    /* --rate: op k of this client is due at sched0 + k * period */
    int64_t sched0, period;
    uint64_t next_k;
    lslot **idle;         /* slots waiting for the next due op */
    int nidle;
    struct event *sched_ev;
};

/* lib_work.c: a slot's ops, one after the other until the run stops. */
void lib_slot_start(lslot *s);
void lib_on_slot_timer(evutil_socket_t fd, short what, void *arg);  /* a slot's timer */
/* The slot starts no more ops; the last of its thread ends the loop. */
void lib_slot_finish(lslot *s);
/* --rate: start every op that is due on an idle slot of lt, then wait for
 * the next (lib_on_sched: lt's sched_ev). */
void lib_dispatch_due(lthread *lt);
void lib_on_sched(evutil_socket_t fd, short what, void *arg);
/* --rate, at the end: the ops that were due by the stop but never started. */
void lib_count_missed(bench_thread *t);

#endif
