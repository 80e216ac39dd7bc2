/* t_threads.c -- integration: separate clients in separate threads, all
 * contending for one resource: never two holders at once. */
#include "itest.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#define NTHREADS 4
#define ROUNDS 15

struct worker {
    rlt_servers *s;
    int id;
    int acquired;
    int bad_rc;        /* a failed acquire / release, or an overlap */
    int last_rc;
    char err[160];
};

static atomic_int holders;
static atomic_int max_holders;

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    redlock_options o;
    it_opts(&o);
    o.retry_count = 1000;
    o.retry_delay_ms = 3;
    o.retry_jitter_ms = 2;
    redlock_client *c = NULL;
    char err[128] = "";
    if (redlock_client_new(&c, NULL, rlt_servers_addrs(w->s), 3, &o, err, sizeof err) != 0 ||
        redlock_client_wait_connected(c, 3, 5000) != 0) {
        snprintf(w->err, sizeof w->err, "client: %s", err);
        w->bad_rc++;
        redlock_client_free(c);
        return NULL;
    }
    redlock_lock *shared = NULL, *own = NULL;
    char mine[32];
    snprintf(mine, sizeof mine, "thread:%d", w->id);
    if (redlock_lock_new(&shared, c, "threads:shared", 14) != 0 ||
        redlock_lock_new(&own, c, mine, strlen(mine)) != 0) {
        w->bad_rc++;
        goto out;
    }
    for (int r = 0; r < ROUNDS; r++) {
        int rc = redlock_acquire(shared, 10000);
        if (rc != 0) {
            w->last_rc = rc;
            snprintf(w->err, sizeof w->err, "acquire: %s", redlock_lock_errstr(shared));
            w->bad_rc++;
            continue;
        }
        int now = atomic_fetch_add(&holders, 1) + 1;
        int prev = atomic_load(&max_holders);
        while (now > prev && !atomic_compare_exchange_weak(&max_holders, &prev, now))
            ;
        w->acquired++;
        /* inside: use another lock of our own meanwhile */
        if (redlock_try_acquire(own, 5000) != 0 || redlock_release(own) != 0)
            w->bad_rc++;
        sched_yield();
        atomic_fetch_sub(&holders, 1);
        rc = redlock_release(shared);
        if (rc != 0) {
            w->last_rc = rc;
            snprintf(w->err, sizeof w->err, "release: %s", redlock_lock_errstr(shared));
            w->bad_rc++;
        }
    }
out:
    redlock_lock_free(shared);
    redlock_lock_free(own);
    redlock_client_free(c);
    return NULL;
}

TEST(threads_one_client_per_thread_mutual_exclusion)
{
    /* servers are started from this (the main) thread, which outlives the workers */
    rlt_servers *s = it_start(3, NULL);
    pthread_t th[NTHREADS];
    struct worker w[NTHREADS];
    memset(w, 0, sizeof w);
    atomic_store(&holders, 0);
    atomic_store(&max_holders, 0);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].s = s;
        w[i].id = i;
        CHECK_EQ(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < NTHREADS; i++) {
        CHECK_MSG(w[i].bad_rc == 0, "thread %d: %d failures, last rc %d: %s", i, w[i].bad_rc,
                  w[i].last_rc, w[i].err);
        CHECK_EQ(w[i].acquired, ROUNDS);
    }
    CHECK_EQ(atomic_load(&max_holders), 1);
    CHECK_EQ(rlt_servers_count_key(s, "threads:shared", 14), 0);
    rlt_servers_free(s);
}
