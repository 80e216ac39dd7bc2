/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_metrics.c -- redlock_client_metrics: after a known sequence of
 * operations on real masters the OpenMetrics text parses (strictly:
 * support/openmetrics.c, whose own tests are here too) and its counts are
 * those operations'; the buffer contract; promtool's check when installed. */
#include "itest.h"
#include "openmetrics.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the parser refuses what the format does not allow ------------------- */

static const char good[] =
    "# TYPE a_seconds histogram\n"
    "# UNIT a_seconds seconds\n"
    "# HELP a_seconds A \\\\ help.\n"
    "a_seconds_bucket{k=\"x\",le=\"0.5\"} 1\n"
    "a_seconds_bucket{k=\"x\",le=\"1.0\"} 2\n"
    "a_seconds_bucket{k=\"x\",le=\"+Inf\"} 3\n"
    "a_seconds_count{k=\"x\"} 3\n"
    "a_seconds_sum{k=\"x\"} 4.25\n"
    "# TYPE b counter\n"
    "b_total{node=\"h:1\",v=\"q\\\"\\\\\\n\"} 7\n"
    "# TYPE c gauge\n"
    "c 1\n"
    "# EOF\n";

/* good with the first `from` replaced by `to`; must be rejected with a
 * message containing `why`. */
static void rejects(const char *from, const char *to, const char *why)
{
    char text[2048];
    const char *at = strstr(good, from);
    om_doc d;

    CHECK_MSG(at != NULL, "'%s' is not in the good text", from);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    CHECK_MSG(om_parse(&d, text, strlen(text)) == -1, "accepted with '%s' -> '%s':\n%s", from,
              to, text);
    CHECK_MSG(strstr(d.err, why) != NULL, "rejected for '%s', expected '%s'", d.err, why);
    om_free(&d);
}

TEST(openmetrics_parser_accepts_and_finds)
{
    om_doc d;

    CHECK_MSG(om_parse(&d, good, strlen(good)) == 0, "%s", d.err);
    CHECK_EQ(d.n, 7);
    CHECK(om_value(&d, "a_seconds_count{k=\"x\"}") == 3);
    CHECK(om_value(&d, "a_seconds_sum{k=\"x\"}") == 4.25);
    CHECK(om_value(&d, "a_seconds_bucket{k=\"x\",le=\"+Inf\"}") == 3);
    CHECK(om_value(&d, "b_total{node=\"h:1\",v=\"q\\\"\\\\\\n\"}") == 7);
    CHECK(om_get(&d, "c") != NULL);
    CHECK(om_get(&d, "b_total") == NULL);
    om_free(&d);
}

TEST(openmetrics_parser_rejects_malformed)
{
    rejects("le=\"1.0\"} 2", "le=\"1.0\"} 0", "not cumulative");
    rejects("a_seconds_bucket{k=\"x\",le=\"+Inf\"} 3\na_seconds_count{k=\"x\"} 3\n", "",
            "no le=\"+Inf\"");
    rejects("a_seconds_bucket{k=\"x\",le=\"+Inf\"} 3\n", "", "before the +Inf bucket");
    rejects("# EOF\n", "", "no # EOF");
    rejects("# EOF\n", "# EOF\nc 2\n", "after # EOF");
    rejects("# TYPE c gauge\n", "# HELP c A gauge.\n", "before its family's TYPE");
    rejects("# TYPE a_seconds histogram\n", "c 0\n# TYPE a_seconds histogram\n",
            "before its family's TYPE");
    rejects("v=\"q\\\"", "v=\"q\\t", "bad escape");
    rejects("v=\"q\\\"", "v=\"q\n", "");
    rejects("c 1\n", "c 1\nc 2\n", "twice");
    rejects("b_total{node=\"h:1\",", "b_total{v=\"z\",node=\"h:1\",", "label v twice");
    rejects("le=\"1.0\"", "le=\"0.25\"", "not rising");
    rejects("a_seconds_count{k=\"x\"} 3", "a_seconds_count{k=\"x\"} 4", "+Inf bucket");
    rejects("# UNIT a_seconds seconds", "# UNIT a_seconds bytes", "unit");
    rejects("c 1\n", "c 1\n# TYPE b counter\n", "comes back");
    rejects("c 1\n", "# free comment\nc 1\n", "unknown comment");
    rejects("b_total{", "b{", "not one of family");
    rejects("c 1\n", "c one\n", "bad value");
    rejects("7\n", "-7\n", "negative");
    rejects("# HELP a_seconds A", "a_seconds_sum{k=\"y\"} 1\n# HELP a_seconds A", "after its samples");
}

