/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_bench_ops.c -- redlock-bench for operators (docs/performance.md, "The
 * bench for operators"): many independent clients on a few threads, the
 * contend report's fields, the open loop (--rate), the --hist export and
 * its plots, and TLS masters. */
#include "itest.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* $TMPDIR/name (run.sh gives every run its own TMPDIR). */
static const char *tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
    return buf;
}

/* The bench on 3 masters of its own (unless args name masters). */
static int bench(const char *args, char *out, size_t size)
{
    char cmd[3072];
    snprintf(cmd, sizeof cmd, "bench/redlock-bench --no-progress %s%s",
             strstr(args, "://") ? "" : "--spawn 3 --warmup 0.2 ", args);
    return it_shell(cmd, out, size);
}

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* The bench refuses args (exit status 2), saying `says` (when not NULL). */
static void check_usage_error(const char *args, const char *says)
{
    static char out[8192];
    CHECK_MSG(bench(args, out, sizeof out) == 2, "%s: not refused", args);
    CHECK_MSG(says == NULL || it_has(out, says), "%s: no \"%s\" in: %s", args, says, out);
}

TEST(bench_ops_contend_clients_on_threads)
{
    static char out[65536];
    CHECK_EQ(bench("--workload contend --clients 16 --threads 2 --duration 1 --json", out,
                   sizeof out), 0);
    CHECK_EQ(it_json_num(out, "clients"), 16);
    CHECK_EQ(it_json_num(out, "threads"), 2);
    const char *c = strstr(out, "\"contention\":");
    CHECK(c != NULL);
    CHECK(it_json_num(c, "acquisitions_per_s") > 0);
    double jain = it_json_num(c, "fairness_jain");
    CHECK_MSG(jain > 0 && jain <= 1, "jain %f", jain);
    /* one count per client */
    const char *pc = strstr(c, "\"per_client\":[");
    CHECK(pc != NULL);
    int commas = 0;
    for (const char *p = pc; *p != ']'; p++)
        commas += *p == ',';
    CHECK_EQ(commas, 15);
    /* the handoff to another client: its distribution */
    const char *h = strstr(c, "\"handoff_other_client\":{");
    CHECK(h != NULL);
    double p50 = it_json_num(h, "p50_us"), p90 = it_json_num(h, "p90_us"), p99 = it_json_num(h, "p99_us");
    double mx = it_json_num(h, "max_us");
    CHECK(it_json_num(h, "count") > 0);
    CHECK_MSG(p50 > 0 && p50 <= p90 && p90 <= p99 && p99 <= mx, "%f %f %f %f", p50, p90, p99, mx);
    /* the text report: clients on threads, the handoff line */
    CHECK_EQ(bench("--workload contend --clients 6 --threads 3 --duration 0.5", out, sizeof out), 0);
    CHECK(it_has(out, "6 clients on 3 threads"));
    CHECK(it_has(out, "to another client p50 "));
    CHECK(it_has(out, "fairness "));
}

/* --baseline with contend: the raw hand-off chain of the same clients
 * (bench/handoff.c), each a pick of the one before, and the ratios. */
