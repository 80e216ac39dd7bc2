/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_cmd_outage.c -- the command's exit status when the masters are out,
 * hung, or refuse it, and its bad values: an outage (69), a lock held
 * elsewhere (1, or -E's), refused credentials (78) and a bad usage (64)
 * are different answers (docs/command.md, "Exit codes"); a wait that goes
 * on says so once; -w waits for masters that are down. */
#include "itest.h"
#include "json_check.h"
#include "openmetrics.h"
#include "proxy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <hiredis/hiredis.h>

#define RG "--restart-guard 0 "

/* $REDLOCK_NODES: f's servers. */
static void nodes_env(struct it_fix *f)
{
    char list[1024] = "";
    for (int i = 0; i < rlt_servers_count(f->s); i++) {
        if (i)
            strcat(list, ",");
        strcat(list, rlt_servers_addr(f->s, i));
    }
    CHECK_EQ(setenv("REDLOCK_NODES", list, 1), 0);
    CHECK_EQ(unsetenv("REDLOCK_CONFIG"), 0);
    CHECK_EQ(unsetenv("REDLOCK_PASSWORD"), 0);
}

/* `cmd/redlock ARGS` in the shell: stdout and stderr into out; its exit
 * status; its wall time into *ms when ms is not NULL. */
static int redlock_sh(const char *args, char *out, size_t n, int64_t *ms)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cmd/redlock %s", args);
    int64_t t0 = check_now_ms();
    int st = it_shell(cmd, out, n);
    if (ms)
        *ms = check_now_ms() - t0;
    return st;
}

/* How many times needle occurs in s. */
static int occurs(const char *s, const char *needle)
{
    int k = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        k++;
    return k;
}

/* Process pid's CPU time so far, in clock ticks (/proc/PID/stat). */
static long cpu_ticks(int pid)
{
    char path[64], buf[1024];
    long ut = -1, st = -1;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *fp = fopen(path, "r");
    CHECK_MSG(fp != NULL, "%s: %s", path, strerror(errno));
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    const char *q = strrchr(buf, ')');     /* after the command's name */
    CHECK(q != NULL);
    CHECK_EQ(sscanf(q + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &ut, &st), 2);
    return ut + st;
}

#define SAYS(out, what) CHECK_MSG(it_has(out, what), "no \"%s\" in: %s", what, out)

/* Item by item, the exit status of each case, -E given everywhere: held
 * elsewhere (-E's), -w that ran out while it was held (-E's), a majority
 * of masters hung (69: -E does not apply, the command never runs), -w
 * that ran out while they stayed hung (69). */
TEST(cmd_exit_held_versus_hung_masters)
{
    struct it_fix f = {.key = "out-held"};
    char out[4096];
    int64_t ms;
    it_fix_start(&f, 3, NULL, 0);
    nodes_env(&f);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 30000), 0);
    CHECK_EQ(redlock_sh("run " RG "-n -E 7 out-held -- echo ran", out, sizeof out, NULL), 7);
    SAYS(out, "held elsewhere");
    CHECK_EQ(redlock_sh("run " RG "-n out-held -- echo ran", out, sizeof out, NULL), 1);
    CHECK_EQ(redlock_sh("run " RG "-w 0.3 -E 7 out-held -- echo ran", out, sizeof out, NULL), 7);
    SAYS(out, "held elsewhere");
    CHECK_EQ(redlock_sh("acquire " RG "-w 0.3 -E 7 out-held", out, sizeof out, NULL), 7);

    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(redlock_sh("run " RG "-n -E 0 out-hung -- echo ran", out, sizeof out, &ms), 69);
    CHECK(!it_has(out, "ran\n"));
    SAYS(out, "timed out");
    CHECK_LT(ms, 3000);
    CHECK_EQ(redlock_sh("run " RG "-w 0.5 -E 0 out-hung -- echo ran", out, sizeof out, &ms), 69);
    CHECK(!it_has(out, "ran\n"));
    CHECK_GE(ms, 500);
    CHECK_EQ(redlock_sh("acquire " RG "-n -E 0 out-hung", out, sizeof out, NULL), 69);
    CHECK_EQ(rlt_servers_resume(f.s, 0), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    it_fix_stop(&f);
}

