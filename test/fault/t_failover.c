/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_failover.c -- the failover and safety suite in the CI run:
 *   - the short failover scenario (test/soak/failover.sh short): worker
 *     processes contend while masters are killed, paused, a quorum is lost
 *     and a worker is paused past its validity; zero overlaps;
 *   - rl-check itself, on hand-written logs: it must catch an overlap;
 *   - the known unsafe case (docs/safety.md): a master restarted without
 *     persistence while a lock is held hands the lock to a second client;
 *     and the same sequence with appendonly + appendfsync always, where it
 *     does not.
 */
#include "itest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fo_run.h"

/* Each fault kind of the mixed schedule was injected (and took effect). */
static void all_faults_injected(const char *result, long long seed)
{
    static const char *const kinds[] = {
        "fault_slow-minority", "fault_slow-majority", "fault_loop-block", "fault_setreset",
        "fault_hostile-line", "fault_hostile-error", "fault_hostile-garbage",
        "fault_kill-minority", "fault_pause-master", "fault_quorum-outage", "fault_client-pause"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        CHECK_MSG(strstr(result, kinds[i]) != NULL && result_num(result, kinds[i]) >= 1,
                  "fault kind %s not injected (seed %lld)", kinds[i], seed);
}

TEST(failover_short_scenario_no_overlap)
{
    need_failover_programs();
    char result[1024];
    int64_t t0 = check_now_ms();
    int rc = run_capture("sh " FO_DIR "failover.sh --masters 5 --workers 4 short 2>&1", 1, result,
                         sizeof result);
    int64_t ms = check_now_ms() - t0;
    check_note("short scenario: %lld ms, %s", (long long)ms, result);
    CHECK_EQ(rc, 0);
    CHECK_NE(result[0], '\0');
    check_figures(result, FO_FIGS({"overlaps", '=', 0}, {"faults", '=', 4},
                                  {"acquisitions", '>', 100},
                                  /* acquisitions before, during and after the faults */
                                  {"before", '>', 0}, {"during", '>', 0}, {"after", '>', 0},
                                  /* nothing can be acquired while a majority is down */
                                  {"outage_acquisitions", '=', 0},
                                  /* the paused worker resumed knowing its lock had run out */
                                  {"pauses", '=', 1}, {"pauses_expired", '=', 1},
                                  /* and a client ignoring validity would have overlapped
                                   * the next holder */
                                  {"naive_overlaps", '>', 0},
                                  /* the validity auditor ran and found nothing */
                                  {"audit_judged", '>', 0}, {"audit_violations", '=', 0}));
    CHECK_LT(ms, 45000);
}

/* The mixed fault schedule (docs/failover.md): every fault kind once, in an
 * order and with parameters drawn from a seed (FAILOVER_SEED, else the
 * clock; printed: `sh test/soak/failover.sh --seed N mixed` replays it),
 * masters behind an rlproxy, blocking and async workers (loop blocks, small
 * max_pending) extending while they hold.  Zero overlaps, zero auditor
 * violations, the auditor ran, and every kind was injected. */
TEST_LONG(failover_mixed_faults_audited)
{
    long long seed = mixed_setup();
    char cmd[512], result[2048];
    snprintf(cmd, sizeof cmd,
             "sh " FO_DIR "failover.sh --seed %lld --masters 5 --workers 4 --lead 700 "
             "--tail 700 --fencing --watchdog mixed 2>&1",
             seed);
    int64_t ms;
    int rc = mixed_run(cmd, "mixed schedule", seed, result, sizeof result, &ms);
    CHECK_EQ(result_num(result, "audit_violations"), 0);
    /* fencing tokens grew in acquisition order on every resource (and
     * mixed_run saw no violation) */
    CHECK_GT(result_num(result, "tokens"), 100);
    /* the async workers' locks were kept by the watchdog (held up to 3 x
     * ttl), audited like the others; a lost-lock notice ends a hold */
    CHECK_GT(result_num(result, "watchdog_moves"), 0);
    CHECK_GE(result_num(result, "lost_notices"), 0);
    CHECK_EQ(rc, 0);
    /* the auditor actually checked held locks, also while an async extend
     * was in flight (validity from its start) */
    check_figures(result, FO_FIGS({"audit_checks", '>', 100}, {"audit_judged", '>', 100},
                                  {"audit_inflight_checks", '>', 0},
                                  {"audit_inflight_violations", '=', 0}));
    /* each fault kind was injected (and took effect) */
    all_faults_injected(result, seed);
    check_figures(result, FO_FIGS({"loop_blocks_inflight", '>', 0},
                                  {"proxy_hostile_conns", '>', 0}, {"extends_shorter", '>', 0},
                                  {"async_workers", 'g', 2}, {"small_pending_workers", 'g', 2},
                                  {"outage_acquisitions", '=', 0},
                                  {"acquisitions", '>', 200}));
    CHECK_EQ(result_num(result, "pauses_expired"), result_num(result, "pauses"));
    CHECK_LT(ms, 60000);
}

/* The auditor can fail: worker 0 tells its auditor 40 ms more validity than
 * the library reported (--overreport, a test-only flag; its log and the
 * overlap check see the true validity).  The run must fail on auditor
 * violations alone. */
TEST_LONG(failover_auditor_catches_overreported_validity)
{
    need_failover_programs();
    need_file("test/rlproxy");
    char result[2048];
    int rc = run_capture("sh " FO_DIR "failover.sh --seed 1 --masters 3 --workers 2 --lead 1500 "
                         "--tail 300 --overreport 40 --kinds slow-minority mixed 2>&1",
                         0, result, sizeof result);
    check_note("overreport: %s", result);
    CHECK_NE(result[0], '\0');
    CHECK_EQ(rc, 1);
    CHECK_EQ(result_num(result, "overlaps"), 0);
    CHECK_GT(result_num(result, "audit_violations"), 0);
}

/* rl-check on two logs a.log and b.log in a fresh folder. */
struct logs {
    char dir[512], a[600], b[600], cmd[2048], result[1024];
};

static void logs_start(struct logs *lg)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(lg->dir, sizeof lg->dir, "%s/rlcheck.XXXXXX", tmp ? tmp : "/tmp");
    CHECK(mkdtemp(lg->dir) != NULL);
    snprintf(lg->a, sizeof lg->a, "%s/a.log", lg->dir);
    snprintf(lg->b, sizeof lg->b, "%s/b.log", lg->dir);
    snprintf(lg->cmd, sizeof lg->cmd, "%s %s %s 2>&1", FO_DIR "rl-check", lg->a, lg->b);
}

