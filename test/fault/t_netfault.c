/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_netfault.c -- network faults between the client and its masters, injected
 * by test/rlproxy processes (one proxy per master, driven over a pipe):
 *   - latency on a minority does not slow acquire: it tracks the quorum-th
 *     fastest node, not the slowest;
 *   - a blackholed minority: the lock is still acquired, and operations are
 *     bounded by the node timeout;
 *   - a partition cutting the client from a majority fails within about the
 *     node timeout and leaves nothing on any master once healed;
 *   - a "datacenter" layout (1, 5, 20, 40, 80 ms): acquire takes about the
 *     3rd fastest round trip.
 * The proxy is built by the Makefile (test/rlproxy; test/failover.mk makes
 * test/redlock-test depend on it).
 */
#include "itest.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NF_PROXY "test/rlproxy"
#define NF_MAX 8

typedef struct nf_proxy {
    pid_t pid;
    FILE *in, *out;          /* its stdin (commands) and stdout (answers) */
    int n;
    int port[NF_MAX];
    char addr[NF_MAX][32];
    const char *addrs[NF_MAX];
} nf_proxy;

/* One proxy in front of each of s's servers. */
static void nf_start(nf_proxy *p, rlt_servers *s)
{
    struct stat st;
    CHECK_MSG(stat(NF_PROXY, &st) == 0, "%s missing (make test/rlproxy)", NF_PROXY);
    memset(p, 0, sizeof *p);
    p->n = rlt_servers_count(s);
    CHECK_LE(p->n, NF_MAX);
    char maps[NF_MAX][48];
    const char *argv[2 * NF_MAX + 4];
    int argc = 0;
    argv[argc++] = NF_PROXY;
    for (int i = 0; i < p->n; i++) {
        snprintf(maps[i], sizeof maps[i], "0:127.0.0.1:%d", rlt_servers_port(s, i));
        argv[argc++] = "--map";
        argv[argc++] = maps[i];
    }
    argv[argc++] = "--exit-on-eof";
    argv[argc] = NULL;
    int to[2], from[2];
    CHECK_EQ(pipe(to), 0);
    CHECK_EQ(pipe(from), 0);
    pid_t pid = fork();
    CHECK_GE(pid, 0);
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execv(NF_PROXY, (char *const *)argv);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    p->pid = pid;
    p->in = fdopen(to[1], "w");
    p->out = fdopen(from[0], "r");
    CHECK(p->in != NULL && p->out != NULL);
    char line[512];
    CHECK_MSG(fgets(line, sizeof line, p->out) != NULL, "rlproxy printed nothing");
    CHECK_MSG(!strncmp(line, "listening ", 10), "rlproxy: %s", line);
    char *q = line + 10;
    for (int i = 0; i < p->n; i++) {
        char *end;
        long port = strtol(q, &end, 10);
        CHECK_MSG(end != q && port > 0, "rlproxy ports: %s", line);
        q = end;
        p->port[i] = (int)port;
        snprintf(p->addr[i], sizeof p->addr[i], "127.0.0.1:%d", p->port[i]);
        p->addrs[i] = p->addr[i];
    }
}

/* Send one command ("@2 latency up 80", "pause on", ...); it must answer ok. */
__attribute__((format(printf, 2, 3))) static void nf_cmd(nf_proxy *p, const char *fmt, ...)
{
    char cmd[256], line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    CHECK(fprintf(p->in, "%s\n", cmd) > 0);
    CHECK_EQ(fflush(p->in), 0);
    CHECK_MSG(fgets(line, sizeof line, p->out) != NULL, "rlproxy: no answer to %s", cmd);
    CHECK_MSG(!strncmp(line, "ok", 2), "rlproxy: %s -> %s", cmd, line);
}

static void nf_stop(nf_proxy *p)
{
    fclose(p->in);   /* --exit-on-eof */
    fclose(p->out);
    int st;
    int64_t deadline = check_now_ms() + 3000;
    while (waitpid(p->pid, &st, WNOHANG) == 0) {
        if (check_now_ms() > deadline) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &st, 0);
            break;
        }
        usleep(2000);
    }
}

/* Five masters, each behind a proxy, and a blocking client (options o)
 * connected to all of them through the proxies. */
static void nf_fix_start(struct it_fix *f, nf_proxy *p, const redlock_options *o)
{
    it_fix_start(f, 5, NULL, IT_NOCLIENT);
    nf_start(p, f->s);
    f->c = it_client_addrs(p->addrs, 5, o, 5);
}

/* The same with it_opts() but for the node timeout. */
static void nf_fix_start_nt(struct it_fix *f, nf_proxy *p, int64_t node_timeout_ms)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = node_timeout_ms;
    nf_fix_start(f, p, &o);
}

