/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* opts.c -- redlock-bench's command line.  Every option is one line of
 * `options[]` below: the parser (getopt_long, so abbreviations, --opt=value
 * and options after the addresses work) and the --help text both come from
 * that table.  Defaults live in set_defaults() beside it; what depends on
 * other options is settled afterwards (opts_check.c). */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "redlock.h"

typedef enum {
    OPT_SECTION,  /* not an option: a heading in --help */
    OPT_FLAG,     /* no argument: store .set into an int */
    OPT_INT,      /* a number in [lo, hi], stored as int ... */
    OPT_LONG,     /* ... long */
    OPT_INT64,    /* ... int64_t */
    OPT_UINT64,   /* ... uint64_t */
    OPT_DOUBLE,   /* ... double */
    OPT_CHOICE,   /* one of .choices: store its index into an int */
    OPT_STRING,   /* the argument itself, into a const char * */
    OPT_ACTION    /* no argument: run .action, exit with what it returns */
} opt_kind;

typedef struct opt_choice {
    const char *name, *help;
} opt_choice;

typedef struct opt_def {
    const char *name;           /* long name without "--"; OPT_SECTION: heading */
    char short_name;            /* 0: none */
    opt_kind kind;
    size_t off;                 /* of the value in bench_opts */
    double lo, hi;              /* numbers: the accepted range */
    int set;                    /* OPT_FLAG: the value stored */
    const opt_choice *choices;  /* OPT_CHOICE: ends with {NULL} */
    int (*action)(void);        /* OPT_ACTION */
    const char *arg;            /* the argument's name in --help */
    const char *help;
    const char *def;            /* the default, as --help shows it (NULL: none) */
} opt_def;

/* The offset of bench_opts field f, which must have type T (or the build
 * fails: an option's kind cannot disagree with its field). */
#define FIELD(f, T) (offsetof(bench_opts, f) + 0 * sizeof(_Generic(((bench_opts *)0)->f, T: 1)))

#define NUMBER(k, T, n, f, l, h, a, d, txt) \
    {.name = n, .kind = k, .off = FIELD(f, T), .lo = l, .hi = h, .arg = a, .def = d, .help = txt}
#define INT(n, f, l, h, a, d, txt)    NUMBER(OPT_INT, int, n, f, l, h, a, d, txt)
#define LONG(n, f, l, h, a, d, txt)   NUMBER(OPT_LONG, long, n, f, l, h, a, d, txt)
#define INT64(n, f, l, h, a, d, txt)  NUMBER(OPT_INT64, int64_t, n, f, l, h, a, d, txt)
#define UINT64(n, f, l, h, a, d, txt) NUMBER(OPT_UINT64, uint64_t, n, f, l, h, a, d, txt)
#define DOUBLE(n, f, l, h, a, d, txt) NUMBER(OPT_DOUBLE, double, n, f, l, h, a, d, txt)
#define FLAG(n, f, v, d, txt) \
    {.name = n, .kind = OPT_FLAG, .off = FIELD(f, int), .set = v, .def = d, .help = txt}
#define CHOICE(n, f, list, a, d, txt) \
    {.name = n, .kind = OPT_CHOICE, .off = FIELD(f, int), .choices = list, .arg = a, \
     .def = d, .help = txt}
#define STRING(n, f, a, d, txt) \
    {.name = n, .kind = OPT_STRING, .off = FIELD(f, const char *), .arg = a, .def = d, .help = txt}
#define ACTION(n, s, fn, txt) {.name = n, .short_name = s, .kind = OPT_ACTION, .action = fn, .help = txt}
#define SECTION(title) {.name = title, .kind = OPT_SECTION}

/* --workload: indexed by WL_* */
static const opt_choice workloads[] = {
    [WL_CYCLE] = {"cycle", "try_acquire + release on distinct keys"},
    [WL_CONTEND] = {"contend", "acquire with the retry policy, hold, release: --clients "
                               "clients fighting over --keys keys"},
    [WL_TRY] = {"try", "try_acquire (+ release) on random keys of --keys"},
    [WL_EXTEND] = {"extend", "try_acquire, --extends extends, release"},
    [WL_RAW] = {"raw", "only the raw-command baseline (see --baseline)"},
    {NULL, NULL}
};