/* Write A's and B's logs (NULL: as they are), run rl-check on them: it
 * must exit with `want` and its RESULT line show each figure (a list
 * ended by a NULL key). */
static void check_logs(struct logs *lg, const char *a, const char *b, int want,
                       const struct fo_figure *fig)
{
    if (a)
        write_file(lg->a, a);
    if (b)
        write_file(lg->b, b);
    int rc = run_capture(lg->cmd, 0, lg->result, sizeof lg->result);
    CHECK_MSG(rc == want, "rl-check: exit %d, want %d (%s)", rc, want, lg->result);
    check_figures(lg->result, fig);
}

TEST(failover_checker_catches_overlaps)
{
    need_file(FO_DIR "rl-check");
    struct logs lg;
    logs_start(&lg);
    /* back to back: A released at 2000, B acquired at 2000: no overlap */
    check_logs(&lg, "W 0 1 3 300\nA r v1 900 1000 290000 3\nR r v1 2000 2100 OK 3\n",
               "W 1 2 3 300\nA r v2 1500 2000 290000 3\nR r v2 3000 3100 OK 3\n", 0,
               FO_FIGS({"overlaps", '=', 0}, {"acquisitions", '=', 2}));
    /* B acquired 1 us before A began releasing: overlap, exit 1 */
    check_logs(&lg, NULL, "W 1 2 3 300\nA r v2 1500 1999 290000 3\nR r v2 3000 3100 OK 3\n", 1,
               FO_FIGS({"overlaps", '=', 1}));
    /* A paused past its validity (ends 1500), released late at 5000; B in
     * 2000..3000: no overlap by validity, one naive overlap */
    check_logs(&lg, "W 0 1 3 300\nA r v1 900 1000 1500 3\nS r v1 1100\nP r v1 4900 0 3800\n"
                    "R r v1 5000 5100 ENOTOWNER 0\n",
               "W 1 2 3 300\nA r v2 1500 2000 290000 3\nR r v2 3000 3100 OK 3\n", 0,
               FO_FIGS({"overlaps", '=', 0}, {"naive_overlaps", '=', 1},
                       {"pauses_expired", '=', 1}));
    /* extends: A acquired until 1500, extended at 1400..1450 up to 2900,
     * released at 2500; B acquired at 2000: overlap (inside the extension) */
    check_logs(&lg, "W 0 1 3 300\nA r v1 900 1000 1500 3\nT r v1 1400 1450 OK 2900 3 300 0\n"
                    "R r v1 2500 2600 OK 3\n",
               "W 1 2 3 300\nA r v2 1900 2000 290000 3\nR r v2 3000 3100 OK 3\n", 1,
               FO_FIGS({"overlaps", '=', 1}, {"extends", '=', 1}));
    /* the same extend failed and left validity until 1600 only: no overlap */
    check_logs(&lg, "W 0 1 3 300\nA r v1 900 1000 1500 3\nT r v1 1400 1450 ETIMEDOUT 1600 1 300 0\n"
                    "R r v1 2500 2600 OK 3\n", NULL, 0,
               FO_FIGS({"overlaps", '=', 0}, {"extends_failed", '=', 1}));
    /* an auditor violation (V line) fails the check by itself; the last U
     * line of each log gives the auditor's counters */
    check_logs(&lg, "W 0 1 3 300\nA r v1 900 1000 1500 3\n"
                    "U 1100 5 4 1 0 3000 400 0\n"
                    "V 1200 r v1 1500 1400 100 -2,-2,300\n"
                    "U 1300 7 6 1 1 -100 400 0\nR r v1 1450 1460 OK 3\n", NULL, 1,
               FO_FIGS({"overlaps", '=', 0}, {"audit_violations", '=', 1},
                       {"audit_checks", '=', 7}, {"audit_min_slack_us", '=', -100}));
    /* different resources never overlap; garbage is an input error (2) */
    check_logs(&lg, "W 0 1 3 300\nA r v1 900 1000 290000 3\nR r v1 2000 2100 OK 3\n",
               "W 1 2 3 300\nA q v2 1500 1200 290000 3\nR q v2 3000 3100 OK 3\n", 0, NULL);
    check_logs(&lg, NULL, "W 1 2 3 300\nA q v2 oops\n", 2, NULL);
    unlink(lg.a);
    unlink(lg.b);
    rmdir(lg.dir);
}

