/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_bench_masters.c -- redlock-bench reports what the masters spend over its
 * measured window (bench/mstats.c; docs/performance.md, "What the masters
 * spend"): their CPU and their commands per cycle, in the text report and
 * the JSON, checked against the masters' own counters read from outside;
 * and a master it cannot read is reported as such, the run going on.  And
 * bench/regress.sh (make bench-regress), which measures the masters from
 * outside around runs of two benches. */
#include "itest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

/* Run the bench (its own masters: the addresses in args, or --spawn). */
static int bench(const char *args, char *out, size_t size)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "bench/redlock-bench --no-progress %s", args);
    return it_shell(cmd, out, size);
}

/* The masters' CPU (their main threads', user + sys, s), read from outside,
 * summed over the n servers. */
static double outside_cpu(rlt_servers *s, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        redisReply *r = rlt_servers_command(s, i, "INFO cpu");
        CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
        const char *u = strstr(r->str, "used_cpu_user_main_thread:");
        const char *y = strstr(r->str, "used_cpu_sys_main_thread:");
        CHECK_MSG(u && y, "no main thread figures: %s", r->str);
        sum += strtod(u + strlen("used_cpu_user_main_thread:"), NULL) +
               strtod(y + strlen("used_cpu_sys_main_thread:"), NULL);
        freeReplyObject(r);
    }
    return sum;
}

/* Their calls of `cmd`, summed likewise. */
static long long outside_calls(rlt_servers *s, int n, const char *cmd)
{
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += it_calls(s, i, cmd);
    return sum;
}

/* A plain cycle (acquire, release) on 3 masters of the test's own, without
 * warm-up so that every operation of the run is in the window: the masters'
 * CPU per cycle is there and positive, within what they spent over the
 * whole run; the commands are those the masters counted, a plain cycle's
 * worth (two requests a master, and what the release script calls), each
 * command's calls those the masters counted for it (all of them for the
 * commands every cycle sends). */
TEST(bench_masters_cpu_and_commands_per_cycle)
{
    static char out[65536];
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    char args[512];
    snprintf(args, sizeof args, "--warmup 0 --duration 0.5 --concurrency 16 --json %s %s %s",
             rlt_servers_addr(f.s, 0), rlt_servers_addr(f.s, 1), rlt_servers_addr(f.s, 2));
    double cpu0 = outside_cpu(f.s, 3);
    CHECK_EQ(bench(args, out, sizeof out), 0);
    double cpu1 = outside_cpu(f.s, 3);
    const char *m = strstr(out, "\"masters\":{");
    CHECK_MSG(m != NULL, "no masters' figures in the JSON");
    CHECK(it_has(m, "\"available\":true,\"nodes\":3,"));
    CHECK(it_has(m, "\"cpu_source\":\"main_thread\""));
    double cycles = it_json_num(out, "cycles");
    CHECK(cycles > 100);
    /* CPU: positive, per cycle as cpu_s says, at most what the masters spent
     * while the bench ran, and most of that */
    double cpu = it_json_num(m, "cpu_s"), per_cycle = it_json_num(m, "cpu_us_per_cycle");
    CHECK_MSG(cpu > 0 && per_cycle > 0, "cpu %f s, %f us per cycle", cpu, per_cycle);
    CHECK_MSG(per_cycle > cpu * 1e6 / cycles * 0.999 && per_cycle < cpu * 1e6 / cycles * 1.001,
              "%f us per cycle, %f s over %.0f cycles", per_cycle, cpu, cycles);
    CHECK_MSG(cpu <= cpu1 - cpu0 + 1e-6 && cpu >= 0.5 * (cpu1 - cpu0),
              "the window's %f s of the run's %f s", cpu, cpu1 - cpu0);
    CHECK(it_json_num(out, "client_cpu_us_per_cycle") > 0);
    /* commands: a plain cycle's band per master */
    double per_master = it_json_num(m, "commands_per_cycle") / 3;
    CHECK_MSG(per_master >= 1.5 && per_master <= 6, "%f commands per cycle per master",
              per_master);
    /* each command's calls as the masters counted them (none of the bench's
     * INFO among them), their sum the total */
    const char *pc = strstr(m, "\"per_command\":{");
    CHECK(pc != NULL);
    long long total = 0;
    int ncmd = 0;
    for (const char *p = pc + strlen("\"per_command\":{"); *p == '"'; ncmd++) {
        char name[64];
        CHECK_EQ(sscanf(p, "\"%63[^\"]\"", name), 1);
        CHECK_MSG(strcmp(name, "info") != 0, "the bench's own INFO counted");
        long long calls = (long long)it_json_num(p, "calls"), all = outside_calls(f.s, 3, name);
        /* outside the window: only the clients' connections' few commands;
         * a master behind the quorum works on the window's requests after
         * the clients stopped, and that is counted */
        CHECK_MSG(calls >= 1 && (calls < cycles ? calls <= all : calls == all),
                  "%s: %lld calls in the window, %lld in the run", name, calls, all);
        total += calls;
        p = strchr(p, '}') + 1;
        p += *p == ',';
    }
    CHECK(ncmd >= 2);
    CHECK_EQ(total, (long long)it_json_num(m, "commands"));
    it_fix_stop(&f);
}

