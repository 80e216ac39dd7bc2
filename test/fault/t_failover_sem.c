/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_failover_sem.c -- the semaphore under faults (docs/failover.md,
 * "The semaphore"):
 *   - rl-check's semaphore rule on hand-written logs: never more than P
 *     holders at once, a crashed holder's permit held until its validity
 *     ends and then seen back, keys left on the masters;
 *   - short fault schedules over real worker processes and masters
 *     (test/soak/failover.sh --kind semaphore): 0 times more holders than
 *     permits, every crashed holder's permit back, no key left behind.
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fo_run.h"

/* rl-check on the logs logs[0..n) (and a faults file when faults is not
 * NULL); its exit status, its RESULT line in result */
static int sem_check(const char *const *logs, size_t n, const char *faults, char *result,
                     size_t rlen)
{
    char dir[] = "/tmp/rl-sem.XXXXXX", path[8][64], cmd[1024];
    CHECK(mkdtemp(dir) != NULL && n < 8);
    int len = snprintf(cmd, sizeof cmd, FO_DIR "rl-check");
    for (size_t i = 0; i <= n; i++) {
        const char *text = i < n ? logs[i] : faults;
        if (!text)
            continue;
        snprintf(path[i], sizeof path[i], "%s/%s%zu", dir, i < n ? "w" : "faults", i);
        write_file(path[i], text);
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, "%s %s", i < n ? "" : " --faults",
                        path[i]);
    }
    snprintf(cmd + len, sizeof cmd - (size_t)len, " 2>&1");
    int rc = run_capture(cmd, 0, result, rlen);
    for (size_t i = 0; i <= n; i++)
        if (i < n || faults)
            unlink(path[i]);
    rmdir(dir);
    return rc;
}

#define LOGS(...) ((const char *const[]){__VA_ARGS__}), \
    sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *)

/* a worker's log: one of P permits of r held [after, min(until, release)] */
#define HOLDP(p, w, v, after, until, rel) \
    "W " #w " 1 3 300\nK semaphore " #p "\nA r " v " 0 " #after " " #until " 3 0 - s\n" \
    "R r " v " " #rel " " #rel " OK 3\nE 9999999 1 0\n"
#define HOLD(...) HOLDP(2, __VA_ARGS__)

/* P = 2: two holders at once pass, a third fails; the validity bounds a
 * hold, not its (later) release; holds that touch do not overlap */
TEST(checker_kind_semaphore_permits)
{
    need_file(FO_DIR "rl-check");
    char r[3072];
    CHECK_EQ(sem_check(LOGS(HOLD(0, "v1", 1000, 5000, 2000), HOLD(1, "v2", 1500, 5000, 2500)),
                       NULL, r, sizeof r), 0);
    CHECK_EQ(result_num(r, "max_holders"), 2);
    CHECK_EQ(result_num(r, "permit_overlaps"), 0);
    CHECK_EQ(result_num(r, "permits"), 2);
    CHECK_EQ(result_num(r, "overlaps"), 0);
    CHECK_EQ(sem_check(LOGS(HOLD(0, "v1", 1000, 5000, 2000), HOLD(1, "v2", 1500, 5000, 2500),
                            HOLD(2, "v3", 1800, 5000, 1900)), NULL, r, sizeof r), 1);
    CHECK_EQ(result_num(r, "max_holders"), 3);
    CHECK_EQ(result_num(r, "permit_overlaps"), 1);
    /* the third comes when the first's validity ended (its release is later) */
    CHECK_EQ(sem_check(LOGS(HOLD(0, "v1", 1000, 1700, 2000), HOLD(1, "v2", 1500, 5000, 2500),
                            HOLD(2, "v3", 1800, 5000, 1900)), NULL, r, sizeof r), 0);
    CHECK_EQ(result_num(r, "max_holders"), 2);
    /* ... or right at the first's release */
    CHECK_EQ(sem_check(LOGS(HOLD(0, "v1", 1000, 5000, 1800), HOLD(1, "v2", 1500, 5000, 2500),
                            HOLD(2, "v3", 1800, 5000, 1900)), NULL, r, sizeof r), 0);
    /* P = 3: three pass, four fail; logs that disagree on P: bad input */
    CHECK_EQ(sem_check(LOGS(HOLDP(3, 0, "v1", 1000, 5000, 2000),
                            HOLDP(3, 1, "v2", 1500, 5000, 2500),
                            HOLDP(3, 2, "v3", 1800, 5000, 1900)), NULL, r, sizeof r), 0);
    CHECK_EQ(result_num(r, "max_holders"), 3);
    CHECK_EQ(sem_check(LOGS(HOLDP(3, 0, "v1", 1000, 5000, 2000),
                            HOLDP(3, 1, "v2", 1500, 5000, 2500),
                            HOLDP(3, 2, "v3", 1800, 5000, 1900),
                            HOLDP(3, 3, "v4", 1850, 5000, 1950)), NULL, r, sizeof r), 1);
    CHECK_EQ(result_num(r, "permit_overlaps"), 1);
    CHECK_EQ(sem_check(LOGS(HOLDP(3, 0, "v1", 1000, 5000, 2000),
                            HOLD(1, "v2", 1500, 5000, 2500)), NULL, r, sizeof r), 2);
    /* a semaphore hold without a permit count, a permit count of 0: bad input */
    CHECK_EQ(sem_check(LOGS("W 0 1 3 300\nA r v1 0 1000 5000 3 0 - s\n"), NULL, r, sizeof r), 2);
    CHECK_EQ(sem_check(LOGS("W 0 1 3 300\nK semaphore 0\n"), NULL, r, sizeof r), 2);
}