/* B got the lock on masters 1 and 2 while A holds master 0: two holders. */
static void check_two_holders(struct it_fix *f, redlock_lock *a, redlock_lock *b, int64_t vb,
                              const char *res)
{
    size_t rlen = strlen(res);
    CHECK_GT(vb, 10000);
    CHECK_EQ(redlock_lock_nodes_ok(b), 2);
    CHECK_EQ(it_count_lock(f->s, res, rlen, b), 2);
    CHECK_EQ(it_count_lock(f->s, res, rlen, a), 1);
    CHECK_RC(b, redlock_release(b), REDLOCK_OK);
}

/* B was refused: master 1 reloaded A's key from its AOF, with its expiry,
 * and B's attempt on master 2 was rolled back. */
static void check_b_refused(struct it_fix *f, redlock_lock *a, int rc, int64_t vb,
                            const char *res)
{
    size_t rlen = strlen(res);
    CHECK_EQ(rc, REDLOCK_ENOQUORUM);
    CHECK_EQ(vb, 0);
    CHECK_EQ(it_count_lock(f->s, res, rlen, a), 2);
    long long pttl = it_pttl(f->s, 1, res, rlen);
    CHECK_GT(pttl, 0);
    CHECK_LE(pttl, 20000);
    CHECK_EQ(it_wait_count(f->s, res, rlen, 2, 2000), 2);
}

/* A's connections to the restarted masters were closed: let the blocking
 * client reconnect first, so the release hears every master.  A release
 * returns 0 only when a quorum deleted the value (redlock.h): with AOF
 * masters 0 and 1 hold A's value; without persistence only master 0 did
 * (B's keys are gone): ENOTOWNER. */
