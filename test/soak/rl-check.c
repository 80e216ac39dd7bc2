/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-check -- the failover suite's checker (see docs/safety.md and
 * docs/failover.md).
 *
 *   rl-check [--faults FILE] [--nodes N] LOG...   check worker logs
 *   rl-check --schedule SEED ROUNDS MASTERS NODE_TIMEOUT_MS TTL_MS [KIND...]
 *                                                 print a random fault schedule
 *   rl-check --now                                print CLOCK_BOOTTIME in us
 *   rl-check --free-port                          print a free 127.0.0.1 port
 *   rl-check --ping PORT                          exit 0 when 127.0.0.1:PORT
 *                                                 answers PING with +PONG
 *
 * Reads the logs written by rl-worker (format in rl-worker.c) and verifies
 * mutual exclusion: for every resource, no two holding intervals overlap.
 * A holding interval is [after_us, min(valid_until_us, release_start_us)]:
 * from the moment the acquire call returned to the moment the client had to
 * stop acting as the holder (its validity ran out, or it began releasing).
 * Extends (T lines) split it into segments: [after, min(valid_until,
 * extend start)], [extend end, min(valid_until after the extend, next
 * start)], ...: during an extend call the client does not act, after it the
 * validity it then reads bounds what it may do.
 *
 * Lock kinds (rl-worker --kind; a K line names the kind, A lines carry
 * owner and mode): two holds of a resource may overlap only when both are
 * reads (rw), or both are held by the same re-entrant owner (workers
 * logging the same owner are one owner); those overlaps are counted
 * (reader_overlaps, owner_overlaps: a run where readers never met proves
 * little).  A multi lock's res is its resources joined by '+': each of its
 * holding segments counts on every one of them.  A re-entrant worker's
 * nested acquires (H lines) and releases that kept the lock (D lines)
 * split its interval like extends.  Fencing tokens: a re-entrant hold's
 * token must be above every token of another owner before it (the holds
 * of one owner overlap: their tokens may come in any order).

 * The validity auditor's findings (V lines, rl-worker.c) are violations too:
 * any one fails the check.  Its counters (the last U line of each log) are
 * summed and printed; those of the checks made while an extend was in
 * flight (async workers: the validity published at the extend's start, I
 * lines) are also reported apart.  An I line whose validity ends more than
 * the extend's ttl after it was read (the library kept the old, longer
 * validity for a shorter extend in flight) is counted in
 * extends_inflight_above_ttl (reported, not failed: the auditor judges
 * whether a quorum still covered it).
 *
 * The "naive" interval [after_us, release_start_us] is what a client that
 * never looks at its validity would believe (e.g. a process resumed from a
 * long pause); overlaps of naive intervals are reported, not failed: they
 * are the Kleppmann pause case, which only fencing tokens can close.
 *
 * The faults file (written by the failover scripts) has one line per
 * injected fault:   X start_us end_us back_us kind free text...
 * (the fault lasted start..end; back_us is when every affected server
 * answered again, after its restart).
 *
 * A line "Y setresets=N hostile_conns=N" in the faults file (the rlproxy's
 * counters at the end of the run) is reported as is.
 *
 * Output: a readable report, then one line
 *   RESULT acquisitions=N failures=N faults=N overlaps=N naive_overlaps=N
 *          before=N during=N between=N after=N held_pct=P pauses=N
 *          pauses_expired=N outage_acquisitions=N audit_checks=N
 *          audit_judged=N audit_violations=N audit_min_slack_us=N
 *          audit_max_rtt_us=N audit_unknown=N extends=N extends_failed=N
 *          extends_shorter=N extends_in_slow=N extends_failed_in_slow=N
 *          loop_blocks=N loop_blocks_inflight=N efull=N async_workers=N
 *          small_pending_workers=N proxy_setresets=N proxy_hostile_conns=N
 *          audit_inflight_checks=N audit_inflight_violations=N
 *          audit_inflight_min_slack_us=N extends_inflight=N
 *          extends_inflight_above_ttl=N
 *          nested_holds=N partial_releases=N reads=N writes=N
 *          reader_overlaps=N owner_overlaps=N multi_acquisitions=N kind=K
 *          logs=N holders=N (workers, or rl-worker --clients clients, that
 *          acquired at least once)
 *          fault_KIND=N (one per fault kind injected)
 * (audit_inflight_*: the judged checks made while an extend was in flight,
 * their violations and smallest slack, part of audit_judged,
 * audit_violations and audit_min_slack_us; -1 for no slack seen.)
 * (outage_acquisitions: acquisitions made entirely inside a quorum outage;
 * always 0 unless something is badly wrong.)
 * Exit status: 0 when there is no overlap and no auditor violation, 1 on
 * either, 2 on bad input.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define NCODES 16

static const char *const codes[NCODES] = {"OK", "EINVAL", "ENOQUORUM", "ETIMEDOUT",
                                          "ECANCELED", "ENOTOWNER", "ENOMEM", "ECONNECT",
                                          "EBUSY", "ESERVER", "ECLOSED", "ESYSTEM",
                                          "EFULL", "EUNKNOWN", "EUNCOUNTED", ""};

static int code_index(const char *s)
{
    for (int i = 0; i < 15; i++)
        if (!strcmp(codes[i], s))
            return i;
    return 13;
}

typedef struct acq {
    char res[64];
    char value[72];
    int worker;
    int64_t before, after, valid_until, release;   /* release 0: none logged */
    int nodes_ok;
    int paused;           /* stopped itself while holding this one */
    int64_t left_ms;      /* validity left at resume */
    int64_t stopped_ms;
    int64_t seg_start, seg_until;   /* the open holding segment */
    long long token;      /* fencing token, 0: none */
    char owner[32];       /* reentrant: the owner ("" or "-": the handle alone) */
    char mode;            /* 'x' exclusive, 'r' reader, 'w' writer */
} acq;

