/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fo_run.c -- running the failover suite's programs from the tests
 * (t_failover.c, t_failover_hot.c). */
#include "itest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "fo_run.h"

void need_file(const char *path)
{
    struct stat st;
    CHECK_MSG(stat(path, &st) == 0, "%s missing (run `make failover` from the repository root)",
              path);
}

int run_capture(const char *cmd, int echo, char *result, size_t rlen)
{
    result[0] = '\0';
    FILE *p = popen(cmd, "r");
    CHECK_MSG(p != NULL, "popen(%s): %s", cmd, strerror(errno));
    char line[2048];
    while (fgets(line, sizeof line, p)) {
        if (echo)
            fputs(line, stderr);
        if (!strncmp(line, "RESULT ", 7)) {
            size_t n = strlen(line);
            if (n >= rlen)
                n = rlen - 1;
            memcpy(result, line, n);
            result[n] = '\0';
        }
    }
    int st = pclose(p);
    CHECK_MSG(st != -1 && WIFEXITED(st), "%s: did not exit normally (%d)", cmd, st);
    return WEXITSTATUS(st);
}

double result_num(const char *result, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(result, pat);
    CHECK_MSG(p != NULL, "no %s in RESULT line \"%s\"", key, result);
    return strtod(p + strlen(pat), NULL);
}

void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK_MSG(f != NULL, "%s: %s", path, strerror(errno));
    CHECK_EQ(fputs(text, f) >= 0, 1);
    CHECK_EQ(fclose(f), 0);
}

void need_failover_programs(void)
{
    need_file(FO_DIR "rl-worker");
    need_file(FO_DIR "rl-check");
    need_file(FO_DIR "rl-schedule");
    need_file(FO_DIR "rl-util");
    need_file(FO_DIR "failover.sh");
}

long long mixed_setup(void)
{
    need_failover_programs();
    need_file("test/rlproxy");
    const char *env = getenv("FAILOVER_SEED");
    return env && *env ? atoll(env) : (long long)(check_now_ms() % 1000000000) + 1;
}

int mixed_run(const char *cmd, const char *what, long long seed, char *result, size_t rlen,
              int64_t *ms)
{
    int64_t t0 = check_now_ms();
    int rc = run_capture(cmd, 1, result, rlen);
    *ms = check_now_ms() - t0;
    check_note("%s, seed %lld (replay: FAILOVER_SEED=%lld): %lld ms, %s", what, seed, seed,
               (long long)*ms, result);
    CHECK_NE(result[0], '\0');
    CHECK_EQ(result_num(result, "overlaps"), 0);
    CHECK_EQ(result_num(result, "token_violations"), 0);
    return rc;
}

static int figure_holds(double got, char op, double v)
{
    switch (op) {
    case '=':
        return got == v;
    case '>':
        return got > v;
    case 'g':
        return got >= v;
    case '<':
        return got < v;
    }
    return 0;
}

void check_figures(const char *result, const struct fo_figure *fig)
{
    for (; fig && fig->key; fig++) {
        double got = result_num(result, fig->key);
        CHECK_MSG(figure_holds(got, fig->op, fig->v), "%s=%g, want %c %g (%s)", fig->key, got,
                  fig->op, fig->v, result);
    }
}