/* --kind: indexed by REDLOCK_KIND_* */
static const opt_choice kinds[] = {
    [REDLOCK_KIND_MUTEX] = {"mutex", "redlock_lock_new"},
    [REDLOCK_KIND_REENTRANT] = {"reentrant", "redlock_lock_new_reentrant (the handle its own owner)"},
    [REDLOCK_KIND_READ] = {"read", "redlock_lock_new_read"},
    [REDLOCK_KIND_WRITE] = {"write", "redlock_lock_new_write"},
    [REDLOCK_KIND_MULTI] = {"multi", "redlock_lock_new_multi on --resources resources (each "
                                      "slot's own)"},
    [RLB_KIND_SEMAPHORE] = {"semaphore", "redlock_lock_new_semaphore with --permits permits"},
    [RLB_KIND_RW] = {"rw", "contend: --writers clients take redlock_lock_new_write locks, the "
                           "others redlock_lock_new_read locks, on the same keys"},
    {NULL, NULL}
};

/* --raw-mode: indexed by these */
enum { RAW_CHAINED = RLB_RAW_CHAINED, RAW_BARRIER = RLB_RAW_BARRIER };
static const opt_choice raw_modes[] = {
    [RAW_CHAINED] = {"chained", "each node's release follows its SET reply"},
    [RAW_BARRIER] = {"barrier", "SETs, wait for all N, then releases (raw fan-out)"},
    {NULL, NULL}
};

static int self_check(void);
static int help(void);

/* Each number option: name, field in bench_opts, accepted range, the
 * argument's name in --help, the default --help shows, the help text. */
