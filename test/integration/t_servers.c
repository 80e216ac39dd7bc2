/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_servers.c -- self-tests of the test infrastructure: check.c and servers.c. */
#include "check.h"
#include "servers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

/* Runs fn in a child with stderr captured; returns its wait status. */
static int run_captured(void (*fn)(void), char *out, size_t outlen)
{
    int fds[2];
    CHECK_EQ(pipe(fds), 0);
    fflush(stderr);
    pid_t pid = fork();
    CHECK_GE(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        fn();
        _exit(0);
    }
    close(fds[1]);
    size_t used = 0;
    for (;;) {
        ssize_t got = read(fds[0], out + used, outlen - 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        used += (size_t)got;
        if (used == outlen - 1)
            break;
    }
    out[used] = '\0';
    close(fds[0]);
    int status = 0;
    CHECK_EQ(waitpid(pid, &status, 0), pid);
    return status;
}

static void fails_eq(void)
{
    long long seven = 7;
    CHECK_EQ(seven, 8);
}
enum { fails_line = __LINE__ - 2 }; /* the CHECK_EQ above */
static void fails_streq(void)
{
    CHECK_STREQ("abc", "abd");
}
static void fails_lt(void)
{
    CHECK_LT(3, 2);
}
static void passes_all(void)
{
    CHECK(1);
    CHECK_EQ(-1, -1);
    CHECK_NE(1, 2);
    CHECK_LE(2, 2);
    CHECK_GE(3, 2);
    CHECK_LT(-5, 2);
    CHECK_GT(5000000000LL, 2);
    CHECK_STREQ("x", "x");
    CHECK_STREQ(NULL, NULL);
}

TEST(check_reports_failures)
{
    char out[1024];
    int st = run_captured(fails_eq, out, sizeof out);
    CHECK(WIFEXITED(st));
    CHECK_EQ(WEXITSTATUS(st), 1);
    char want[128];
    snprintf(want, sizeof want, "t_servers.c:%d: seven == 8 (a=7, b=8)", fails_line);
    CHECK_MSG(strstr(out, want) != NULL, "stderr was \"%s\"", out);

    st = run_captured(fails_streq, out, sizeof out);
    CHECK_EQ(WEXITSTATUS(st), 1);
    CHECK_MSG(strstr(out, "a=\"abc\", b=\"abd\"") != NULL, "stderr was \"%s\"", out);

    st = run_captured(fails_lt, out, sizeof out);
    CHECK_EQ(WEXITSTATUS(st), 1);
    CHECK_MSG(strstr(out, "3 < 2 (a=3, b=2)") != NULL, "stderr was \"%s\"", out);

    st = run_captured(passes_all, out, sizeof out);
    CHECK(WIFEXITED(st));
    CHECK_EQ(WEXITSTATUS(st), 0);
    CHECK_STREQ(out, "");
}

TEST(check_runs_in_own_process_group)
{
    CHECK_EQ(getpgrp(), getpid());
}

static int ping(rlt_servers *s, int i)
{
    redisReply *r = rlt_servers_command(s, i, "PING");
    int ok = r != NULL && r->type == REDIS_REPLY_STATUS && strcmp(r->str, "PONG") == 0;
    if (r != NULL)
        freeReplyObject(r);
    return ok;
}

static int set_key(rlt_servers *s, int i, const void *key, size_t klen, const char *val)
{
    redisReply *r = rlt_servers_command(s, i, "SET %b %s", key, klen, val);
    int ok = r != NULL && r->type == REDIS_REPLY_STATUS && strcmp(r->str, "OK") == 0;
    if (r != NULL)
        freeReplyObject(r);
    return ok;
}

static int process_alive(pid_t pid)
{
    return kill(pid, 0) == 0;
}

/* CONFIG GET name on server i, the value copied into buf; "(no reply)" when
 * the server does not answer with a pair. */
static const char *config_get(rlt_servers *s, int i, const char *name, char *buf, size_t size)
{
    redisReply *r = rlt_servers_command(s, i, "CONFIG GET %s", name);
    if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2)
        snprintf(buf, size, "%s", r->element[1]->str);
    else
        snprintf(buf, size, "(no reply)");
    if (r != NULL)
        freeReplyObject(r);
    return buf;
}

