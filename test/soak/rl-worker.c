/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-worker -- one lock client for the failover suite (see docs/safety.md
 * and docs/failover.md).
 *
 *   rl-worker --masters HOST:PORT,HOST:PORT,... --log FILE [options]
 *
 * --masters lists the library's node addresses, split on ',' or, when the
 * list holds a ';', on ';' only: a cluster vote's address
 * (redis-cluster://H:P,H:P,...) has commas of its own.
 *
 * Contends for --resources resources (named PREFIX0, PREFIX1, ...) for
 * --seconds seconds or --count acquisitions, whichever comes first.  Every
 * acquired lock is held for a random hold-min..hold-max ms (never past its
 * validity); with --extend-pct P, while holding, it extends the lock (P %
 * of the time at each step, half of the extends with a ttl shorter than the
 * one it holds), then releases; between two acquisitions it idles
 * 0..idle-max ms.  The blocking API by default; with --async, the
 * asynchronous API on the worker's own event base (see "loop blocks").
 *
 * The validity auditor: a thread of the worker with its own blocking
 * hiredis connections to the masters (--audit: their direct addresses when
 * --masters are proxies) checks, right after each acquisition and each
 * extend and every --audit-period ms while a lock is held, that a quorum of
 * masters still holds the lock's value for at least the validity the
 * library reported.  With --async it also checks while an extend is in
 * flight, against the validity read right after redlock_extend_async()
 * returned (the library lowers it at the extend's start); a blocking
 * worker cannot read it during redlock_extend(), so its auditor skips that
 * time.  Method and tolerance: audit_once() below and docs/failover.md.
 * The auditor is off when a node is a cluster (redis-cluster://): it
 * asks plain masters, and a failover inside a cluster may lose a held key
 * on purpose (docs/failover.md, "Cluster votes"): a quorum of votes then
 * no longer holds the value, while the restart guard keeps the promoted
 * master's vote from anyone else; the overlap check tests that.
 *
 * The log is appended one line at a time with write(2) on an O_APPEND
 * descriptor, so a line is never torn and every line written survives the
 * worker being killed.  Times are CLOCK_BOOTTIME microseconds, the clock the
 * library uses and one that every process on the machine shares:
 *
 *   W id pid nodes ttl_ms mode max_pending         header (mode: blocking|async)
 *   A res value before_us after_us valid_until_us nodes_ok
 *       acquired: before_us is taken before the acquire call started,
 *       after_us when it returned; valid_until_us = after_us + the validity
 *       redlock_lock_validity() reported then (floored to the millisecond),
 *       so [after_us, valid_until_us] is the interval in which this client
 *       may act as the holder; then the fencing token (0: none); with
 *       --kind other than mutex, then the owner (reentrant with --owner;
 *       else -) and the mode (x exclusive, r reader, w writer, s a
 *       semaphore's permit), and res is
 *       a multi lock's resources joined by '+';
 *   K kind [permits]                               --kind (not for mutex), after W;
 *       a semaphore's line names its permits
 *   H res value start_us end_us code valid_until_us holds
 *       reentrant: a nested acquire on the held handle (one more hold);
 *       valid_until_us = end_us + the validity reported after it
 *   D res value start_us end_us code valid_until_us holds
 *       reentrant: a release that left holds on the handle (the lock is
 *       kept); the last release is an R line
 *   T res value start_us end_us code valid_until_us nodes_ok ttl_ms shorter
 *       extend (whatever the outcome): valid_until_us = end_us + the
 *       validity reported after it; shorter = 1 when ttl_ms was below the
 *       validity left at its start (the extend shortens the lock)
 *   R res value start_us end_us code nodes_ok      release (start: before the call)
 *   F res before_us after_us code votes            acquire failed (code: ENOQUORUM, ...);
 *       votes: each node's vote in the last attempt (ok,refused,uncounted,...)
 *   S res value t_us                               about to stop itself while holding
 *   P res value resumed_us validity_left_ms stopped_ms
 *       resumed after the stop; validity_left_ms is what the library
 *       reports then (0: the client knows its lock ran out)
 *   B start_us end_us block_ms op                  the event loop was blocked
 *       block_ms while op (acquire|extend|release) was in flight (--async)
 *   I res value start_us t_us valid_until_us       an extend is in flight (--async)
 *       start_us: before redlock_extend_async(); valid_until_us = t_us +
 *       the validity read right after it returned 0 (t_us read right after
 *       that), published to the auditor, which keeps checking it until the
 *       extend completes (then T)
 *   V t_us res value valid_until_us quorum_until_us excess_us per-master when
 *       AUDITOR VIOLATION: the reported validity ends excess_us after the
 *       latest time a quorum of masters can still hold the value
 *       (quorum_until_us), beyond the tolerance; per-master: what each
 *       master answered (PTTL ms, -2 not our value, ? no answer); when:
 *       "held" (no operation in flight) or "extend" (an extend in flight)
 *   U t_us checks judged skipped violations min_slack_us max_rtt_us unknown
 *     inflight_judged inflight_violations inflight_min_slack_us
 *       auditor counters so far (cumulative; the last line counts): checks
 *       run, judged (the others were skipped: an operation started or
 *       completed meanwhile, or the validity ran out during the check),
 *       violations, the smallest quorum_until - valid_until seen, the
 *       slowest master answer, answers missing (master paused or down:
 *       counted as holding); then the judged checks, violations and
 *       smallest slack of those made while an extend was in flight (part
 *       of the totals); the slacks are INT64_MAX before the first judged
 *       check
 *   N t_us node up|down                            node events seen by the client
 *   E t_us acquisitions failures                   clean exit
 *
 * SIGUSR1 asks for a "GC pause": at the next acquisition the worker logs S
 * and stops itself with SIGSTOP while holding the lock, so the stop lands
 * exactly while a lock is held; whoever sent SIGUSR1 resumes it with SIGCONT
 * (after the lock's validity has run out, to show the Kleppmann case).
 * SIGUSR2 (--async only) asks for a loop block: at the next operation start
 * a timer 0..0.5 ms later busy-waits the number of ms read from --block-file
 * (default 2 x node timeout) while the operation is in flight (if the
 * operation completed first, the block waits for the next operation).
 * SIGTERM/SIGINT end the run after the current operation.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

#include "redlock.h"
#include "rl-worker.h"

const char *rl_prog = "rl-worker";
volatile sig_atomic_t g_stop, g_pause_req, g_block_req;
static int g_log = -1;
static int g_kind;   /* --kind: KIND_* below */
static int g_audit_on = 1;   /* 0: a node is a cluster (no auditor thread) */
static int64_t g_guard = -1; /* --restart-guard: restart_guard_ms (-1: automatic) */
static size_t g_nnodes;      /* the client's nodes (votes) */

static void sleep_us(int64_t us)
{
    if (us <= 0)
        return;
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !g_stop)
        ;
}

void vlogline_fd(int fd, const char *fmt, va_list ap)
{
    char buf[1024];
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    ssize_t w;
    do
        w = write(fd, buf, (size_t)n);
    while (w < 0 && errno == EINTR);
}

__attribute__((format(printf, 1, 2))) static void logline(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlogline_fd(g_log, fmt, ap);
    va_end(ap);
}

const char *code_name(int code)
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
#ifdef REDLOCK_EFULL
    case REDLOCK_EFULL: return "EFULL";
#endif
#ifdef REDLOCK_EUNCOUNTED
    case REDLOCK_EUNCOUNTED: return "EUNCOUNTED";
#endif
    default: return "EUNKNOWN";
    }
}

static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        g_pause_req = 1;
    else if (sig == SIGUSR2)
        g_block_req = 1;
    else
        g_stop = 1;
}

static void on_node(redlock_client *c, size_t node, int event, const char *detail, void *pd)
{
    (void)c;
    (void)detail;
    (void)pd;
    if (event != REDLOCK_NODE_UP && event != REDLOCK_NODE_DOWN)
        return;     /* the guards' events: not part of the log */
    logline("N %lld %zu %s", (long long)now_us(), node,
            event == REDLOCK_NODE_UP ? "up" : "down");
}

static uint64_t g_rng;

uint64_t rnd_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint64_t rnd(void) { return rnd_next(&g_rng); }

/* The random state of worker (or client) `id`: from --seed when given, so
 * a seed replays every worker's choices, else from the clock and pid. */
uint64_t rnd_seed(int64_t id)
{
    uint64_t r;
    if (g_opt.seed) {
        uint64_t z = (uint64_t)g_opt.seed * 0x9E3779B97F4A7C15ull + (uint64_t)id;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        r = z ^ (z >> 31);
    } else {
        r = (uint64_t)now_us() * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid() ^ (uint64_t)id << 32;
    }
    return r ? r : 1;
}

/* uniform in lo..hi (inclusive) */
static int64_t rnd_range(int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

/* ---- options ------------------------------------------------------------ */

struct rlw_opts g_opt = {NULL, NULL, NULL, "fo:res", NULL, 0, 3, 10, 0, 300, 1, 5, 3, 100, 300, 3,
                     20, 100, 0, 0, 20, 50, 1000, 0, 0, 0, 0, 0, 0};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rl-worker --masters H:P,H:P,... --log FILE [options]\n"
            "  --masters LIST       node addresses split on ',', or on ';' when LIST has one\n"
            "                       (redis-cluster://H:P,H:P;...); a cluster turns the\n"
            "                       auditor off\n"
            "  --restart-guard MS   the options' restart_guard_ms (automatic; 0: off)\n"
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
            "  --reconnect-max MS   (100)   --max-pending N (0: library default)\n"
            "  --extend-pct P       extend while holding, P %% of the steps (0)\n"
            "  --async              asynchronous API on the worker's own event base\n"
            "  --fencing            locks with fencing tokens (logged with each acquisition)\n"
            "  --watchdog           (--async) the library's watchdog keeps each lock, held\n"
            "                       ttl/2 .. 3 x ttl; its extends are logged as T lines when\n"
            "                       the validity moves, a lost-lock notice as an L line\n"
            "  --block-file FILE    ms to block the loop on SIGUSR2 (async; 2 x node timeout)\n"
            "  --seed N             random seed (0: from the clock and pid)\n"
            "  --kind K             mutex (default), reentrant (1..3 holds per acquisition),\n"
            "                       rw (readers and writers), multi (2..3 of the resources,\n"
            "                       random order; --resources 2..8), semaphore (one permit\n"
            "                       of --permits); the auditor: mutex only\n"
            "  --owner ID           reentrant: the owner id (workers with the same id are\n"
            "                       one owner; default: the handle is its own owner)\n"
            "  --writers-pct P      rw: P %% of the acquisitions write (33)\n"
            "  --permits P          semaphore: its permits (2); the K line names them\n"
            "  --emulate-permits N  TEST ONLY: the semaphore made of N mutexes per resource\n"
            "                       (N = P: a correct one; N > P: too many holders)\n"
            "  --audit H:P,...      masters' direct addresses for the auditor (--masters)\n"
            "  --audit-period MS    audit a held lock every MS (20; 0: only after operations)\n"
            "  --audit-timeout MS   auditor's per-master timeout (50)\n"
            "  --audit-tol-us US    auditor tolerance (1000)\n"
            "  --overreport MS      TEST ONLY: tell the auditor MS more validity than held\n"
            "  --clients C          run C independent clients in this process, each with its\n"
            "                       own connections and locks, on one event base (the async\n"
            "                       API); client k logs as worker id+k to the --log path\n"
            "                       with its id in place of %%d; mutex locks; no auditor\n");
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

/* ---- the auditor ---------------------------------------------------------- */

/* What the worker holds, as it reports it.  gen changes whenever an
 * operation on the lock starts (busy = 1) or its result is published.  An
 * async worker publishes again right after an extend started (inflight = 1,
 * busy = 0): the validity the library reports from the extend's start on,
 * checked like any other until the extend completes.  A release start
 * unpublishes (active = 0): the validity is 0 from then on. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t kick_cv, done_cv;
    int active, busy, inflight, stop;
    uint64_t gen, kicks, done;
    char res[64];
    char value[128];
    size_t vlen;
    int64_t valid_until;
} g_pub = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER};

typedef struct amaster {
    char host[256];
    int port;
    redisContext *c;
    int64_t retry_at;
} amaster;

static amaster g_audit_masters[MAX_NODES];   /* the auditor's own connections */
static size_t n_am;
static long long a_checks, a_judged, a_skipped, a_viol, a_unknown, a_ijudged, a_iviol;
static int64_t a_min_slack = INT64_MAX, a_max_rtt, a_imin_slack = INT64_MAX;

static const char AUDIT_LUA[] =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pttl', KEYS[1]) "
    "else return -2 end";

#define UNKNOWN_PTTL (-1000)

/* One master: PTTL of the key if it holds our value (-2 if not, -1 no
 * expiry, UNKNOWN_PTTL no answer).  t_sent / t_recv around the request. */
static long long ask(amaster *m, const char *res, const char *value, size_t vlen,
                     int64_t *t_sent, int64_t *t_recv)
{
    *t_sent = *t_recv = now_us();
    if (!m->c) {
        if (*t_sent < m->retry_at)
            return UNKNOWN_PTTL;
        struct timeval tv = {0, (suseconds_t)g_opt.audit_timeout * 1000};
        m->c = redisConnectWithTimeout(m->host, m->port, tv);
        if (!m->c || m->c->err) {
            if (m->c)
                redisFree(m->c);
            m->c = NULL;
            m->retry_at = now_us() + 100000;
            return UNKNOWN_PTTL;
        }
        redisSetTimeout(m->c, tv);
        *t_sent = now_us();
    }
    redisReply *r = redisCommand(m->c, "EVAL %s 1 %s %b", AUDIT_LUA, res, value, vlen);
    *t_recv = now_us();
    long long v = UNKNOWN_PTTL;
    if (r && r->type == REDIS_REPLY_INTEGER)
        v = r->integer;
    if (r)
        freeReplyObject(r);
    if (!r || m->c->err) {
        /* timeout (a paused master) or connection lost: a late answer must
         * never be read as the next one's, so reconnect, later */
        redisFree(m->c);
        m->c = NULL;
        m->retry_at = *t_recv + 100000;
    }
    return v;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);   /* descending */
}