typedef struct ext {
    int64_t start, end;
    int failed, shorter;
} ext;

typedef struct fail {
    int worker;
    int64_t before, after;
    int code;
} fail;

typedef struct fault {
    int64_t start, end, back;
    char kind[32];
    char text[200];
} fault;

typedef struct ival {
    int64_t start, end;
    size_t acq;
    const char *res;
} ival;

static acq *A;
static long long lost_notices;     /* L lines (--watchdog workers) */
static long long watchdog_moves;   /* T lines of no duration (--watchdog workers) */
static size_t nA, capA;
static fail *F;
static size_t nF, capF;
static fault *X;
static size_t nX, capX;
static long long node_up, node_down;
static int64_t *ups;          /* times of "node up" events */
static size_t nups, capups;
static int max_nodes;
static ival *S;               /* holding segments */
static size_t nS, capS;
static ext *T;                /* extends */
static size_t nT, capT;
static long long viol_lines, async_workers, small_pending;
static long long u_checks, u_judged, u_skipped, u_viol, u_unknown, u_ijudged, u_iviol;
static int64_t u_min_slack = INT64_MAX, u_max_rtt, u_imin_slack = INT64_MAX;
static long long iviol_lines, ext_inflight, ext_inflight_above;
static char first_iviol[3][1100];
static long long loop_blocks, loop_blocks_inflight;
static long long y_setresets = -1, y_hostile = -1;
static char first_viol[3][1100];
static char kinds_seen[64];        /* K lines: the lock kinds of the run */
static long long nested_holds, partial_releases, reads, writes, multi_acqs;
static long long reader_overlaps, owner_overlaps;   /* allowed overlaps seen */
static char **respool;             /* the resource names of multi locks' intervals */
static size_t nrespool, caprespool;

static void *grow(void *p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 256;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * sz);
    if (!q) {
        fprintf(stderr, "rl-check: out of memory\n");
        exit(2);
    }
    *cap = c;
    return q;
}

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = 0;
    socklen_t len = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
        close(fd);
        return -1;
    }
    close(fd);
    return ntohs(sa.sin_port);
}

/* PING a Redis on 127.0.0.1:port with a 500 ms deadline: 0 on +PONG (a
 * server still loading its data answers -LOADING: not ready yet). */
static int ping(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct timeval tv = {0, 500000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons((uint16_t)port);
    char buf[64];
    ssize_t n = -1;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        write(fd, "PING\r\n", 6) == 6)
        n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n < 5)
        return -1;
    return memcmp(buf, "+PONG", 5) == 0 ? 0 : -1;
}

/* close the open holding segment of acquisition i at time t */
static void seg_close(size_t i, int64_t t)
{
    if (!A[i].seg_start)
        return;
    int64_t end = A[i].seg_until < t ? A[i].seg_until : t;
    if (end > A[i].seg_start) {
        S = grow(S, &capS, nS + 1, sizeof *S);
        S[nS++] = (ival){A[i].seg_start, end, i, NULL};
    }
    A[i].seg_start = 0;
}

