/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_bench_kinds.c -- redlock-bench --kind and --kinds (docs/performance.md,
 * "Lock kinds"): each kind's cycles measured against the mutex's in the
 * same run, in text and JSON, and a multi lock's resources locked per
 * second; the mutex's output unchanged. */
#include "itest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define BENCH "bench/redlock-bench --no-progress "

/* Run the bench with args (on its own 3 masters unless args name some);
 * its whole output into out, its exit status returned. */
static int bench_run(const char *args, char *out, size_t size)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, BENCH "%s%s", strstr(args, "127.0.0.1:") ? "" :
             "--spawn 3 --warmup 0.1 ", args);
    return it_shell(cmd, out, size);
}

/* The number after `key` in s (after from), or -1 when missing. */
static double num_after(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    return p ? strtod(p + strlen(key), NULL) : -1;
}

TEST(checker_kind_bench_json_ratios)
{
    static char out[16384];
    CHECK_EQ(bench_run("--kinds all --rounds 1 --duration 0.3 --json", out, sizeof out), 0);
    check_note("%s", out);
    static const char *const kinds[] = {"mutex", "reentrant", "read", "write", "multi"};
    const char *at = out;
    for (size_t i = 0; i < 5; i++) {
        char key[64];
        snprintf(key, sizeof key, "{\"kind\":\"%s\",", kinds[i]);
        const char *p = strstr(at, key);
        CHECK_MSG(p != NULL, "no %s entry after the previous kind", kinds[i]);
        /* (the CHECK_ macros compare integers) */
        CHECK(num_after(p, "\"median_cycles_per_s\":") > 0);
        double ratio = num_after(p, "\"ratio_to_mutex\":");
        CHECK_MSG(i ? ratio > 0 && ratio < 10 : ratio == 1.0, "%s: ratio %f", kinds[i], ratio);
        CHECK(strstr(p, "\"meets_target\":") != NULL);
        at = p + 1;
    }
    double target = num_after(out, "\"target_ratio\":");
    CHECK(target > 0.79 && target < 0.81);
    CHECK_EQ(num_after(out, "\"rounds\":"), 1);
}

TEST(checker_kind_bench_text_rounds)
{
    static char out[8192];
    CHECK_EQ(bench_run("--kinds write,multi --rounds 2 --duration 0.2", out, sizeof out), 0);
    check_note("%s", out);
    /* the rounds interleave: mutex, write, multi, then again */
    const char *r1 = strstr(out, "round 1/2: mutex"), *r1m = strstr(out, "round 1/2: multi");
    const char *r2 = strstr(out, "round 2/2: mutex");
    CHECK(r1 && r1m && r2 && r1 < r1m && r1m < r2);
    CHECK(strstr(out, "median of 2 interleaved rounds") != NULL);
    const char *w = strstr(out, "\n  write ");
    CHECK(w != NULL && strchr(w, '%') != NULL);
    CHECK(strstr(out, "round 1/2: read") == NULL);
}

TEST(checker_kind_bench_one_kind_and_mutex_unchanged)
{
    static char out[8192];
    CHECK_EQ(bench_run("--kind multi --duration 0.3", out, sizeof out), 0);
    CHECK(strstr(out, "redlock: cycle, kind multi, 3 masters") != NULL);
    CHECK(num_after(out, "  cycles ") > 0);
    CHECK(strstr(out, "failure:") == NULL);
    CHECK_EQ(bench_run("--kind reentrant --duration 0.3 --json", out, sizeof out), 0);
    CHECK(strstr(out, "\"result\":{\"kind\":\"reentrant\",\"workload\":\"cycle\"") != NULL);
    /* the mutex's output as before: no kind anywhere */
    CHECK_EQ(bench_run("--duration 0.3", out, sizeof out), 0);
    CHECK(strstr(out, "redlock: cycle, 3 masters") != NULL);
    CHECK(strstr(out, "kind") == NULL);
    CHECK_EQ(bench_run("--duration 0.3 --json", out, sizeof out), 0);
    CHECK(strstr(out, "\"result\":{\"workload\":\"cycle\"") != NULL);
    /* bad input */
    CHECK_EQ(bench_run("--kinds mutex,nope", out, sizeof out), 2);
    CHECK_EQ(bench_run("--kind read --fencing", out, sizeof out), 2);
    CHECK_EQ(bench_run("--kind multi --fencing", out, sizeof out), 2);
    CHECK_EQ(bench_run("--kinds all --baseline", out, sizeof out), 2);
}