static const opt_def options[] = {
    SECTION("masters:"),
    INT("spawn", spawn, 1, 64, "N", NULL,
        "start N local redis-servers (removed at the end) instead of giving ADDRs"),
    INT("shards", shards, 1, 64, "S", NULL,
        "with --spawn: each of the N votes is a Redis Cluster of S masters (--replicas R each; "
        "redis-cluster:// addresses, started by test/support/clusters.c), at most 256 "
        "masters in all; the masters' CPU is summed over every shard of every vote"),
    INT("replicas", replicas, 0, 8, "R", "0",
        "with --shards: each master with R replicas"),
    INT("replica-acks", cfg.replica_acks, 0, 64, "N", "0",
        "the clients' replica_acks: acquires and extends on a cluster vote wait for N "
        "replicas (WAIT)"),
    INT("compare-replica-acks", compare_acks, 1, 64, "N", NULL,
        "the mutex's cycle with replica_acks 0 and N in interleaved rounds of one run "
        "(--repeat of each): cycles/s and the masters' CPU per cycle, and their ratios"),
    SECTION("workload:"),
    CHOICE("workload", cfg.workload, workloads, "W", "cycle", "the operations measured"),
    INT("concurrency", cfg.concurrency, 1, 1000000, "C", "128; contend: --clients",
        "operations in flight over all clients"),
    INT("clients", cfg.clients, 1, 4096, "K", "1; contend: 4",
        "independent clients, each with its own redlock_client and connections (up to 2 "
        "per master), like separate processes"),
    INT("threads", cfg.threads, 1, 1024, "T", "--clients, at most 64",
        "threads running the clients: each thread runs its share of the clients on one "
        "event_base (the baseline runs one connection set per thread); on a small machine, "
        "the number of cores (docs/performance.md)"),
    DOUBLE("rate", cfg.rate, 0.1, 1e7, "R", NULL,
           "open loop: start R operations a second on a fixed schedule, whatever completes "
           "(cycle, try, contend; --concurrency caps those in flight); latency counts from "
           "when an op was due, and the report says how many starts were late or missed"),
    DOUBLE("duration", cfg.duration, 0.01, 86400, "S", "10", "measured seconds"),
    UINT64("ops", cfg.ops, 1, 1e15, "N", NULL, "stop after N measured operations instead"),
    DOUBLE("warmup", cfg.warmup, 0, 3600, "S", "1", "seconds run before measuring"),
    INT64("ttl", cfg.ttl_ms, 1, 1e12, "MS", "10000", "lock ttl"),
    LONG("keys", cfg.keys, 1, 1e9, "K", "--concurrency; contend: 1; try: 10 x --concurrency",
         "key space; cycle/extend/raw use at least --concurrency keys"),
    INT64("hold", cfg.hold_ms, 0, 3600000, "MS", "1", "contend: how long a lock is held"),
    INT("extends", cfg.extends, 0, 1e9, "E", "100", "extend: extends per acquisition"),
    FLAG("fencing", cfg.fencing, 1, NULL, "locks with fencing tokens (redlock_lock_set_fencing)"),
    CHOICE("kind", cfg.kind, kinds, "K", "mutex", "the locks' kind"),
    INT("resources", cfg.resources, 1, RLB_MAX_RESOURCES, "N", "2",
        "multi: resources per lock (the slot's key, then <key>:2 .. <key>:N, each slot's own)"),
    INT("writers", cfg.writers, 0, 4096, "W", "a quarter of --clients, at least 1",
        "rw: how many of the clients write (the first W); the others read"),
    INT("permits", cfg.permits, 1, 1000000, "P", "2", "semaphore: its permits"),
    STRING("kinds", kinds, "LIST", NULL,
           "compare kinds (comma-separated, or all) with the mutex in the same run: "
           "--repeat interleaved rounds of each; cycle: median cycles/s and ratio to the "
           "mutex; contend: median acquisitions/s, hand-off p50, waits, Jain's index, the "
           "masters' CPU per cycle and the holders' invariant, with ratios to the mutex"),
    FLAG("fake-overlap", cfg.fake_overlap, 1, NULL,
         "contend, to test the holders' check: every holder counts as one more than the "
         "kind allows, so the run must report the invariant broken (exit status 3)"),
    SECTION("client options (library defaults unless given):"),
    INT("retry-count", cfg.retry_count, 0, 1e6, "N", NULL,
        "extra acquire attempts after the first"),
    INT64("retry-delay", cfg.retry_delay_ms, 0, 3600000, "MS", NULL,
          "mean delay between attempts"),
    INT64("retry-jitter", cfg.retry_jitter_ms, 0, 3600000, "MS",
          "half of --retry-delay when that is given", "the delay is --retry-delay +- this"),
    INT64("node-timeout", cfg.node_timeout_ms, 1, 3600000, "MS", NULL,
          "longest wait for one node's reply"),
    INT64("cluster-refresh", cfg.cluster_refresh_ms, 0, 3600000, "MS", NULL,
          "cluster votes: how often a client reads each cluster's slot map again "
          "(cluster_refresh_ms; 0: only when a reply says it changed)"),
    SECTION("TLS (for rediss:// masters; the baseline speaks plain TCP only):"),
    STRING("tls-ca", cfg.tls_ca, "FILE", "the system's trust store",
           "PEM file of the CAs that signed the masters' certificates"),
    STRING("tls-cert", cfg.tls_cert, "FILE", NULL, "client certificate (PEM), for mutual TLS"),
    STRING("tls-key", cfg.tls_key, "FILE", NULL, "its private key (PEM)"),
    STRING("tls-server-name", cfg.tls_server_name, "NAME", "each master's host",
           "the name the certificates are checked against (and SNI)"),
    SECTION("output:"),
    FLAG("baseline", cfg.baseline, 1, NULL,
         "first run the raw-command baseline, then compare; contend: the raw hand-off "
         "chain of the same clients (an oracle picks the next holder; --keys 1, the mutex)"),
    CHOICE("raw-mode", raw_mode, raw_modes, "M", "chained; barrier with --concurrency 1",
           "how the baseline releases"),
    INT("repeat", repeat, 1, RLB_MAX_REPEAT, "R", "1",
        "run (baseline and) workload R times, alternating, and report the median (noisy "
        "hosts); summary of the last"),
    INT("rounds", repeat, 1, RLB_MAX_REPEAT, "R", NULL, "the same as --repeat"),
    STRING("hist", cfg.hist_path, "FILE", NULL,
           "write the latency histograms (value, count, percentile rows per operation) and the "
           "per-second series as gnuplot data blocks; bench/plot.sh draws them"),
    FLAG("json", cfg.json, 1, NULL, "one JSON object on stdout instead of the text summary"),
    FLAG("metrics", cfg.metrics, 1, NULL,
         "after the report, the first client's metrics as OpenMetrics text "
         "(redlock_client_metrics: its last run)"),
    STRING("metrics-file", cfg.metrics_path, "FILE", NULL,
           "the same metrics text into FILE instead"),
    FLAG("rss-check", cfg.rss_check, 1, NULL,
         "RSS (from /proc/self/statm) after warm-up vs at the end"),
    FLAG("progress", cfg.progress, 1, "on when stdout is a terminal", "force the live line on"),
    FLAG("no-progress", cfg.progress, 0, NULL, "force the live line off"),
    UINT64("seed", cfg.seed, 0, 1.8e19, "N", "from the time and pid", "random seed"),
    ACTION("self-check", 0, self_check, "check the histogram code and the holders' check, and exit"),
    ACTION("help", 'h', help, "this text"),
};
enum { NOPTIONS = sizeof(options) / sizeof(options[0]) };