TEST(bench_ops_contend_baseline_is_the_raw_handoff_chain)
{
    static char out[131072];
    CHECK_EQ(bench("--workload contend --clients 6 --threads 2 --duration 1 --baseline --json",
                   out, sizeof out), 0);
    const char *b = strstr(out, "\"baseline\":{");
    CHECK(b != NULL);
    CHECK(strstr(b, "\"workload\":\"contend\"") != NULL);
    const char *c = strstr(b, "\"contention\":");
    CHECK(c != NULL);
    double rate = it_json_num(c, "window_acquisitions_per_s");
    CHECK_MSG(rate > 0, "the chain's rate %f", rate);
    /* the lock went round: every client held it (each hand-off picks one
     * of the other 5 at random: some 100 turns each in a second) */
    const char *pc = strstr(c, "\"per_client\":[");
    CHECK(pc != NULL);
    pc += strlen("\"per_client\":[");
    for (int i = 0; i < 6; i++) {
        char *end;
        long n = strtol(pc, &end, 10);
        CHECK_MSG(end != pc && n > 0, "client %d held it %ld times", i, n);
        pc = end + 1;
    }
    const char *h = strstr(c, "\"handoff_other_client\":{");
    CHECK(h != NULL);
    CHECK(it_json_num(h, "count") > 0);
    CHECK(it_json_num(h, "p50_us") > 0);
    /* the columns compare acquisitions a second and hand-offs */
    CHECK(it_json_num(out, "baseline_acquisitions_per_s") > 0);
    CHECK(it_json_num(out, "ratio_of_baseline") > 0);
    CHECK(it_json_num(out, "baseline_handoff_p50_us") > 0);
    CHECK(it_json_num(out, "handoff_p50_over_baseline") > 0);
    CHECK_EQ(bench("--workload contend --clients 4 --threads 2 --duration 0.5 --baseline", out,
                   sizeof out), 0);
    CHECK(it_has(out, "baseline (raw hand-off chain"));
    CHECK(it_has(out, "vs the raw hand-off chain's"));
}

/* bench/scale.sh: every count in every round, and the summary's medians
 * and shares are those of the rounds' rates; the pooled seconds' median
 * and 90th percentile (nearest rank) are those of the seconds printed
 * with each round. */
TEST(bench_ops_scale_script_reports_shares_of_the_first_count)
{
    static char out[16384];
    double lib[2][2] = { { 0 } }, chain[2][2] = { { 0 } }, sec[2][2] = { { 0 } };
    CHECK_EQ(it_shell("sh bench/scale.sh -r 2 -d 1.2 -c '2 4' -- --spawn 3 --warmup 0.2 --threads 2",
                    out, sizeof out), 0);
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 2; k++) {
            char want[64];
            snprintf(want, sizeof want, "round %d: %d clients: library ", r + 1, 2 << k);
            const char *p = strstr(out, want);
            CHECK_MSG(p != NULL, "no line \"%s\"", want);
            CHECK_EQ(sscanf(p + strlen(want), "%lf/s, chain %lf/s; library per second: %lf",
                            &lib[r][k], &chain[r][k], &sec[r][k]), 3);
            CHECK(lib[r][k] > 0 && chain[r][k] > 0 && sec[r][k] > 0);
        }
    /* one whole second a run, two a count: the median is their mean, the
     * 90th percentile the larger */
    double p90[2];
    for (int k = 0; k < 2; k++) {
        char want[32];
        double med, top, share;
        snprintf(want, sizeof want, "%4d clients: 2 s, median ", 2 << k);
        const char *p = strstr(out, want);
        CHECK_MSG(p != NULL, "no summary \"%s\"", want);
        CHECK_EQ(sscanf(p + strlen(want), "%lf/s, 90th percentile %lf/s, share %lf", &med, &top,
                        &share), 3);
        p90[k] = sec[0][k] > sec[1][k] ? sec[0][k] : sec[1][k];
        CHECK_MSG(fabs(med - (sec[0][k] + sec[1][k]) / 2) < 0.06, "median %f", med);
        CHECK_MSG(fabs(top - p90[k]) < 0.06, "90th percentile %f, want %f", top, p90[k]);
        CHECK_MSG(fabs(share - 100 * p90[k] / p90[0]) < 0.06, "share %f", share);
    }
    for (int k = 0; k < 2; k++) {
        char want[32];
        double l, ls, c, cs;
        snprintf(want, sizeof want, "%4d clients: library ", 2 << k);
        const char *p = strstr(out, want);
        CHECK_MSG(p != NULL, "no summary \"%s\"", want);
        p += strlen(want);
        CHECK_EQ(sscanf(p, "%lf/s, share %lf", &l, &ls), 2);
        p = strstr(p, "; chain ");
        CHECK(p != NULL);
        CHECK_EQ(sscanf(p, "; chain %lf/s, share %lf", &c, &cs), 2);
        /* two rounds: the median is their mean */
        CHECK_MSG(fabs(l - (lib[0][k] + lib[1][k]) / 2) < 0.06, "library %f", l);
        CHECK_MSG(fabs(c - (chain[0][k] + chain[1][k]) / 2) < 0.06, "chain %f", c);
        double lw = 50 * (lib[0][k] / lib[0][0] + lib[1][k] / lib[1][0]);
        double cw = 50 * (chain[0][k] / chain[0][0] + chain[1][k] / chain[1][0]);
        CHECK_MSG(fabs(ls - lw) < 0.06, "library share %f, want %f", ls, lw);
        CHECK_MSG(fabs(cs - cw) < 0.06, "chain share %f, want %f", cs, cw);
    }
    CHECK_EQ(it_shell("sh bench/scale.sh -r 0", out, sizeof out), 2);
    CHECK(it_has(out, "usage:"));
    CHECK_EQ(it_shell("sh bench/scale.sh -c '16 x'", out, sizeof out), 2);
}