static int read_log(const char *path, int file_index)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "rl-check: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int worker = file_index;
    long lineno = 0;
    size_t last = (size_t)-1;   /* this worker's last acquisition */
    long long uc[7] = {0};
    int64_t us_slack = INT64_MAX, us_rtt = 0, us_islack = INT64_MAX;
    int64_t i_start = 0, i_t = 0, i_vu = 0;   /* the extend in flight (I line) */
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char res[64], val[72], word[32], mode[16];
        long long a, b, c, d, e, g, h, tok;
        int n, sh;
        switch (line[0]) {
        case 'W':
            if (sscanf(line, "W %lld %lld %d", &a, &b, &n) == 3) {
                worker = (int)a;
                if (n > max_nodes)
                    max_nodes = n;
            }
            if (sscanf(line, "W %*d %*d %*d %*d %15s %lld", mode, &c) == 2) {
                async_workers += !strcmp(mode, "async");
                small_pending += c > 0 && c <= 8;
            }
            break;
        case 'T':
            if (sscanf(line, "T %63s %71s %lld %lld %31s %lld %d %lld %d", res, val, &a, &b, word,
                       &c, &n, &d, &sh) != 9)
                goto bad;
            if (last == (size_t)-1 || strcmp(A[last].value, val) || strcmp(A[last].res, res)) {
                fprintf(stderr, "rl-check: %s:%ld: extend of a lock not acquired last\n", path,
                        lineno);
                fclose(f);
                return -1;
            }
            watchdog_moves += a == b;   /* --watchdog: the validity the watchdog moved */
            seg_close(last, a);
            A[last].seg_start = b;
            A[last].seg_until = c;
            T = grow(T, &capT, nT + 1, sizeof *T);
            T[nT].start = a;
            T[nT].end = b;
            T[nT].failed = strcmp(word, "OK") != 0;
            T[nT].shorter = sh;
            nT++;
            if (i_start && i_start == a) {
                ext_inflight++;
                ext_inflight_above += i_vu > i_t + d * 1000;
            }
            i_start = 0;
            break;
        case 'K':
            if (sscanf(line, "K %31s", word) != 1)
                goto bad;
            if (!strstr(kinds_seen, word) && strlen(kinds_seen) + strlen(word) + 2 < sizeof kinds_seen)
                snprintf(kinds_seen + strlen(kinds_seen), sizeof kinds_seen - strlen(kinds_seen),
                         "%s%s", kinds_seen[0] ? "," : "", word);
            break;
        case 'H':   /* reentrant: a nested acquire, like an extend */
        case 'D':   /* reentrant: a release that kept the lock */
            if (sscanf(line, "%*c %63s %71s %lld %lld %31s %lld %lld", res, val, &a, &b, word,
                       &c, &d) != 7)
                goto bad;
            if (last == (size_t)-1 || strcmp(A[last].value, val) || strcmp(A[last].res, res)) {
                fprintf(stderr, "rl-check: %s:%ld: hold change of a lock not acquired last\n",
                        path, lineno);
                fclose(f);
                return -1;
            }
            nested_holds += line[0] == 'H' && !strcmp(word, "OK");
            partial_releases += line[0] == 'D';
            seg_close(last, a);
            A[last].seg_start = b;
            A[last].seg_until = c;
            break;
        case 'I':
            if (sscanf(line, "I %63s %71s %lld %lld %lld", res, val, &a, &b, &c) != 5)
                goto bad;
            i_start = a;
            i_t = b;
            i_vu = c;
            break;
        case 'V': {
            size_t len = strcspn(line, "\r\n");
            int in_extend = len >= 7 && !memcmp(line + len - 7, " extend", 7);
            if (viol_lines < 3)
                snprintf(first_viol[viol_lines], sizeof first_viol[0], "worker %d: %s", worker,
                         line);
            viol_lines++;
            if (in_extend && iviol_lines < 3)
                snprintf(first_iviol[iviol_lines], sizeof first_iviol[0], "worker %d: %s",
                         worker, line);
            iviol_lines += in_extend;
            break;
        }
        case 'U': {
            long long ij = 0, iv = 0, is = INT64_MAX;
            int nu = sscanf(line, "U %*d %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", &a,
                            &b, &c, &d, &e, &g, &h, &ij, &iv, &is);
            if (nu != 7 && nu != 10)
                goto bad;
            uc[5] = ij;
            uc[6] = iv;
            us_islack = is;
            uc[0] = a;
            uc[1] = b;
            uc[2] = c;
            uc[3] = d;
            uc[4] = h;
            us_slack = e;
            us_rtt = g;
            break;
        }
        case 'B':
            if (sscanf(line, "B %lld %lld %lld %31s", &a, &b, &c, word) != 4)
                goto bad;
            loop_blocks++;
            loop_blocks_inflight += strcmp(word, "none") != 0;
            break;
        case 'A':
            tok = 0;    /* (workers without --fencing log no token) */
            char owner[32] = "", md = 'x';
            int na = sscanf(line, "A %63s %71s %lld %lld %lld %d %lld %31s %c", res, val, &a,
                            &b, &c, &n, &tok, owner, &md);
            if (na < 6 || na == 8 || (na == 9 && md != 'x' && md != 'r' && md != 'w'))
                goto bad;
            A = grow(A, &capA, nA + 1, sizeof *A);
            memset(&A[nA], 0, sizeof A[nA]);
            snprintf(A[nA].res, sizeof A[nA].res, "%s", res);
            snprintf(A[nA].value, sizeof A[nA].value, "%s", val);
            A[nA].worker = worker;
            A[nA].before = a;
            A[nA].after = b;
            A[nA].valid_until = c;
            A[nA].nodes_ok = n;
            A[nA].token = tok;
            snprintf(A[nA].owner, sizeof A[nA].owner, "%s", strcmp(owner, "-") ? owner : "");
            A[nA].mode = md;
            reads += md == 'r';
            writes += md == 'w';
            multi_acqs += strchr(res, '+') != NULL;
            A[nA].seg_start = b;
            A[nA].seg_until = c;
            if (last != (size_t)-1)
                seg_close(last, INT64_MAX);   /* never released (killed?) */
            last = nA++;
            break;
        case 'L':   /* the library's lost-lock notice: the holder stops here */
            if (sscanf(line, "L %63s %71s %lld %d", res, val, &a, &n) != 4)
                goto bad;
            lost_notices++;
            if (last != (size_t)-1 && !strcmp(A[last].value, val))
                seg_close(last, a);
            break;
        case 'R':
            if (sscanf(line, "R %63s %71s %lld %lld", res, val, &a, &b) != 4)
                goto bad;
            if (last == (size_t)-1 || strcmp(A[last].value, val) || strcmp(A[last].res, res)) {
                fprintf(stderr, "rl-check: %s:%ld: release of a lock not acquired last\n",
                        path, lineno);
                fclose(f);
                return -1;
            }
            A[last].release = a;
            seg_close(last, a);
            break;
        case 'P':
            if (sscanf(line, "P %63s %71s %lld %lld %lld", res, val, &a, &b, &c) != 5)
                goto bad;
            if (last != (size_t)-1 && !strcmp(A[last].value, val)) {
                A[last].paused = 1;
                A[last].left_ms = b;
                A[last].stopped_ms = c;
            }
            break;
        case 'F':
            if (sscanf(line, "F %63s %lld %lld %31s", res, &a, &b, word) != 4)
                goto bad;
            F = grow(F, &capF, nF + 1, sizeof *F);
            F[nF].worker = worker;
            F[nF].before = a;
            F[nF].after = b;
            F[nF].code = code_index(word);
            nF++;
            break;
        case 'N':
            if (sscanf(line, "N %lld %lld %31s", &a, &b, word) != 3)
                goto bad;
            if (!strcmp(word, "up")) {
                node_up++;
                ups = grow(ups, &capups, nups + 1, sizeof *ups);
                ups[nups++] = a;
            }
            else
                node_down++;
            break;
        case 'S':
        case 'E':
        case '\n':
            break;
        default:
            goto bad;
        }
        continue;