/* ---- the library's text -------------------------------------------------- */

/* The client's metrics, parsed (the test fails when they do not parse). */
static char *scrape(redlock_client *c, om_doc *d)
{
    int64_t n = redlock_client_metrics(c, NULL, 0);
    char *text;

    CHECK_GT(n, 0);
    text = malloc((size_t)n + 1);
    CHECK(text != NULL);
    CHECK_EQ(redlock_client_metrics(c, text, (size_t)n + 1), n);
    CHECK_EQ(strlen(text), (size_t)n);
    CHECK_MSG(om_parse(d, text, (size_t)n) == 0, "the metrics do not parse: %s\n%s", d->err,
              text);
    return text;
}

static double val(const om_doc *d, const char *key)
{
    const om_sample *s = om_get(d, key);
    CHECK_MSG(s != NULL, "no sample %s", key);
    return s->value;
}

#define ACQ "redlock_acquire_duration_seconds"
#define WAIT "redlock_acquire_wait_seconds"
#define HOLD "redlock_hold_duration_seconds"
#define MUTEX(o) "{kind=\"mutex\",outcome=\"" o "\"}"

/* 5 plain cycles (one held 50 ms), 2 refused tries, 1 acquire that waits
 * for another client's lock to expire, a read lock held and released, and
 * a lock lost behind its back twice (its key taken: an extend is refused,
 * then a release). */
