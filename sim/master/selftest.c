/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* selftest.c -- what the differential test cannot show, as master.h
 * promises it: unknown commands fail the run, a restart (new run_id,
 * scripts gone, data kept or lost), expiry by the master's own clock
 * (which may jump), CLIENT KILL and QUIT, pushes ahead of the next
 * replies, a protocol error, AUTH.  Prints "sim selftest: N checks, N
 * failed"; exit status 1 on a failure. */
#include <stdio.h>
#include <string.h>
#include "sim/master.h"

static int checks, failed;

#define CHECK(cond)                                                          \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failed++;                                                        \
            printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
        }                                                                    \
    } while (0)

/* feeds an inline command, the reply in a static buffer ("" when none);
 * *rc: feed's return */
static const char *cmd(sim_master *m, long long c, const char *line, int64_t now, int *rc)
{
    static sim_buf out;
    char t[1024];
    int n = snprintf(t, sizeof t, "%s\r\n", line);
    out.len = 0;
    *rc = sim_master_feed(m, c, t, (size_t)n, now, &out);
    sim_buf_put(&out, "", 1);
    return out.p;
}

int main(void)
{
    sim_master_config cfg = { .name = "m1", .run_id_seed = 7, .appendonly = "yes" };
    sim_master *m = sim_master_new(&cfg);
    long long a = sim_master_connect(m), b = sim_master_connect(m);
    int rc;
    CHECK(a == 1 && b == 2);

    /* unknown commands fail loudly */
    cmd(m, a, "FROB x", 1000, &rc);
    CHECK(rc == -1 && strstr(sim_master_error(m), "FROB"));
    CHECK(strcmp(cmd(m, a, "PING", 1000, &rc), "+PONG\r\n") == 0 && rc == 0 && !*sim_master_error(m));
    sim_master_free(m);
    m = sim_master_new(&cfg);
    a = sim_master_connect(m);
    b = sim_master_connect(m);
    cmd(m, a, "EVAL \"return redis.call('frob')\" 0", 1000, &rc);
    CHECK(rc == -1 && strstr(sim_master_error(m), "frob") && strstr(sim_master_error(m), "script"));
    sim_master_free(m);
    m = sim_master_new(&cfg);
    a = sim_master_connect(m);
    b = sim_master_connect(m);

    /* expiry by the clock passed in */
    CHECK(strcmp(cmd(m, a, "SET k v NX PX 100", 1000, &rc), "+OK\r\n") == 0 && rc == 0);
    CHECK(strcmp(cmd(m, a, "PTTL k", 1050, &rc), ":50\r\n") == 0);
    CHECK(strcmp(cmd(m, a, "GET k", 1099, &rc), "$1\r\nv\r\n") == 0);
    CHECK(strcmp(cmd(m, a, "GET k", 1100, &rc), "$-1\r\n") == 0);
    CHECK(strcmp(cmd(m, a, "SET k v PX 100", 5000, &rc), "+OK\r\n") == 0);
    CHECK(strcmp(cmd(m, a, "EXISTS k", 9000, &rc), ":0\r\n") == 0);   /* a jump ahead */
    CHECK(sim_master_dbsize(m, 9000) == 0);

    /* TIME and INFO from the master's clock and run_id */
    CHECK(strcmp(cmd(m, a, "TIME", 12345, &rc), "*2\r\n$2\r\n12\r\n$6\r\n345000\r\n") == 0);
    char id1[41];
    const char *info = cmd(m, a, "INFO server", 13000, &rc);
    const char *r = strstr(info, "run_id:");
    CHECK(r && strlen(r) > 47);
    memcpy(id1, r ? r + 7 : "", 40);
    id1[40] = '\0';
    CHECK(strstr(cmd(m, a, "INFO persistence", 13000, &rc), "aof_enabled:1\r\n") != NULL);

    /* scripts and a restart */
    const char *sha = cmd(m, a, "SCRIPT LOAD \"return 7\"", 14000, &rc);
    char s[41];
    CHECK(strlen(sha) > 45);
    memcpy(s, sha + 5, 40);
    s[40] = '\0';
    char line[128];
    snprintf(line, sizeof line, "EVALSHA %s 0", s);
    CHECK(strcmp(cmd(m, a, line, 14000, &rc), ":7\r\n") == 0);
    cmd(m, a, "SET kept v PX 100000", 14000, &rc);
    sim_master_restart(m, 1);
    CHECK(cmd(m, a, "PING", 15000, &rc) && rc == -1);     /* the connection is gone */
    a = sim_master_connect(m);
    CHECK(strncmp(cmd(m, a, line, 15000, &rc), "-NOSCRIPT", 9) == 0);
    CHECK(strcmp(cmd(m, a, "GET kept", 15000, &rc), "$1\r\nv\r\n") == 0);
    r = strstr(cmd(m, a, "INFO server", 18000, &rc), "run_id:");
    CHECK(r && strncmp(r + 7, id1, 40) != 0);
    CHECK(strstr(cmd(m, a, "INFO server", 18000, &rc), "uptime_in_seconds:3\r\n") != NULL);
    sim_master_restart(m, 0);
    a = sim_master_connect(m);
    CHECK(strcmp(cmd(m, a, "GET kept", 18000, &rc), "$-1\r\n") == 0);
    b = sim_master_connect(m);

    /* pushes: queued, or ahead of the subscriber's next reply */
    CHECK(strstr(cmd(m, b, "SUBSCRIBE ch", 19000, &rc), "subscribe") != NULL);
    CHECK(strcmp(cmd(m, a, "PUBLISH ch hi", 19000, &rc), ":1\r\n") == 0);
    sim_buf p = { 0 };
    CHECK(sim_master_take_pushes(m, b, &p) == 1 && p.len > 0 && memmem(p.p, p.len, "hi", 2));
    CHECK(sim_master_take_pushes(m, b, &p) == 0);
    cmd(m, a, "PUBLISH ch again", 19000, &rc);
    const char *both = cmd(m, b, "PING", 19000, &rc);
    CHECK(strstr(both, "again") && strstr(both, "pong") && strstr(both, "again") < strstr(both, "pong"));
    sim_buf_free(&p);

    /* CLIENT KILL of another connection, QUIT of one's own */
    char kill[96];
    snprintf(kill, sizeof kill, "CLIENT KILL ID %lld", b);
    CHECK(strcmp(cmd(m, a, kill, 20000, &rc), ":1\r\n") == 0);
    CHECK(sim_master_take_killed(m) == b && sim_master_take_killed(m) == -1);
    CHECK(strcmp(cmd(m, a, "QUIT", 20000, &rc), "+OK\r\n") == 0);
    CHECK(sim_master_take_killed(m) == a);

    /* a protocol error: an error reply, then -1 */
    a = sim_master_connect(m);
    sim_buf o = { 0 };
    CHECK(sim_master_feed(m, a, "*1\r\n$x\r\n", 8, 21000, &o) == -1 && o.len > 0 && o.p[0] == '-');
    sim_buf_free(&o);
    sim_master_free(m);

    /* AUTH */
    cfg.password = "pw";
    m = sim_master_new(&cfg);
    a = sim_master_connect(m);
    CHECK(strncmp(cmd(m, a, "GET x", 1000, &rc), "-NOAUTH", 7) == 0);
    CHECK(strncmp(cmd(m, a, "AUTH nope", 1000, &rc), "-WRONGPASS", 10) == 0);
    CHECK(strcmp(cmd(m, a, "AUTH default pw", 1000, &rc), "+OK\r\n") == 0);
    CHECK(strcmp(cmd(m, a, "GET x", 1000, &rc), "$-1\r\n") == 0);
    sim_master_free(m);

    printf("sim selftest: %d checks, %d failed\n", checks, failed);
    return failed ? 1 : 0;
}