/* the lock as published, copied for one check */
typedef struct claim {
    char res[64], value[128];
    size_t vlen;
    int64_t valid_until;
    uint64_t gen;
    int inflight;
} claim;

/* 0 when no lock is held or an operation is on it: nothing to check */
static int take_claim(claim *c)
{
    pthread_mutex_lock(&g_pub.mu);
    int held = g_pub.active && !g_pub.busy;
    if (held) {
        memcpy(c->res, g_pub.res, sizeof c->res);
        memcpy(c->value, g_pub.value, sizeof c->value);
        c->vlen = g_pub.vlen;
        c->valid_until = g_pub.valid_until;
        c->gen = g_pub.gen;
        c->inflight = g_pub.inflight;
    }
    pthread_mutex_unlock(&g_pub.mu);
    return held;
}

/* Ask every master: its answer in pttl[i], the latest moment it can hold
 * the value in hi[i]; returns when the last answer came. */
static int64_t ask_masters(const claim *c, long long *pttl, int64_t *hi)
{
    int64_t t_end = 0;
    for (size_t i = 0; i < n_am; i++) {
        int64_t ts, tr;
        pttl[i] = ask(&g_audit_masters[i], c->res, c->value, c->vlen, &ts, &tr);
        t_end = tr > t_end ? tr : t_end;
        if (pttl[i] >= 0 || pttl[i] == -2) {
            hi[i] = pttl[i] >= 0 ? tr + (pttl[i] + 1) * 1000 : tr;
            if (tr - ts > a_max_rtt)
                a_max_rtt = tr - ts;
        } else {
            hi[i] = INT64_MAX;   /* -1 (no expiry) or no answer */
            a_unknown += pttl[i] == UNKNOWN_PTTL;
        }
    }
    return t_end;
}