TEST(metrics_count_the_operations)
{
    static const char res[] = "metrics:res";
    redlock_options o;
    struct it_fix f = {.key = res};
    redlock_lock *other, *rd;
    redlock_acquire_stats as;
    redlock_node_stats ns;
    int64_t held_us = 0, t0;
    char key[64];
    om_doc d;

    it_opts_retry(&o, 1000, 20, 5);
    it_fix_start(&f, 3, &o, 0);
    other = it_fix_lock(&f, it_fix_client(&f, NULL), res);

    for (int i = 0; i < 5; i++) {
        CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), REDLOCK_OK);
        t0 = check_now_us();
        if (i == 0)
            it_sleep_ms(50);
        held_us = i == 0 ? check_now_us() - t0 : held_us;
        CHECK_RC(f.lock, redlock_release(f.lock), REDLOCK_OK);
    }

    CHECK_RC(other, redlock_acquire(other, 400), REDLOCK_OK);
    CHECK_RC(f.lock, redlock_try_acquire(f.lock, 10000), REDLOCK_ENOQUORUM);
    CHECK_RC(f.lock, redlock_try_acquire(f.lock, 10000), REDLOCK_ENOQUORUM);
    /* retried until other's key expires */
    CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), REDLOCK_OK);
    CHECK_RC(f.lock, redlock_release(f.lock), REDLOCK_OK);

    CHECK_EQ(redlock_lock_new_read(&rd, f.c, "metrics:rw", 10), REDLOCK_OK);
    CHECK_RC(rd, redlock_acquire(rd, 10000), REDLOCK_OK);
    CHECK_RC(rd, redlock_release(rd), REDLOCK_OK);
    redlock_lock_free(rd);

    CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), REDLOCK_OK);
    for (int i = 0; i < 3; i++)
        it_set(f.s, i, res, "taken");   /* (someone else's value: refused) */
    CHECK_RC(f.lock, redlock_extend(f.lock, 10000), REDLOCK_ENOTOWNER);
    char *text = scrape(f.c, &d);       /* the refused extend ended the hold */
    CHECK(val(&d, HOLD "_count" MUTEX("lost")) == 1);
    om_free(&d);
    free(text);
    CHECK_RC(f.lock, redlock_release(f.lock), REDLOCK_ENOTOWNER);
    /* and one whose release is refused */
    for (int i = 0; i < 3; i++)
        it_del(f.s, i, res);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), REDLOCK_OK);
    for (int i = 0; i < 3; i++)
        it_set(f.s, i, res, "taken");
    CHECK_RC(f.lock, redlock_release(f.lock), REDLOCK_ENOTOWNER);

    text = scrape(f.c, &d);
    CHECK(val(&d, ACQ "_count" MUTEX("acquired")) == 5 + 1 + 2);
    CHECK(val(&d, ACQ "_count" MUTEX("conflict")) == 2);
    CHECK(val(&d, ACQ "_count{kind=\"read\",outcome=\"acquired\"}") == 1);
    CHECK(om_get(&d, ACQ "_count" MUTEX("unavailable")) == NULL);
    /* only the acquire that retried waited (a try does not) */
    CHECK(val(&d, WAIT "_count" MUTEX("acquired")) == 1);
    CHECK(om_get(&d, WAIT "_count" MUTEX("conflict")) == NULL);
    CHECK(val(&d, HOLD "_count" MUTEX("released")) == 5 + 1);
    CHECK(val(&d, HOLD "_count" MUTEX("lost")) == 2);
    CHECK(val(&d, HOLD "_count{kind=\"read\",outcome=\"released\"}") == 1);
    CHECK(val(&d, "redlock_extends_total" MUTEX("refused")) == 1);
    CHECK(val(&d, "redlock_releases_total" MUTEX("ok")) == 6);
    CHECK(val(&d, "redlock_releases_total" MUTEX("refused")) == 2);
    CHECK(val(&d, "redlock_releases_total{kind=\"read\",outcome=\"ok\"}") == 1);

    /* sums: what the test held at least; the wait within its acquire */
    CHECK_MSG(val(&d, HOLD "_sum" MUTEX("released")) >= held_us / 1e6, "held %lld us",
              (long long)held_us);
    CHECK(val(&d, ACQ "_sum" MUTEX("acquired")) > 0);
    CHECK(val(&d, ACQ "_sum" MUTEX("conflict")) > 0);
    CHECK(val(&d, WAIT "_sum" MUTEX("acquired")) > 0);
    CHECK(val(&d, WAIT "_sum" MUTEX("acquired")) <= val(&d, ACQ "_sum" MUTEX("acquired")));
    /* the 50 ms hold is above the 25 ms bucket, the lost one below 10 s */
    CHECK(val(&d, HOLD "_bucket{kind=\"mutex\",le=\"0.025\",outcome=\"released\"}") <= 5);
    CHECK(val(&d, HOLD "_bucket{kind=\"mutex\",le=\"10.0\",outcome=\"lost\"}") == 2);

    /* today's counters, the same as the structs say */
    CHECK_EQ(redlock_client_acquire_stats(f.c, &as), 0);
    CHECK(val(&d, "redlock_acquire_attempts_total") == (double)as.attempts);
    CHECK(val(&d, "redlock_acquire_attempts_won_total") == (double)as.won);
    CHECK(as.won == 5 + 1 + 2 + 1);
    CHECK(val(&d, "redlock_masters") == 3);
    CHECK(val(&d, "redlock_masters_connected") == 3);
    for (size_t i = 0; i < 3; i++) {
        CHECK_EQ(redlock_client_node_stats(f.c, i, &ns), 0);
        snprintf(key, sizeof key, "redlock_node_requests_total{node=\"%s\"}", ns.address);
        CHECK(val(&d, key) == (double)ns.requests);
        snprintf(key, sizeof key, "redlock_node_votes_total{node=\"%s\",vote=\"ok\"}",
                 ns.address);
        CHECK(val(&d, key) == (double)ns.oks);
        snprintf(key, sizeof key, "redlock_node_up{node=\"%s\"}", ns.address);
        CHECK(val(&d, key) == 1);
    }
    om_free(&d);
    free(text);
    it_fix_stop(&f);
}