static void nf_fix_stop(struct it_fix *f, nf_proxy *p)
{
    it_fix_stop(f);
    nf_stop(p);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Median acquire time (us) over `rounds` try_acquire + release cycles on
 * fresh resources; every acquire must succeed with at least `min_ok` nodes. */
static int64_t median_acquire_us(redlock_client *c, const char *tag, int rounds, size_t min_ok,
                                 int64_t *release_median_us)
{
    int64_t acq[64], rel[64];
    CHECK_LE(rounds, 64);
    for (int i = 0; i < rounds; i++) {
        char res[64];
        snprintf(res, sizeof res, "%s-%d", tag, i);
        redlock_lock *l = IT_LOCK(c, res);
        int64_t t0 = check_now_us();
        CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
        acq[i] = check_now_us() - t0;
        CHECK_GE(redlock_lock_nodes_ok(l), min_ok);
        t0 = check_now_us();
        CHECK_RC(l, redlock_release(l), REDLOCK_OK);
        rel[i] = check_now_us() - t0;
        redlock_lock_free(l);
    }
    qsort(acq, (size_t)rounds, sizeof acq[0], cmp_i64);
    qsort(rel, (size_t)rounds, sizeof rel[0], cmp_i64);
    if (release_median_us)
        *release_median_us = rel[rounds / 2];
    return acq[rounds / 2];
}

TEST(netfault_latency_on_two_of_five_does_not_slow_acquire)
{
    struct it_fix f = {0};
    nf_proxy p;
    nf_fix_start_nt(&f, &p, 500);

    nf_cmd(&p, "@3 latency up 80");
    nf_cmd(&p, "@4 latency up 80");
    int64_t rel = 0;
    int64_t med = median_acquire_us(f.c, "two-slow", 15, 3, &rel);
    check_note("2 of 5 at +80 ms: acquire p50 %.2f ms, release p50 %.2f ms", med / 1e3,
               rel / 1e3);
    CHECK_LT(med, 20000);          /* the 3rd fastest is loopback */
    CHECK_GE(rel, 80000);          /* release waits for every node */

    /* the control: a third slow node makes the quorum-th fastest slow */
    nf_cmd(&p, "@2 latency up 80");
    int64_t med3 = median_acquire_us(f.c, "three-slow", 5, 3, NULL);
    check_note("3 of 5 at +80 ms: acquire p50 %.2f ms", med3 / 1e3);
    CHECK_GE(med3, 80000);
    CHECK_LT(med3, 200000);

    nf_fix_stop(&f, &p);
}

/* With 2 of 5 blackholed (node timeout 150 ms), acquire and extend are
 * decided at the quorum, the release waits out the node timeout; how long
 * each took into ms[0..2]. */
static void blackholed_ops_in_time(struct it_fix *f, redlock_lock *l, const char *res,
                                   int64_t ms[3])
{
    size_t rlen = strlen(res);
    int64_t t0 = check_now_ms();
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    ms[0] = check_now_ms() - t0;
    CHECK_EQ(redlock_lock_nodes_ok(l), 3);
    CHECK_LT(ms[0], 150);                  /* decided at quorum */
    CHECK_GT(redlock_lock_validity(l), 9000);
    CHECK_EQ(it_count_lock(f->s, res, rlen, l), 3);

    t0 = check_now_ms();
    CHECK_RC(l, redlock_extend(l, 10000), REDLOCK_OK);
    ms[1] = check_now_ms() - t0;
    CHECK_EQ(redlock_lock_nodes_ok(l), 3);
    CHECK_LT(ms[1], 150);

    t0 = check_now_ms();
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    ms[2] = check_now_ms() - t0;
    CHECK_EQ(redlock_lock_nodes_ok(l), 3);
    /* release waits for every node: bounded by the node timeout */
    CHECK_GE(ms[2], 140);
    CHECK_LT(ms[2], 150 + 250);
    CHECK_EQ(rlt_servers_count_key(f->s, res, rlen), 0);
}

TEST(netfault_blackholed_minority_still_acquires_within_node_timeout)
{
    struct it_fix f = {0};
    nf_proxy p;
    nf_fix_start_nt(&f, &p, 150);
    static const char res[] = "blackholed";
    redlock_lock *l = it_fix_lock(&f, f.c, res);

    /* a first hold while every master answers: the client listens for
     * its waiters' notices from then on (its first hold waits for that,
     * a few round trips at most for a master that does not answer: not
     * measured here) */
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    nf_cmd(&p, "@3 blackhole on");
    nf_cmd(&p, "@4 blackhole on");
    int64_t ms[3];
    blackholed_ops_in_time(&f, l, res, ms);
    /* try_acquire with the two blackholed must still work every time */
    int64_t worst = 0;
    for (int i = 0; i < 5; i++) {
        int64_t t0 = check_now_ms();
        CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
        int64_t d = check_now_ms() - t0;
        worst = d > worst ? d : worst;
        CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    }
    check_note("blackholed 2 of 5 (node timeout 150 ms): acquire %lld ms (worst of 5: %lld), "
               "extend %lld ms, release %lld ms", (long long)ms[0], (long long)worst,
               (long long)ms[1], (long long)ms[2]);
    CHECK_LT(worst, 150);

    /* a black hole drops bytes inside live connections, which TCP never
     * does; reset them so the client reconnects with a clean pipeline */
    nf_cmd(&p, "clear");
    nf_cmd(&p, "reset");
    /* a blocking client learns of the resets inside its next call (its
     * loop runs only there): the first attempt may see them, a retry
     * reconnects */
    CHECK_RC(l, redlock_acquire(l, 10000), REDLOCK_OK);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_GE(redlock_lock_nodes_ok(l), 3);

    nf_fix_stop(&f, &p);
}

/* Cut off from a majority: a try_acquire fails within the node timeout
 * (*try_ms), an acquire with 2 retries within 3 of them (*acq_ms). */
static void cut_off_attempts_fail_in_time(redlock_lock *l, int64_t *try_ms, int64_t *acq_ms)
{
    int64_t t0 = check_now_ms();
    int rc = redlock_try_acquire(l, 30000);
    *try_ms = check_now_ms() - t0;
    CHECK_RC(l, rc, REDLOCK_ETIMEDOUT);
    CHECK_EQ(redlock_lock_validity(l), 0);
    CHECK_GE(*try_ms, 140);
    CHECK_LT(*try_ms, 150 + 250);
    /* with retries: every attempt bounded the same way, and once the cut
     * nodes let max_timeouts (3) requests in a row time out they are
     * reconnected and fail fast while they stay silent ("unreachable") */
    t0 = check_now_ms();
    rc = redlock_acquire(l, 30000);
    CHECK_MSG(rc == REDLOCK_ETIMEDOUT || rc == REDLOCK_ECONNECT, "rc %d: %s", rc,
              redlock_lock_errstr(l));
    *acq_ms = check_now_ms() - t0;
    CHECK_LT(*acq_ms, 3 * (150 + 25) + 400);
}

/* Cut the client from masters 2, 3, 4 with `mode` ("pause": TCP-faithful,
 * bytes wait in the proxy and are delivered on heal; "blackhole": dropped). */
static void partition_story(const char *mode)
{
    struct it_fix f = {0};
    nf_proxy p;
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 150;
    o.retry_count = 2;
    o.retry_delay_ms = 20;
    o.retry_jitter_ms = 5;
    nf_fix_start(&f, &p, &o);
    char res[64];
    snprintf(res, sizeof res, "partition-%s", mode);
    size_t rlen = strlen(res);
    redlock_lock *l = it_lock(f.c, res, rlen);

    for (int i = 2; i < 5; i++)
        nf_cmd(&p, "@%d %s on", i, mode);
    int64_t try_ms, acq_ms;
    cut_off_attempts_fail_in_time(l, &try_ms, &acq_ms);
    /* the reachable minority was rolled back already */
    int64_t deadline = check_now_ms() + 2000;
    while ((rlt_servers_exists(f.s, 0, res, rlen) || rlt_servers_exists(f.s, 1, res, rlen)) &&
           check_now_ms() < deadline)
        usleep(2000);
    CHECK_EQ(rlt_servers_exists(f.s, 0, res, rlen), 0);
    CHECK_EQ(rlt_servers_exists(f.s, 1, res, rlen), 0);

    /* heal: whatever reaches the far side now, nothing may stay behind
     * (ttl 30 s, so only the releases can explain an empty key space) */
    nf_cmd(&p, "clear");
    if (!strcmp(mode, "blackhole"))
        nf_cmd(&p, "reset");
    CHECK_EQ(it_wait_count(f.s, res, rlen, 0, 3000), 0);
    /* and stays empty: the delivered SETs were each followed by a release */
    usleep(200 * 1000);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(it_pttl(f.s, i, res, rlen), -2);
    check_note("partition (%s) of 3 of 5, node timeout 150 ms: try_acquire failed in %lld ms, "
               "acquire with 2 retries in %lld ms; nothing left after healing", mode,
               (long long)try_ms, (long long)acq_ms);

    /* the client works again */
    CHECK_RC(NULL, redlock_client_wait_connected(f.c, 5, 5000), REDLOCK_OK);
    CHECK_RC(l, redlock_acquire(l, 30000), REDLOCK_OK);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_EQ(it_wait_count(f.s, res, rlen, 0, 2000), 0);

    redlock_lock_free(l);
    nf_fix_stop(&f, &p);
}

TEST(netfault_partition_from_majority_tcp_faithful)
{
    partition_story("pause");
}

TEST(netfault_partition_from_majority_blackhole)
{
    partition_story("blackhole");
}

TEST(netfault_datacenters_acquire_tracks_third_fastest)
{
    struct it_fix f = {0};
    nf_proxy p;
    nf_fix_start_nt(&f, &p, 500);
    static const int rtt[5] = {1, 5, 20, 40, 80};
    for (int i = 0; i < 5; i++)
        nf_cmd(&p, "@%d latency up %d", i, rtt[i]);
    int64_t rel = 0;
    int64_t med = median_acquire_us(f.c, "dc", 11, 3, &rel);
    check_note("masters at +1/5/20/40/80 ms: acquire p50 %.2f ms (3rd fastest: 20 ms), "
               "release p50 %.2f ms", med / 1e3, rel / 1e3);
    CHECK_GE(med, 19000);
    CHECK_LT(med, 35000);
    CHECK_GE(rel, 79000);

    nf_fix_stop(&f, &p);
}