/* A minority of masters that hold the key (a stale one here), another
 * that grants the lock and the rest hung is an outage (69: the lock may
 * be free), not -E's code; refusals that sink the quorum by themselves
 * are held elsewhere, a master hung or not.  (run: the hung master's vote
 * is a timeout, after the others', so that every vote is known.) */
TEST(cmd_minority_refusal_with_masters_out_is_an_outage)
{
    struct it_fix f = {0};
    char out[4096];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    nodes_env(&f);
    it_cmd_on(f.s, 0, 1, REDIS_REPLY_STATUS, "SET out-minor stale PX 60000");
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(redlock_sh("run " RG "-n -E 7 out-minor -- echo ran", out, sizeof out, NULL), 69);
    SAYS(out, "an outage: 1 of 3 masters refused");
    CHECK(!it_has(out, "ran\n"));
    /* acquire connects first: the hung master is out at once, and the
     * attempt is decided at the refusal, the free master's OK unknown */
    CHECK_EQ(redlock_sh("acquire " RG "-n -E 7 out-minor", out, sizeof out, NULL), 69);
    SAYS(out, "an outage: 1 of 3 masters refused");
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    it_cmd_on(f.s, 1, 2, REDIS_REPLY_STATUS, "SET out-minor stale PX 60000");
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    CHECK_EQ(redlock_sh("acquire " RG "-n -E 7 out-minor", out, sizeof out, NULL), 7);
    SAYS(out, "held elsewhere");
    CHECK_EQ(redlock_sh("run " RG "-n -E 7 out-minor -- echo ran", out, sizeof out, NULL), 7);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    it_fix_stop(&f);
}

/* Held on a quorum while two of five masters are down: the attempt is
 * decided at its first refusal (two down, one refused: no quorum left),
 * too few refusals to tell by themselves; the masters read afresh show
 * the holder on a quorum: held elsewhere, not an outage. */
TEST(cmd_decided_early_held_on_a_quorum_is_held)
{
    struct it_fix f = {0};
    char out[4096];
    it_fix_start(&f, 5, NULL, IT_NOCLIENT);
    nodes_env(&f);
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS, "SET out-early theirs PX 60000");
    CHECK_EQ(rlt_servers_kill(f.s, 3), 0);
    CHECK_EQ(rlt_servers_kill(f.s, 4), 0);
    CHECK_EQ(redlock_sh("acquire " RG "-n -E 7 out-early", out, sizeof out, NULL), 7);
    CHECK(!it_has(out, "an outage"));
    CHECK_EQ(redlock_sh("run " RG "-n -E 7 out-early -- echo ran", out, sizeof out, NULL), 7);
    CHECK(!it_has(out, "ran\n"));
    it_fix_stop(&f);
}

/* -w's deadline that cuts the last attempt before any of its votes came
 * (the masters' replies held up: proxies paused once the first attempt
 * reached every master) leaves no refusal to tell by: the masters read
 * afresh (a new connection each, let through) show the holder on a
 * quorum: held elsewhere (-E's), not an outage (69). */