/* Off the plain path: a handle freed while held, a hold that expired, no
 * quorum reachable (the acquire unavailable, the release's hold unknown),
 * masters answering errors. */
TEST(metrics_off_the_plain_path)
{
    struct it_fix f = {.key = "metrics:off"};
    redlock_lock *freed, *exp;
    int64_t t0;
    om_doc d;

    it_fix_start(&f, 3, NULL, 0);
    CHECK_EQ(redlock_lock_new(&freed, f.c, "metrics:freed", 13), REDLOCK_OK);
    CHECK_RC(freed, redlock_acquire(freed, 10000), REDLOCK_OK);
    redlock_lock_free(freed);

    exp = it_fix_lock(&f, f.c, "metrics:expired");
    CHECK_RC(exp, redlock_acquire(exp, 200), REDLOCK_OK);
    t0 = check_now_ms();
    while (redlock_lock_validity(exp) > 0 && check_now_ms() - t0 < 5000)
        it_sleep_ms(10);
    it_sleep_ms(300);       /* the hold ends at its validity's end, not when seen */
    CHECK_RC(exp, redlock_acquire(exp, 10000), REDLOCK_OK);   /* the first hold expired */

    it_cmd_on(f.s, 0, 3, 0, "CONFIG SET maxmemory 1");
    CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), REDLOCK_ESERVER);
    it_cmd_on(f.s, 0, 3, 0, "CONFIG SET maxmemory 0");

    CHECK_EQ(rlt_servers_kill(f.s, 0), 0);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), REDLOCK_ECONNECT);
    CHECK_RC(exp, redlock_release(exp), REDLOCK_ECONNECT);

    char *text = scrape(f.c, &d);
    CHECK(val(&d, HOLD "_count" MUTEX("freed")) == 1);
    CHECK(val(&d, HOLD "_count" MUTEX("expired")) == 1);
    CHECK(val(&d, HOLD "_count" MUTEX("unknown")) == 1);
    CHECK(om_get(&d, HOLD "_count" MUTEX("released")) == NULL);
    /* the expired hold ended where its validity did: below the 250 ms bucket */
    CHECK(val(&d, HOLD "_bucket{kind=\"mutex\",le=\"0.25\",outcome=\"expired\"}") == 1);
    CHECK(val(&d, ACQ "_count" MUTEX("acquired")) == 3);
    CHECK(val(&d, ACQ "_count" MUTEX("error")) == 1);
    CHECK(val(&d, ACQ "_count" MUTEX("unavailable")) == 1);
    CHECK(val(&d, "redlock_releases_total" MUTEX("unavailable")) == 1);
    CHECK(val(&d, "redlock_masters_connected") <= 1);
    om_free(&d);
    free(text);
    it_fix_stop(&f);
}

static void count_cb(redlock_lock *l, int status, void *privdata)
{
    (void)l;
    *(int *)privdata = status == REDLOCK_ECANCELED ? 1 : -1;
}

/* An acquire that waits on another client's lock, its handle freed: the
 * acquire and its wait count as cancelled. */
