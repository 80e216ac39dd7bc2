/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* scriptcost.c -- what one master spends per lock cycle for each form of
 * the commands a cycle could send (docs/performance.md, "What a plain lock
 * pays"): `scriptcost PORT [CYCLES] [ROUNDS]` against a redis-server of its
 * own (bench/scriptcost/scriptcost.sh starts one), the forms in
 * interleaved rounds, each one's server CPU per cycle (INFO cpu, main
 * thread) over CYCLES cycles pipelined 100 deep. */
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH 100
#define VALUE "0123456789abcdef0123456789abcdef0123456789abcdef"

static const char *const release_plain =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
    "else return 0 end";
static const char *const release_exists =
    "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) "
    "if redis.pcall('exists', KEYS[2]) == 1 then return 2 end return 1 end return 0";
static const char *const acquire_fenced =
    "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then "
    "return redis.call('incr', KEYS[2]) end return 0";

enum { PLAIN, EXISTS, ARGS, FENCED_PIPE, FENCED_SCRIPT, NFORMS };
static const char *const form_name[NFORMS] = {
    "SET + release (the plain compare-and-delete)",
    "SET + release with a second key and EXISTS",
    "SET + release with three more empty arguments",
    "SET + INCR pipelined + release (fenced)",
    "one script SET + INCR + release (fenced)",
};

static char sha[3][41];

static double cpu_s(redisContext *c)
{
    redisReply *r = redisCommand(c, "INFO cpu");
    const char *u, *s;
    double v = -1;
    if (r && r->type == REDIS_REPLY_STRING &&
        (u = strstr(r->str, "used_cpu_user_main_thread:")) &&
        (s = strstr(r->str, "used_cpu_sys_main_thread:")))
        v = atof(u + 26) + atof(s + 25);
    freeReplyObject(r);
    return v;
}

static void load(redisContext *c, int i, const char *body)
{
    redisReply *r = redisCommand(c, "SCRIPT LOAD %s", body);
    if (!r || r->type != REDIS_REPLY_STRING || r->len != 40) {
        fprintf(stderr, "scriptcost: SCRIPT LOAD failed\n");
        exit(1);
    }
    memcpy(sha[i], r->str, 41);
    freeReplyObject(r);
}

/* Append one cycle of `form` on key k; the replies it will have. */
static int cycle(redisContext *c, int form, const char *k)
{
    switch (form) {
    case FENCED_SCRIPT:
        redisAppendCommand(c, "EVALSHA %s 2 %s {%s}:fence %s 10000", sha[2], k, k, VALUE);
        redisAppendCommand(c, "EVALSHA %s 1 %s %s", sha[0], k, VALUE);
        return 2;
    case FENCED_PIPE:
        redisAppendCommand(c, "SET %s %s NX PX 10000", k, VALUE);
        redisAppendCommand(c, "INCR {%s}:fence", k);
        redisAppendCommand(c, "EVALSHA %s 1 %s %s", sha[0], k, VALUE);
        return 3;
    case EXISTS:
        redisAppendCommand(c, "SET %s %s NX PX 10000", k, VALUE);
        redisAppendCommand(c, "EVALSHA %s 2 %s {%s}:wq %s", sha[1], k, k, VALUE);
        return 2;
    case ARGS:
        redisAppendCommand(c, "SET %s %s NX PX 10000", k, VALUE);
        redisAppendCommand(c, "EVALSHA %s 1 %s %s %s %s %s", sha[0], k, VALUE, "", "", "");
        return 2;
    default:
        redisAppendCommand(c, "SET %s %s NX PX 10000", k, VALUE);
        redisAppendCommand(c, "EVALSHA %s 1 %s %s", sha[0], k, VALUE);
        return 2;
    }
}

static double run(redisContext *c, int form, long cycles)
{
    double t0 = cpu_s(c);
    for (long done = 0; done < cycles; done += DEPTH) {
        int replies = 0;
        for (int j = 0; j < DEPTH; j++) {
            char k[32];
            snprintf(k, sizeof k, "sc:%d", j);
            replies += cycle(c, form, k);
        }
        while (replies--) {
            redisReply *r;
            if (redisGetReply(c, (void **)&r) != REDIS_OK) {
                fprintf(stderr, "scriptcost: %s\n", c->errstr);
                exit(1);
            }
            freeReplyObject(r);
        }
    }
    return (cpu_s(c) - t0) * 1e6 / (double)cycles;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long cycles = argc > 2 ? atol(argv[2]) : 200000;
    int rounds = argc > 3 ? atoi(argv[3]) : 5;
    double us[NFORMS][64];
    redisContext *c;

    if (argc < 2 || cycles < DEPTH || rounds < 1 || rounds > 64) {
        fprintf(stderr, "usage: scriptcost PORT [CYCLES >= %d] [ROUNDS 1..64]\n", DEPTH);
        return 2;
    }
    if (!(c = redisConnect("127.0.0.1", atoi(argv[1]))) || c->err) {
        fprintf(stderr, "scriptcost: cannot connect to port %s\n", argv[1]);
        return 1;
    }
    load(c, 0, release_plain);
    load(c, 1, release_exists);
    load(c, 2, acquire_fenced);
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < NFORMS; k++) {
            int f = r % 2 ? NFORMS - 1 - k : k;     /* (interleaved both ways) */
            us[f][r] = run(c, f, cycles);
        }
    printf("server CPU per cycle, %ld cycles pipelined %d deep, %d rounds: median (range), "
           "and its ratio to the first\n", cycles, DEPTH, rounds);
    double base = 0;
    for (int f = 0; f < NFORMS; f++) {
        qsort(us[f], (size_t)rounds, sizeof us[f][0], cmp);
        double med = us[f][rounds / 2];
        if (f == 0)
            base = med;
        printf("  %-48s %6.2f us (%.2f-%.2f)  %.2fx\n", form_name[f], med, us[f][0],
               us[f][rounds - 1], med / base);
    }
    redisFree(c);
    return 0;
}