static int claim_unchanged(const claim *c)
{
    pthread_mutex_lock(&g_pub.mu);
    int same = g_pub.gen == c->gen;
    pthread_mutex_unlock(&g_pub.mu);
    return same;
}

static void log_violation(const claim *c, const long long *pttl, int64_t q, int64_t slack)
{
    char per[MAX_NODES * 12] = "";
    size_t off = 0;
    for (size_t i = 0; i < n_am && off < sizeof per - 12; i++) {
        if (pttl[i] == UNKNOWN_PTTL)
            off += (size_t)snprintf(per + off, sizeof per - off, "%s?", i ? "," : "");
        else
            off += (size_t)snprintf(per + off, sizeof per - off, "%s%lld", i ? "," : "",
                                    pttl[i]);
    }
    a_viol++;
    a_iviol += c->inflight;
    logline("V %lld %s %s %lld %lld %lld %s %s", (long long)now_us(), c->res, c->value,
            (long long)c->valid_until, (long long)q, (long long)-slack, per,
            c->inflight ? "extend" : "held");
}

/* One check of the published lock.  For master i the key's expiry, on
 * CLOCK_BOOTTIME, is at most hi_i = t_recv_i + (pttl_i + 1) ms: the script
 * read the PTTL at some moment before t_recv_i, and PTTL is truncated to the
 * millisecond.  A master that answered -2 (value gone or replaced) holds it
 * at most until t_recv_i; one that did not answer is counted as holding it
 * forever (paused or down: it can vote for nobody else).  The quorum-th
 * largest hi is the latest moment a quorum can still hold the value; the
 * worker's reported valid_until beyond it by more than the tolerance is a
 * violation.  hi overestimates the expiry by at most the round trip + 1 ms,
 * so a flagged violation is real.  While an extend is in flight (async
 * workers) the published validity is the one read at its start, which the
 * library bounds by min(old end, start + new ttl - drift): a master that
 * already ran the new PEXPIRE holds the key at least until start + ttl, the
 * others until the old end, so the same check applies. */
static void audit_once(void)
{
    claim c;
    int64_t hi[MAX_NODES];
    long long pttl[MAX_NODES];
    if (!take_claim(&c))
        return;
    a_checks++;
    int64_t t_end = ask_masters(&c, pttl, hi);
    /* an operation started or completed meanwhile (its SET/PEXPIRE/DEL
     * may have been read under another claim), or the claim ran out before
     * the last answer: nothing to judge */
    if (!claim_unchanged(&c) || c.valid_until <= t_end) {
        a_skipped++;
        return;
    }
    a_judged++;
    a_ijudged += c.inflight;
    qsort(hi, n_am, sizeof hi[0], cmp64);
    int64_t q = hi[n_am / 2];   /* the quorum-th (n/2+1-th) largest */
    int64_t slack = q == INT64_MAX ? INT64_MAX : q - c.valid_until;
    a_min_slack = min64(a_min_slack, slack);
    if (c.inflight)
        a_imin_slack = min64(a_imin_slack, slack);
    if (slack < -g_opt.audit_tol_us)
        log_violation(&c, pttl, q, slack);
}

static void audit_stats_line(void)
{
    logline("U %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", (long long)now_us(),
            a_checks, a_judged, a_skipped, a_viol, (long long)a_min_slack, (long long)a_max_rtt,
            a_unknown, a_ijudged, a_iviol, (long long)a_imin_slack);
}

static void *auditor(void *arg)
{
    (void)arg;
    int64_t last_stats = now_us();
    pthread_mutex_lock(&g_pub.mu);
    while (!g_pub.stop) {
        if (g_pub.kicks == g_pub.done) {
            if (g_opt.audit_period > 0 || !g_pub.active) {
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                int64_t ns = (int64_t)ts.tv_nsec +
                             (g_opt.audit_period > 0 ? g_opt.audit_period : 100) * 1000000;
                ts.tv_sec += (time_t)(ns / 1000000000);
                ts.tv_nsec = (long)(ns % 1000000000);
                pthread_cond_timedwait(&g_pub.kick_cv, &g_pub.mu, &ts);
            } else {
                pthread_cond_wait(&g_pub.kick_cv, &g_pub.mu);
            }
            if (g_pub.stop)
                break;
        }
        uint64_t k = g_pub.kicks;
        pthread_mutex_unlock(&g_pub.mu);
        audit_once();
        if (now_us() - last_stats > 1000000) {
            audit_stats_line();
            last_stats = now_us();
        }
        pthread_mutex_lock(&g_pub.mu);
        g_pub.done = k;
        pthread_cond_broadcast(&g_pub.done_cv);
    }
    pthread_mutex_unlock(&g_pub.mu);
    return NULL;
}

/* Ask for a check now and wait (at most 30 ms: a paused master costs the
 * auditor its timeout) until it ran. */
static void audit_now(void)
{
    pthread_mutex_lock(&g_pub.mu);
    uint64_t my = ++g_pub.kicks;
    pthread_cond_signal(&g_pub.kick_cv);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 30000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    while (g_pub.done < my && !g_pub.stop)
        if (pthread_cond_timedwait(&g_pub.done_cv, &g_pub.mu, &ts) == ETIMEDOUT)
            break;
    pthread_mutex_unlock(&g_pub.mu);
}

/* Ask for a check now, without waiting for it (the worker goes on). */
static void audit_kick(void)
{
    pthread_mutex_lock(&g_pub.mu);
    ++g_pub.kicks;
    pthread_cond_signal(&g_pub.kick_cv);
    pthread_mutex_unlock(&g_pub.mu);
}

/* The lock is held with this validity (published to the auditor). */
static void publish(const char *res, const char *value, size_t vlen, int64_t valid_until)
{
    if (g_kind || !g_audit_on)
        return;   /* the auditor knows the mutex's keys on plain masters only */
    pthread_mutex_lock(&g_pub.mu);
    g_pub.active = valid_until > 0;
    g_pub.busy = 0;
    g_pub.inflight = 0;
    g_pub.gen++;
    snprintf(g_pub.res, sizeof g_pub.res, "%s", res);
    if (vlen > sizeof g_pub.value - 1)
        vlen = sizeof g_pub.value - 1;
    memcpy(g_pub.value, value, vlen);
    g_pub.value[vlen] = '\0';
    g_pub.vlen = vlen;
    g_pub.valid_until = valid_until + g_opt.overreport * 1000;
    pthread_mutex_unlock(&g_pub.mu);
    if (valid_until > 0)
        audit_now();
}