TEST(metrics_cancelled_acquire)
{
    redlock_options o;
    struct it_fix f = {0};
    redlock_lock *holder, *waiter;
    redlock_acquire_stats as = {0};
    int done = 0;
    int64_t t0;
    om_doc d;

    it_opts_retry(&o, 1000, 10, 5);
    redlock_client *wc = it_fix_two(&f, 3, IT_ASYNC, &o, "metrics:cancel", &holder, &waiter);
    struct it_op op = {f.base};
    CHECK_RC(holder, redlock_acquire_async(holder, 10000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 5000);
    CHECK_RC(holder, op.status, REDLOCK_OK);
    CHECK_RC(waiter, redlock_acquire_async(waiter, 10000, count_cb, &done), REDLOCK_OK);
    /* until it retried after a refusal */
    t0 = check_now_ms();
    while (as.attempts < 2 && check_now_ms() - t0 < 5000) {
        it_run(f.base, 5);
        CHECK_EQ(redlock_client_acquire_stats(wc, &as), 0);
    }
    CHECK_GE(as.attempts, 2);
    redlock_lock_free(waiter);
    CHECK_EQ(done, 1);
    f.locks[1] = NULL;      /* (it_fix_two's b) */

    char *text = scrape(wc, &d);
    CHECK(val(&d, ACQ "_count" MUTEX("cancelled")) == 1);
    CHECK(val(&d, WAIT "_count" MUTEX("cancelled")) == 1);
    CHECK(om_get(&d, ACQ "_count" MUTEX("acquired")) == NULL);
    om_free(&d);
    free(text);
    it_fix_stop(&f);
}

TEST(metrics_buffer_contract)
{
    struct it_fix f = {0};
    char small[100], *full;
    int64_t n;
    om_doc d;

    it_fix_start(&f, 1, NULL, 0);
    full = scrape(f.c, &d);
    n = (int64_t)strlen(full);
    CHECK_GT(n, (int64_t)sizeof small);
    memset(small, 'x', sizeof small);
    CHECK_EQ(redlock_client_metrics(f.c, small, sizeof small), n);
    CHECK_EQ(strlen(small), sizeof small - 1);
    CHECK(memcmp(small, full, sizeof small - 1) == 0);
    CHECK_EQ(redlock_client_metrics(f.c, small, 1), n);
    CHECK_EQ(small[0], '\0');
    CHECK(strcmp(full + n - 6, "# EOF\n") == 0);
    CHECK_EQ(redlock_client_metrics(NULL, small, sizeof small), REDLOCK_EINVAL);
    CHECK_EQ(redlock_client_metrics(f.c, NULL, 10), REDLOCK_EINVAL);
    CHECK(strstr(redlock_client_errstr(f.c), "buf is NULL") != NULL);
    om_free(&d);
    free(full);
    it_fix_stop(&f);
}

/* promtool (Debian's package prometheus) imports the text with Prometheus's
 * own OpenMetrics parser: `tsdb create-blocks-from openmetrics` wants a
 * timestamp on every sample, added here.  Skipped when it is absent: the
 * parser above is the main check. */
static int promtool_imports(const char *text, const char *name)
{
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[512], dir[512], cmd[2048], out[8192];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s.txt", tmp, name);
    snprintf(dir, sizeof dir, "%s/%s.blocks", tmp, name);
    CHECK((f = fopen(path, "w")) != NULL);
    for (const char *s = text, *nl; *s; s = nl + 1) {
        nl = strchr(s, '\n');
        CHECK(nl != NULL);
        fprintf(f, "%.*s%s\n", (int)(nl - s), s, *s == '#' ? "" : " 1700000000");
    }
    CHECK_EQ(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "promtool tsdb create-blocks-from openmetrics '%s' '%s'", path,
             dir);
    return it_shell(cmd, out, sizeof out);
}

TEST(metrics_promtool_imports_the_text)
{
    struct it_fix f = {.key = "metrics:promtool"};
    om_doc d;

    if (system("command -v promtool >/dev/null 2>&1") != 0) {
        check_note("promtool is not installed (Debian package prometheus): skipped; the "
                   "strict parser of the other metrics_ tests still checks the text");
        return;
    }
    it_fix_start(&f, 3, NULL, 0);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), REDLOCK_OK);
    CHECK_RC(f.lock, redlock_release(f.lock), REDLOCK_OK);
    char *text = scrape(f.c, &d);
    CHECK_EQ(promtool_imports(text, "metrics"), 0);
    /* and it would say so if the text were not OpenMetrics */
    text[strlen(text) - strlen("# EOF\n")] = '\0';
    CHECK_NE(promtool_imports(text, "no-eof"), 0);
    om_free(&d);
    free(text);
    it_fix_stop(&f);
}

