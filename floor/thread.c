/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* thread.c -- a blocking client whose loop runs on a thread of its own
 * (redlock_options.loop_thread), so that its watchdog, lost-lock notices,
 * probes and reconnections go on between the program's calls.
 *
 * One mutex guards everything the client owns, libevent's base included:
 * the loop thread holds it while it runs the loop, a program's call holds
 * it for the call.  So libevent is never used by two threads at once and
 * needs no locking of its own.
 *
 *   loop thread                          a program's call (gate)
 *   lock                                 want++, write a byte to the pipe
 *   loop:                                lock  (the byte ended the loop's
 *     while want > 0: wait (unlocks)            wait in epoll, then it
 *     run the loop once (epoll, the             waits while want > 0)
 *       callbacks)                       want--
 *                                        ... the call ...
 *                                        signal, unlock
 *
 * A blocking call waits for its callback outside the gate: it lets go of
 * the mutex and waits for the callback's word on a mutex of its own (its
 * timed waits by CLOCK_MONOTONIC, which a step of the wall clock leaves
 * alone), then takes the gate again.
 *
 * The mutex records the thread holding it (owner): a call of that thread
 * does not take it again (a callback on the loop thread, a call made
 * inside a call, a callback run inside a call).  A call on another
 * loop-thread client takes that client's mutex, wherever it is made.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "floor/floor.h"

struct redlock__thread {
    pthread_t id;
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* want went to 0; a call left */
    pthread_mutex_t wait_mu;    /* a blocking call waiting for its callback */
    pthread_cond_t done_cv;     /* that callback ran */
    atomic_int want;            /* calls waiting for the mutex */
    _Atomic(const char *) owner;    /* the holder's mark (below), or NULL */
    int stop;
    int pipe[2];
    struct event wake;
};

/* This thread's mark: the address is unique among the threads alive. */
static _Thread_local char mark;

/* Does this thread hold t's mutex?  Only the holder writes owner, so the
 * answer about itself is exact. */
static int mine(redlock__thread *t)
{
    return atomic_load_explicit(&t->owner, memory_order_relaxed) == &mark;
}

static void own(redlock__thread *t, int held)
{
    atomic_store_explicit(&t->owner, held ? &mark : NULL, memory_order_relaxed);
}

static void wake_cb(evutil_socket_t fd, short what, void *arg)
{
    char buf[64];
    (void)what;
    (void)arg;
    while (read(fd, buf, sizeof buf) > 0)
        ;
}

static void *run(void *arg)
{
    redlock__loop *lp = arg;
    redlock__thread *t = lp->th;

    pthread_mutex_lock(&t->mu);
    while (!t->stop) {
        while (atomic_load(&t->want) > 0 && !t->stop) {
            own(t, 0);
            pthread_cond_wait(&t->cv, &t->mu);
        }
        if (t->stop)
            break;
        own(t, 1);
        event_base_loop(lp->base, EVLOOP_ONCE);
    }
    own(t, 0);
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

/* Free the thread's parts (the thread is not running). */
static void discard(redlock__loop *lp)
{
    redlock__thread *t = lp->th;

    lp->th = NULL;
    event_del(&t->wake);
    close(t->pipe[0]);
    close(t->pipe[1]);
    pthread_mutex_destroy(&t->mu);
    pthread_mutex_destroy(&t->wait_mu);
    pthread_cond_destroy(&t->cv);
    pthread_cond_destroy(&t->done_cv);
    free(t);
}

int redlock__thread_start(redlock__loop *lp, char *err, size_t errlen)
{
    redlock__thread *t = calloc(1, sizeof *t);
    pthread_condattr_t mono;
    int rc;

    if (!t) {
        snprintf(err, errlen, "out of memory");
        return REDLOCK_ENOMEM;
    }
    t->pipe[0] = t->pipe[1] = -1;
    if (pipe2(t->pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        snprintf(err, errlen, "loop_thread: pipe: %s", strerror(errno));
        free(t);
        return REDLOCK_ESYSTEM;
    }
    pthread_mutex_init(&t->mu, NULL);
    pthread_mutex_init(&t->wait_mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    pthread_condattr_init(&mono);
    pthread_condattr_setclock(&mono, CLOCK_MONOTONIC);
    pthread_cond_init(&t->done_cv, &mono);
    pthread_condattr_destroy(&mono);
    event_assign(&t->wake, lp->base, t->pipe[0], EV_READ | EV_PERSIST, wake_cb, NULL);
    event_add(&t->wake, NULL);
    lp->th = t;
    if ((rc = pthread_create(&t->id, NULL, run, lp)) != 0) {
        snprintf(err, errlen, "loop_thread: pthread_create: %s", strerror(rc));
        discard(lp);
        return REDLOCK_ESYSTEM;
    }
    return 0;
}

/* Wake the loop thread out of its wait for events. */
static void poke(redlock__thread *t)
{
    char b = 1;
    ssize_t n = write(t->pipe[1], &b, 1);
    (void)n;        /* a full pipe is awake enough */
}

/* Take the mutex from the loop thread (woken out of epoll). */
static void enter(redlock__thread *t)
{
    atomic_fetch_add(&t->want, 1);
    poke(t);
    pthread_mutex_lock(&t->mu);
    atomic_fetch_sub(&t->want, 1);
    own(t, 1);
}

static void leave(redlock__thread *t)
{
    own(t, 0);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

int redlock__gate_take(const redlock__loop *lp)
{
    if (mine(lp->th))
        return 0;       /* inside a call or a callback of this client */
    enter(lp->th);
    return 1;
}

void redlock__gate_give(const redlock__loop *lp)
{
    leave(lp->th);
}

int redlock__gate_wait(redlock__loop *lp, int *done, int64_t timeout_ms)
{
    redlock__thread *t = lp->th;
    struct timespec until;
    int got;

    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)(timeout_ms / 1000);
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    /* Leave the gate (the loop thread goes on), wait for the callback's
     * word under wait_mu (taken before the client's mutex is let go, so the
     * word cannot come in between), then enter again. */
    pthread_mutex_lock(&t->wait_mu);
    leave(t);
    while (!*done) {
        if (timeout_ms < 0)
            pthread_cond_wait(&t->done_cv, &t->wait_mu);
        else if (pthread_cond_timedwait(&t->done_cv, &t->wait_mu, &until) == ETIMEDOUT)
            break;
    }
    got = *done;
    pthread_mutex_unlock(&t->wait_mu);
    enter(t);
    return got;
}

void redlock__gate_done(redlock__loop *lp, int *done)
{
    redlock__thread *t = lp ? lp->th : NULL;

    if (!t) {
        *done = 1;
        return;
    }
    pthread_mutex_lock(&t->wait_mu);
    *done = 1;
    pthread_cond_broadcast(&t->done_cv);
    pthread_mutex_unlock(&t->wait_mu);
}

void redlock__thread_stop(redlock__loop *lp, int taken)
{
    redlock__thread *t = lp->th;

    if (!t)
        return;
    t->stop = 1;
    poke(t);
    pthread_cond_broadcast(&t->cv);
    if (taken) {
        own(t, 0);
        pthread_mutex_unlock(&t->mu);
    }
    pthread_join(t->id, NULL);
    discard(lp);    /* alone now: the caller runs the rest of the free */
}