/* An extend of the held lock is about to start (still_held = 1: busy, no
 * check until the validity from its start is published, or its result), or
 * a release starts (0: not held, validity 0, nothing to check). */
static void unpublish(int still_held)
{
    pthread_mutex_lock(&g_pub.mu);
    g_pub.busy = still_held;
    g_pub.active = still_held;
    g_pub.inflight = 0;
    g_pub.gen++;
    pthread_mutex_unlock(&g_pub.mu);
}

/* An extend is in flight (async): publish the validity the library reports
 * from its start on, and keep checking it (not busy) until it completes. */
static void publish_inflight(int64_t valid_until)
{
    if (g_kind || !g_audit_on)
        return;
    pthread_mutex_lock(&g_pub.mu);
    g_pub.active = valid_until > 0;
    g_pub.busy = 0;
    g_pub.inflight = 1;
    g_pub.gen++;
    g_pub.valid_until = valid_until + g_opt.overreport * 1000;
    pthread_mutex_unlock(&g_pub.mu);
    if (valid_until > 0)
        audit_kick();
}

/* ---- the lock work, shared by both modes ---------------------------------- */

static redlock_client *g_client;
static redlock_lock *locks[MAX_RES];
static char names[MAX_RES][64];
static long long acquisitions, failures, fail_by[16];

typedef struct cur {
    int r;
    redlock_lock *l;
    char val[80];
    const char *value;
    size_t vlen;
    int64_t before, after, valid_until, hold_end, op_start;
    int64_t ext_ttl;
    int shorter;
    char name[64];        /* the resource, or a multi lock's resources joined by '+' */
    char mode;            /* 'x' exclusive, 'r' reader, 'w' writer */
    int depth;            /* re-entrant: holds to take on the handle */
    int rel_tries;        /* releases sent since the acquisition */
} cur;

static cur g_cur;   /* the acquisition under way or held */

/* ---- lock kinds (--kind) -------------------------------------------------- */

enum { KIND_MUTEX, KIND_REENTRANT, KIND_RW, KIND_MULTI, KIND_SEMAPHORE, NKINDS };
static const char *const kind_names[] = {"mutex", "reentrant", "rw", "multi", "semaphore"};
static int64_t g_permits = 2;       /* semaphore: its permits */
/* --emulate-permits N (TEST ONLY): a semaphore made of N mutexes per
 * resource, permit i the mutex on RES.pi, one drawn per acquisition: with
 * N = --permits a correct semaphore (the suite runs without the library's),
 * with N > --permits one that hands out too many (the check must fail) */
#define MAX_EMUL 8
static int64_t g_emulate;
static redlock_lock *elocks[MAX_RES][MAX_EMUL];
static const char *g_owner;         /* re-entrant: the owner id (default: own) */
static int64_t g_writers_pct = 33;  /* rw: share of the acquisitions that write */
static redlock_lock *rlocks[MAX_RES];   /* rw: the read handles (locks[]: write) */

/* multi: one handle per ordered subset, made when first drawn */
#define MAX_MULTI 512
static struct {
    char name[64];
    redlock_lock *l;
} g_multi[MAX_MULTI];
static size_t n_mh;

static int setup_lock(redlock_lock *l, int fencing);

static redlock_lock *multi_lock(void)
{
    int64_t m = rnd_range(2, min64(3, g_opt.nres));
    int pick[3], n = 0;
    while (n < m) {
        int r = (int)rnd_range(0, g_opt.nres - 1), dup = 0;
        for (int i = 0; i < n; i++)
            dup |= pick[i] == r;
        if (!dup)
            pick[n++] = r;
    }
    size_t off = 0;
    for (int i = 0; i < n; i++)
        off += (size_t)snprintf(g_cur.name + off, sizeof g_cur.name - off, "%s%s", i ? "+" : "",
                                names[pick[i]]);
    for (size_t i = 0; i < n_mh; i++)
        if (!strcmp(g_multi[i].name, g_cur.name))
            return g_multi[i].l;
    const void *res[3];
    size_t lens[3];
    for (int i = 0; i < n; i++) {
        res[i] = names[pick[i]];
        lens[i] = strlen(names[pick[i]]);
    }
    if (n_mh == MAX_MULTI ||
        redlock_lock_new_multi(&g_multi[n_mh].l, g_client, res, lens, (size_t)n) != 0 ||
        setup_lock(g_multi[n_mh].l, 0) != 0) {
        fprintf(stderr, "rl-worker: redlock_lock_new_multi failed\n");
        exit(1);
    }
    snprintf(g_multi[n_mh].name, sizeof g_multi[n_mh].name, "%s", g_cur.name);
    return g_multi[n_mh++].l;
}

/* Choose the next acquisition's lock (g_cur.l, .name, .mode, .depth). */
static void pick_lock(void)
{
    g_cur.r = (int)rnd_range(0, g_opt.nres - 1);
    g_cur.l = locks[g_cur.r];
    g_cur.mode = 'x';
    g_cur.depth = 1;
    memcpy(g_cur.name, names[g_cur.r], sizeof g_cur.name);
    if (g_kind == KIND_REENTRANT) {
        g_cur.depth = (int)rnd_range(1, 3);
    } else if (g_kind == KIND_RW) {
        g_cur.mode = rnd_range(0, 99) < g_writers_pct ? 'w' : 'r';
        if (g_cur.mode == 'r')
            g_cur.l = rlocks[g_cur.r];
    } else if (g_kind == KIND_MULTI) {
        g_cur.l = multi_lock();
    } else if (g_kind == KIND_SEMAPHORE) {
        g_cur.mode = 's';   /* one permit */
        if (g_emulate)
            g_cur.l = elocks[g_cur.r][rnd_range(0, g_emulate - 1)];
    }
}

/* "ok,refused,..." : each node's vote in the lock's last operation */
static void node_votes(char *out, size_t cap)
{
    size_t off = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g_nnodes && off + 1 < cap; i++) {
        redlock_node_result r;
        const char *name = redlock_lock_node_result(g_cur.l, i, &r) == 0
                               ? redlock_vote_name(r.vote)
                               : "?";
        off += (size_t)snprintf(out + off, cap - off, "%s%s", i ? "," : "", name);
    }
}

static void note_failure(int rc)
{
    char votes[MAX_NODES * 12];
    failures++;
    fail_by[-rc < 16 && -rc > 0 ? -rc : 0]++;
    node_votes(votes, sizeof votes);
    logline("F %s %lld %lld %s %s", g_cur.name, (long long)g_cur.before, (long long)g_cur.after,
            code_name(rc), votes);
}

/* after a successful acquire */
static void acquired(void)
{
    int64_t validity_ms = redlock_lock_validity(g_cur.l);
    int64_t t = now_us();
    g_cur.valid_until = g_cur.after + validity_ms * 1000;
    g_cur.value = redlock_lock_value(g_cur.l, &g_cur.vlen);
    snprintf(g_cur.val, sizeof g_cur.val, "%.*s", (int)(g_cur.vlen < 64 ? g_cur.vlen : 64),
             g_cur.value);
    acquisitions++;
    g_cur.rel_tries = 0;
    if (g_kind == KIND_MUTEX)
        logline("A %s %s %lld %lld %lld %zu %lld", g_cur.name, g_cur.val, (long long)g_cur.before,
                (long long)g_cur.after, (long long)g_cur.valid_until,
                redlock_lock_nodes_ok(g_cur.l), (long long)redlock_lock_token(g_cur.l));
    else
        logline("A %s %s %lld %lld %lld %zu %lld %s %c", g_cur.name, g_cur.val,
                (long long)g_cur.before, (long long)g_cur.after, (long long)g_cur.valid_until,
                redlock_lock_nodes_ok(g_cur.l), (long long)redlock_lock_token(g_cur.l),
                g_kind == KIND_REENTRANT ? (g_owner ? g_owner : "-") : "-", g_cur.mode);
    publish(g_cur.name, g_cur.value, g_cur.vlen, t + validity_ms * 1000);
    g_cur.hold_end = now_us() + rnd_range(g_opt.hold_min, g_opt.hold_max) * 1000;
}