TEST(cmd_wait_cut_before_any_vote_held_on_a_quorum_is_held)
{
    struct it_fix f = {.key = "out-cut"};
    struct rlp_thread *px[3];
    char addr[3][32], list[128] = "", out[4096];
    const char *addrs[3];
    long long sets[3];
    rlp_stats st;
    unsigned long accepted[3];
    it_fix_start(&f, 3, NULL, 0);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 30000), 0);
    it_proxies(f.s, 3, px, addr, addrs);
    for (int i = 0; i < 3; i++) {
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", addr[i]);
        sets[i] = it_calls(f.s, i, "set");
    }
    CHECK_EQ(setenv("REDLOCK_NODES", list, 1), 0);
    FILE *cmd = popen("cmd/redlock run " RG "--no-wake -w 0.5 -E 7 out-cut -- echo ran 2>&1", "r");
    CHECK(cmd != NULL);
    for (int i = 0; i < 3; i++)     /* its first attempt reached every master */
        CHECK_GT(it_wait_calls(f.s, i, "set", sets[i], 5000), sets[i]);
    for (int i = 0; i < 3; i++) {
        rlp_thread_set_pause(px[i], 1);
        rlp_thread_stats(px[i], &st);
        accepted[i] = st.accepted;
    }
    /* the second look's connections: let them (and what waited) through */
    int64_t until = check_now_ms() + 5000;
    for (int i = 0; i < 3; i++) {
        do {
            rlp_thread_stats(px[i], &st);
        } while (st.accepted == accepted[i] && check_now_ms() < until && usleep(2000) == 0);
        CHECK_MSG(st.accepted > accepted[i], "no second look through proxy %d", i);
    }
    for (int i = 0; i < 3; i++)
        rlp_thread_set_pause(px[i], 0);
    size_t n = fread(out, 1, sizeof out - 1, cmd);
    out[n] = '\0';
    int st_cmd = pclose(cmd);
    check_note("%s", out);
    CHECK(WIFEXITED(st_cmd));
    CHECK_EQ(WEXITSTATUS(st_cmd), 7);
    SAYS(out, "held elsewhere");
    CHECK(!it_has(out, "ran\n"));
    for (int i = 0; i < 3; i++)
        rlp_thread_stop(px[i]);
    it_fix_stop(&f);
}

/* -E 0 makes "held elsewhere" exit 0, but acquire holds nothing then: no
 * value and no token on stdout, no token in the JSON object. */
TEST(cmd_conflict_exit_zero_prints_no_value)
{
    struct it_fix f = {.key = "out-e0"};
    char out[4096], val[256];
    it_fix_start(&f, 3, NULL, 0);
    nodes_env(&f);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 30000), 0);
    CHECK_EQ(it_shell("{ cmd/redlock acquire " RG "-n -E 0 --fencing out-e0 2>/dev/null; }", out,
                      sizeof out), 0);
    CHECK_MSG(out[0] == '\0', "a value for a lock not acquired: %s", out);
    CHECK_EQ(it_shell("{ cmd/redlock acquire " RG "-n -E 0 --fencing --json out-e0 "
                      "2>/dev/null; }", out, sizeof out), 0);
    CHECK_GT(json_get(out, "exit", val, sizeof val), 0);
    CHECK_STREQ(val, "0");
    CHECK_MSG(json_get(out, "token", val, sizeof val) < 0, "a token not acquired: %s", out);
    CHECK_GT(json_get(out, "validity_ms", val, sizeof val), 0);
    CHECK_STREQ(val, "0");
    it_fix_stop(&f);
}

/* status with an ACL that lets the client connect but refuses the
 * inspection's script: 78 in the server's words, as for the lock's
 * commands, not an outage. */
TEST(cmd_status_acl_refused)
{
    struct it_fix f = {0};
    char out[8192], val[256];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    nodes_env(&f);
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS,
              "ACL SETUSER weak on >weakpw ~* -@all +ping +auth +hello +select");
    CHECK_EQ(setenv("REDLOCK_PASSWORD", "weakpw", 1), 0);
    CHECK_EQ(redlock_sh("status --user weak out-acl", out, sizeof out, NULL), 78);
    SAYS(out, "NOPERM");
    SAYS(out, "refuse this client");
    CHECK_EQ(it_shell("{ cmd/redlock status --json --user weak out-acl 2>/dev/null; }", out,
                      sizeof out), 78);
    CHECK_GT(json_get(out, "exit", val, sizeof val), 0);
    CHECK_STREQ(val, "78");
    unsetenv("REDLOCK_PASSWORD");
    it_fix_stop(&f);
}