bad:
        fprintf(stderr, "rl-check: %s:%ld: cannot parse: %s", path, lineno, line);
        fclose(f);
        return -1;
    }
    fclose(f);
    if (last != (size_t)-1)
        seg_close(last, INT64_MAX);
    u_checks += uc[0];
    u_judged += uc[1];
    u_skipped += uc[2];
    u_viol += uc[3];
    u_unknown += uc[4];
    u_ijudged += uc[5];
    u_iviol += uc[6];
    if (us_slack < u_min_slack)
        u_min_slack = us_slack;
    if (us_islack < u_imin_slack)
        u_imin_slack = us_islack;
    if (us_rtt > u_max_rtt)
        u_max_rtt = us_rtt;
    return 0;
}

static int read_faults(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;   /* no fault injected */
        fprintf(stderr, "rl-check: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        long long a, b, c;
        char kind[32];
        int off = 0;
        if (line[0] == 'Y') {
            sscanf(line, "Y setresets=%lld hostile_conns=%lld", &y_setresets, &y_hostile);
            continue;
        }
        if (line[0] != 'X')
            continue;
        if (sscanf(line, "X %lld %lld %lld %31s %n", &a, &b, &c, kind, &off) < 4)
            continue;
        X = grow(X, &capX, nX + 1, sizeof *X);
        X[nX].start = a;
        X[nX].end = b;
        X[nX].back = c;
        snprintf(X[nX].kind, sizeof X[nX].kind, "%s", kind);
        snprintf(X[nX].text, sizeof X[nX].text, "%s", off ? line + off : "");
        size_t l = strlen(X[nX].text);
        while (l && (X[nX].text[l - 1] == '\n' || X[nX].text[l - 1] == ' '))
            X[nX].text[--l] = '\0';
        nX++;
    }
    fclose(f);
    return 0;
}