/* pick the next extend's ttl: half of them shorter than what is left */
static void pick_extend(void)
{
    int64_t left = redlock_lock_validity(g_cur.l);
    g_cur.ext_ttl = g_opt.ttl;
    if (rnd() % 2 && left > 20)
        g_cur.ext_ttl = rnd_range(left / 4 > 10 ? left / 4 : 10, left * 3 / 4);
    g_cur.shorter = g_cur.ext_ttl < left;
    g_cur.op_start = now_us();
    unpublish(1);
}

/* right after redlock_extend_async() returned 0 */
static void extend_started(void)
{
    int64_t v = redlock_lock_validity(g_cur.l);
    int64_t t = now_us();
    int64_t vu = v > 0 ? t + v * 1000 : 0;
    logline("I %s %s %lld %lld %lld", g_cur.name, g_cur.val, (long long)g_cur.op_start,
            (long long)t, (long long)vu);
    publish_inflight(vu);
}

static void extended(int rc)
{
    int64_t end = now_us();
    int64_t v = redlock_lock_validity(g_cur.l);
    g_cur.valid_until = end + v * 1000;
    logline("T %s %s %lld %lld %s %lld %zu %lld %d", g_cur.name, g_cur.val,
            (long long)g_cur.op_start, (long long)end, code_name(rc), (long long)g_cur.valid_until,
            redlock_lock_nodes_ok(g_cur.l), (long long)g_cur.ext_ttl, g_cur.shorter);
    publish(g_cur.name, g_cur.value, g_cur.vlen, v > 0 ? g_cur.valid_until : 0);
}

static void released(int rc)
{
    int64_t re = now_us();
    logline("R %s %s %lld %lld %s %zu", g_cur.name, g_cur.val, (long long)g_cur.op_start,
            (long long)re, code_name(rc), redlock_lock_nodes_ok(g_cur.l));
}

/* re-entrant: a nested acquire (one more hold on the held handle) ended */
static void held_again(int rc)
{
    int64_t end = now_us();
    int64_t v = redlock_lock_validity(g_cur.l);
    g_cur.valid_until = end + v * 1000;
    logline("H %s %s %lld %lld %s %lld %lld", g_cur.name, g_cur.val, (long long)g_cur.op_start,
            (long long)end, code_name(rc), (long long)g_cur.valid_until,
            (long long)redlock_lock_holds(g_cur.l));
}

/* A release ended: 1 when holds are left on the handle (logged as D: the
 * lock and its validity are kept), else 0 (logged as R).  After a few
 * releases the worker stops acting as the holder whatever is left. */
static int release_ended(int rc)
{
    g_cur.rel_tries++;
    int64_t h = redlock_lock_holds(g_cur.l);
    if (g_kind != KIND_REENTRANT || h <= 0 || g_cur.rel_tries > 4) {
        released(rc);
        return 0;
    }
    int64_t end = now_us();
    int64_t v = redlock_lock_validity(g_cur.l);
    g_cur.valid_until = end + v * 1000;
    logline("D %s %s %lld %lld %s %lld %lld", g_cur.name, g_cur.val, (long long)g_cur.op_start,
            (long long)end, code_name(rc), (long long)g_cur.valid_until, (long long)h);
    return 1;
}

/* How long to keep a hold left after a partial release (us). */
static int64_t partial_hold_us(void)
{
    int64_t w = min64(rnd_range(0, g_opt.hold_max / 2) * 1000, g_cur.valid_until - 1000 - now_us());
    return w > 0 ? w : 0;
}

/* Next step while holding: 1 extend now, 0 release now, or the time to
 * wait (us, > 1) before deciding again. */
static int64_t hold_step(int *extend)
{
    int64_t now = now_us();
    int64_t until = min64(g_cur.hold_end, g_cur.valid_until - 1000);
    *extend = 0;
    if (now >= until || g_stop)
        return 0;
    if (g_opt.extend_pct && rnd_range(0, 99) < g_opt.extend_pct) {
        *extend = 1;
        return rnd_range(0, until - now);
    }
    return until - now;
}

/* ---- blocking mode ---------------------------------------------------------- */

static void run_blocking(void)
{
    int64_t end = now_us() + g_opt.seconds * 1000000;
    while (!g_stop && now_us() < end && (g_opt.count == 0 || acquisitions < g_opt.count)) {
        pick_lock();
        g_cur.before = now_us();
        int rc = redlock_acquire(g_cur.l, g_opt.ttl);
        g_cur.after = now_us();
        if (rc != 0) {
            note_failure(rc);
            sleep_us(rnd_range(0, g_opt.idle_max) * 1000);
            continue;
        }
        acquired();
        while (g_kind == KIND_REENTRANT && redlock_lock_holds(g_cur.l) < g_cur.depth && !g_stop) {
            g_cur.op_start = now_us();
            rc = redlock_acquire(g_cur.l, g_opt.ttl);
            held_again(rc);
            if (rc != 0)
                break;
        }
        if (g_pause_req) {
            g_pause_req = 0;
            int64_t t0 = now_us();
            logline("S %s %s %lld", g_cur.name, g_cur.val, (long long)t0);
            raise(SIGSTOP);
            int64_t t1 = now_us();
            int64_t left = redlock_lock_validity(g_cur.l);
            logline("P %s %s %lld %lld %lld", g_cur.name, g_cur.val, (long long)t1, (long long)left,
                    (long long)((t1 - t0) / 1000));
            fprintf(stderr,
                    "rl-worker %lld: resumed after %lld ms stopped holding %s; validity left %lld "
                    "ms%s\n",
                    (long long)g_opt.id, (long long)((t1 - t0) / 1000), g_cur.name, (long long)left,
                    left <= 0 ? " (the client knows its lock ran out)" : "");
        } else {
            int ext;
            int64_t wait;
            while ((wait = hold_step(&ext)) > 0 || ext) {
                sleep_us(wait);
                if (!ext)
                    break;
                pick_extend();
                rc = redlock_extend(g_cur.l, g_cur.ext_ttl);
                extended(rc);
            }
        }
        do {
            g_cur.op_start = now_us();
            unpublish(0);
            rc = redlock_release(g_cur.l);
        } while (release_ended(rc) && (sleep_us(partial_hold_us()), 1));
        sleep_us(rnd_range(0, g_opt.idle_max) * 1000);
    }
}

/* ---- async mode: own event base, loop blocks -------------------------------- */

static struct event_base *g_base;
static struct event *ev_step, *ev_block;
static int64_t a_end;
static long long blocks;
static const char *inflight = "none";

static void step_in(int64_t us)
{
    struct timeval tv = {(time_t)(us / 1000000), (suseconds_t)(us % 1000000)};
    evtimer_add(ev_step, &tv);
}

/* an operation was just started: block the loop soon if asked to */
static void maybe_block(const char *op)
{
    inflight = op;
    if (!g_block_req)
        return;
    g_block_req = 0;
    struct timeval tv = {0, (suseconds_t)(rnd() % 2 ? 0 : rnd_range(0, 500))};
    evtimer_add(ev_block, &tv);
}