/* Three servers on distinct ports, each addressed, running and answering. */
static void check_started(rlt_servers *s)
{
    CHECK_EQ(rlt_servers_count(s), 3);
    const char *const *addrs = rlt_servers_addrs(s);
    for (int i = 0; i < 3; i++) {
        char want[32];
        snprintf(want, sizeof want, "127.0.0.1:%d", rlt_servers_port(s, i));
        CHECK_STREQ(rlt_servers_addr(s, i), want);
        CHECK_STREQ(addrs[i], want);
        CHECK_GT(rlt_servers_pid(s, i), 0);
        CHECK(ping(s, i));
        for (int j = 0; j < i; j++)
            CHECK_NE(rlt_servers_port(s, i), rlt_servers_port(s, j));
    }
    CHECK(rlt_servers_addr(s, 3) == NULL);
    CHECK(rlt_servers_addr(s, -1) == NULL);
}

/* Default configuration: no persistence, loopback only, in its own dir. */
static void check_default_config(rlt_servers *s)
{
    char val[4096], real[4096];
    CHECK_STREQ(config_get(s, 0, "appendonly", val, sizeof val), "no");
    CHECK_STREQ(config_get(s, 0, "save", val, sizeof val), "");
    CHECK(realpath(rlt_servers_dir(s, 0), real) != NULL);
    CHECK_STREQ(config_get(s, 0, "dir", val, sizeof val), real);
}

/* A binary key set on servers 0 and 2 is seen there and only there. */
static void check_keys(rlt_servers *s, const char *key, size_t klen)
{
    CHECK(set_key(s, 0, key, klen, "v0"));
    CHECK(set_key(s, 2, key, klen, "v2"));
    CHECK_EQ(rlt_servers_exists(s, 0, key, klen), 1);
    CHECK_EQ(rlt_servers_exists(s, 1, key, klen), 0);
    CHECK_EQ(rlt_servers_exists(s, 0, key, 3), 0); /* "bin" alone is another key */
    CHECK_EQ(rlt_servers_count_key(s, key, klen), 2);
}

/* kill: the process is gone and reaped, commands fail, count skips it;
 * restart: same port, new process, empty (no persistence). */
static void check_kill_restart(rlt_servers *s, const char *key, size_t klen)
{
    pid_t old = rlt_servers_pid(s, 2);
    int port2 = rlt_servers_port(s, 2);
    CHECK_EQ(rlt_servers_kill(s, 2), 0);
    CHECK_EQ(rlt_servers_pid(s, 2), 0);
    CHECK(!process_alive(old));
    CHECK(rlt_servers_command(s, 2, "PING") == NULL);
    CHECK_EQ(rlt_servers_exists(s, 2, key, klen), -1);
    CHECK_EQ(rlt_servers_count_key(s, key, klen), 1);
    CHECK_EQ(rlt_servers_kill(s, 2), -1);

    CHECK_EQ(rlt_servers_restart(s, 2), 0);
    CHECK_GT(rlt_servers_pid(s, 2), 0);
    CHECK_NE(rlt_servers_pid(s, 2), old);
    CHECK_EQ(rlt_servers_port(s, 2), port2);
    CHECK(ping(s, 2));
    CHECK_EQ(rlt_servers_exists(s, 2, key, klen), 0);
    CHECK_EQ(rlt_servers_count_key(s, key, klen), 1);
}

/* The state letter of a process in /proc/pid/stat ('T': stopped). */
static char process_state(pid_t pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    CHECK(fgets(stat, sizeof stat, f) != NULL);
    fclose(f);
    char *close_paren = strrchr(stat, ')');
    CHECK(close_paren != NULL);
    return close_paren[2];
}