/* A crashed holder (its log ends holding) keeps its permit until its
 * validity ends: a second and third holder inside it are one too many;
 * after it, P holders at once show the permit back. */
TEST(checker_kind_semaphore_crashed_holder)
{
    need_file(FO_DIR "rl-check");
    char r[3072];
    const char *crash = "W 0 1 3 300\nK semaphore 2\nA r v1 0 1000 1500 3 0 - s\n";
    CHECK_EQ(sem_check(LOGS(crash, HOLD(1, "v2", 1600, 5000, 2500),
                            HOLD(2, "v3", 1700, 5000, 1900)), NULL, r, sizeof r), 0);
    CHECK_EQ(result_num(r, "crashed_holds"), 1);
    CHECK_EQ(result_num(r, "crashed_returned"), 1);
    CHECK_EQ(result_num(r, "max_holders"), 2);
    /* the same two inside its validity: three holders */
    CHECK_EQ(sem_check(LOGS("W 0 1 3 300\nK semaphore 2\nA r v1 0 1000 1800 3 0 - s\n",
                            HOLD(1, "v2", 1600, 5000, 2500), HOLD(2, "v3", 1700, 5000, 1900)),
                       NULL, r, sizeof r), 1);
    CHECK_EQ(result_num(r, "permit_overlaps"), 1);
    /* only one holder at a time after it: its permit is not seen back */
    CHECK_EQ(sem_check(LOGS(crash, HOLD(1, "v2", 1600, 5000, 1650),
                            HOLD(2, "v3", 1700, 5000, 1900)), NULL, r, sizeof r), 0);
    CHECK_EQ(result_num(r, "crashed_holds"), 1);
    CHECK_EQ(result_num(r, "crashed_returned"), 0);
    /* a clean exit (E) after the last release is no crash */
    CHECK_EQ(sem_check(LOGS(HOLD(0, "v1", 1000, 1500, 1400), HOLD(1, "v2", 1600, 5000, 2500)),
                       NULL, r, sizeof r), 0);
    CHECK_EQ(result_num(r, "crashed_holds"), 0);
}

/* Keys left on the masters (the failover script's Z line) fail the check. */
TEST(checker_kind_semaphore_leftover_keys)
{
    need_file(FO_DIR "rl-check");
    char r[3072];
    CHECK_EQ(sem_check(LOGS(HOLD(0, "v1", 1000, 5000, 2000)), "Z leftover_keys=2 masters=5\n", r,
                       sizeof r), 1);
    CHECK_EQ(result_num(r, "leftover_keys"), 2);
    CHECK_EQ(sem_check(LOGS(HOLD(0, "v1", 1000, 5000, 2000)), "Z leftover_keys=0 masters=5\n", r,
                       sizeof r), 0);
    CHECK_EQ(result_num(r, "leftover_keys"), 0);
    CHECK_EQ(sem_check(LOGS(HOLD(0, "v1", 1000, 5000, 2000)), NULL, r, sizeof r), 0);
    CHECK_EQ(result_num(r, "leftover_keys"), -1);   /* not scanned */
}