/* SIGUSR2's loop block: busy-wait the ms read from --block-file (else 2 x
 * node timeout), as a slow callback would stall the loop */
void block_loop(int64_t *t0, int64_t *t1, int64_t *ms)
{
    *ms = 2 * g_opt.node_timeout;
    FILE *f = g_opt.block_file ? fopen(g_opt.block_file, "r") : NULL;
    long long x;
    if (f) {
        if (fscanf(f, "%lld", &x) == 1 && x > 0)
            *ms = x;
        fclose(f);
    }
    *t0 = now_us();
    do
        *t1 = now_us();
    while (*t1 - *t0 < *ms * 1000);
}

static void on_block(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    const char *op = inflight;
    if (!strcmp(op, "none")) {
        g_block_req = 1;   /* it completed first: block during the next one */
        return;
    }
    int64_t t0, t1, ms;
    block_loop(&t0, &t1, &ms);
    blocks++;
    logline("B %lld %lld %lld %s", (long long)t0, (long long)t1, (long long)ms, op);
}

static void on_step(evutil_socket_t fd, short what, void *arg);

static int holding, draining;

static void on_released(redlock_lock *l, int status, void *pd)
{
    (void)l;
    (void)pd;
    inflight = "none";
    if (release_ended(status)) {
        draining = 1;   /* holds left: keep one a while, then release again */
        step_in(partial_hold_us());
        return;
    }
    step_in(rnd_range(0, g_opt.idle_max) * 1000);
}

static void start_release(void)
{
    holding = 0;
    g_cur.op_start = now_us();
    unpublish(0);
    if (redlock_release_async(g_cur.l, on_released, NULL) != 0) {
        released(REDLOCK_EINVAL);
        step_in(1000);
        return;
    }
    maybe_block("release");
}

static void holding_step(void);

static void on_extended(redlock_lock *l, int status, void *pd)
{
    (void)l;
    (void)pd;
    inflight = "none";
    extended(status);
    holding_step();
}

static int want_extend;

/* --watchdog: the lock was lost (the library's notice): stop acting now */
static void on_lost(redlock_lock *l, int reason, void *pd)
{
    (void)pd;
    if (l != g_cur.l || !(holding || draining))
        return;
    int64_t t = now_us();
    logline("L %s %s %lld %d", g_cur.name, g_cur.val, (long long)t, reason);
    unpublish(0);
    g_cur.valid_until = t;
}

/* --watchdog: log and publish the validity the watchdog's extends moved
 * (as an extend that took no time: a T line with start = end) */
static void watch_validity(void)
{
    int64_t v = redlock_lock_validity(g_cur.l), t = now_us();
    int64_t vu = t + v * 1000;
    if (v <= 0 || vu <= g_cur.valid_until + 1000 || !strcmp(inflight, "extend"))
        return;
    g_cur.valid_until = vu;
    logline("T %s %s %lld %lld %s %lld %zu %lld %d", g_cur.name, g_cur.val, (long long)t,
            (long long)t, "OK", (long long)vu, redlock_lock_nodes_ok(g_cur.l), (long long)g_opt.ttl,
            0);
    publish(g_cur.name, g_cur.value, g_cur.vlen, vu);
}

static void holding_step(void)
{
    int ext;
    int64_t wait;
    if (g_opt.watchdog)
        watch_validity();
    wait = hold_step(&ext);
    want_extend = ext;
    if (g_opt.watchdog && wait > 20000 && !ext)
        wait = 20000;   /* look at the validity again soon */
    if (wait > 0) {
        step_in(wait);
        return;
    }
    if (ext) {
        pick_extend();
        int rc = redlock_extend_async(g_cur.l, g_cur.ext_ttl, on_extended, NULL);
        if (rc != 0) {
            extended(rc);
            start_release();
            return;
        }
        extend_started();
        maybe_block("extend");
        return;
    }
    start_release();
}

/* re-entrant: take one more hold on the held handle */
static void start_nest(void);

static void on_nested(redlock_lock *l, int status, void *pd)
{
    (void)l;
    (void)pd;
    inflight = "none";
    held_again(status);
    if (status == 0 && redlock_lock_holds(g_cur.l) < g_cur.depth && !g_stop)
        start_nest();
    else
        holding_step();
}

static void start_nest(void)
{
    g_cur.op_start = now_us();
    int rc = redlock_acquire_async(g_cur.l, g_opt.ttl, on_nested, NULL);
    if (rc != 0) {
        held_again(rc);
        holding_step();
        return;
    }
    maybe_block("acquire");
}

static void on_acquired(redlock_lock *l, int status, void *pd)
{
    (void)l;
    (void)pd;
    inflight = "none";
    g_cur.after = now_us();
    if (status != 0) {
        note_failure(status);
        holding = 0;
        step_in(rnd_range(0, g_opt.idle_max) * 1000);
        return;
    }
    acquired();
    holding = 1;
    if (g_kind == KIND_REENTRANT && redlock_lock_holds(g_cur.l) < g_cur.depth)
        start_nest();
    else
        holding_step();
}

static void on_step(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    if (draining) {
        draining = 0;
        start_release();
        return;
    }
    if (holding) {
        /* the hold timer (or an extend's start) */
        if (want_extend) {
            want_extend = 0;
            pick_extend();
            int rc = redlock_extend_async(g_cur.l, g_cur.ext_ttl, on_extended, NULL);
            if (rc != 0) {
                extended(rc);
                holding = 0;
                start_release();
                return;
            }
            extend_started();
            maybe_block("extend");
            return;
        }
        if (g_opt.watchdog && now_us() < min64(g_cur.hold_end, g_cur.valid_until - 1000)) {
            holding_step();     /* only looking at the validity */
            return;
        }
        holding = 0;
        start_release();
        return;
    }
    if (g_stop || now_us() >= a_end || (g_opt.count && acquisitions >= g_opt.count)) {
        event_base_loopbreak(g_base);
        return;
    }
    pick_lock();
    g_cur.before = now_us();
    int rc = redlock_acquire_async(g_cur.l, g_opt.ttl, on_acquired, NULL);
    if (rc != 0) {
        g_cur.after = now_us();
        note_failure(rc);
        step_in(1000);
        return;
    }
    maybe_block("acquire");
}

static void run_async(void)
{
    a_end = now_us() + g_opt.seconds * 1000000;
    ev_step = evtimer_new(g_base, on_step, NULL);
    ev_block = evtimer_new(g_base, on_block, NULL);
    step_in(0);
    event_base_dispatch(g_base);
    event_free(ev_step);
    event_free(ev_block);
}

/* ---- set-up ---------------------------------------------------------------- */

/* fencing (where the kind has it) and the watchdog, as asked */
static int setup_lock(redlock_lock *l, int fencing)
{
    return (fencing && g_opt.fencing && redlock_lock_set_fencing(l, 1) != 0) ||
                   (g_opt.watchdog && (redlock_lock_set_watchdog(l, 0, 0) != 0 ||
                                   redlock_lock_on_lost(l, on_lost, NULL) != 0))
               ? -1
               : 0;
}

/* --emulate-permits: the mutexes RES.p0 .. RES.p(N-1) of each resource */
static int make_emulated(void)
{
    for (int64_t r = 0; r < g_opt.nres; r++)
        for (int64_t i = 0; i < g_emulate; i++) {
            char n[80];
            snprintf(n, sizeof n, "%s.p%lld", names[r], (long long)i);
            if (redlock_lock_new(&elocks[r][i], g_client, n, strlen(n)) != 0 ||
                setup_lock(elocks[r][i], 0) != 0)
                return -1;
        }
    return 0;
}