/* Options that may not be given together (--help tells). */
static const char *const exclusive[][2] = {
    {"duration", "ops"},
    {"json", "metrics"},
};

static void set_defaults(bench_opts *o)
{
    memset(o, 0, sizeof(*o));
    bench_cfg *cfg = &o->cfg;
    cfg->workload = WL_CYCLE;
    cfg->concurrency = -1;  /* -1: by workload, see rlb_settle_options() */
    cfg->clients = -1;
    cfg->threads = -1;
    cfg->duration = 10;
    cfg->warmup = 1;
    cfg->ttl_ms = 10000;
    cfg->keys = -1;
    cfg->hold_ms = 1;
    cfg->extends = 100;
    cfg->retry_count = -1;  /* -1: the library's default */
    cfg->retry_delay_ms = cfg->retry_jitter_ms = cfg->node_timeout_ms = -1;
    cfg->cluster_refresh_ms = -1;
    cfg->progress = -1;     /* -1: when stdout is a terminal */
    cfg->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    cfg->resources = 2;
    cfg->writers = -1;      /* -1: a quarter of --clients (opts_check.c) */
    cfg->permits = 2;
    o->repeat = 1;
    o->raw_mode = -1;       /* -1: by concurrency */
}

const char *rlb_workload_name(int workload)
{
    return workloads[workload].name;
}

const char *rlb_kind_name(int k)
{
    return kinds[k].name;
}

int rlb_parse_kinds(const char *list, int workload, int *out)
{
    int n = 0;
    out[n++] = REDLOCK_KIND_MUTEX;
    if (!strcmp(list, "all")) {
        /* contend: the read/write lock as one kind (rw); the cycle: each side */
        static const int cycle[] = {REDLOCK_KIND_REENTRANT, REDLOCK_KIND_READ,
                                    REDLOCK_KIND_WRITE, REDLOCK_KIND_MULTI, RLB_KIND_SEMAPHORE};
        static const int contend[] = {REDLOCK_KIND_REENTRANT, RLB_KIND_RW, REDLOCK_KIND_MULTI,
                                      RLB_KIND_SEMAPHORE};
        const int *ks = workload == WL_CONTEND ? contend : cycle;
        int nk = workload == WL_CONTEND ? 4 : 5;
        for (int i = 0; i < nk; i++)
            if (ks[i] != RLB_KIND_SEMAPHORE || RLB_HAVE_SEMAPHORE)
                out[n++] = ks[i];
        return n;
    }
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        int k;
        for (k = 0; k < RLB_NKINDS; k++)
            if (strlen(kinds[k].name) == len && !strncmp(p, kinds[k].name, len))
                break;
        if (k == RLB_NKINDS) {
            fprintf(stderr, "redlock-bench: --kinds: unknown kind '%.*s'\n", (int)len, p);
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < n; i++)
            dup |= out[i] == k;
        if (!dup)
            out[n++] = k;
        p += len + (p[len] == ',');
    }
    return n;
}

/* ---- --help ---------------------------------------------------------------------- */

enum { HELP_COL = 22, HELP_WIDTH = 79 };

