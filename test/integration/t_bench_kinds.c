/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_bench_kinds.c -- redlock-bench --kind and --kinds (docs/performance.md,
 * "Lock kinds"): each kind's cycles measured against the mutex's in the
 * same run, in text and JSON; the mutex's output unchanged. */
#include "itest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#define BENCH "bench/redlock-bench --spawn 3 --no-progress --warmup 0.1 "

/* Run cmd; its whole output into out, its exit status returned. */
static int bench_run(const char *args, char *out, size_t size)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, BENCH "%s 2>&1", args);
    FILE *p = popen(cmd, "r");
    CHECK_MSG(p != NULL, "popen: %s", strerror(errno));
    size_t got = 0;
    out[0] = '\0';
    while (got < size - 1 && fgets(out + got, (int)(size - got), p))
        got += strlen(out + got);
    int st = pclose(p);
    CHECK_MSG(st != -1 && WIFEXITED(st), "%s: did not exit normally", cmd);
    return WEXITSTATUS(st);
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