TEST(checker_kind_bench_resources_rate)
{
    static char out[16384];
    CHECK_EQ(bench_run("--kinds write,multi --resources 4 --rounds 1 --duration 0.3 --json", out,
                       sizeof out), 0);
    check_note("%s", out);
    const char *m = strstr(out, "{\"kind\":\"multi\",");
    CHECK(m != NULL);
    double cycles = num_after(m, "\"median_cycles_per_s\":");
    double ratio = num_after(m, "\"ratio_to_mutex\":");
    CHECK_EQ(num_after(m, "\"resources\":"), 4);
    /* per resource locked: 4 a multi cycle, 1 a mutex cycle (the JSON's rounding) */
    double per_s = num_after(m, "\"median_resources_per_s\":");
    CHECK_MSG(per_s > 4 * cycles - 1 && per_s < 4 * cycles + 1, "%f resources/s", per_s);
    double rratio = num_after(m, "\"resources_ratio_to_mutex\":");
    CHECK_MSG(rratio > 4 * ratio - 0.001 && rratio < 4 * ratio + 0.001, "%f", rratio);
    /* only the multi lock has them */
    const char *w = strstr(out, "{\"kind\":\"write\",");
    CHECK(w != NULL && w < m && strstr(out, "resources") > m);
    /* the default is 2, and the text report says it next to the per-cycle ratio */
    CHECK_EQ(bench_run("--kinds multi --rounds 1 --duration 0.2", out, sizeof out), 0);
    check_note("%s", out);
    const char *t = strstr(out, "\n  multi ");
    CHECK(t != NULL && strstr(t, "cycles/s") != NULL);
    CHECK(it_has(t, " resources/s ") && it_has(t, "(2 per multi cycle, 1 per mutex cycle)"));
}

TEST(checker_kind_bench_resources_bad_values)
{
    static char out[4096];
    static const char *const bad[] = {"--kind multi --resources 0", "--kind multi --resources 65",
                                      "--kind multi --resources two",
                                      "--kinds multi --resources -1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(bench_run(bad[i], out, sizeof out), 2);
        CHECK_MSG(it_has(out, "bad value for --resources") && it_has(out, "(1 .. 64)"), "%s: %s",
                  bad[i], out);
    }
    /* not a multi lock: refused, not ignored */
    static const char *const other[] = {"--resources 3", "--kind write --resources 3",
                                        "--kinds reentrant,read --resources 3"};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        CHECK_EQ(bench_run(other[i], out, sizeof out), 2);
        CHECK_MSG(it_has(out, "--resources is for multi locks"), "%s: %s", other[i], out);
    }
}

/* Calls of cmd on each of f's 3 masters, into n[3]. */
static void calls3(struct it_fix *f, const char *cmd, long long n[3])
{
    for (int i = 0; i < 3; i++)
        n[i] = it_calls(f->s, i, cmd);
}

/* The bench against masters of the test's own: a SET (plain, or a
 * script's) writes one resource's key, and a master takes an attempt's
 * keys all or none, so that each master sees N SETs per attempt that
 * reached it, and a won cycle's on a quorum (2) at least.  A master may
 * see fewer than every cycle's: a SET still in the client when its
 * attempt is decided is dropped (docs/design.md, "Pipelining"), which a
 * master starved of CPU makes common. */
