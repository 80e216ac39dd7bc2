/* rl-worker -- one lock client for the failover suite (see README.md,
 * "Failover scripts", and docs/safety.md).
 *
 *   rl-worker --masters HOST:PORT,HOST:PORT,... --log FILE [options]
 *
 * Contends for --resources resources (named PREFIX0, PREFIX1, ...) with the
 * blocking API, for --seconds seconds or --count acquisitions, whichever
 * comes first.  Every acquired lock is held for a random hold-min..hold-max
 * ms (never past its validity), then released; between two acquisitions it
 * idles 0..idle-max ms.
 *
 * The log is appended one line at a time with write(2) on an O_APPEND
 * descriptor, so a line is never torn and every line written survives the
 * worker being killed.  Times are CLOCK_BOOTTIME microseconds, the clock the
 * library uses and one that every process on the machine shares:
 *
 *   W id pid nodes ttl_ms                          header
 *   A res value before_us after_us valid_until_us nodes_ok
 *       acquired: before_us is taken before the acquire call started,
 *       after_us when it returned; valid_until_us = after_us + the validity
 *       redlock_lock_validity() reported then (floored to the millisecond),
 *       so [after_us, valid_until_us] is the interval in which this client
 *       may act as the holder;
 *   R res value start_us end_us code nodes_ok      release (start: before the call)
 *   F res before_us after_us code                  acquire failed (code: ENOQUORUM, ...)
 *   S res value t_us                               about to stop itself while holding
 *   P res value resumed_us validity_left_ms stopped_ms
 *       resumed after the stop; validity_left_ms is what the library
 *       reports then (0: the client knows its lock ran out)
 *   N t_us node up|down                            node events seen by the client
 *   E t_us acquisitions failures                   clean exit
 *
 * SIGUSR1 asks for a "GC pause": at the next acquisition the worker logs S
 * and stops itself with SIGSTOP while holding the lock, so the stop lands
 * exactly while a lock is held; whoever sent SIGUSR1 resumes it with SIGCONT
 * (after the lock's validity has run out, to show the Kleppmann case).
 * SIGTERM/SIGINT end the run after the current operation.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "redlock.h"

#define MAX_NODES 64
#define MAX_RES 256

static volatile sig_atomic_t g_stop, g_pause_req;
static int g_log = -1;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void sleep_us(int64_t us)
{
    if (us <= 0)
        return;
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !g_stop)
        ;
}

__attribute__((format(printf, 1, 2))) static void logline(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    ssize_t w;
    do
        w = write(g_log, buf, (size_t)n);
    while (w < 0 && errno == EINTR);
}

static const char *code_name(int code)
{
    switch (code) {
    case REDLOCK_OK: return "OK";
    case REDLOCK_EINVAL: return "EINVAL";
    case REDLOCK_ENOQUORUM: return "ENOQUORUM";
    case REDLOCK_ETIMEDOUT: return "ETIMEDOUT";
    case REDLOCK_ECANCELED: return "ECANCELED";
    case REDLOCK_ENOTOWNER: return "ENOTOWNER";
    case REDLOCK_ENOMEM: return "ENOMEM";
    case REDLOCK_ECONNECT: return "ECONNECT";
    case REDLOCK_EBUSY: return "EBUSY";
    case REDLOCK_ESERVER: return "ESERVER";
    case REDLOCK_ECLOSED: return "ECLOSED";
    case REDLOCK_ESYSTEM: return "ESYSTEM";
    default: return "EUNKNOWN";
    }
}

static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        g_pause_req = 1;
    else
        g_stop = 1;
}

static void on_node(redlock_client *c, size_t node, int event, const char *detail, void *pd)
{
    (void)c;
    (void)detail;
    (void)pd;
    logline("N %lld %zu %s", (long long)now_us(), node,
            event == REDLOCK_NODE_UP ? "up" : "down");
}

static uint64_t g_rng;

static uint64_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

/* uniform in lo..hi (inclusive) */
static int64_t rnd_range(int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rl-worker --masters H:P,H:P,... --log FILE [options]\n"
            "  --id N               worker id in the log (0)\n"
            "  --resources N        resources contended for (3)\n"
            "  --prefix STR         resource name prefix (\"fo:res\")\n"
            "  --seconds S          run at most S seconds (10)\n"
            "  --count N            stop after N acquisitions (0: no limit)\n"
            "  --ttl MS             lock ttl (300)\n"
            "  --hold-min MS, --hold-max MS   hold time (1, 5)\n"
            "  --idle-max MS        pause between acquisitions, 0..MS (3)\n"
            "  --node-timeout MS    (100)   --connect-timeout MS (300)\n"
            "  --retry-count N      (3)     --retry-delay MS (20)\n"
            "  --reconnect-max MS   (100)\n");
}