static int make_locks(void)
{
    if (g_kind == KIND_SEMAPHORE && g_emulate)
        return make_emulated();
    for (int64_t r = 0; r < g_opt.nres; r++) {
        const char *n = names[r];
        size_t len = strlen(n);
        int rc;
        if (g_kind == KIND_REENTRANT)
            rc = redlock_lock_new_reentrant(&locks[r], g_client, n, len, g_owner,
                                            g_owner ? strlen(g_owner) : 0);
        else if (g_kind == KIND_RW)
            rc = redlock_lock_new_write(&locks[r], g_client, n, len) ||
                 redlock_lock_new_read(&rlocks[r], g_client, n, len) || setup_lock(rlocks[r], 0);
#ifdef REDLOCK_EPERMITS   /* a library with the semaphore */
        else if (g_kind == KIND_SEMAPHORE)
            rc = redlock_lock_new_semaphore(&locks[r], g_client, n, len, (unsigned)g_permits);
#endif
        else
            rc = redlock_lock_new(&locks[r], g_client, n, len);
        /* no fencing on a semaphore here: its holders overlap, so their
         * tokens need not grow in the order their acquires returned */
        if (rc != 0 || setup_lock(locks[r], g_kind != KIND_SEMAPHORE) != 0) {
            fprintf(stderr, "rl-worker: cannot make the %s lock on %s\n", kind_names[g_kind],
                    n);
            return -1;
        }
    }
    return 0;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static void client_options(redlock_options *o)
{
    redlock_options_init(o);
    o->node_timeout_ms = g_opt.node_timeout;
    o->connect_timeout_ms = g_opt.connect_timeout;
    o->retry_count = (int)g_opt.retry_count;
    o->retry_delay_ms = g_opt.retry_delay;
    o->retry_jitter_ms = g_opt.retry_delay / 2;
    o->reconnect_min_ms = 5;
    o->reconnect_max_ms = g_opt.reconnect_max;
    if (g_opt.max_pending)
        o->max_pending = (size_t)g_opt.max_pending;
    o->restart_guard_ms = g_guard;
}

static size_t split(char *buf, size_t cap, const char *list, const char **out)
{
    size_t n = 0;
    const char *sep = strchr(list, ';') ? ";" : ",";
    snprintf(buf, cap, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, sep, &save); t; t = strtok_r(NULL, sep, &save)) {
        if (n == MAX_NODES) {
            fprintf(stderr, "rl-worker: at most %d masters\n", MAX_NODES);
            exit(2);
        }
        out[n++] = t;
    }
    return n;
}

/* ---- the command line ---------------------------------------------------- */

/* one option: a flag (no value) or a number sets *num, a string *str;
 * --kind is parsed apart */
static const struct opt {
    const char *name;
    int64_t *num;
    const char **str;
    int flag;
} opts[] = {
    {"--async", &g_opt.async, NULL, 1},
    {"--fencing", &g_opt.fencing, NULL, 1},
    {"--watchdog", &g_opt.watchdog, NULL, 1},
    {"--masters", NULL, &g_opt.masters, 0},
    {"--audit", NULL, &g_opt.audit, 0},
    {"--log", NULL, &g_opt.logpath, 0},
    {"--prefix", NULL, &g_opt.prefix, 0},
    {"--block-file", NULL, &g_opt.block_file, 0},
    {"--owner", NULL, &g_owner, 0},
    {"--id", &g_opt.id, NULL, 0},
    {"--resources", &g_opt.nres, NULL, 0},
    {"--seconds", &g_opt.seconds, NULL, 0},
    {"--count", &g_opt.count, NULL, 0},
    {"--ttl", &g_opt.ttl, NULL, 0},
    {"--hold-min", &g_opt.hold_min, NULL, 0},
    {"--hold-max", &g_opt.hold_max, NULL, 0},
    {"--idle-max", &g_opt.idle_max, NULL, 0},
    {"--node-timeout", &g_opt.node_timeout, NULL, 0},
    {"--connect-timeout", &g_opt.connect_timeout, NULL, 0},
    {"--retry-count", &g_opt.retry_count, NULL, 0},
    {"--retry-delay", &g_opt.retry_delay, NULL, 0},
    {"--reconnect-max", &g_opt.reconnect_max, NULL, 0},
    {"--extend-pct", &g_opt.extend_pct, NULL, 0},
    {"--max-pending", &g_opt.max_pending, NULL, 0},
    {"--audit-period", &g_opt.audit_period, NULL, 0},
    {"--audit-timeout", &g_opt.audit_timeout, NULL, 0},
    {"--audit-tol-us", &g_opt.audit_tol_us, NULL, 0},
    {"--overreport", &g_opt.overreport, NULL, 0},
    {"--seed", &g_opt.seed, NULL, 0},
    {"--clients", &g_opt.clients, NULL, 0},
    {"--writers-pct", &g_writers_pct, NULL, 0},
    {"--permits", &g_permits, NULL, 0},
    {"--emulate-permits", &g_emulate, NULL, 0},
    {"--restart-guard", &g_guard, NULL, 0},
    {"--kind", NULL, NULL, 0},
};

static const struct opt *find_opt(const char *name)
{
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (!strcmp(opts[i].name, name))
            return &opts[i];
    return NULL;
}

/* an option's value; 0, or the exit status */
static int set_opt(const struct opt *e, const char *o, const char *v)
{
    if (!e) {
        fprintf(stderr, "rl-worker: unknown option %s\n", o);
        usage(stderr);
        return 2;
    }
    if (e->num)
        *e->num = arg_num(o, v);
    else if (e->str)
        *e->str = v;
    else {   /* --kind */
        for (g_kind = 0; g_kind < NKINDS && strcmp(v, kind_names[g_kind]); g_kind++)
            ;
        if (g_kind == NKINDS) {
            fprintf(stderr, "rl-worker: unknown kind %s\n", v);
            return 2;
        }
    }
    return 0;
}

/* -1 to run, else the exit status (--help: 0) */
static int parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const struct opt *e = find_opt(o);
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 0;
        }
        if (e && e->flag) {
            *e->num = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "rl-worker: %s needs a value\n", o);
            usage(stderr);
            return 2;
        }
        int rc = set_opt(e, o, argv[++i]);
        if (rc)
            return rc;
    }
    return -1;
}

static int opts_valid(void)
{
    if (!g_opt.masters || !g_opt.logpath || g_opt.nres < 1 || g_opt.nres > MAX_RES ||
        g_opt.ttl < 10 || g_opt.hold_max < g_opt.hold_min || g_opt.audit_timeout < 1 ||
        g_opt.audit_timeout > 999)
        return 0;
    if ((g_opt.watchdog && !g_opt.async) || g_writers_pct > 100 || g_permits < 1 ||
        g_permits > 1000)
        return 0;
    if (g_emulate < 0 || g_emulate > MAX_EMUL)
        return 0;
#ifndef REDLOCK_EPERMITS
    if (g_kind == KIND_SEMAPHORE && !g_emulate) {
        fprintf(stderr, "rl-worker: this library has no semaphore\n");
        return 0;
    }
#endif
    if (g_owner && (!*g_owner || strcspn(g_owner, " \t\n") != strlen(g_owner)))
        return 0;
    return g_kind != KIND_MULTI || (g_opt.nres >= 2 && g_opt.nres <= 8);
}