static void check_sets_per_cycle(struct it_fix *f, int nres)
{
    static char out[16384];
    char args[256];
    long long sets[3], evals[3], s1[3], e1[3], total = 0, etotal = 0;
    snprintf(args, sizeof args, "--kind multi --resources %d --concurrency 16 --warmup 0 "
             "--duration 0.2 --json %s %s %s", nres, rlt_servers_addr(f->s, 0),
             rlt_servers_addr(f->s, 1), rlt_servers_addr(f->s, 2));
    calls3(f, "set", sets);
    calls3(f, "evalsha", evals);
    CHECK_EQ(bench_run(args, out, sizeof out), 0);
    check_note("%s", out);
    CHECK(it_has(out, "\"result\":{\"kind\":\"multi\","));
    double cycles = num_after(out, "\"cycles\":"), attempts = num_after(out, "\"attempts\":");
    CHECK(cycles > 0 && attempts >= cycles);
    calls3(f, "set", s1);
    calls3(f, "evalsha", e1);
    for (int i = 0; i < 3; i++) {
        long long n = s1[i] - sets[i];
        CHECK_MSG(n % nres == 0 && n <= nres * (attempts + 16),
                  "%d resources: %lld SETs on master %d for %.0f attempts", nres, n, i, attempts);
        total += n;
        etotal += e1[i] - evals[i];
    }
    CHECK_MSG(total >= 2 * nres * cycles, "%d resources: %lld SETs for %.0f cycles", nres, total,
              cycles);
    /* one resource: a plain SET, and the mutex's release script; more: a
     * script each way */
    int scripts = nres == 1 ? 1 : 2;
    CHECK_MSG(etotal >= 2 * scripts * cycles && etotal <= 3 * scripts * (attempts + 16),
              "%d resources: %lld EVALSHA for %.0f cycles, %.0f attempts", nres, etotal, cycles,
              attempts);
}

TEST(checker_kind_bench_resources_on_the_masters)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    check_sets_per_cycle(&f, 1);
    check_sets_per_cycle(&f, 4);
    it_fix_stop(&f);
}

/* ---- contend for every kind (docs/performance.md, "Lock kinds under contention") ---- */

#define CONTEND "--workload contend --clients 4 --retry-delay 5 --retry-count 100000 "

/* The JSON object of kind `kind` in out (from {"kind":"<kind>",), or NULL. */
static const char *kind_entry(const char *out, const char *kind)
{
    char key[64];
    snprintf(key, sizeof key, "{\"kind\":\"%s\",", kind);
    return strstr(out, key);
}

TEST(checker_kind_bench_contend_every_kind)
{
    static char out[32768];
    CHECK_EQ(bench_run(CONTEND "--kinds all --rounds 1 --duration 0.3 --json", out, sizeof out),
             0);
    check_note("%s", out);
    static const char *const kinds[] = {"mutex", "reentrant", "rw", "multi"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const char *p = kind_entry(out, kinds[i]);
        CHECK_MSG(p != NULL, "no %s", kinds[i]);
        CHECK_MSG(num_after(p, "\"acquisitions_per_s\":") > 0, "%s", kinds[i]);
        CHECK_MSG(num_after(p, "\"handoff_p50_us\":") > 0, "%s", kinds[i]);
        CHECK_MSG(num_after(p, "\"wait_p99_us\":") > 0, "%s", kinds[i]);
        double jain = num_after(p, "\"fairness_jain\":");
        CHECK_MSG(jain > 0 && jain <= 1, "%s: Jain %f", kinds[i], jain);
        CHECK_MSG(num_after(p, "\"masters_cpu_us_per_cycle\":") > 0, "%s", kinds[i]);
        double maxh = num_after(p, "\"max_holders\":");
        CHECK_MSG(maxh >= 1 && (i == 2 || maxh == 1), "%s: %f holders", kinds[i], maxh);
        CHECK(strstr(p, "\"invariant_kept\":true") != NULL);
        double ratio = num_after(p, "\"ratio_to_mutex\":{\"acquisitions_per_s\":");
        CHECK_MSG(i ? ratio > 0 : ratio == 1.0, "%s: ratio %f", kinds[i], ratio);
    }
    /* the text table: one line per kind, after the rounds */
    CHECK_EQ(bench_run(CONTEND "--kinds reentrant --rounds 1 --duration 0.2", out, sizeof out), 0);
    check_note("%s", out);
    CHECK(it_has(out, "round 1/1: reentrant") && it_has(out, "lock kinds under contention"));
    const char *t = strstr(out, "\n  reentrant ");
    CHECK(t != NULL && strchr(t, '%') != NULL && it_has(t, "1 (1)"));
}

