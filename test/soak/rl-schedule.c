/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-schedule -- the failover suite's random fault schedule (see
 * docs/failover.md).
 *
 *   rl-schedule SEED ROUNDS MASTERS NODE_TIMEOUT_MS TTL_MS [KIND...]
 *
 * Prints ROUNDS rounds; each has one fault of every KIND (default: all),
 * in a random order.  The same arguments give the same schedule everywhere.
 * One line per fault:  KIND GAP_MS DURATION_MS MASTERS P1 P2 P3
 * (MASTERS: comma list or "-"; P1..P3 per kind, "-" when unused):
 *   slow-minority / slow-majority: P1 up|down|both, P2 delay ms, P3 jitter ms
 *   loop-block: P1 block ms, P2 how many blocks during the fault
 *   setreset: P1 resets per master;  hostile-*: none;  kill / outage: none
 *   (duration = time down);  pause: SIGSTOP of the master;  gcpause: none.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sched {
    uint64_t rng;
    long n, node_timeout, ttl;
    int minority, quorum;
} sched;

/* one fault's line, but for its kind and gap */
typedef struct fault_line {
    long dur;
    char m[256], p1[32], p2[32], p3[32];
} fault_line;

static uint64_t srnd(sched *s)
{
    /* splitmix64: the same seed gives the same schedule everywhere */
    uint64_t z = (s->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static long srange(sched *s, long lo, long hi)
{
    return hi <= lo ? lo : lo + (long)(srnd(s) % (uint64_t)(hi - lo + 1));
}

/* "i,j,k": a random subset of `count` of the masters */
static void subset(sched *s, int count, fault_line *f)
{
    int idx[64], n = (int)s->n;
    for (int i = 0; i < n; i++)
        idx[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)srange(s, 0, i), t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    size_t off = 0, len = sizeof f->m;
    f->m[0] = '\0';
    for (int i = 0; i < count && off < len; i++)
        off += (size_t)snprintf(f->m + off, len - off, "%s%d", i ? "," : "", idx[i]);
}

static void slow_params(sched *s, fault_line *f)
{
    static const char *const dirs[] = {"up", "down", "both"};
    long delay = srange(s, s->node_timeout / 2, 2 * s->node_timeout);
    snprintf(f->p1, sizeof f->p1, "%s", dirs[srange(s, 0, 2)]);
    snprintf(f->p2, sizeof f->p2, "%ld", delay);
    snprintf(f->p3, sizeof f->p3, "%ld", srange(s, 0, delay / 4));
}

static void slow_minority_fault(sched *s, fault_line *f)
{
    subset(s, (int)srange(s, 1, s->minority), f);
    slow_params(s, f);
}

static void slow_majority_fault(sched *s, fault_line *f)
{
    subset(s, s->quorum, f);
    slow_params(s, f);
}

static void loop_block(sched *s, fault_line *f)
{
    f->dur = 1000;
    snprintf(f->p1, sizeof f->p1, "%ld", srange(s, s->node_timeout + 20, 3 * s->node_timeout));
    snprintf(f->p2, sizeof f->p2, "%ld", srange(s, 2, 4));
}

static void setreset(sched *s, fault_line *f)
{
    f->dur = 1000;
    subset(s, (int)srange(s, 1, s->quorum), f);
    snprintf(f->p1, sizeof f->p1, "%ld", srange(s, 1, 3));
}

static void hostile(sched *s, fault_line *f)
{
    f->dur = srange(s, 600, 1200);
    subset(s, 1, f);
}

static long down_ms(const sched *s) { return s->ttl > 600 ? s->ttl : 600; }

static void kill_minority(sched *s, fault_line *f)
{
    f->dur = down_ms(s) + srange(s, 0, 400);
    subset(s, s->minority, f);
}

static void outage(sched *s, fault_line *f)
{
    f->dur = down_ms(s) + srange(s, 0, 400);
    subset(s, s->quorum, f);
}

static void pause_master(sched *s, fault_line *f)
{
    f->dur = srange(s, 500, 1000);
    subset(s, 1, f);
}

static void gcpause(sched *s, fault_line *f) { f->dur = 2 * s->ttl + 200; }

static const struct kind {
    const char *name;
    void (*draw)(sched *, fault_line *);
} all_kinds[] = {
    {"slow-minority", slow_minority_fault}, {"slow-majority", slow_majority_fault},
    {"loop-block", loop_block},             {"setreset", setreset},
    {"hostile-line", hostile},              {"hostile-error", hostile},
    {"hostile-garbage", hostile},           {"kill", kill_minority},
    {"pause", pause_master},                {"outage", outage},
    {"gcpause", gcpause}};
#define NKINDS (sizeof all_kinds / sizeof all_kinds[0])

static void print_fault(sched *s, const struct kind *k)
{
    fault_line f = {0, "-", "-", "-", "-"};
    long gap = srange(s, 200, 600);
    f.dur = srange(s, 800, 1500);
    k->draw(s, &f);
    printf("%s %ld %ld %s %s %s %s\n", k->name, gap, f.dur, f.m, f.p1, f.p2, f.p3);
}

static void print_round(sched *s, const struct kind *const *kinds, size_t nk)
{
    const struct kind *order[64];
    memcpy(order, kinds, nk * sizeof kinds[0]);
    for (size_t i = nk - 1; i > 0; i--) {
        size_t j = (size_t)srange(s, 0, (long)i);
        const struct kind *t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < nk; i++)
        print_fault(s, order[i]);
}

/* the KIND arguments (none: every kind); 0, or -1 on an unknown one */
static int parse_kinds(int argc, char **argv, const struct kind **kinds, size_t *nk)
{
    *nk = 0;
    for (int i = 0; i < argc && *nk < 64; i++) {
        size_t j;
        for (j = 0; j < NKINDS && strcmp(all_kinds[j].name, argv[i]); j++)
            ;
        if (j == NKINDS) {
            fprintf(stderr, "rl-schedule: unknown fault kind %s\n", argv[i]);
            return -1;
        }
        kinds[(*nk)++] = &all_kinds[j];
    }
    if (!*nk)
        for (size_t j = 0; j < NKINDS; j++)
            kinds[(*nk)++] = &all_kinds[j];
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: rl-schedule SEED ROUNDS MASTERS NODE_TIMEOUT_MS TTL_MS "
                        "[KIND...]\n");
        return 2;
    }
    sched s = {strtoull(argv[1], NULL, 10), atol(argv[3]), atol(argv[4]), atol(argv[5]), 0, 0};
    long rounds = atol(argv[2]);
    if (rounds < 1 || s.n < 3 || s.n > 64 || s.node_timeout < 1 || s.ttl < 1)
        return 2;
    s.minority = (int)(s.n - 1) / 2;
    s.quorum = (int)s.n / 2 + 1;
    const struct kind *kinds[64];
    size_t nk;
    if (parse_kinds(argc - 6, argv + 6, kinds, &nk) != 0)
        return 2;
    for (long r = 0; r < rounds; r++)
        print_round(&s, kinds, nk);
    return 0;
}