/* Print text word by word from column col, wrapping to column indent. */
static void wrap(FILE *f, int col, int indent, const char *text)
{
    while (*text) {
        while (*text == ' ')
            text++;
        int len = (int)strcspn(text, " ");
        if (len == 0)
            break;
        if (col > indent && col + 1 + len > HELP_WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", len, text);
        col += len;
        text += len;
    }
    fputc('\n', f);
}

/* The option that may not be given with option `name`, or NULL. */
static const char *excluded_by(const char *name)
{
    for (size_t i = 0; i < sizeof(exclusive) / sizeof(exclusive[0]); i++)
        for (int k = 0; k < 2; k++)
            if (strcmp(exclusive[i][k], name) == 0)
                return exclusive[i][1 - k];
    return NULL;
}

/* One option's lines in --help: its name and argument, the help text
 * (wrapped) and, for a choice, each of the choices. */
static void usage_option(FILE *f, const opt_def *d)
{
    int col = d->short_name ? fprintf(f, "  -%c, --%s", d->short_name, d->name)
                            : fprintf(f, "  --%s", d->name);
    if (d->arg)
        col += fprintf(f, " %s", d->arg);
    if (col >= HELP_COL)
        fprintf(f, "\n%*s", HELP_COL, "");
    else
        fprintf(f, "%*s", HELP_COL - col, "");
    /* help (default: def; not with --other), and ':' before a list of choices */
    const char *other = excluded_by(d->name);
    char text[512];
    snprintf(text, sizeof(text), "%s%s%s%s%s%s%s%s%s", d->help, d->def || other ? " (" : "",
             d->def ? "default: " : "", d->def ? d->def : "", d->def && other ? "; " : "",
             other ? "not with --" : "", other ? other : "", d->def || other ? ")" : "",
             d->kind == OPT_CHOICE ? ":" : "");
    wrap(f, HELP_COL, HELP_COL, text);
    if (d->kind == OPT_CHOICE) {
        int w = 0;
        for (const opt_choice *c = d->choices; c->name; c++)
            if ((int)strlen(c->name) > w)
                w = (int)strlen(c->name);
        for (const opt_choice *c = d->choices; c->name; c++) {
            fprintf(f, "%*s  %-*s  ", HELP_COL, "", w, c->name);
            wrap(f, HELP_COL + w + 4, HELP_COL + w + 4, c->help);
        }
    }
}

static void usage(FILE *f)
{
    fputs("usage: redlock-bench [options] ADDR...      (votes, e.g. 127.0.0.1:7000 ... or\n"
          "                                            redis-cluster://127.0.0.1:7000,...)\n"
          "       redlock-bench --spawn N [options]    (start N local redis-servers)\n"
          "       redlock-bench --spawn N --shards S [options]\n"
          "                                  (start N local Redis Clusters of S masters)\n",
          f);
    for (int i = 0; i < NOPTIONS; i++) {
        if (options[i].kind == OPT_SECTION)
            fprintf(f, "\n%s\n", options[i].name);
        else
            usage_option(f, &options[i]);
    }
}

static int help(void)
{
    usage(stdout);
    return 0;
}

/* The holders' check (holders.c) on cases of each kind's invariant. */
static int holders_self_check(void)
{
    static const struct { int readers, others, limit, ok; } cases[] = {
        {0, 0, 1, 1}, {0, 1, 1, 1}, {0, 2, 1, 0}, {5, 0, 1, 1}, {1, 1, 1, 0},
        {0, 3, 3, 1}, {0, 4, 3, 0}, {2, 1, 3, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (rlb_holders_allowed(cases[i].readers, cases[i].others, cases[i].limit) !=
            cases[i].ok) {
            fprintf(stderr, "holders' check FAILED: %d readers and %d others under limit %d\n",
                    cases[i].readers, cases[i].others, cases[i].limit);
            return 1;
        }
    printf("holders' check ok (%zu cases)\n", sizeof cases / sizeof cases[0]);
    return 0;
}

static int self_check(void)
{
    char err[256];
    if (holders_self_check() != 0)
        return 1;
    if (hist_selfcheck(err, sizeof(err)) != 0) {
        fprintf(stderr, "histogram self-check FAILED: %s\n", err);
        return 1;
    }
    printf("histogram self-check ok (%u buckets, <= %.2f%% relative error)\n", HIST_BUCKETS,
           100.0 / (2 * HIST_SUB));
    return 0;
}

/* ---- parsing ----------------------------------------------------------------------- */

static int takes_arg(const opt_def *d)
{
    return d->kind != OPT_FLAG && d->kind != OPT_ACTION && d->kind != OPT_SECTION;
}

/* The index of the option with short name c, or -1. */
static int find_short(int c)
{
    for (int i = 0; i < NOPTIONS; i++)
        if (options[i].short_name == c)
            return i;
    return -1;
}

/* Was option `name` given?  (It must be in options[].) */
static bool was_given(const bool *given, const char *name)
{
    for (int i = 0; i < NOPTIONS; i++)
        if (options[i].kind != OPT_SECTION && strcmp(options[i].name, name) == 0)
            return given[i];
    abort(); /* a name in exclusive[] that is no option */
}

/* Store option d's argument s into o.  Returns 0, or -1 after an error message. */
static int set_value(const opt_def *d, const char *s, bench_opts *o)
{
    char *p = (char *)o + d->off;
    if (d->kind == OPT_STRING) {
        *(const char **)p = s;
        return 0;
    }
    if (d->kind == OPT_CHOICE) {
        for (int i = 0; d->choices[i].name; i++)
            if (strcmp(s, d->choices[i].name) == 0) {
                *(int *)p = i;
                return 0;
            }
        fprintf(stderr, "redlock-bench: bad value for --%s: '%s' (one of", d->name, s);
        for (int i = 0; d->choices[i].name; i++)
            fprintf(stderr, "%s %s", i ? "," : "", d->choices[i].name);
        fprintf(stderr, ")\n");
        return -1;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= d->lo && v <= d->hi)) {
        fprintf(stderr, "redlock-bench: bad value for --%s: '%s' (%.15g .. %.15g)\n", d->name, s,
                d->lo, d->hi);
        return -1;
    }
    switch (d->kind) {
    case OPT_INT:
        *(int *)p = (int)v;
        break;
    case OPT_LONG:
        *(long *)p = (long)v;
        break;
    case OPT_INT64:
        *(int64_t *)p = (int64_t)v;
        break;
    case OPT_UINT64:
        *(uint64_t *)p = (uint64_t)v;
        break;
    case OPT_DOUBLE:
        *(double *)p = v;
        break;
    default:
        abort(); /* not a number: not reached */
    }
    return 0;
}

/* The checks on which options were given.  -1 to go on, else the exit status. */
static int check_given(bench_opts *o, const bool *given)
{
    for (size_t i = 0; i < sizeof(exclusive) / sizeof(exclusive[0]); i++)
        if (was_given(given, exclusive[i][0]) && was_given(given, exclusive[i][1])) {
            fprintf(stderr, "redlock-bench: --%s and --%s are exclusive\n", exclusive[i][0],
                    exclusive[i][1]);
            return 2;
        }
    if ((o->spawn > 0) == (o->naddrs > 0)) {
        fprintf(stderr, "redlock-bench: give master addresses or --spawn N (not both)\n");
        usage(stderr);
        return 2;
    }
    o->resources_given = was_given(given, "resources");
    o->writers_given = was_given(given, "writers");
    o->permits_given = was_given(given, "permits");
    return -1;
}

int rlb_options(int argc, char **argv, bench_opts *o)
{
    /* getopt_long's tables, from options[]: an option's val is its index
     * + 256 (clear of the short options' characters). */
    struct option longopts[NOPTIONS + 1];
    char shortopts[2 * NOPTIONS + 1];
    int nlong = 0, nshort = 0;
    for (int i = 0; i < NOPTIONS; i++) {
        const opt_def *d = &options[i];
        if (d->kind == OPT_SECTION)
            continue;
        longopts[nlong++] = (struct option){d->name, takes_arg(d) ? required_argument : no_argument,
                                            NULL, 256 + i};
        if (d->short_name) {
            shortopts[nshort++] = d->short_name;
            if (takes_arg(d))
                shortopts[nshort++] = ':';
        }
    }
    longopts[nlong] = (struct option){NULL, 0, NULL, 0};
    shortopts[nshort] = '\0';

    set_defaults(o);
    bool given[NOPTIONS] = {false};
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        int i = c >= 256 ? c - 256 : find_short(c);
        if (i < 0) { /* '?': getopt has said what is wrong */
            usage(stderr);
            return 2;
        }
        const opt_def *d = &options[i];
        given[i] = true;
        if (d->kind == OPT_ACTION)
            return d->action();
        if (d->kind == OPT_FLAG)
            *(int *)((char *)o + d->off) = d->set;
        else if (set_value(d, optarg, o) != 0)
            return 2;
    }
    o->addrs = (const char *const *)(argv + optind);
    o->naddrs = (size_t)(argc - optind);
    return check_given(o, given);
}