/* ---- the bench prints them ------------------------------------------------ */

TEST(metrics_bench_prints_them)
{
    static char out[1 << 16];
    char path[512], cmd[1024];
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    FILE *f;
    size_t n;
    om_doc d;

    snprintf(path, sizeof path, "%s/bench-metrics.txt", tmp);
    snprintf(cmd, sizeof cmd, "bench/redlock-bench --no-progress --spawn 3 --warmup 0 --ops 300 "
             "--metrics-file '%s'", path);
    CHECK_EQ(it_shell(cmd, out, sizeof out), 0);
    CHECK((f = fopen(path, "r")) != NULL);
    n = fread(out, 1, sizeof out - 1, f);
    fclose(f);
    out[n] = '\0';
    CHECK_MSG(om_parse(&d, out, n) == 0, "%s", d.err);
    /* the cycle workload: try_acquire + release, every one won */
    double won = val(&d, "redlock_acquire_attempts_won_total");
    CHECK(won >= 300);
    CHECK(val(&d, ACQ "_count" MUTEX("acquired")) == won);
    CHECK(val(&d, HOLD "_count" MUTEX("released")) == won);
    om_free(&d);

    CHECK_EQ(it_shell("bench/redlock-bench --no-progress --spawn 1 --warmup 0 --ops 50 --metrics",
                      out, sizeof out), 0);
    n = strlen(out);
    CHECK(n > 6 && strcmp(out + n - 6, "# EOF\n") == 0);
    const char *text = strstr(out, "# TYPE redlock_acquire_duration_seconds histogram");
    CHECK(text != NULL);
    CHECK_MSG(om_parse(&d, text, strlen(text)) == 0, "%s", d.err);
    om_free(&d);
    CHECK_EQ(it_shell("bench/redlock-bench --spawn 1 --json --metrics", out, sizeof out), 2);
}

/* ---- with option loop_thread, another thread may scrape ------------------ */

struct scraper {
    redlock_client *c;
    atomic_int stop, scrapes;
    char err[512];
};

static void *scrape_loop(void *arg)
{
    struct scraper *sc = arg;
    size_t size = 1 << 16;
    char *buf = malloc(size);
    om_doc d;

    if (!buf) {
        snprintf(sc->err, sizeof sc->err, "out of memory");
        atomic_fetch_add(&sc->scrapes, 1);
    }
    while (buf && !atomic_load(&sc->stop) && !sc->err[0]) {
        int64_t n = redlock_client_metrics(sc->c, buf, size);
        if (n < 0 || (size_t)n >= size) {
            snprintf(sc->err, sizeof sc->err, "redlock_client_metrics: %lld", (long long)n);
            atomic_fetch_add(&sc->scrapes, 1);      /* (the test waits for one) */
            break;
        }
        if (om_parse(&d, buf, (size_t)n) != 0)
            snprintf(sc->err, sizeof sc->err, "scrape %d does not parse: %s",
                     atomic_load(&sc->scrapes), d.err);
        om_free(&d);
        atomic_fetch_add(&sc->scrapes, 1);
        it_sleep_ms(2);         /* (a scraper's pace: the cycles get the gate too) */
    }
    free(buf);
    return NULL;
}