/* The text report: the masters' lines next to the client's. */
TEST(bench_masters_text_report)
{
    static char out[16384];
    CHECK_EQ(bench("--spawn 3 --warmup 0.1 --duration 0.3", out, sizeof out), 0);
    const char *c = strstr(out, "  cpu (this process) ");
    CHECK(c != NULL);
    const char *m = strstr(c, "\n  cpu (masters)      ");
    CHECK_MSG(m != NULL, "no masters' CPU line after the client's");
    double s = strtod(m + strlen("\n  cpu (masters)      "), NULL);
    CHECK(s > 0);
    CHECK(it_has(m, " s user+sys of 3 main threads, ") && it_has(m, " ms per 1,000 cycles\n"));
    const char *k = strstr(m, "\n  commands (masters) ");
    CHECK(k != NULL);
    double n = strtod(k + strlen("\n  commands (masters) "), NULL);
    CHECK_MSG(n >= 3 * 1.5 && n <= 3 * 6, "%f commands per cycle", n);
    CHECK(it_has(k, " per cycle, scripts' own calls included: "));
    CHECK(it_has(k, " us each)"));
    /* per attempt too where the client's line has it */
    CHECK_EQ(bench("--spawn 3 --warmup 0.1 --duration 0.3 --workload contend --clients 2", out,
                   sizeof out), 0);
    m = strstr(out, "\n  cpu (masters)      ");
    CHECK(m != NULL && it_has(m, " ms per 1,000 cycles, ") &&
          it_has(m, " ms per 1,000 attempts\n"));
}

/* Masters whose ACL refuses INFO: the run goes on, and the report says why
 * there are no masters' figures. */
TEST(bench_masters_not_available_says_why)
{
    static char out[65536];
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    char args[512];
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "ACL SETUSER locker on >pw ~* &* +@all -info");
        CHECK(r && r->type == REDIS_REPLY_STATUS);
        freeReplyObject(r);
    }
    snprintf(args, sizeof args, "--warmup 0 --duration 0.3 redis://locker:pw@%s "
             "redis://locker:pw@%s redis://locker:pw@%s", rlt_servers_addr(f.s, 0),
             rlt_servers_addr(f.s, 1), rlt_servers_addr(f.s, 2));
    CHECK_EQ(bench(args, out, sizeof out), 0);
    CHECK(it_has(out, "\n  failures          none\n"));
    const char *m = strstr(out, "\n  cpu (masters)      not available (");
    CHECK_MSG(m != NULL, "no 'not available' line");
    CHECK(it_has(m, "INFO commandstats refused: NOPERM"));
    CHECK(!it_has(m, ":pw@"));   /* the password is not shown */
    CHECK(!it_has(out, "commands (masters)"));
    strcat(args, " --json");
    CHECK_EQ(bench(args, out, sizeof out), 0);
    CHECK(it_json_num(out, "cycles") > 0);
    CHECK(it_has(out, "\"masters\":{\"available\":false,\"why\":\"redis://127.0.0.1:"));
    CHECK(it_json_num(out, "client_cpu_us_per_cycle") > 0);
    it_fix_stop(&f);
}