/* pause: the process is stopped; count skips it; resume brings it back. */
static void check_pause_resume(rlt_servers *s, const char *key, size_t klen)
{
    CHECK_EQ(rlt_servers_pause(s, 0), 0);
    CHECK_EQ(process_state(rlt_servers_pid(s, 0)), 'T');
    CHECK_EQ(rlt_servers_count_key(s, key, klen), 0);
    int64_t t0 = check_now_ms();
    CHECK(rlt_servers_command(s, 0, "PING") == NULL); /* times out after ~1 s */
    CHECK_GE(check_now_ms() - t0, 900);
    CHECK_EQ(rlt_servers_resume(s, 0), 0);
    CHECK(ping(s, 0));
    CHECK_EQ(rlt_servers_count_key(s, key, klen), 1);
}

/* free: processes killed, directories removed. */
static void check_free(rlt_servers *s)
{
    char root[4096];
    snprintf(root, sizeof root, "%s", rlt_servers_dir(s, 0));
    *strrchr(root, '/') = '\0';
    pid_t pids[3];
    for (int i = 0; i < 3; i++)
        pids[i] = rlt_servers_pid(s, i);
    struct stat st;
    CHECK_EQ(lstat(root, &st), 0);
    rlt_servers_free(s);
    for (int i = 0; i < 3; i++)
        CHECK(!process_alive(pids[i]));
    CHECK_EQ(lstat(root, &st), -1);
    CHECK_EQ(errno, ENOENT);
}

TEST(servers_start_kill_restart_pause)
{
    static const char key[] = "bin\0key\xff";
    char err[256];
    rlt_servers *s = rlt_servers_start(3, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    check_started(s);
    check_default_config(s);
    check_keys(s, key, sizeof key - 1);
    check_kill_restart(s, key, sizeof key - 1);
    check_pause_resume(s, key, sizeof key - 1);
    check_free(s);
}

TEST(servers_free_while_paused)
{
    char err[256];
    rlt_servers *s = rlt_servers_start(2, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    pid_t pid = rlt_servers_pid(s, 1);
    CHECK_EQ(rlt_servers_pause(s, 1), 0);
    CHECK_EQ(rlt_servers_pause(s, 1), 0); /* twice is fine */
    rlt_servers_free(s);
    CHECK(!process_alive(pid));
}

TEST(servers_extra_args_and_persistence)
{
    static const char *const extra[] = {"--appendonly", "yes", "--appendfsync", "always",
                                        "--requirepass", "s3cret", NULL};
    char err[256];
    rlt_servers *s = rlt_servers_start(1, extra, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    char val[16];
    CHECK_STREQ(config_get(s, 0, "appendonly", val, sizeof val), "yes"); /* the later argument won */
    CHECK(set_key(s, 0, "k", 1, "kept"));
    CHECK_EQ(rlt_servers_kill(s, 0), 0);
    CHECK_EQ(rlt_servers_restart(s, 0), 0);
    redisReply *r = rlt_servers_command(s, 0, "GET k");
    CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
    CHECK_STREQ(r->str, "kept");
    freeReplyObject(r);
    rlt_servers_free(s);
}

TEST(servers_bad_arguments_fail_cleanly)
{
    char err[256] = "";
    CHECK(rlt_servers_start(0, NULL, err, sizeof err) == NULL);
    CHECK_NE(err[0], '\0');
    static const char *const bad[] = {"--no-such-option", "1", NULL};
    err[0] = '\0';
    CHECK(rlt_servers_start(1, bad, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "exited") != NULL, "err was \"%s\"", err);
}

TEST(servers_many_at_once)
{
    char err[256];
    rlt_servers *s = rlt_servers_start(7, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    for (int i = 0; i < 7; i++)
        CHECK(ping(s, i));
    rlt_servers_free(s);
}