/* -w waits for the lock whatever keeps it: masters down at the start are
 * waited for (the notice says so once), and the run goes on when they come
 * back within -w; masters that stay down end it with 69 at -w, not at once
 * and not with -E's code. */
TEST(cmd_wait_outlasts_masters_down)
{
    struct it_fix f = {0};
    char out[4096], line[1024] = "";
    int64_t ms;
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    nodes_env(&f);
    CHECK_EQ(rlt_servers_kill(f.s, 0), 0);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    CHECK_EQ(redlock_sh("run " RG "-w 1 -E 0 out-down -- echo ran", out, sizeof out, &ms), 69);
    CHECK_GE(ms, 1000);
    CHECK(!it_has(out, "ran\n"));
    SAYS(out, "unreachable");
    CHECK_EQ(redlock_sh("acquire " RG "-w 1 -E 0 out-down", out, sizeof out, &ms), 69);
    CHECK_GE(ms, 1000);

    FILE *p = popen("{ cmd/redlock run " RG "-w 20 out-down -- echo ran & echo pid=$!; "
                    "wait $!; echo exit=$?; } 2>&1", "r");
    CHECK(p != NULL);
    int pid = 0;
    CHECK(fgets(line, sizeof line, p) != NULL && sscanf(line, "pid=%d", &pid) == 1);
    while (!it_has(line, "still waiting"))
        CHECK_MSG(fgets(line, sizeof line, p) != NULL, "no notice before its end: %s", line);
    SAYS(line, "unreachable");
    SAYS(line, "(-w 20 s)");
    /* it waited those 2 s on the library's back-off and retry delay, not
     * in a busy loop: its CPU time (utime + stime, in ticks) */
    long ticks = cpu_ticks(pid);
    check_note("%ld ticks of CPU in 2 s of waiting", ticks);
    CHECK_LT(ticks, sysconf(_SC_CLK_TCK) / 5);
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 1), 0);
    CHECK_EQ(it_read_all(p, out, sizeof out), 0);
    check_note("after the notice: %s", out);
    SAYS(out, "ran\nexit=0");
    it_fix_stop(&f);
}

/* A wrong password, or an ACL user the masters do not know, is a
 * configuration error (78) in the server's words, at once, with -w, -n or
 * without; so is a user whose ACL refuses the lock's commands. */