TEST(bench_ops_open_loop_rate)
{
    static char out[65536];
    CHECK_EQ(bench("--rate 200 --duration 2 --json", out, sizeof out), 0);
    const char *o = strstr(out, "\"open_loop\":{");
    CHECK(o != NULL);
    CHECK_EQ(it_json_num(o, "rate"), 200);
    /* the schedule, not the servers, sets the pace (a closed loop here
     * runs thousands a second) */
    double got = it_json_num(o, "started_per_s");
    CHECK_MSG(got > 120 && got < 230, "started %f a second", got);
    double cps = it_json_num(out, "cycles_per_s");
    CHECK_MSG(cps > 100 && cps < 240, "%f cycles/s", cps);
    CHECK(it_json_num(o, "late") >= 0 && it_json_num(o, "missed") >= 0);
    CHECK(it_json_num(o, "max_lag_us") >= 0);
    /* contend too; the text report's line */
    CHECK_EQ(bench("--workload contend --clients 4 --rate 100 --duration 0.5", out, sizeof out), 0);
    CHECK(it_has(out, "open loop         100.0 starts/s due"));
    /* where it does not apply */
    check_usage_error("--rate 10 --workload extend",
                      "--rate is for the cycle, try and contend workloads");
    check_usage_error("--rate 10 --baseline", NULL);
    check_usage_error("--rate 0", NULL);
}

/* The rows of block `name` of a --hist file: their count column summed. */
static long long block_sum(const char *file, const char *name, int *rows)
{
    char want[64], line[256];
    snprintf(want, sizeof want, "# %s\n", name);
    FILE *f = fopen(file, "r");
    CHECK_MSG(f != NULL, "%s: %s", file, strerror(errno));
    long long sum = 0;
    int in = 0;
    *rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            in = in || strcmp(line, want) == 0;
            continue;
        }
        if (line[0] == '\n') {
            if (in && *rows)
                break;
            continue;
        }
        if (in) {
            double v;
            long long cnt;
            if (sscanf(line, "%lf %lld", &v, &cnt) == 2) {
                sum += cnt;
                ++*rows;
            }
        }
    }
    fclose(f);
    return sum;
}