static int64_t arg_num(const char *opt, const char *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || *end || end == v || x < 0) {
        fprintf(stderr, "rl-worker: bad number for %s: %s\n", opt, v);
        exit(2);
    }
    return x;
}

int main(int argc, char **argv)
{
    const char *masters = NULL, *logpath = NULL, *prefix = "fo:res";
    int64_t id = 0, nres = 3, seconds = 10, count = 0, ttl = 300, hold_min = 1, hold_max = 5,
            idle_max = 3, node_timeout = 100, connect_timeout = 300, retry_count = 3,
            retry_delay = 20, reconnect_max = 100;

    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "rl-worker: %s needs a value\n", o);
            usage(stderr);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(o, "--masters")) masters = v;
        else if (!strcmp(o, "--log")) logpath = v;
        else if (!strcmp(o, "--prefix")) prefix = v;
        else if (!strcmp(o, "--id")) id = arg_num(o, v);
        else if (!strcmp(o, "--resources")) nres = arg_num(o, v);
        else if (!strcmp(o, "--seconds")) seconds = arg_num(o, v);
        else if (!strcmp(o, "--count")) count = arg_num(o, v);
        else if (!strcmp(o, "--ttl")) ttl = arg_num(o, v);
        else if (!strcmp(o, "--hold-min")) hold_min = arg_num(o, v);
        else if (!strcmp(o, "--hold-max")) hold_max = arg_num(o, v);
        else if (!strcmp(o, "--idle-max")) idle_max = arg_num(o, v);
        else if (!strcmp(o, "--node-timeout")) node_timeout = arg_num(o, v);
        else if (!strcmp(o, "--connect-timeout")) connect_timeout = arg_num(o, v);
        else if (!strcmp(o, "--retry-count")) retry_count = arg_num(o, v);
        else if (!strcmp(o, "--retry-delay")) retry_delay = arg_num(o, v);
        else if (!strcmp(o, "--reconnect-max")) reconnect_max = arg_num(o, v);
        else {
            fprintf(stderr, "rl-worker: unknown option %s\n", o);
            usage(stderr);
            return 2;
        }
    }
    if (!masters || !logpath || nres < 1 || nres > MAX_RES || ttl < 10 || hold_max < hold_min) {
        usage(stderr);
        return 2;
    }

    /* split the master list */
    static char mbuf[4096];
    const char *nodes[MAX_NODES];
    size_t nnodes = 0;
    snprintf(mbuf, sizeof mbuf, "%s", masters);
    for (char *save = NULL, *t = strtok_r(mbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (nnodes == MAX_NODES) {
            fprintf(stderr, "rl-worker: at most %d masters\n", MAX_NODES);
            return 2;
        }
        nodes[nnodes++] = t;
    }

    g_log = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (g_log < 0) {
        fprintf(stderr, "rl-worker: %s: %s\n", logpath, strerror(errno));
        return 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    g_rng = (uint64_t)now_us() * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid() ^ (uint64_t)id << 32;
    if (!g_rng)
        g_rng = 1;

    redlock_options o;
    redlock_options_init(&o);
    o.node_timeout_ms = node_timeout;
    o.connect_timeout_ms = connect_timeout;
    o.retry_count = (int)retry_count;
    o.retry_delay_ms = retry_delay;
    o.retry_jitter_ms = retry_delay / 2;
    o.reconnect_min_ms = 5;
    o.reconnect_max_ms = reconnect_max;
    o.node_cb = on_node;

    redlock_client *c = NULL;
    char err[256] = "";
    if (redlock_client_new(&c, NULL, nodes, nnodes, &o, err, sizeof err) != 0) {
        fprintf(stderr, "rl-worker: redlock_client_new: %s\n", err);
        return 1;
    }
    logline("W %lld %ld %zu %lld", (long long)id, (long)getpid(), nnodes, (long long)ttl);
    /* best effort: start with every master connected, but run anyway */
    redlock_client_wait_connected(c, nnodes, 2000);

    redlock_lock *locks[MAX_RES];
    char names[MAX_RES][64];
    for (int64_t r = 0; r < nres; r++) {
        snprintf(names[r], sizeof names[r], "%s%lld", prefix, (long long)r);
        if (redlock_lock_new(&locks[r], c, names[r], strlen(names[r])) != 0) {
            fprintf(stderr, "rl-worker: redlock_lock_new failed\n");
            return 1;
        }
    }

    long long acquisitions = 0, failures = 0;
    long long fail_by[16] = {0};
    int64_t end = now_us() + seconds * 1000000;
    while (!g_stop && now_us() < end && (count == 0 || acquisitions < count)) {
        int r = (int)rnd_range(0, nres - 1);
        redlock_lock *l = locks[r];
        int64_t before = now_us();
        int rc = redlock_acquire(l, ttl);
        int64_t after = now_us();
        if (rc != 0) {
            failures++;
            fail_by[-rc < 16 ? -rc : 0]++;
            logline("F %s %lld %lld %s", names[r], (long long)before, (long long)after,
                    code_name(rc));
            sleep_us(rnd_range(0, idle_max) * 1000);
            continue;
        }
        int64_t validity_ms = redlock_lock_validity(l);
        int64_t valid_until = after + validity_ms * 1000;
        size_t vlen = 0;
        const char *value = redlock_lock_value(l, &vlen);
        char val[80];
        snprintf(val, sizeof val, "%.*s", (int)(vlen < 64 ? vlen : 64), value);
        acquisitions++;
        logline("A %s %s %lld %lld %lld %zu", names[r], val, (long long)before,
                (long long)after, (long long)valid_until, redlock_lock_nodes_ok(l));

        if (g_pause_req) {
            g_pause_req = 0;
            int64_t t0 = now_us();
            logline("S %s %s %lld", names[r], val, (long long)t0);
            raise(SIGSTOP);
            int64_t t1 = now_us();
            int64_t left = redlock_lock_validity(l);
            logline("P %s %s %lld %lld %lld", names[r], val, (long long)t1, (long long)left,
                    (long long)((t1 - t0) / 1000));
            fprintf(stderr,
                    "rl-worker %lld: resumed after %lld ms stopped holding %s; validity left %lld ms%s\n",
                    (long long)id, (long long)((t1 - t0) / 1000), names[r], (long long)left,
                    left <= 0 ? " (the client knows its lock ran out)" : "");
        } else {
            /* hold a random while, but never past the validity */
            int64_t hold = rnd_range(hold_min, hold_max) * 1000;
            int64_t room = valid_until - now_us() - 1000;
            sleep_us(hold < room ? hold : room);
        }

        int64_t rs = now_us();
        rc = redlock_release(l);
        int64_t re = now_us();
        logline("R %s %s %lld %lld %s %zu", names[r], val, (long long)rs, (long long)re,
                code_name(rc), redlock_lock_nodes_ok(l));
        sleep_us(rnd_range(0, idle_max) * 1000);
    }

    logline("E %lld %lld %lld", (long long)now_us(), acquisitions, failures);
    fprintf(stderr, "rl-worker %lld: %lld acquisitions, %lld failures", (long long)id,
            acquisitions, failures);
    for (int k = 1; k < 16; k++)
        if (fail_by[k])
            fprintf(stderr, " %s=%lld", code_name(-k), fail_by[k]);
    fputc('\n', stderr);
    for (int64_t r = 0; r < nres; r++)
        redlock_lock_free(locks[r]);
    redlock_client_free(c);
    close(g_log);
    return 0;
}