TEST(cmd_exit_refused_credentials)
{
    static const char *const extra[] = {"--requirepass", "s3cret", NULL};
    struct it_fix f = {.extra = extra};
    char out[4096];
    int64_t ms;
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    nodes_env(&f);
    CHECK_EQ(setenv("REDLOCK_PASSWORD", "wrong", 1), 0);
    CHECK_EQ(redlock_sh("run " RG "out-pw -- echo ran", out, sizeof out, &ms), 78);
    SAYS(out, "WRONGPASS");
    CHECK(!it_has(out, "ran\n"));
    CHECK_LT(ms, 3000);
    CHECK_EQ(redlock_sh("run " RG "-n -E 0 out-pw -- echo ran", out, sizeof out, NULL), 78);
    SAYS(out, "WRONGPASS");
    CHECK_EQ(redlock_sh("run " RG "-w 30 out-pw -- echo ran", out, sizeof out, &ms), 78);
    CHECK_LT(ms, 3000);
    CHECK_EQ(redlock_sh("acquire " RG "-w 30 out-pw", out, sizeof out, &ms), 78);
    SAYS(out, "WRONGPASS");
    CHECK_LT(ms, 3000);
    CHECK_EQ(redlock_sh("status out-pw", out, sizeof out, NULL), 78);
    SAYS(out, "WRONGPASS");
    CHECK_EQ(redlock_sh("release --value v out-pw", out, sizeof out, NULL), 78);
    CHECK_EQ(setenv("REDLOCK_PASSWORD", "s3cret", 1), 0);
    CHECK_EQ(redlock_sh("run " RG "--user nobody out-pw -- echo ran", out, sizeof out, NULL), 78);
    SAYS(out, "WRONGPASS");
    /* a user that may connect but not run the lock's scripts */
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS,
              "ACL SETUSER weak on >weakpw ~* -@all +ping +auth +hello +select");
    CHECK_EQ(setenv("REDLOCK_PASSWORD", "weakpw", 1), 0);
    CHECK_EQ(redlock_sh("run " RG "-n --user weak out-pw -- echo ran", out, sizeof out, NULL), 78);
    SAYS(out, "NOPERM");
    CHECK_EQ(redlock_sh("run " RG "--user weak out-pw -- echo ran", out, sizeof out, &ms), 78);
    SAYS(out, "NOPERM");
    CHECK_LT(ms, 5000);         /* at the wait's notice, not never */
    CHECK_EQ(redlock_sh("acquire " RG "-w 30 --user weak out-pw", out, sizeof out, &ms), 78);
    SAYS(out, "NOPERM");
    CHECK_LT(ms, 5000);
    CHECK_EQ(setenv("REDLOCK_PASSWORD", "s3cret", 1), 0);
    CHECK_EQ(redlock_sh("run " RG "out-pw -- echo ran", out, sizeof out, NULL), 0);
    SAYS(out, "ran\n");
    unsetenv("REDLOCK_PASSWORD");
    it_fix_stop(&f);
}

/* --strict against masters that persist nothing: the wait says once, after
 * a few seconds, what it waits for and until when; -w then ends it (69). */
TEST(cmd_wait_says_what_it_waits_for)
{
    struct it_fix f = {0};
    char out[8192];
    int64_t ms;
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    nodes_env(&f);
    CHECK_EQ(redlock_sh("run " RG "--strict -w 2.2 out-strict -- echo ran", out, sizeof out, &ms),
             69);
    CHECK_GE(ms, 2200);
    CHECK_EQ(occurs(out, "still waiting"), 1);
    SAYS(out, "strict");
    SAYS(out, "(-w 2.2 s)");
    CHECK(!it_has(out, "ran\n"));
    /* without -w it waits on, having said so once, until SIGTERM ends it */
    CHECK_EQ(it_shell("{ e=\"${TMPDIR:-/tmp}/strict.$$\"; "
                      "cmd/redlock run " RG "--strict out-strict -- echo ran 2>\"$e\" & p=$!; "
                      "i=0; until grep -q 'still waiting' \"$e\" || [ $i -ge 100 ]; do "
                      "sleep 0.05; i=$((i + 1)); done; kill $p; wait $p; echo exit=$?; "
                      "cat \"$e\"; }", out, sizeof out), 0);
    CHECK_EQ(occurs(out, "still waiting"), 1);
    SAYS(out, "until it gets the lock (no -w)");
    SAYS(out, "exit=143");
    it_fix_stop(&f);
}

/* A ttl that cannot hold a lock is refused, with the minimum. */
TEST(cmd_ttl_too_short_refused)
{
    char out[4096];
    CHECK_EQ(setenv("REDLOCK_NODES", "127.0.0.1:1", 1), 0);
    CHECK_EQ(unsetenv("REDLOCK_CONFIG"), 0);
    CHECK_EQ(redlock_sh("run --ttl 10 out-ttl -- echo ran", out, sizeof out, NULL), 64);
    SAYS(out, "--ttl 10: too short to hold a lock: at least 600 ms");
    CHECK(!it_has(out, "ran\n"));
    CHECK_EQ(redlock_sh("acquire --ttl 299 --node-timeout 100 out-ttl", out, sizeof out, NULL),
             64);
    SAYS(out, "at least 300 ms");
}