TEST(bench_ops_hist_series_and_plot)
{
    static char out[65536];
    char hist[512], cmd[1200], svgdir[512], svg[600];
    tmp_path(hist, sizeof hist, "bench.hist");
    snprintf(cmd, sizeof cmd, "--workload contend --clients 4 --duration 3 --json --hist '%s'", hist);
    CHECK_EQ(bench(cmd, out, sizeof out), 0);
    int rows;
    const char *acq = strstr(out, "\"acquire\":{");
    long long acquired = (long long)it_json_num(acq, "count");
    CHECK(acquired > 0);
    CHECK_EQ(block_sum(hist, "acquire", &rows), acquired);
    CHECK(rows > 1);
    CHECK_EQ(block_sum(hist, "release", &rows), (long long)it_json_num(strstr(out, "\"release\":{"), "count"));
    CHECK_EQ(block_sum(hist, "handoff_other", &rows),
             (long long)it_json_num(strstr(out, "\"handoff_other_client\":{"), "count"));
    /* a row a second: about --duration of them, in the JSON and the file */
    const char *s = strstr(out, "\"series\":[");
    CHECK(s != NULL);
    int n = count_of(s, "{\"t\":");
    CHECK_MSG(n >= 2 && n <= 4, "%d seconds in the series", n);
    CHECK(it_json_num(s, "acquired_per_s") > 0 && it_json_num(s, "acq_p99_us") > 0);
    block_sum(hist, "series", &rows);
    CHECK_EQ(rows, n);
    /* the plots */
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        check_note("gnuplot is not installed: the plots are not drawn (scripts/dev.sh deps)");
        return;
    }
    tmp_path(svgdir, sizeof svgdir, "plots");
    snprintf(cmd, sizeof cmd, "sh bench/plot.sh '%s' '%s'", hist, svgdir);
    CHECK_EQ(it_shell(cmd, out, sizeof out), 0);
    static const char *const files[] = {"latency.svg", "throughput.svg"};
    for (int i = 0; i < 2; i++) {
        snprintf(svg, sizeof svg, "%s/%s", svgdir, files[i]);
        snprintf(cmd, sizeof cmd, "grep -c '<path' '%s'", svg);
        CHECK_EQ(it_shell(cmd, out, sizeof out), 0);
        CHECK_MSG(atoi(out) > 2, "%s: %s paths", svg, out);
        snprintf(cmd, sizeof cmd, "head -c 400 '%s'", svg);
        CHECK_EQ(it_shell(cmd, out, sizeof out), 0);
        CHECK(it_has(out, "<svg"));
    }
    CHECK_EQ(it_shell("sh bench/plot.sh /nonexistent", out, sizeof out), 2);
}

/* A TLS port nobody uses now. */
static int unused_port(void)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof sa;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(s >= 0 && bind(s, (struct sockaddr *)&sa, sl) == 0 &&
          getsockname(s, (struct sockaddr *)&sa, &sl) == 0);
    close(s);
    return ntohs(sa.sin_port);
}