/* The median ratio on the summary line that starts with `label` after
 * `from`, or -1. */
static double summary_ratio(const char *from, const char *label)
{
    const char *p = from ? strstr(from, label) : NULL;
    return p ? strtod(p + strlen(label), NULL) : -1;
}

/* bench/regress.sh with the current bench as the "old" one too: rounds
 * interleaved in alternating order, every workload of both, the ratios of
 * one binary to itself near 1, the commands per cycle of a plain cycle. */
TEST(bench_regress_script_rounds_and_ratios)
{
    static char out[32768];
    CHECK_EQ(it_shell("sh bench/regress.sh -r 2 -d 0.5 -n 3 -o bench/redlock-bench", out,
                    sizeof out), 0);
    /* round 1: old first; round 2: new first */
    static const char *const order[] = {
        "round 1: plain  old", "round 1: plain  new", "round 1: fenced old",
        "round 1: fenced new", "round 1: hot    old", "round 1: hot    new",
        "round 2: plain  new", "round 2: plain  old", "round 2: fenced new",
        "round 2: fenced old", "round 2: hot    new", "round 2: hot    old"};
    const char *at = out;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *p = strstr(at, order[i]);
        CHECK_MSG(p != NULL, "no \"%s\" after the runs before it", order[i]);
        at = p + 1;
    }
    const char *w[3] = {strstr(out, "\nplain cycle"), strstr(out, "\nfenced cycle"),
                        strstr(out, "\nhot key")};
    for (int i = 0; i < 3; i++) {
        CHECK(w[i] != NULL);
        /* (one binary against itself; on a busy machine, within 2x) */
        double m = summary_ratio(w[i], "masters' CPU per cycle   ");
        double c = summary_ratio(w[i], "client CPU per cycle     ");
        double r = summary_ratio(w[i], "cycles/s                 ");
        CHECK_MSG(m > 0.5 && m < 2 && c > 0.5 && c < 2 && r > 0.5 && r < 2,
                  "workload %d: ratios %f %f %f", i, m, c, r);
        CHECK(it_has(w[i], "commands per cycle, old: ") && it_has(w[i], "commands per cycle, new: "));
    }
    /* a plain cycle: its busiest command about once a master (3) a cycle */
    const char *cn = strstr(w[0], "commands per cycle, new: ");
    char name[64];
    double per = 0;
    CHECK_EQ(sscanf(cn + strlen("commands per cycle, new: "), "%63s %lf", name, &per), 2);
    CHECK_MSG(per > 2.5 && per < 6, "%s %f per cycle", name, per);
    CHECK(!it_has(out, "commands per cycle, new: info"));
    double f = summary_ratio(strstr(out, "new build, fenced/plain"), "masters' CPU per cycle   ");
    CHECK_MSG(f > 0.5 && f < 3, "fenced/plain %f", f);
    CHECK(it_has(out, "old build, fenced/plain"));
}

/* An old bench without --fencing: the fenced workload runs on the new build
 * alone, and the script says so; bad usage is refused. */