/* ---- short schedules over real workers and masters ---------------------------- */

/* The schedule's command for P permits on n masters; emulate > 0: the
 * workers' semaphore is that many mutexes (rl-worker --emulate-permits) */
static void sem_cmd(char *cmd, size_t len, long long seed, int n, int p, int emulate,
                    const char *kinds)
{
    snprintf(cmd, len,
             "sh " FO_DIR "failover.sh --seed %lld --masters %d --workers 6 --lead 500 "
             "--tail 700 --gap 400 --watchdog --kind semaphore --permits %d "
             "--emulate-permits %d --kinds \"%s\" crash aof mixed crash 2>&1",
             seed, n, p, emulate, kinds);
}

/* The check fails on real processes: a semaphore of 2 permits made of 3
 * mutexes (one permit too many) under the same faults */
TEST_LONG(failover_semaphore_checker_catches_too_many_holders)
{
    long long seed = mixed_setup();
    char cmd[512], r[4096];
    sem_cmd(cmd, sizeof cmd, seed, 5, 2, 3, "slow-majority pause kill");
    int64_t t0 = check_now_ms();
    int rc = run_capture(cmd, 1, r, sizeof r);
    check_note("2 permits made of 3 mutexes, seed %lld: %lld ms, %s", seed,
               (long long)(check_now_ms() - t0), r);
    CHECK_EQ(rc, 1);
    check_figures(r, FO_FIGS({"permit_overlaps", '>', 0}, {"max_holders", '=', 3},
                             {"overlaps", '=', 0}, {"crashed_holds", '=', 2}));
}

#ifdef REDLOCK_EPERMITS   /* a library with the semaphore */

/* The semaphore with P permits over n masters (with appendonly, fsync
 * always): a worker crashed while holding, the aof restarts (a minority,
 * then a majority), one round of the fault kinds `kinds`, a second crash.
 * Never more than P holders, the P permits all used at once, every crashed
 * holder's permit seen back, no key left on the masters at the end. */
static void sem_run(int n, int p, const char *kinds)
{
    long long seed = mixed_setup();
    char cmd[512], r[4096];
    sem_cmd(cmd, sizeof cmd, seed, n, p, 0, kinds);
    char what[64];
    snprintf(what, sizeof what, "semaphore of %d permits on %d masters", p, n);
    int64_t ms;
    int rc = mixed_run(cmd, what, seed, r, sizeof r, &ms);
    check_figures(r, FO_FIGS({"permit_overlaps", '=', 0}, {"overlaps", '=', 0},
                             {"permits", '=', p}, {"max_holders", '=', p},
                             {"crashed_holds", 'g', 1}, {"leftover_keys", '=', 0},
                             {"fault_aof-kill-major", '=', 1}, {"outage_acquisitions", '=', 0},
                             {"semaphore_acquisitions", '>', 25}));
    /* every crash landed on a hold, and every crashed permit came back */
    CHECK_EQ(result_num(r, "crashed_holds"), result_num(r, "fault_worker-crash"));
    CHECK_EQ(result_num(r, "crashed_returned"), result_num(r, "crashed_holds"));
    CHECK_EQ(rc, 0);
    CHECK_LT(ms, 40000);
}

TEST_LONG(failover_semaphore_5_masters_2_permits)
{
    sem_run(5, 2, "slow-majority pause kill gcpause");
}

TEST_LONG(failover_semaphore_5_masters_3_permits)
{
    sem_run(5, 3, "slow-minority pause outage loop-block");
}

TEST_LONG(failover_semaphore_3_masters_2_permits)
{
    sem_run(3, 2, "slow-minority pause kill");
}
#endif