static void release_a(struct it_fix *f, redlock_lock *a, int both, const char *res)
{
    CHECK_EQ(redlock_client_wait_connected(f->c, 3, 3000), 0);
    int rr = redlock_release(a);
    check_note("A release: %s (%s), nodes_ok %zu", redlock_strerror(rr), it_errstr(a),
               redlock_lock_nodes_ok(a));
    if (both)       /* master 0 deleted it, 1 and 2 refused: it had been lost */
        CHECK_RC(a, rr, REDLOCK_ENOTOWNER);
    else
        CHECK_RC(a, rr, REDLOCK_OK);
    CHECK_EQ(it_count_lock(f->s, res, strlen(res), a), 0);
}

/* The known unsafe case, deterministically, on 3 masters:
 *   1. master 2 is down; client A acquires on masters 0 and 1 (a quorum);
 *   2. master 1 is killed (kill -9) and restarted; master 2 comes back;
 *   3. client B tries to acquire: masters 1 and 2 are a quorum for B
 *      unless master 1 remembered A's key.
 * Without persistence master 1 restarts empty and B gets the lock while A's
 * validity is still positive: two holders.  With appendonly yes and
 * appendfsync always, master 1 reloads A's key and B is refused.
 * Returns 1 when B got the lock. */
static int restart_story(const char *const *extra, const char *res)
{
    size_t rlen = strlen(res);
    struct it_fix f = {.extra = extra};
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *a = it_fix_lock(&f, f.c, res);

    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    CHECK_RC(a, redlock_try_acquire(a, 20000), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(a), 2);
    CHECK_EQ(it_count_lock(f.s, res, rlen, a), 2);

    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 1), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 2), 0);

    redlock_client *cb = it_fix_client(&f, &o);
    redlock_lock *b = it_fix_lock(&f, cb, res);
    int rc = redlock_try_acquire(b, 20000);
    int64_t va = redlock_lock_validity(a), vb = redlock_lock_validity(b);
    check_note("%s: A validity %lld ms; B try_acquire %s (%s), validity %lld ms, nodes_ok %zu",
               extra ? "appendfsync always" : "no persistence", (long long)va,
               redlock_strerror(rc), it_errstr(b), (long long)vb, redlock_lock_nodes_ok(b));
    /* A still believes it holds the lock in every case */
    CHECK_GT(va, 10000);
    CHECK_EQ(it_has_value(f.s, 0, res, rlen, redlock_lock_value(a, NULL),
                          strlen(redlock_lock_value(a, NULL))), 1);
    int both = rc == REDLOCK_OK;
    if (both)
        check_two_holders(&f, a, b, vb, res);
    else
        check_b_refused(&f, a, rc, vb, res);
    release_a(&f, a, both, res);
    it_fix_stop(&f);
    return both;
}

TEST(failover_unsafe_restart_without_persistence_two_holders)
{
    /* documents the hazard: this MUST give two holders */
    CHECK_EQ(restart_story(NULL, "unsafe-restart"), 1);
}

TEST(failover_restart_with_aof_always_is_safe)
{
    static const char *const aof[] = {"--appendonly", "yes", "--appendfsync", "always", NULL};
    CHECK_EQ(restart_story(aof, "aof-restart"), 0);
}

/* The checker itself: tokens that go back in acquisition order fail it
 * (two workers' logs, written here). */