/* A config file `name` holding text, in a new temporary directory: its
 * path into path; REDLOCK_NODES unset, so that the file's nodes count. */
static void conf_file(const char *name, const char *text, char *path, size_t n)
{
    char dir[256];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/cmdout.XXXXXX", t && *t ? t : "/tmp");
    CHECK_MSG(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
    snprintf(path, n, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    fputs(text, fp);
    CHECK_EQ(fclose(fp), 0);
    CHECK_EQ(unsetenv("REDLOCK_NODES"), 0);
}

/* A bad value in the config file is named by its file and line. */
TEST(cmd_config_file_bad_value_names_its_line)
{
    char path[300], out[4096];
    conf_file("bad.conf", "nodes = 127.0.0.1:1\n# a comment\nttl = abc\n", path, sizeof path);
    CHECK_EQ(setenv("REDLOCK_CONFIG", path, 1), 0);
    CHECK_EQ(redlock_sh("run out-cfg -- true", out, sizeof out, NULL), 78);
    SAYS(out, "bad.conf:3: ttl = abc: not a number");
    unsetenv("REDLOCK_CONFIG");
}

/* --json writes its object also when an option is bad. */
TEST(cmd_json_bad_option)
{
    char out[4096], val[256], why[256];
    CHECK_EQ(setenv("REDLOCK_NODES", "127.0.0.1:1", 1), 0);
    CHECK_EQ(unsetenv("REDLOCK_CONFIG"), 0);
    static const char *const bad[] = {"{ cmd/redlock acquire --json --ttl abc out-j 2>/dev/null; }",
                                      "{ cmd/redlock status --bogus --json out-j 2>/dev/null; }",
                                      "{ cmd/redlock release --json --value 2>/dev/null; }"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(it_shell(bad[i], out, sizeof out), 64);
        CHECK_MSG(json_valid(out, strlen(out), why, sizeof why) == 0, "%s: %s", why, out);
        CHECK_GT(json_get(out, "ok", val, sizeof val), 0);
        CHECK_STREQ(val, "false");
        CHECK_GT(json_get(out, "exit", val, sizeof val), 0);
        CHECK_STREQ(val, "64");
        CHECK_GT(json_get(out, "error", val, sizeof val), 0);
    }
}

/* run has no JSON output: --json is a usage error, not ignored. */
TEST(cmd_run_json_refused)
{
    char out[4096];
    CHECK_EQ(setenv("REDLOCK_NODES", "127.0.0.1:1", 1), 0);
    CHECK_EQ(unsetenv("REDLOCK_CONFIG"), 0);
    CHECK_EQ(redlock_sh("run --json out-j -- echo ran", out, sizeof out, NULL), 64);
    SAYS(out, "--json is for acquire, extend, release and status");
    CHECK(!it_has(out, "ran\n"));
}

/* status --metrics RESOURCE: the resource's view as gauges among the
 * client's metrics (holders and time left, per master and for the quorum);
 * with --json in the same "metrics" text. */
TEST(cmd_status_metrics_show_the_resource)
{
    struct it_fix f = {.key = "out-met"};
    char out[65536], key[256], *text = malloc(sizeof out);
    om_doc d = {0};
    it_fix_start(&f, 3, NULL, 0);
    nodes_env(&f);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 30000), 0);
    CHECK_EQ(redlock_sh("status --metrics out-met 2>/dev/null", out, sizeof out, NULL), 0);
    CHECK_MSG(om_parse(&d, out, strlen(out)) == 0, "%s", d.err);
    CHECK_EQ(om_value(&d, "redlock_resource_holders{node=\"quorum\",resource=\"out-met\"}"), 1);
    snprintf(key, sizeof key, "redlock_resource_ttl_seconds{node=\"%s\",resource=\"out-met\"}",
             rlt_servers_addr(f.s, 1));
    CHECK_GT(om_value(&d, key), 20);
    snprintf(key, sizeof key, "redlock_node_up{node=\"%s\"}", rlt_servers_addr(f.s, 2));
    CHECK_EQ(om_value(&d, key), 1);
    om_free(&d);
    CHECK_EQ(it_shell("{ cmd/redlock status --metrics --json out-met 2>/dev/null; }", out,
                      sizeof out), 0);
    CHECK_GT(json_get(out, "metrics", text, sizeof out), 0);
    memset(&d, 0, sizeof d);
    CHECK_MSG(om_parse(&d, text, strlen(text)) == 0, "%s", d.err);
    CHECK_EQ(om_value(&d, "redlock_resource_holders{node=\"quorum\",resource=\"out-met\"}"), 1);
    om_free(&d);
    free(text);
    it_fix_stop(&f);
}