TEST(bench_ops_tls_masters)
{
    static char out[65536];
    char pki[512], cmd[2048], addrs[256] = "", crt[600], key[600], ca[600];
    tmp_path(pki, sizeof pki, "bench-pki");
    snprintf(cmd, sizeof cmd, "sh test/support/tls-certs.sh '%s'", pki);
    CHECK_EQ(it_shell(cmd, out, sizeof out), 0);
    snprintf(crt, sizeof crt, "%s/server.crt", pki);
    snprintf(key, sizeof key, "%s/server.key", pki);
    snprintf(ca, sizeof ca, "%s/ca.crt", pki);
    rlt_servers *s[3];
    for (int i = 0; i < 3; i++) {
        char port[16];
        snprintf(port, sizeof port, "%d", unused_port());
        const char *extra[] = {"--tls-port", port, "--tls-cert-file", crt, "--tls-key-file", key,
                               "--tls-ca-cert-file", ca, "--tls-auth-clients", "yes", NULL};
        s[i] = it_start(1, extra);
        snprintf(addrs + strlen(addrs), sizeof addrs - strlen(addrs), " rediss://127.0.0.1:%s",
                 port);
    }
    /* mutual TLS: the CA, the client's certificate; the JSON says it ran */
    snprintf(cmd, sizeof cmd, "--warmup 0.2 --duration 0.5 --workload contend --clients 3 "
             "--tls-ca '%s' --tls-cert '%s/client.crt' --tls-key '%s/client.key' "
             "--tls-server-name localhost --json%s", ca, pki, pki, addrs);
    CHECK_EQ(bench(cmd, out, sizeof out), 0);
    CHECK(it_json_num(out, "acquired") > 0);
    CHECK_EQ(it_json_num(out, "nodes"), 3);
    /* the masters' figures need a plain connection: not available, and why */
    CHECK(it_has(out, "\"masters\":{\"available\":false,\"why\":\"rediss://127.0.0.1:") &&
          it_has(out, "a TLS master (the stats connection speaks plain TCP only)"));
    /* and the keys went to the masters (read over their plain ports) */
    CHECK(it_calls(s[0], 0, "set") > 0);
    /* without the CA: refused, and the message says why */
    snprintf(cmd, sizeof cmd, "--warmup 0 --duration 0.2 --tls-cert '%s/client.crt' "
             "--tls-key '%s/client.key'%s", pki, pki, addrs);
    CHECK_EQ(bench(cmd, out, sizeof out), 1);
    CHECK(it_has(out, "masters connected") && it_has(out, "certificate verify failed"));
    /* the baseline does not speak TLS, and says so */
    snprintf(cmd, sizeof cmd, "--baseline --tls-ca '%s'%s", ca, addrs);
    CHECK_EQ(bench(cmd, out, sizeof out), 2);
    CHECK(it_has(out, "the raw baseline speaks plain TCP only"));
    for (int i = 0; i < 3; i++)
        rlt_servers_free(s[i]);
}

TEST(bench_ops_bad_options)
{
    static char out[8192];
    check_usage_error("--clients 2 --threads 3", "--threads (3) must be at most --clients (2)");
    check_usage_error("--tls-ca /nonexistent", "the --tls- options are for rediss:// masters");
    check_usage_error("--clients 5000", NULL);
    check_usage_error("--workload raw --rate 5", NULL);
    check_usage_error("--workload contend --baseline --keys 2",
                      "the contend baseline (the raw hand-off chain) is the mutex's on one key");
    check_usage_error("--workload contend --baseline --kind reentrant", NULL);
    CHECK_EQ(bench("--hist /nonexistent-dir/h.dat --duration 0.2", out, sizeof out), 1);
    CHECK(it_has(out, "--hist /nonexistent-dir/h.dat: No such file or directory"));
}

/* make bench-scriptcost: a redis-server of its own, every form measured
 * and each one's ratio to the first (the figures themselves are the
 * machine's: docs/performance.md; a test asks none of them). */
TEST(bench_scriptcost_forms_and_ratios)
{
    static const char *const forms[] = {
        "SET + release (the plain compare-and-delete)",
        "SET + release with a second key and EXISTS",
        "SET + release with three more empty arguments",
        "SET + INCR pipelined + release (fenced)",
        "one script SET + INCR + release (fenced)",
    };
    char out[4096];
    CHECK_EQ(it_shell("sh bench/scriptcost/scriptcost.sh 2000 2", out, sizeof out), 0);
    CHECK(it_has(out, "server CPU per cycle, 2000 cycles pipelined 100 deep, 2 rounds"));
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        const char *line = strstr(out, forms[k]), *us, *x;
        CHECK_MSG(line != NULL, "no line for %s", forms[k]);
        us = strstr(line, " us (");
        x = strchr(line, 'x');
        CHECK_MSG(us != NULL && x != NULL && strtod(us - 6, NULL) > 0, "%s", line);
        if (k == 0)
            CHECK(strncmp(x - 4, "1.00x", 5) == 0);
    }
    /* bad usage is refused */
    CHECK_EQ(it_shell("bench/scriptcost/scriptcost", out, sizeof out), 2);
    CHECK(it_has(out, "usage: scriptcost PORT"));
}