TEST(threads_metrics_scraped_while_locking)
{
    redlock_options o;
    struct it_fix f = {.key = "metrics:threads"};
    struct scraper sc = {0};
    pthread_t th;
    om_doc d;

    it_opts(&o);
    o.loop_thread = 1;
    it_fix_start(&f, 3, &o, 0);
    sc.c = f.c;
    CHECK_EQ(pthread_create(&th, NULL, scrape_loop, &sc), 0);
    for (int i = 0; i < 20; i++) {
        CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), REDLOCK_OK);
        CHECK_RC(f.lock, redlock_release(f.lock), REDLOCK_OK);
    }
    /* at least one scrape ran beside the cycles */
    while (atomic_load(&sc.scrapes) == 0)
        it_sleep_ms(1);
    atomic_store(&sc.stop, 1);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_MSG(!sc.err[0], "%s", sc.err);
    char *text = scrape(f.c, &d);
    CHECK(val(&d, ACQ "_count" MUTEX("acquired")) == 20);
    CHECK(val(&d, HOLD "_count" MUTEX("released")) == 20);
    om_free(&d);
    free(text);
    it_fix_stop(&f);
}

/* A label value with a quote, a backslash and a newline is escaped (a
 * socket's path may hold them; the master need not be up). */
TEST(metrics_label_values_escaped)
{
    const char *nodes[] = { "unix:///nonexistent/a\"b\\c\nd.sock" };
    redlock_options o;
    redlock_client *c = NULL;
    char err[256] = "";
    om_doc d;

    it_opts(&o);
    CHECK_MSG(redlock_client_new(&c, NULL, nodes, 1, &o, err, sizeof err) == 0, "%s", err);
    char *text = scrape(c, &d);
    CHECK(val(&d, "redlock_node_up{node=\"unix:/nonexistent/a\\\"b\\\\c\\nd.sock\"}") == 0);
    om_free(&d);
    free(text);
    redlock_client_free(c);
}

/* The semaphore is counted as its own kind: acquired, conflict (all
 * permits out), error (another permit count), held and released. */
TEST(metrics_count_the_semaphore)
{
    struct it_fix f = {0};
    redlock_lock *a = NULL, *b = NULL, *c = NULL;
    om_doc d;

    it_fix_start(&f, 3, NULL, 0);
    CHECK_EQ(redlock_lock_new_semaphore(&a, f.c, "metrics:sem", 11, 1), REDLOCK_OK);
    CHECK_EQ(redlock_lock_new_semaphore(&b, f.c, "metrics:sem", 11, 1), REDLOCK_OK);
    CHECK_EQ(redlock_lock_new_semaphore(&c, f.c, "metrics:sem", 11, 2), REDLOCK_OK);
    CHECK_RC(a, redlock_acquire(a, 10000), REDLOCK_OK);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    CHECK_RC(c, redlock_try_acquire(c, 10000), REDLOCK_EPERMITS);
    CHECK_RC(a, redlock_extend(a, 10000), REDLOCK_OK);
    CHECK_RC(a, redlock_release(a), REDLOCK_OK);
    char *text = scrape(f.c, &d);
#define SEM(o) "{kind=\"semaphore\",outcome=\"" o "\"}"
    CHECK(val(&d, ACQ "_count" SEM("acquired")) == 1);
    CHECK(val(&d, ACQ "_count" SEM("conflict")) == 1);
    CHECK(val(&d, ACQ "_count" SEM("error")) == 1);
    CHECK(val(&d, HOLD "_count" SEM("released")) == 1);
    CHECK(val(&d, "redlock_extends_total" SEM("ok")) == 1);
    CHECK(val(&d, "redlock_releases_total" SEM("ok")) == 1);
    CHECK(om_get(&d, ACQ "_count" MUTEX("acquired")) == NULL);
#undef SEM
    om_free(&d);
    free(text);
    redlock_lock_free(a);
    redlock_lock_free(b);
    redlock_lock_free(c);
    it_fix_stop(&f);
}