TEST(checker_kind_bench_contend_rw_sides)
{
    static char out[16384];
    CHECK_EQ(bench_run(CONTEND "--kind rw --writers 1 --duration 0.3 --json", out, sizeof out), 0);
    check_note("%s", out);
    const char *r = strstr(out, "\"readers\":{\"clients\":3,"), *w = strstr(out, "\"writers\":{\"clients\":1,");
    CHECK(r != NULL && w != NULL);
    CHECK(strstr(r, "\"wait\":{\"count\":") != NULL && strstr(w, "\"wait\":{\"count\":") != NULL);
    CHECK_EQ(num_after(w, "\"max_at_once\":"), 1);
    double rs = num_after(r, "\"held_share\":"), ws = num_after(w, "\"held_share\":");
    CHECK_MSG(rs >= 0 && ws > 0 && rs + ws <= 1.01, "readers %f, writers %f", rs, ws);
    CHECK(it_has(out, "\"invariant_kept\":true"));
    /* the text report: per side */
    CHECK_EQ(bench_run(CONTEND "--kind rw --writers 2 --duration 0.2", out, sizeof out), 0);
    check_note("%s", out);
    CHECK(it_has(out, "  readers' wait ") && it_has(out, "  writers' wait "));
    CHECK(it_has(out, "(2 clients)") && it_has(out, "invariant kept"));
}

TEST(checker_kind_bench_contend_check_fails)
{
    static char out[16384];
    /* the check as a unit (--self-check), then on a run that counts a holder
     * more than the kind allows: the run must say so and fail */
    CHECK_EQ(it_shell("bench/redlock-bench --self-check", out, sizeof out), 0);
    CHECK(it_has(out, "holders' check ok"));
    CHECK_EQ(bench_run(CONTEND "--duration 0.2 --fake-overlap", out, sizeof out), 3);
    check_note("%s", out);
    CHECK(it_has(out, "invariant BROKEN by") && it_has(out, "at most 2 at once"));
    CHECK_EQ(bench_run(CONTEND "--kinds rw --rounds 1 --duration 0.2 --fake-overlap", out,
                       sizeof out), 3);
    CHECK(it_has(out, "INVARIANT BROKEN"));
    /* without it: kept, status 0 */
    CHECK_EQ(bench_run(CONTEND "--duration 0.2", out, sizeof out), 0);
    CHECK(it_has(out, "at most 1 at once (the kind allows 1)") && it_has(out, "invariant kept"));
}

TEST(checker_kind_bench_contend_bad_options)
{
    static char out[4096];
    static const struct { const char *args, *says; } bad[] = {
        {"--kind rw", "--kind rw is for the contend workload"},
        {CONTEND "--writers 2", "--writers is for the rw kind"},
        {CONTEND "--kind rw --writers 5", "--writers (5) must be at most --clients (4)"},
        {CONTEND "--permits 3", "--permits is for the semaphore"},
        {"--fake-overlap", "--fake-overlap tests contend"},
        {CONTEND "--kinds all --baseline", "--kinds compares the cycle or the contend"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(bench_run(bad[i].args, out, sizeof out), 2);
        CHECK_MSG(it_has(out, bad[i].says), "%s: %s", bad[i].args, out);
    }
}

TEST(checker_kind_bench_contend_semaphore)
{
    static char out[16384];
#ifdef REDLOCK_KIND_SEMAPHORE
    CHECK_EQ(bench_run(CONTEND "--kind semaphore --permits 2 --duration 0.3 --json", out,
                       sizeof out), 0);
    check_note("%s", out);
    CHECK(it_has(out, "\"result\":{\"kind\":\"semaphore\","));
    const char *h = strstr(out, "\"holders\":{\"limit\":2,");
    CHECK(h != NULL);
    double maxh = num_after(h, "\"max\":");
    CHECK_MSG(maxh >= 1 && maxh <= 2, "%f holders", maxh);
    CHECK(it_has(h, "\"invariant_kept\":true"));
#else
    CHECK_EQ(bench_run(CONTEND "--kind semaphore", out, sizeof out), 2);
    CHECK(it_has(out, "this build's library has no semaphore"));
#endif
}