TEST(failover_checker_catches_tokens_out_of_order)
{
    need_file(FO_DIR "rl-check");
    char dir[] = "/tmp/rl-tokens.XXXXXX", a[64], b[64], cmd[256], result[2048];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/w0.log", dir);
    snprintf(b, sizeof b, "%s/w1.log", dir);
    FILE *f = fopen(a, "w");
    CHECK(f != NULL);
    fprintf(f, "W 0 1000 3\nA r0 v1 1000 1100 5000 3 700\nR r0 v1 5100 5200\n"
               "A r0 v3 20000 20100 25000 3 900\nR r0 v3 25100 25200\n");
    fclose(f);
    f = fopen(b, "w");
    CHECK(f != NULL);
    fprintf(f, "W 1 1000 3\nA r0 v2 9000 10100 15000 3 650\nR r0 v2 15100 15200\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, FO_DIR "rl-check %s %s 2>&1", a, b);
    int rc = run_capture(cmd, 1, result, sizeof result);
    check_note("%s", result);
    CHECK_NE(rc, 0);
    CHECK_EQ(result_num(result, "overlaps"), 0);
    CHECK_EQ(result_num(result, "tokens"), 3);
    CHECK_EQ(result_num(result, "token_violations"), 1);     /* 700 then 650 */
    unlink(a);
    unlink(b);
    rmdir(dir);
}

/* ---- lock kinds (rl-worker --kind) ------------------------------------------ */

/* Run rl-check on two hand-written logs; its exit status, RESULT in result. */
static int check_two(const char *la, const char *lb, char *result, size_t rlen)
{
    char dir[] = "/tmp/rl-kinds.XXXXXX", a[64], b[64], cmd[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/w0.log", dir);
    snprintf(b, sizeof b, "%s/w1.log", dir);
    write_file(a, la);
    write_file(b, lb);
    snprintf(cmd, sizeof cmd, FO_DIR "rl-check %s %s 2>&1", a, b);
    int rc = run_capture(cmd, 0, result, rlen);
    unlink(a);
    unlink(b);
    rmdir(dir);
    return rc;
}

/* Re-entrant: holds of different owners may not overlap, those of one
 * owner (two workers logging the same owner) may; nested acquires (H) and
 * releases that kept the lock (D) bound the interval like extends. */
TEST(checker_kind_reentrant_owners)
{
    need_file(FO_DIR "rl-check");
    char r[2048];
    const char *w0 = "W 0 1 3 300\nK reentrant\nA r v1 900 1000 290000 3 0 o0 x\n"
                     "H r v1 1100 1200 OK 290000 2\nD r v1 1500 1600 OK 290000 1\n"
                     "R r v1 2000 2100 OK 3\n";
    /* another owner inside w0's hold: overlap */
    CHECK_EQ(check_two(w0, "W 1 2 3 300\nK reentrant\nA r v2 1600 1700 290000 3 0 o1 x\n"
                           "R r v2 1800 1900 OK 3\n", r, sizeof r), 1);
    CHECK_EQ(result_num(r, "overlaps"), 1);
    CHECK_EQ(result_num(r, "nested_holds"), 1);
    CHECK_EQ(result_num(r, "partial_releases"), 1);
    /* the same owner from another worker: allowed, counted */
    CHECK_EQ(check_two(w0, "W 1 2 3 300\nK reentrant\nA r v2 1600 1700 290000 3 0 o0 x\n"
                           "R r v2 1800 1900 OK 3\n", r, sizeof r), 0);
    CHECK_EQ(result_num(r, "overlaps"), 0);
    CHECK_EQ(result_num(r, "owner_overlaps"), 1);
    /* during a nested acquire (1100..1200) the holder does not act: before
     * it, its validity bounds it (until 1040: no overlap with another owner
     * at 1050..1090; until 1150: overlap); after it, the validity it then
     * read (until 1300: overlap at 1210) */
    const char *w0b = "W 0 1 3 300\nK reentrant\nA r v1 900 1000 1040 3 0 o0 x\n"
                      "H r v1 1100 1200 OK 1300 2\nR r v1 1250 1260 OK 3\n";
    const char *w1b = "W 1 2 3 300\nK reentrant\nA r v2 1010 1050 1090 3 0 o1 x\n"
                      "R r v2 1090 1095 OK 3\n";
    CHECK_EQ(check_two(w0b, w1b, r, sizeof r), 0);
    CHECK_EQ(result_num(r, "overlaps"), 0);
    const char *w0c = "W 0 1 3 300\nK reentrant\nA r v1 900 1000 1150 3 0 o0 x\n"
                      "H r v1 1100 1200 OK 1300 2\nR r v1 1250 1260 OK 3\n";
    CHECK_EQ(check_two(w0c, w1b, r, sizeof r), 1);
    CHECK_EQ(check_two(w0b, "W 1 2 3 300\nK reentrant\nA r v2 1205 1210 1290 3 0 o1 x\n"
                            "R r v2 1290 1295 OK 3\n", r, sizeof r), 1);
    /* ... and after the D line, w0 still holds until its release */
    CHECK_EQ(check_two(w0, "W 1 2 3 300\nK reentrant\nA r v2 1950 1990 290000 3 0 o1 x\n"
                           "R r v2 2500 2600 OK 3\n", r, sizeof r), 1);
    /* the holds of one owner may carry tokens in any order (their acquires
     * overlap); other owners' must grow */
    CHECK_EQ(check_two("W 0 1 3 300\nK reentrant\nA r v1 900 1000 290000 3 7 o0 x\n"
                       "R r v1 2000 2100 OK 3\n",
                       "W 1 2 3 300\nK reentrant\nA r v2 1500 1600 290000 3 7 o0 x\n"
                       "R r v2 1800 1900 OK 3\n", r, sizeof r), 0);
    CHECK_EQ(result_num(r, "token_violations"), 0);
    CHECK_EQ(check_two("W 0 1 3 300\nK reentrant\nA r v1 900 1000 290000 3 8 o0 x\n"
                       "R r v1 2000 2100 OK 3\n",
                       "W 1 2 3 300\nK reentrant\nA r v2 1500 1600 290000 3 7 o0 x\n"
                       "R r v2 1800 1900 OK 3\nA r v3 2500 2600 290000 3 9 o1 x\n"
                       "R r v3 2700 2800 OK 3\nA r v4 3500 3600 290000 3 8 o0 x\n"
                       "R r v4 3700 3800 OK 3\n", r, sizeof r), 1);
    CHECK_EQ(result_num(r, "token_violations"), 1);   /* 8 after o1's 9 */
    CHECK_EQ(check_two("W 0 1 3 300\nK reentrant\nA r v1 900 1000 290000 3 7 o0 x\n"
                       "R r v1 2000 2100 OK 3\n",
                       "W 1 2 3 300\nK reentrant\nA r v2 2500 2600 290000 3 7 o1 x\n"
                       "R r v2 2800 2900 OK 3\n", r, sizeof r), 1);
    CHECK_EQ(result_num(r, "token_violations"), 1);
}

/* Read/write: readers share, a writer excludes readers and writers. */
TEST(checker_kind_rw_readers_writers)
{
    need_file(FO_DIR "rl-check");
    char r[2048];
    const char *rd0 = "W 0 1 3 300\nK rw\nA r v1 900 1000 290000 3 0 - r\nR r v1 2000 2100 OK 3\n";
    CHECK_EQ(check_two(rd0, "W 1 2 3 300\nK rw\nA r v2 1500 1600 290000 3 0 - r\n"
                            "R r v2 3000 3100 OK 3\n", r, sizeof r), 0);
    CHECK_EQ(result_num(r, "overlaps"), 0);
    CHECK_EQ(result_num(r, "reader_overlaps"), 1);
    CHECK_EQ(result_num(r, "reads"), 2);
    /* a writer inside a reader's hold, a reader inside a writer's */
    CHECK_EQ(check_two(rd0, "W 1 2 3 300\nK rw\nA r v2 1500 1600 290000 3 0 - w\n"
                            "R r v2 3000 3100 OK 3\n", r, sizeof r), 1);
    CHECK_EQ(result_num(r, "overlaps"), 1);
    CHECK_EQ(result_num(r, "reader_overlaps"), 0);
    CHECK_EQ(check_two("W 0 1 3 300\nK rw\nA r v1 900 1000 290000 3 5 - w\nR r v1 2000 2100 OK 3\n",
                       "W 1 2 3 300\nK rw\nA r v2 1500 1600 290000 3 0 - r\n"
                       "R r v2 3000 3100 OK 3\n", r, sizeof r), 1);
    /* two writers */
    CHECK_EQ(check_two("W 0 1 3 300\nK rw\nA r v1 900 1000 290000 3 5 - w\nR r v1 2000 2100 OK 3\n",
                       "W 1 2 3 300\nK rw\nA r v2 1500 1600 290000 3 6 - w\n"
                       "R r v2 3000 3100 OK 3\n", r, sizeof r), 1);
    CHECK_EQ(result_num(r, "writes"), 2);
    /* a writer after the readers, back to back: fine; a bad mode: input error */
    CHECK_EQ(check_two(rd0, "W 1 2 3 300\nK rw\nA r v2 1500 2000 290000 3 0 - w\n"
                            "R r v2 3000 3100 OK 3\n", r, sizeof r), 0);
    CHECK_EQ(check_two(rd0, "W 1 2 3 300\nK rw\nA r v2 1500 2000 290000 3 0 - q\n", r, sizeof r),
             2);
}

/* Multi-resource: a lock counts on each of its resources. */
TEST(checker_kind_multi_resources)
{
    need_file(FO_DIR "rl-check");
    char r[2048];
    const char *ab = "W 0 1 3 300\nK multi\nA a+b v1 900 1000 290000 3 0 - x\n"
                     "R a+b v1 2000 2100 OK 3\n";
    /* {b, c} meets {a, b} on b */
    CHECK_EQ(check_two(ab, "W 1 2 3 300\nK multi\nA c+b v2 1500 1600 290000 3 0 - x\n"
                           "R c+b v2 3000 3100 OK 3\n", r, sizeof r), 1);
    CHECK_EQ(result_num(r, "overlaps"), 1);
    CHECK_EQ(result_num(r, "multi_acquisitions"), 2);
    /* {c, d} shares nothing with {a, b} */
    CHECK_EQ(check_two(ab, "W 1 2 3 300\nK multi\nA c+d v2 1500 1600 290000 3 0 - x\n"
                           "R c+d v2 3000 3100 OK 3\n", r, sizeof r), 0);
    CHECK_EQ(result_num(r, "overlaps"), 0);
    /* three resources, the last one shared */
    CHECK_EQ(check_two(ab, "W 1 2 3 300\nK multi\nA d+c+a v2 1500 1600 290000 3 0 - x\n"
                           "R d+c+a v2 3000 3100 OK 3\n", r, sizeof r), 1);
}

/* The mixed fault schedule of failover_mixed_faults_audited with the
 * workers on one lock kind: zero overlaps under that kind's rule, every
 * fault kind injected, and the kind's own behaviour seen. */
static void kind_mixed(const char *kind, double min_acq, char *result, size_t rlen)
{
    long long seed = mixed_setup();
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "sh " FO_DIR "failover.sh --seed %lld --masters 5 --workers 4 --lead 700 "
             "--tail 700 --fencing --watchdog --kind %s mixed 2>&1",
             seed, kind);
    int64_t t0 = check_now_ms();
    int rc = run_capture(cmd, 1, result, rlen);
    int64_t ms = check_now_ms() - t0;
    check_note("%s locks, mixed schedule, seed %lld (replay: FAILOVER_SEED=%lld): %lld ms, %s",
               kind, seed, seed, (long long)ms, result);
    CHECK_NE(result[0], '\0');
    CHECK_EQ(result_num(result, "overlaps"), 0);
    CHECK_EQ(result_num(result, "token_violations"), 0);
    CHECK_EQ(rc, 0);
    CHECK(strstr(result, " kind=") && !strncmp(strstr(result, " kind=") + 6, kind, strlen(kind)));
    all_faults_injected(result, seed);
    CHECK_EQ(result_num(result, "outage_acquisitions"), 0);
    CHECK_EQ(result_num(result, "pauses_expired"), result_num(result, "pauses"));
    CHECK_GT(result_num(result, "watchdog_moves"), 0);
    CHECK_GT(result_num(result, "acquisitions"), min_acq);
    CHECK_LT(ms, 60000);
}

TEST_LONG(failover_kind_reentrant_mixed)
{
    char r[3072];
    kind_mixed("reentrant", 200, r, sizeof r);
    CHECK_GT(result_num(r, "nested_holds"), 50);
    CHECK_GT(result_num(r, "partial_releases"), 50);
    CHECK_GT(result_num(r, "owner_overlaps"), 0);     /* workers of one owner held together */
    CHECK_GT(result_num(r, "tokens"), 100);
}

TEST_LONG(failover_kind_rw_mixed)
{
    char r[3072];
    kind_mixed("rw", 200, r, sizeof r);
    CHECK_GT(result_num(r, "reads"), 100);
    CHECK_GT(result_num(r, "writes"), 50);
    CHECK_GT(result_num(r, "reader_overlaps"), 0);    /* readers did share */
    CHECK_GT(result_num(r, "tokens"), 50);            /* the writers' */
}

TEST_LONG(failover_kind_multi_mixed)
{
    char r[3072];
    /* each lock takes 2..3 of 6 resources: fewer acquisitions than a
     * mutex's, and the schedule's seed moves them most (70 to 138 seen,
     * 88 to 99 for one seed replayed): the floor says the run did work */
    kind_mixed("multi", 50, r, sizeof r);
    CHECK_EQ(result_num(r, "multi_acquisitions"), result_num(r, "acquisitions"));
    CHECK_EQ(result_num(r, "tokens"), 0);             /* no fencing on multi locks */
}