static int ival_cmp(const void *pa, const void *pb)
{
    const ival *a = pa, *b = pb;
    int c = strcmp(a->res, b->res);
    if (c)
        return c;
    return (a->start > b->start) - (a->start < b->start);
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* May two holds of one resource overlap?  Readers share it, and so do the
 * holds of one re-entrant owner (several workers may be that owner); the
 * segments of one acquisition never overlap.  *why: 1 readers, 2 owner. */
static int compatible(size_t a, size_t b, int *why)
{
    const acq *x = &A[a], *y = &A[b];
    *why = 0;
    if (a == b)
        return 1;
    if (x->mode == 'r' && y->mode == 'r')
        return *why = 1;
    if (x->owner[0] && !strcmp(x->owner, y->owner))
        return *why = 2;
    return 0;
}

/* Count the intervals that overlap an earlier one of the same resource
 * (sorted by start) they may not share it with; print the first few when
 * `print`.  The allowed ones are counted into shared[0] (readers) and
 * shared[1] (one owner) when shared is not NULL. */
static long long overlaps(ival *v, size_t n, int print, const char *what, long long *shared)
{
    long long count = 0;
    qsort(v, n, sizeof *v, ival_cmp);
    size_t *act = malloc((n ? n : 1) * sizeof *act);   /* holds still open */
    if (!act) {
        fprintf(stderr, "rl-check: out of memory\n");
        exit(2);
    }
    size_t i = 0;
    while (i < n) {
        size_t j, nact = 0;
        for (j = i; j < n && !strcmp(v[j].res, v[i].res); j++) {
            size_t k = 0, bad = (size_t)-1;
            int readers = 0, owner = 0, why;
            for (size_t m = 0; m < nact; m++) {
                if (v[act[m]].end <= v[j].start)
                    continue;   /* ended: dropped */
                act[k++] = act[m];
                if (!compatible(v[act[m]].acq, v[j].acq, &why)) {
                    if (bad == (size_t)-1)
                        bad = act[m];
                } else {
                    readers |= why == 1;
                    owner |= why == 2;
                }
            }
            nact = k;
            act[nact++] = j;
            if (bad == (size_t)-1) {
                if (shared) {
                    shared[0] += readers;
                    shared[1] += owner;
                }
                continue;
            }
            count++;
            if (print && count <= 3) {
                const acq *x = &A[v[bad].acq], *y = &A[v[j].acq];
                printf("  %s OVERLAP on %s: worker %d value %s%s%s [%lld, %lld] and worker %d "
                       "value %s%s%s [%lld, %lld]: %.3f ms together\n",
                       what, v[i].res, x->worker, x->value, x->mode == 'x' ? "" : " mode ",
                       x->mode == 'x' ? "" : (x->mode == 'r' ? "read" : "write"),
                       (long long)v[bad].start, (long long)v[bad].end, y->worker, y->value,
                       y->mode == 'x' ? "" : " mode ",
                       y->mode == 'x' ? "" : (y->mode == 'r' ? "read" : "write"),
                       (long long)v[j].start, (long long)v[j].end,
                       (double)(min64(v[bad].end, v[j].end) - v[j].start) / 1000.0);
            }
        }
        i = j;
    }
    free(act);
    return count;
}

/* Fencing: per resource, in the order the acquires returned (the holding
 * order, as long as holds do not overlap), every token must be larger than
 * the one before.  Acquisitions without a token are skipped. */
static int acq_after_cmp(const void *pa, const void *pb)
{
    const acq *a = &A[*(const size_t *)pa], *b = &A[*(const size_t *)pb];
    int c = strcmp(a->res, b->res);
    if (c)
        return c;
    return (a->after > b->after) - (a->after < b->after);
}

static int int_cmp(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

/* How many workers (clients) acquired at least once. */
static size_t distinct_holders(void)
{
    int *w = malloc((nA ? nA : 1) * sizeof *w);
    size_t n = 0;
    if (!w) {
        fprintf(stderr, "rl-check: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < nA; i++)
        w[i] = A[i].worker;
    qsort(w, nA, sizeof *w, int_cmp);
    for (size_t i = 0; i < nA; i++)
        n += i == 0 || w[i] != w[i - 1];
    free(w);
    return n;
}

static long long token_violations(size_t *checked)
{
    size_t *idx = malloc((nA ? nA : 1) * sizeof *idx), n = 0;
    long long bad = 0;
    if (!idx) {
        fprintf(stderr, "rl-check: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < nA; i++)
        if (A[i].token > 0)
            idx[n++] = i;
    qsort(idx, n, sizeof *idx, acq_after_cmp);
    for (size_t k = 1; k < n; k++) {
        const acq *p = &A[idx[k - 1]], *q = &A[idx[k]];
        if (q->owner[0]) {
            /* re-entrant: the holds of one owner overlap, and their
             * acquires may return in any order; a hold must only come
             * after every other owner's token on the resource */
            p = NULL;
            for (size_t m = k; m-- > 0 && !strcmp(A[idx[m]].res, q->res);)
                if (strcmp(A[idx[m]].owner, q->owner) && (!p || A[idx[m]].token > p->token))
                    p = &A[idx[m]];
            if (!p)
                continue;
        }
        if (strcmp(p->res, q->res) || q->token > p->token)
            continue;
        if (++bad <= 3)
            printf("  TOKEN VIOLATION on %s: worker %d token %lld at %lld, then worker %d "
                   "token %lld at %lld\n", q->res, p->worker, p->token, (long long)p->after,
                   q->worker, q->token, (long long)q->after);
    }
    *checked = n;
    free(idx);
    return bad;
}

/* ---- the random fault schedule ---------------------------------------- */

static uint64_t sched_rng;

static uint64_t srnd(void)
{
    /* splitmix64: the same seed gives the same schedule everywhere */
    uint64_t z = (sched_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static long srange(long lo, long hi)
{
    return hi <= lo ? lo : lo + (long)(srnd() % (uint64_t)(hi - lo + 1));
}

static const char *const all_kinds[] = {
    "slow-minority", "slow-majority", "loop-block", "setreset", "hostile-line",
    "hostile-error", "hostile-garbage", "kill", "pause", "outage", "gcpause"};
#define NKINDS (sizeof all_kinds / sizeof all_kinds[0])

/* "i,j,k": a random subset of `count` of the n masters */
static void subset(int n, int count, char *out, size_t len)
{
    int idx[64];
    for (int i = 0; i < n; i++)
        idx[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)srange(0, i), t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    size_t off = 0;
    out[0] = '\0';
    for (int i = 0; i < count && off < len; i++)
        off += (size_t)snprintf(out + off, len - off, "%s%d", i ? "," : "", idx[i]);
}

/* One line per fault:  KIND GAP_MS DURATION_MS MASTERS P1 P2 P3
 * (MASTERS: comma list or "-"; P1..P3 per kind, "-" when unused):
 *   slow-minority / slow-majority: P1 up|down|both, P2 delay ms, P3 jitter ms
 *   loop-block: P1 block ms, P2 how many blocks during the fault
 *   setreset: P1 resets per master;  hostile-*: none;  kill / outage: none
 *   (duration = time down);  pause: SIGSTOP of the master;  gcpause: none. */
static int schedule(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: rl-check --schedule SEED ROUNDS MASTERS NODE_TIMEOUT_MS TTL_MS "
                        "[KIND...]\n");
        return 2;
    }
    sched_rng = strtoull(argv[2], NULL, 10);
    long rounds = atol(argv[3]), n = atol(argv[4]), nt = atol(argv[5]), ttl = atol(argv[6]);
    if (rounds < 1 || n < 3 || n > 64 || nt < 1 || ttl < 1)
        return 2;
    const char *kinds[64];
    size_t nk = 0;
    for (int i = 7; i < argc && nk < 64; i++) {
        size_t j;
        for (j = 0; j < NKINDS && strcmp(all_kinds[j], argv[i]); j++)
            ;
        if (j == NKINDS) {
            fprintf(stderr, "rl-check: unknown fault kind %s\n", argv[i]);
            return 2;
        }
        kinds[nk++] = all_kinds[j];
    }
    if (!nk)
        for (size_t j = 0; j < NKINDS; j++)
            kinds[nk++] = all_kinds[j];
    int minority = (int)(n - 1) / 2, quorum = (int)n / 2 + 1;
    long down = ttl > 600 ? ttl : 600;
    for (long r = 0; r < rounds; r++) {
        const char *order[64];
        memcpy(order, kinds, nk * sizeof kinds[0]);
        for (size_t i = nk - 1; i > 0; i--) {
            size_t j = (size_t)srange(0, (long)i);
            const char *t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (size_t i = 0; i < nk; i++) {
            const char *k = order[i];
            char m[256] = "-", p1[32] = "-", p2[32] = "-", p3[32] = "-";
            long gap = srange(200, 600), dur = srange(800, 1500);
            if (!strncmp(k, "slow-", 5)) {
                static const char *const dirs[] = {"up", "down", "both"};
                int cnt = !strcmp(k, "slow-minority") ? (int)srange(1, minority) : quorum;
                subset((int)n, cnt, m, sizeof m);
                long delay = srange(nt / 2, 2 * nt);
                snprintf(p1, sizeof p1, "%s", dirs[srange(0, 2)]);
                snprintf(p2, sizeof p2, "%ld", delay);
                snprintf(p3, sizeof p3, "%ld", srange(0, delay / 4));
            } else if (!strcmp(k, "loop-block")) {
                dur = 1000;
                snprintf(p1, sizeof p1, "%ld", srange(nt + 20, 3 * nt));
                snprintf(p2, sizeof p2, "%ld", srange(2, 4));
            } else if (!strcmp(k, "setreset")) {
                dur = 1000;
                subset((int)n, (int)srange(1, quorum), m, sizeof m);
                snprintf(p1, sizeof p1, "%ld", srange(1, 3));
            } else if (!strncmp(k, "hostile-", 8)) {
                dur = srange(600, 1200);
                subset((int)n, 1, m, sizeof m);
            } else if (!strcmp(k, "kill") || !strcmp(k, "outage")) {
                dur = down + srange(0, 400);
                subset((int)n, !strcmp(k, "kill") ? minority : quorum, m, sizeof m);
            } else if (!strcmp(k, "pause")) {
                dur = srange(500, 1000);
                subset((int)n, 1, m, sizeof m);
            } else {   /* gcpause */
                dur = 2 * ttl + 200;
            }
            printf("%s %ld %ld %s %s %s %s\n", k, gap, dur, m, p1, p2, p3);
        }
    }
    return 0;
}

/* One interval per resource of its acquisition (a multi lock's are joined
 * by '+' in its res); appended to *v.  Returns the new count. */
static size_t expand(ival **v, size_t *cap, size_t n, ival x)
{
    const char *res = A[x.acq].res;
    while (*res) {
        size_t len = strcspn(res, "+");
        char *name = NULL;
        for (size_t k = 0; k < nrespool && !name; k++)
            if (strlen(respool[k]) == len && !memcmp(respool[k], res, len))
                name = respool[k];
        if (!name) {
            respool = grow(respool, &caprespool, nrespool + 1, sizeof *respool);
            name = respool[nrespool++] = strndup(res, len);
            if (!name)
                exit(2);
        }
        *v = grow(*v, cap, n + 1, sizeof **v);
        x.res = name;
        (*v)[n++] = x;
        res += len + (res[len] == '+');
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *faults = NULL;
    int nlogs = 0;

    if (argc >= 2 && !strcmp(argv[1], "--schedule"))
        return schedule(argc, argv);

    if (argc == 2 && !strcmp(argv[1], "--now")) {
        printf("%lld\n", (long long)now_us());
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "--free-port")) {
        int p = free_port();
        if (p < 0) {
            perror("rl-check: free port");
            return 2;
        }
        printf("%d\n", p);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--ping"))
        return ping(atoi(argv[2])) == 0 ? 0 : 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--faults") && i + 1 < argc) {
            faults = argv[++i];
        } else if (!strcmp(argv[i], "--nodes") && i + 1 < argc) {
            max_nodes = atoi(argv[++i]);
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: rl-check [--faults FILE] [--nodes N] LOG...\n"
                            "       rl-check --now | --free-port\n");
            return 2;
        } else {
            if (read_log(argv[i], nlogs) != 0)
                return 2;
            nlogs++;
        }
    }
    if (nlogs == 0) {
        fprintf(stderr, "rl-check: no log given\n");
        return 2;
    }
    if (faults && read_faults(faults) != 0)
        return 2;

    /* the observed span: first acquire attempt to last interval end */
    int64_t t0 = INT64_MAX, t1 = 0;
    for (size_t i = 0; i < nA; i++) {
        t0 = min64(t0, A[i].before);
        t1 = max64(t1, A[i].release ? A[i].release : A[i].valid_until);
    }
    for (size_t i = 0; i < nF; i++) {
        t0 = min64(t0, F[i].before);
        t1 = max64(t1, F[i].after);
    }

    size_t ns = 0, nn = 0;
    ival *naive = NULL, *safe = NULL;
    size_t capn = 0, caps = 0;
    for (size_t i = 0; i < nS; i++)
        ns = expand(&safe, &caps, ns, S[i]);
    for (size_t i = 0; i < nA; i++) {
        int64_t nend = A[i].release ? A[i].release : A[i].valid_until;
        if (nend > A[i].after)
            nn = expand(&naive, &capn, nn, (ival){A[i].after, nend, i, NULL});
    }

    size_t holders = distinct_holders();
    printf("rl-check: %d logs, %zu acquisitions by %zu workers, %zu failed acquires, %zu "
           "faults, span %.1f s\n",
           nlogs, nA, holders, nF, nX, nA + nF ? (double)(t1 - t0) / 1e6 : 0.0);
    long long shared[2] = {0, 0};
    long long ov = overlaps(safe, ns, 1, "validity", shared);
    long long nov = overlaps(naive, nn, 1, "naive", NULL);
    reader_overlaps = shared[0];
    owner_overlaps = shared[1];
    size_t ntok = 0;
    long long tbad = token_violations(&ntok);
    if (kinds_seen[0])
        printf("lock kinds: %s; %lld nested holds, %lld releases that kept the lock, %lld "
               "reads, %lld writes, %lld multi-resource acquisitions; allowed overlaps: %lld "
               "of readers, %lld of one re-entrant owner\n",
               kinds_seen, nested_holds, partial_releases, reads, writes, multi_acqs,
               reader_overlaps, owner_overlaps);
    if (ntok)
        printf("fencing tokens: %zu acquisitions with a token, %lld out of order\n", ntok,
               tbad);

    /* held share per resource: union of the (sorted) safe intervals */
    printf("held share (union of validity-bounded holding intervals / span):\n");
    double total_pct = 0;
    int nres = 0;
    for (size_t i = 0; i < ns;) {
        size_t j = i;
        int64_t held = 0, cs = safe[i].start, ce = safe[i].end;
        long long cnt = 0;
        for (; j < ns && !strcmp(safe[j].res, safe[i].res); j++) {
            cnt++;
            if (safe[j].start > ce) {
                held += ce - cs;
                cs = safe[j].start;
                ce = safe[j].end;
            } else if (safe[j].end > ce) {
                ce = safe[j].end;
            }
        }
        held += ce - cs;
        double pct = t1 > t0 ? 100.0 * (double)held / (double)(t1 - t0) : 0;
        printf("  %-20s %6lld acquisitions, held %5.1f%% of the time\n", safe[i].res, cnt, pct);
        total_pct += pct;
        nres++;
        i = j;
    }
    double held_pct = nres ? total_pct / nres : 0;

    long long fb[NCODES] = {0};
    for (size_t i = 0; i < nF; i++)
        fb[F[i].code]++;
    printf("failed acquires by reason:");
    for (int k = 0; k < NCODES; k++)
        if (fb[k])
            printf(" %s=%lld", codes[k], fb[k]);
    printf("%s\n", nF ? "" : " none");
    printf("node events seen by the clients: %lld down, %lld up\n", node_down, node_up);

    /* before / during / between / after the faults */
    long long before = 0, during = 0, between = 0, after = 0, outage_acq = 0;
    int64_t first = INT64_MAX, lastend = 0;
    for (size_t k = 0; k < nX; k++) {
        first = min64(first, X[k].start);
        lastend = max64(lastend, X[k].end);
    }
    for (size_t i = 0; i < nA; i++) {
        int64_t t = A[i].after;
        int in = 0;
        for (size_t k = 0; k < nX && !in; k++)
            in = t >= X[k].start && t <= X[k].end;
        if (in)
            during++;
        else if (t < first)
            before++;
        else if (t > lastend)
            after++;
        else
            between++;
    }
    if (nX) {
        printf("faults (at: seconds from the first acquire attempt; acquisitions: started\n"
               "and completed inside the fault; failures: overlapping it; times after the\n"
               "fault ended (restart began): servers answering, recovery = first\n"
               "acquisition, every client reconnected = last node-up event logged):\n");
        for (size_t k = 0; k < nX; k++) {
            long long acq_in = 0, f_in[NCODES] = {0}, f_tot = 0;
            for (size_t i = 0; i < nA; i++)
                acq_in += A[i].before >= X[k].start && A[i].after <= X[k].end;
            for (size_t i = 0; i < nF; i++)
                if (F[i].after >= X[k].start && F[i].before <= X[k].end) {
                    f_in[F[i].code]++;
                    f_tot++;
                }
            if (!strcmp(X[k].kind, "quorum-outage") || !strcmp(X[k].kind, "aof-kill-major"))
                outage_acq += acq_in;
            int64_t rec = -1, rec_all = -1;
            for (size_t i = 0; i < nA; i++) {
                if (A[i].after <= X[k].end)
                    continue;
                int64_t d = A[i].after - X[k].end;
                if (rec < 0 || d < rec)
                    rec = d;
            }
            /* reconnection: the last "node up" a client logged after the
             * fault ended, before the next fault (at most 5 s later) */
            int64_t limit = X[k].end + 5000000;
            for (size_t j = 0; j < nX; j++)
                if (X[j].start > X[k].end && X[j].start < limit)
                    limit = X[j].start;
            for (size_t i = 0; i < nups; i++)
                if (ups[i] > X[k].end && ups[i] < limit && ups[i] - X[k].end > rec_all)
                    rec_all = ups[i] - X[k].end;
            printf("  %-14s at %7.3f s for %6.0f ms: %lld acquisitions, %lld failures",
                   X[k].kind, (double)(X[k].start - t0) / 1e6,
                   (double)(X[k].end - X[k].start) / 1e3, acq_in, f_tot);
            for (int c = 0; c < NCODES; c++)
                if (f_in[c])
                    printf(" %s=%lld", codes[c], f_in[c]);
            if (X[k].back > X[k].end)
                printf("; servers answering %.0f ms after restart", (double)(X[k].back - X[k].end) / 1e3);
            if (rec >= 0)
                printf("; recovery %.1f ms", (double)rec / 1e3);
            if (rec_all >= 0)
                printf("; every client reconnected %.1f ms", (double)rec_all / 1e3);
            printf("\n      (%s)\n", X[k].text);
        }
    }
    long long pauses = 0, expired = 0;
    for (size_t i = 0; i < nA; i++) {
        if (!A[i].paused)
            continue;
        pauses++;
        expired += A[i].left_ms <= 0;
        printf("client pause: worker %d stopped %lld ms while holding %s (validity %lld ms at "
               "acquisition); on resume the library reported %lld ms left: %s\n",
               A[i].worker, (long long)A[i].stopped_ms, A[i].res,
               (long long)((A[i].valid_until - A[i].after) / 1000), (long long)A[i].left_ms,
               A[i].left_ms <= 0 ? "it knows its lock ran out" : "STILL BELIEVES IT HOLDS");
    }
    if (nov)
        printf("note: %lld overlap(s) of naive intervals: a client that ignored its validity "
               "after a pause would have acted together with the next holder (only fencing "
               "tokens close that)\n", nov);
    printf("acquisitions before/during/between/after faults: %lld/%lld/%lld/%lld\n", before,
           during, between, after);

    /* extends, by outcome and by whether a slow-master fault was on */
    long long ext_failed = 0, ext_shorter = 0, ext_slow = 0, ext_failed_slow = 0;
    for (size_t i = 0; i < nT; i++) {
        int slow = 0;
        for (size_t k = 0; k < nX && !slow; k++)
            slow = !strncmp(X[k].kind, "slow", 4) && T[i].end >= X[k].start &&
                   T[i].start <= X[k].end;
        ext_failed += T[i].failed;
        ext_shorter += T[i].shorter;
        ext_slow += slow;
        ext_failed_slow += slow && T[i].failed;
    }
    printf("extends: %zu (%lld failed, %lld with a ttl shorter than the validity left; "
           "%lld during slow-master faults, %lld of them failed)\n",
           nT, ext_failed, ext_shorter, ext_slow, ext_failed_slow);
    if (loop_blocks)
        printf("event loop blocks: %lld (%lld while an operation was in flight)\n", loop_blocks,
               loop_blocks_inflight);
    if (async_workers || small_pending)
        printf("workers: %lld async, %lld with a small max_pending (<= 8)\n", async_workers,
               small_pending);
    if (y_setresets >= 0)
        printf("rlproxy: %lld connections reset right after forwarding a SET, %lld given a "
               "hostile reply\n", y_setresets, y_hostile);

    /* fault kinds */
    char kinds[32][32];
    long long kcount[32];
    int nk = 0;
    for (size_t k = 0; k < nX; k++) {
        int j;
        for (j = 0; j < nk && strcmp(kinds[j], X[k].kind); j++)
            ;
        if (j == nk) {
            if (nk == 32)
                continue;
            snprintf(kinds[nk], sizeof kinds[nk], "%s", X[k].kind);
            kcount[nk++] = 0;
        }
        kcount[j]++;
    }
    if (nk) {
        printf("faults by kind:");
        for (int j = 0; j < nk; j++)
            printf(" %s=%lld", kinds[j], kcount[j]);
        printf("\n");
    }

    /* the validity auditor */
    long long viol = viol_lines > u_viol ? viol_lines : u_viol;
    printf("validity auditor: %lld checks, %lld judged (%lld skipped: an operation started or "
           "completed, or the validity ran out meanwhile), %lld master answers missing; smallest slack "
           "%.3f ms, slowest answer %.3f ms; %lld violation(s)\n",
           u_checks, u_judged, u_skipped, u_unknown,
           u_min_slack == INT64_MAX ? -1.0 : (double)u_min_slack / 1e3, (double)u_max_rtt / 1e3,
           viol);
    for (long long i = 0; i < viol_lines && i < 3; i++)
        printf("  AUDIT VIOLATION %s", first_viol[i]);
    long long iviol = iviol_lines > u_iviol ? iviol_lines : u_iviol;
    printf("  while an extend was in flight (async workers; %lld extends published at their "
           "start, %lld of them above start + ttl): %lld judged, smallest slack %.3f ms; %lld "
           "violation(s)\n",
           ext_inflight, ext_inflight_above, u_ijudged,
           u_imin_slack == INT64_MAX ? -1.0 : (double)u_imin_slack / 1e3, iviol);
    for (long long i = 0; i < iviol_lines && i < 3; i++) {
        int shown = 0;
        for (long long j = 0; j < viol_lines && j < 3; j++)
            shown |= !strcmp(first_viol[j], first_iviol[i]);
        if (!shown)
            printf("  AUDIT VIOLATION (extend in flight) %s", first_iviol[i]);
    }
    printf("%s: %lld overlap(s) of validity intervals, %lld auditor violation(s), %lld "
           "fencing token(s) out of order\n", ov || viol || tbad ? "FAIL" : "OK", ov, viol, tbad);
    printf("RESULT acquisitions=%zu failures=%zu faults=%zu overlaps=%lld naive_overlaps=%lld "
           "before=%lld during=%lld between=%lld after=%lld held_pct=%.1f pauses=%lld "
           "pauses_expired=%lld outage_acquisitions=%lld audit_checks=%lld audit_judged=%lld "
           "audit_violations=%lld audit_min_slack_us=%lld audit_max_rtt_us=%lld "
           "audit_unknown=%lld extends=%zu extends_failed=%lld extends_shorter=%lld "
           "extends_in_slow=%lld extends_failed_in_slow=%lld loop_blocks=%lld "
           "loop_blocks_inflight=%lld efull=%lld async_workers=%lld small_pending_workers=%lld "
           "proxy_setresets=%lld proxy_hostile_conns=%lld audit_inflight_checks=%lld "
           "audit_inflight_violations=%lld audit_inflight_min_slack_us=%lld "
           "extends_inflight=%lld extends_inflight_above_ttl=%lld tokens=%zu "
           "token_violations=%lld lost_notices=%lld watchdog_moves=%lld",
           nA, nF, nX, ov, nov, before, during, between, after, held_pct, pauses, expired,
           outage_acq, u_checks, u_judged, viol,
           (long long)(u_min_slack == INT64_MAX ? -1 : u_min_slack), (long long)u_max_rtt,
           u_unknown, nT, ext_failed, ext_shorter, ext_slow, ext_failed_slow, loop_blocks,
           loop_blocks_inflight, fb[12], async_workers, small_pending, y_setresets, y_hostile,
           u_ijudged, iviol, (long long)(u_imin_slack == INT64_MAX ? -1 : u_imin_slack),
           ext_inflight, ext_inflight_above, ntok, tbad, lost_notices, watchdog_moves);
    printf(" nested_holds=%lld partial_releases=%lld reads=%lld writes=%lld "
           "reader_overlaps=%lld owner_overlaps=%lld multi_acquisitions=%lld kind=%s "
           "logs=%d holders=%zu",
           nested_holds, partial_releases, reads, writes, reader_overlaps, owner_overlaps,
           multi_acqs, kinds_seen[0] ? kinds_seen : "mutex", nlogs, holders);
    for (int j = 0; j < nk; j++)
        printf(" fault_%s=%lld", kinds[j], kcount[j]);
    printf("\n");
    free(safe);
    free(naive);
    free(S);
    for (size_t k = 0; k < nrespool; k++)
        free(respool[k]);
    free(respool);
    free(A);
    free(F);
    free(X);
    free(ups);
    free(T);
    return ov || viol || tbad ? 1 : 0;
}