/* 0, or the exit status */
static int check_opts(void)
{
    if (!opts_valid()) {
        usage(stderr);
        return 2;
    }
    if (g_opt.clients && (g_opt.clients > 100000 || g_kind || g_opt.watchdog || g_opt.overreport ||
                      !strstr(g_opt.logpath, "%d"))) {
        fprintf(stderr, "rl-worker: --clients: mutex locks, no --watchdog nor --overreport, "
                        "and a --log path with %%d\n");
        return 2;
    }
    if (g_opt.watchdog) {   /* holds the watchdog must carry */
        g_opt.hold_min = g_opt.ttl / 2;
        g_opt.hold_max = 3 * g_opt.ttl;
    }
    return 0;
}

/* --masters into nodes[], --audit (else --masters) into the auditor's
 * addresses, or the auditor off when a node is a cluster; 0, or the exit
 * status */
static int split_masters(const char **nodes, size_t *nnodes)
{
    static char mbuf[4096], abuf[4096];
    const char *anodes[MAX_NODES];
    *nnodes = split(mbuf, sizeof mbuf, g_opt.masters, nodes);
    for (size_t i = 0; i < *nnodes; i++)
        if (!strncmp(nodes[i], "redis-cluster://", 16))
            g_audit_on = 0;
    if (!g_audit_on) {
        if (!g_opt.audit)
            return *nnodes ? 0 : 2;
        fprintf(stderr, "rl-worker: no --audit with cluster nodes (the auditor is off)\n");
        return 2;
    }
    n_am = split(abuf, sizeof abuf, g_opt.audit ? g_opt.audit : g_opt.masters, anodes);
    if (n_am != *nnodes || *nnodes == 0) {
        fprintf(stderr, "rl-worker: --audit must list as many masters as --masters\n");
        return 2;
    }
    for (size_t i = 0; i < n_am; i++) {
        const char *colon = strrchr(anodes[i], ':');
        if (!colon || atoi(colon + 1) <= 0) {
            fprintf(stderr, "rl-worker: auditor address %s: HOST:PORT expected\n", anodes[i]);
            return 2;
        }
        snprintf(g_audit_masters[i].host, sizeof g_audit_masters[i].host, "%.*s",
                 (int)(colon - anodes[i]), anodes[i]);
        g_audit_masters[i].port = atoi(colon + 1);
    }
    return 0;
}

/* ---- main ------------------------------------------------------------------ */

/* --clients: many clients in this process (rl-many.c) */
static int run_clients(const char *const *nodes, size_t nnodes)
{
    redlock_options o;
    client_options(&o);
    /* many clients, each with a connection to every master (and the
     * log files): the soft limit of open files is often 1024 */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    install_signals();
    return run_many(nodes, nnodes, &o);
}

static pthread_t g_auditor;

static int start_auditor(void)
{
    /* the auditor's condition variables wait on CLOCK_MONOTONIC */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_destroy(&g_pub.kick_cv);
    pthread_cond_destroy(&g_pub.done_cv);
    pthread_cond_init(&g_pub.kick_cv, &ca);
    pthread_cond_init(&g_pub.done_cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&g_auditor, NULL, auditor, NULL) != 0) {
        fprintf(stderr, "rl-worker: cannot start the auditor thread\n");
        return -1;
    }
    return 0;
}

static void stop_auditor(void)
{
    pthread_mutex_lock(&g_pub.mu);
    g_pub.stop = 1;
    pthread_cond_broadcast(&g_pub.kick_cv);
    pthread_mutex_unlock(&g_pub.mu);
    pthread_join(g_auditor, NULL);
    audit_stats_line();
}

/* --async: the worker's own event base, with precise timers */
static int new_event_base(void)
{
    struct event_config *cfg = event_config_new();
    if (cfg) {
        event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
        g_base = event_base_new_with_config(cfg);
        event_config_free(cfg);
    }
    if (!g_base)
        g_base = event_base_new();
    if (!g_base) {
        fprintf(stderr, "rl-worker: no event base\n");
        return -1;
    }
    return 0;
}

/* the client and its locks, the log's W and K lines; 0 or -1 */
static int new_client(const char *const *nodes, size_t nnodes)
{
    redlock_options o;
    client_options(&o);
    o.node_cb = on_node;
    char err[256] = "";
    if (redlock_client_new(&g_client, g_base, nodes, nnodes, &o, err, sizeof err) != 0) {
        fprintf(stderr, "rl-worker: redlock_client_new: %s\n", err);
        return -1;
    }
    g_nnodes = nnodes;
    logline("W %lld %ld %zu %lld %s %lld", (long long)g_opt.id, (long)getpid(), nnodes,
            (long long)g_opt.ttl, g_opt.async ? "async" : "blocking", (long long)g_opt.max_pending);
    /* best effort: start with every master connected, but run anyway */
    if (!g_opt.async)
        redlock_client_wait_connected(g_client, nnodes, 2000);
    if (g_kind == KIND_SEMAPHORE)
        logline("K %s %lld", kind_names[g_kind], (long long)g_permits);
    else if (g_kind)
        logline("K %s", kind_names[g_kind]);
    for (int64_t r = 0; r < g_opt.nres; r++)
        snprintf(names[r], sizeof names[r], "%s%lld", g_opt.prefix, (long long)r);
    return make_locks();
}

/* 0, or the exit status */
static int start_worker(const char *const *nodes, size_t nnodes)
{
    g_log = open(g_opt.logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (g_log < 0) {
        fprintf(stderr, "rl-worker: %s: %s\n", g_opt.logpath, strerror(errno));
        return 2;
    }
    install_signals();
    g_rng = rnd_seed(g_opt.id);
    if ((g_audit_on && start_auditor() != 0) || (g_opt.async && new_event_base() != 0))
        return 1;
    return new_client(nodes, nnodes) != 0 ? 1 : 0;
}

/* the log's E line and the summary on stderr */
static void report(void)
{
    logline("E %lld %lld %lld", (long long)now_us(), acquisitions, failures);
    fprintf(stderr, "rl-worker %lld: %lld acquisitions, %lld failures", (long long)g_opt.id,
            acquisitions, failures);
    for (int k = 1; k < 16; k++)
        if (fail_by[k])
            fprintf(stderr, " %s=%lld", code_name(-k), fail_by[k]);
    if (g_opt.async)
        fprintf(stderr, " loop-blocks=%lld", blocks);
    fprintf(stderr, "; audit: %lld checks, %lld judged, %lld violations\n", a_checks, a_judged,
            a_viol);
}

static void free_all(void)
{
    for (int64_t r = 0; r < g_opt.nres; r++) {
        redlock_lock_free(locks[r]);
        redlock_lock_free(rlocks[r]);
        for (int i = 0; i < MAX_EMUL; i++)
            redlock_lock_free(elocks[r][i]);
    }
    for (size_t i = 0; i < n_mh; i++)
        redlock_lock_free(g_multi[i].l);
    redlock_client_free(g_client);
    if (g_base)
        event_base_free(g_base);
    for (size_t i = 0; i < n_am; i++)
        if (g_audit_masters[i].c)
            redisFree(g_audit_masters[i].c);
    close(g_log);
}

int main(int argc, char **argv)
{
    const char *nodes[MAX_NODES];
    size_t nnodes;
    int rc = parse_args(argc, argv);
    if (rc >= 0)
        return rc;
    if ((rc = check_opts()) != 0 || (rc = split_masters(nodes, &nnodes)) != 0)
        return rc;
    if (g_opt.clients)
        return run_clients(nodes, nnodes);
    if ((rc = start_worker(nodes, nnodes)) != 0)
        return rc;
    if (g_opt.async)
        run_async();
    else
        run_blocking();
    if (g_audit_on)
        stop_auditor();
    report();
    free_all();
    return 0;
}