TEST(bench_regress_script_old_bench_without_fencing)
{
    static char out[32768];
    char old[512], cmd[1200], cwd[512];
    snprintf(old, sizeof old, "%s/old-bench", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    FILE *f = fopen(old, "w");
    CHECK(f != NULL);
    fprintf(f, "#!/bin/sh\n"
               "case \" $* \" in *\" --fencing \"*) echo no such option >&2; exit 2 ;; esac\n"
               "[ \"$1\" = --help ] && { '%s/bench/redlock-bench' --help | grep -v -- --fencing; exit 0; }\n"
               "exec '%s/bench/redlock-bench' \"$@\"\n", cwd, cwd);
    fclose(f);
    snprintf(cmd, sizeof cmd, "chmod +x '%s' && sh bench/regress.sh -r 1 -d 0.3 -n 3 -o '%s'",
             old, old);
    CHECK_EQ(it_shell(cmd, out, sizeof out), 0);
    CHECK(it_has(out, "round 1: fenced new") && !it_has(out, "round 1: fenced old"));
    const char *fw = strstr(out, "\nfenced cycle");
    CHECK(fw != NULL && it_has(fw, "(the old bench has no --fencing: the new build alone)"));
    CHECK(it_has(fw, "masters' CPU per cycle   new "));
    CHECK(!it_has(out, "old build, fenced/plain"));
    CHECK(summary_ratio(strstr(out, "new build, fenced/plain"), "masters' CPU per cycle   ") > 0);
    CHECK_EQ(it_shell("sh bench/regress.sh -r 0", out, sizeof out), 2);
    CHECK(it_has(out, "usage:"));
    CHECK_EQ(it_shell("sh bench/regress.sh -r 1 no-such-commit", out, sizeof out), 2);
    CHECK(it_has(out, "no-such-commit: not a commit"));
}

/* The sum of server i's calls of every command but INFO. */
static long long work_calls(rlt_servers *s, int i)
{
    redisReply *r = rlt_servers_command(s, i, "INFO commandstats");
    CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
    long long n = 0;
    for (const char *p = r->str; (p = strstr(p, "cmdstat_")) != NULL; p++)
        if (strncmp(p, "cmdstat_info:", 13) != 0 && strstr(p, ":calls="))
            n += strtoll(strstr(p, ":calls=") + 7, NULL, 10);
    freeReplyObject(r);
    return n;
}

/* A master behind the quorum when the window ends (paused: the clients go
 * on with the other two, their requests to it wait, some in their own
 * buffers) works on them once it is back: the last reading comes after the
 * clients' teardown, which sends or drops them, so that every request of
 * the window that reaches a master is counted. */
TEST(bench_masters_counts_a_late_masters_work)
{
    static char out[65536];
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "bench/redlock-bench --no-progress --warmup 0 --duration 1 "
             "--concurrency 16 --node-timeout 5000 --json %s %s %s 2>&1",
             rlt_servers_addr(f.s, 0), rlt_servers_addr(f.s, 1), rlt_servers_addr(f.s, 2));
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    /* the run under way: pause master 3 */
    int64_t until = check_now_ms() + 20000;
    while (work_calls(f.s, 0) < 1000 && check_now_ms() < until)
        it_sleep_ms(10);
    CHECK(rlt_servers_pause(f.s, 2) == 0);
    /* the window over (master 1 idle): master 3 on again */
    long long last = -1, now = work_calls(f.s, 0);
    while (now != last && check_now_ms() < until) {
        it_sleep_ms(50);
        last = now;
        now = work_calls(f.s, 0);
    }
    CHECK(rlt_servers_resume(f.s, 2) == 0);
    CHECK_EQ(it_read_all(p, out, sizeof out), 0);
    check_note("%s", out);
    const char *m = strstr(out, "\"per_command\":{");
    CHECK(m != NULL);
    /* the busiest command: all of its calls on the three masters */
    char name[64];
    CHECK_EQ(sscanf(m + strlen("\"per_command\":{"), "\"%63[^\"]\"", name), 1);
    long long calls = (long long)it_json_num(m, "calls");
    CHECK_MSG(calls == outside_calls(f.s, 3, name), "%s: %lld in the window, %lld in all", name,
              calls, outside_calls(f.s, 3, name));
    it_fix_stop(&f);
}