/* A ttl too short from the config file is the file's error (78), named by
 * its line; the default ttl under a long --node-timeout is refused too,
 * naming the default. */
TEST(cmd_ttl_too_short_from_config_file)
{
    char path[300], out[4096], cmd[512];
    conf_file("ttl.conf", "nodes = 127.0.0.1:1\nttl = 500\n", path, sizeof path);
    snprintf(cmd, sizeof cmd, "run --config %s out-ttl -- echo ran", path);
    CHECK_EQ(redlock_sh(cmd, out, sizeof out, NULL), 78);
    SAYS(out, "ttl.conf:2: ttl = 500: too short to hold a lock: at least 600 ms");
    CHECK(!it_has(out, "ran\n"));
    snprintf(cmd, sizeof cmd, "acquire --config %s --ttl 30000 --node-timeout 20000 out-ttl",
             path);
    CHECK_EQ(redlock_sh(cmd, out, sizeof out, NULL), 64);
    SAYS(out, "at least 60000 ms");
    snprintf(cmd, sizeof cmd, "acquire --config %s --node-timeout 20000 out-ttl", path);
    CHECK_EQ(redlock_sh(cmd, out, sizeof out, NULL), 78);       /* the file's ttl */
    CHECK_EQ(redlock_sh("acquire --nodes 127.0.0.1:1 --node-timeout 20000 out-ttl", out,
                        sizeof out, NULL), 64);
    SAYS(out, "the default --ttl 30000: too short");
}

/* status --metrics RESOURCE: a key without a ttl is -1, and a resource's
 * bytes outside printable ASCII, and '\', are the text \xNN in its label,
 * in the format's escapes (a strict parser reads the whole text). */
TEST(cmd_status_metrics_no_ttl_and_bytes)
{
    struct it_fix f = {0};
    char out[65536], key[256];
    om_doc d = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    nodes_env(&f);
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS, "SET out-nottl v");
    CHECK_EQ(redlock_sh("status --metrics out-nottl 2>/dev/null", out, sizeof out, NULL), 0);
    CHECK_MSG(om_parse(&d, out, strlen(out)) == 0, "%s", d.err);
    snprintf(key, sizeof key, "redlock_resource_ttl_seconds{node=\"%s\",resource=\"out-nottl\"}",
             rlt_servers_addr(f.s, 0));
    const om_sample *s = om_get(&d, key);
    CHECK_MSG(s != NULL, "no %s in: %s", key, out);
    CHECK_EQ(s->value, -1);
    om_free(&d);
    memset(&d, 0, sizeof d);
    CHECK_EQ(it_shell("{ cmd/redlock status --metrics \"$(printf 'o\\001p\\\\q')\" "
                      "2>/dev/null; }", out, sizeof out), 0);
    CHECK_MSG(om_parse(&d, out, strlen(out)) == 0, "%s", d.err);
    s = om_get(&d, "redlock_resource_holders{node=\"quorum\",resource=\"o\\\\x01p\\\\x5cq\"}");
    CHECK_MSG(s != NULL, "no \\x01 in the label: %s", out);
    CHECK_EQ(s->value, 0);
    om_free(&d);
    it_fix_stop(&f);
}
