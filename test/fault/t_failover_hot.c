/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_failover_hot.c -- many independent clients on one key
 * (docs/failover.md, "Many clients on one key"):
 *   - 128 clients (4 rl-worker processes x 32, rl-worker --clients) contend
 *     for one resource under slow masters, loop blocks, kills, a master
 *     pause and a client pause: zero overlaps, fencing tokens in order,
 *     and the lock went round many of the clients;
 *   - rl-check on 256 hand-made logs of one resource: it finds the one
 *     overlap planted among 4,096 acquisitions.
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fo_run.h"

TEST_LONG(failover_hot_key_128_clients)
{
    long long seed = mixed_setup();
    char cmd[768], result[3072];
    snprintf(cmd, sizeof cmd,
             "sh " FO_DIR "failover.sh --seed %lld --masters 5 --workers 4 "
             "--clients-per-worker 32 --resources 1 --hold-max 10 --idle-max 200 --lead 700 "
             "--tail 700 --fencing --kinds \"slow-minority slow-majority loop-block kill pause "
             "gcpause\" mixed 2>&1",
             seed);
    int64_t ms;
    int rc = mixed_run(cmd, "128 clients on one key", seed, result, sizeof result, &ms);
    CHECK_EQ(rc, 0);
    /* 128 clients, each its own log, all on the async API */
    CHECK_EQ(result_num(result, "logs"), 128);
    CHECK_EQ(result_num(result, "async_workers"), 128);
    /* the lock went round: many clients held it, and often */
    CHECK_GE(result_num(result, "holders"), 64);
    CHECK_GT(result_num(result, "acquisitions"), 150);
    CHECK_EQ(result_num(result, "tokens"), result_num(result, "acquisitions"));
    static const char *const kinds[] = {"fault_slow-minority", "fault_slow-majority",
                                        "fault_loop-block",    "fault_kill-minority",
                                        "fault_pause-master",  "fault_client-pause"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        CHECK_MSG(strstr(result, kinds[i]) != NULL && result_num(result, kinds[i]) >= 1,
                  "fault kind %s not injected (seed %lld)", kinds[i], seed);
    CHECK_GT(result_num(result, "loop_blocks_inflight"), 0);
    /* the paused process's holder knew on resume that its lock ran out */
    CHECK_EQ(result_num(result, "pauses"), 1);
    CHECK_EQ(result_num(result, "pauses_expired"), 1);
    CHECK_LT(ms, 40000);
}

/* Worker w's log: acquisitions k = 0..per-1 of one resource in slot
 * k * workers + w (1 ms each, released after 0.9 ms); `shift` moves
 * acquisition `at` of this worker that many us earlier. */
static void hot_log(const char *path, int w, int workers, int per, int at, long long shift)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fprintf(f, "W %d 1 5 300 async 0\n", w);
    for (int k = 0; k < per; k++) {
        long long t = 1000000 + (long long)(k * workers + w) * 1000 - (k == at ? shift : 0);
        fprintf(f, "A hot v%d.%d %lld %lld %lld 5\nR hot v%d.%d %lld %lld OK 5\n", w, k, t - 100,
                t, t + 300000, w, k, t + 900, t + 950);
    }
    CHECK_EQ(fclose(f), 0);
}

TEST(failover_checker_catches_overlap_among_many_clients)
{
    need_file(FO_DIR "rl-check");
    enum { WORKERS = 256, PER = 16 };
    const char *tmp = getenv("TMPDIR");
    char dir[512], path[600], cmd[700], result[3072];
    snprintf(dir, sizeof dir, "%s/rlhot.XXXXXX", tmp ? tmp : "/tmp");
    CHECK(mkdtemp(dir) != NULL);
    for (int w = 0; w < WORKERS; w++) {
        snprintf(path, sizeof path, "%s/w%d.log", dir, w);
        hot_log(path, w, WORKERS, PER, -1, 0);
    }
    snprintf(cmd, sizeof cmd, FO_DIR "rl-check %s/w*.log 2>&1", dir);
    CHECK_EQ(run_capture(cmd, 0, result, sizeof result), 0);
    CHECK_EQ(result_num(result, "acquisitions"), WORKERS * PER);
    CHECK_EQ(result_num(result, "holders"), WORKERS);
    CHECK_EQ(result_num(result, "overlaps"), 0);
    /* worker 200's 10th acquisition 0.5 ms early: inside worker 199's hold */
    snprintf(path, sizeof path, "%s/w200.log", dir);
    hot_log(path, 200, WORKERS, PER, 9, 500);
    CHECK_EQ(run_capture(cmd, 1, result, sizeof result), 1);
    CHECK_EQ(result_num(result, "overlaps"), 1);
    CHECK_EQ(result_num(result, "holders"), WORKERS);
    for (int w = 0; w < WORKERS; w++) {
        snprintf(path, sizeof path, "%s/w%d.log", dir, w);
        unlink(path);
    }
    rmdir(dir);
}
