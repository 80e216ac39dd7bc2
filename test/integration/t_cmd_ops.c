/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_cmd_ops.c -- `redlock acquire`, `extend`, `release` and `status` end to
 * end: cmd/redlock run as separate processes against real redis-servers,
 * one process acquiring and others extending and releasing by the value
 * it printed; --json checked by a strict reader (json_check.c). */
#include "itest.h"
#include "json_check.h"
#include "openmetrics.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <hiredis/hiredis.h>

#define REDLOCK_BIN "cmd/redlock"
#define OUT_MAX 65536

struct out {
    int exit;
    char out[OUT_MAX], err[8192];
};

static void read_file(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t k = 0;
    CHECK_MSG(f != NULL, "%s: %s", path, strerror(errno));
    k = fread(buf, 1, n - 1, f);
    buf[k] = '\0';
    fclose(f);
}

/* Run cmd/redlock with the NULL-ended words after "redlock" (the nodes
 * come from $REDLOCK_NODES); its exit code, stdout and stderr in *o. */
static void rl(struct out *o, const char *first, ...)
{
    const char *argv[64];
    char pout[512], perr[512];
    const char *t = getenv("TMPDIR");
    int argc = 0, st = 0;
    va_list ap;
    pid_t pid;

    argv[argc++] = "redlock";
    va_start(ap, first);
    for (const char *a = first; a && argc < 63; a = va_arg(ap, const char *))
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    snprintf(pout, sizeof pout, "%s/cmdops.%d.out", t && *t ? t : "/tmp", (int)getpid());
    snprintf(perr, sizeof perr, "%s/cmdops.%d.err", t && *t ? t : "/tmp", (int)getpid());
    fflush(NULL);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        int fo = open(pout, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(perr, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0 || fe < 0)
            _exit(111);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(REDLOCK_BIN, (char *const *)argv);
        _exit(111);
    }
    int64_t end = check_now_ms() + 20000;
    pid_t got;
    while ((got = waitpid(pid, &st, WNOHANG)) == 0 && check_now_ms() < end)
        it_sleep_ms(2);
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
    }
    CHECK_MSG(got == pid, "redlock %s still running after 20 s", first);
    CHECK_MSG(WIFEXITED(st), "redlock %s ended by signal %d", first, WTERMSIG(st));
    o->exit = WEXITSTATUS(st);
    read_file(pout, o->out, sizeof o->out);
    read_file(perr, o->err, sizeof o->err);
    unlink(pout);
    unlink(perr);
    check_note("redlock %s: exit %d, stdout: %s, stderr: %s", first, o->exit, o->out, o->err);
}

/* $REDLOCK_NODES: the fixture's servers; fresh servers count at once. */
static void use_nodes(rlt_servers *s)
{
    char buf[1024];
    size_t len = 0;
    for (int i = 0; i < rlt_servers_count(s); i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? "," : "",
                                rlt_servers_addr(s, i));
    CHECK_EQ(setenv("REDLOCK_NODES", buf, 1), 0);
    CHECK_EQ(unsetenv("REDLOCK_CONFIG"), 0);
}

/* The first line of out into line (no newline). */
static void first_line(const char *out, char *line, size_t n, int which)
{
    const char *p = out;
    for (int k = 0; k < which && p; k++)
        p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    CHECK(p != NULL && *p);
    size_t len = strcspn(p, "\n");
    CHECK_LT(len, n);
    memcpy(line, p, len);
    line[len] = '\0';
}

/* stderr is one line "redlock: <sub>: ..." containing what. */
static void one_error_line(const struct out *o, const char *sub, const char *what)
{
    char head[64];
    snprintf(head, sizeof head, "redlock: %s: ", sub);
    CHECK_MSG(strncmp(o->err, head, strlen(head)) == 0, "stderr: %s", o->err);
    CHECK_MSG(strchr(o->err, '\n') == o->err + strlen(o->err) - 1, "not one line: %s", o->err);
    CHECK_MSG(it_has(o->err, what), "stderr without \"%s\": %s", what, o->err);
}

/* stdout is one valid JSON object; value at path into buf. */
static void check_json(const struct out *o)
{
    char why[128];
    CHECK_MSG(json_valid(o->out, strlen(o->out), why, sizeof why) == 0, "not JSON (%s): %s", why,
              o->out);
    CHECK(o->out[0] == '{');
    for (const unsigned char *p = (const unsigned char *)o->out; *p; p++)
        CHECK_MSG(*p < 0x80 && (*p >= 0x20 || *p == '\n'), "byte 0x%02x in the JSON", *p);
}

static const char *jget(const struct out *o, const char *path, char *buf, size_t n)
{
    CHECK_MSG(json_get(o->out, path, buf, n) >= 0, "no %s in %s", path, o->out);
    return buf;
}

static long long jnum(const struct out *o, const char *path)
{
    char buf[64];
    return atoll(jget(o, path, buf, sizeof buf));
}

/* Poll until key's PTTL on server i is above min (an extend decided at the
 * quorum reaches the last master a moment after the command exits). */
static long long pttl_above(rlt_servers *s, int i, const char *key, long long min)
{
    long long t = -3;
    for (int tries = 0; tries < 400 && (t = it_pttl(s, i, key, strlen(key))) <= min; tries++)
        it_sleep_ms(5);
    return t;
}

#define RG "--restart-guard", "0"

/* One process acquires; another is refused (1, or -E's code); others
 * extend and release by the value it printed; a wrong value is refused
 * with 75 and leaves the lock as it was. */
TEST(cmd_acquire_extend_release_across_processes)
{
    struct it_fix f = {0};
    struct out *o = calloc(1, sizeof *o);
    char v[256];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    use_nodes(f.s);

    rl(o, "acquire", RG, "--ttl", "20000", "co-a", NULL);
    CHECK_EQ(o->exit, 0);
    first_line(o->out, v, sizeof v, 0);
    CHECK_GT(strlen(v), 8);
    CHECK_EQ(it_wait_count(f.s, "co-a", 4, 3, 2000), 3);
    CHECK_EQ(it_count_value(f.s, "co-a", 4, v, strlen(v)), 3);
    CHECK_GT(it_pttl(f.s, 0, "co-a", 4), 10000);    /* lives on after the process */

    rl(o, "acquire", RG, "-n", "co-a", NULL);
    CHECK_EQ(o->exit, 1);
    one_error_line(o, "acquire", "held elsewhere");
    rl(o, "acquire", RG, "-n", "-E", "7", "co-a", NULL);
    CHECK_EQ(o->exit, 7);
    rl(o, "acquire", RG, "-w", "1", "co-a", NULL);
    CHECK_EQ(o->exit, 1);

    rl(o, "extend", RG, "--value", v, "--ttl", "60000", "co-a", NULL);
    CHECK_EQ(o->exit, 0);
    for (int i = 0; i < 3; i++)
        CHECK_GT(pttl_above(f.s, i, "co-a", 30000), 30000);

    rl(o, "extend", RG, "--value", "not-the-value", "co-a", NULL);
    CHECK_EQ(o->exit, 75);
    one_error_line(o, "extend", "not the owner");
    rl(o, "release", RG, "--value", "not-the-value", "co-a", NULL);
    CHECK_EQ(o->exit, 75);
    CHECK_EQ(it_count_value(f.s, "co-a", 4, v, strlen(v)), 3);
    CHECK_GT(it_pttl(f.s, 2, "co-a", 4), 30000);

    rl(o, "release", RG, "--value", v, "co-a", NULL);
    CHECK_EQ(o->exit, 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "co-a", 4), 0);
    rl(o, "release", RG, "--value", v, "co-a", NULL);
    CHECK_EQ(o->exit, 75);
    rl(o, "extend", RG, "--value", v, "co-a", NULL);
    CHECK_EQ(o->exit, 75);
    rl(o, "acquire", RG, "-n", "co-a", NULL);
    CHECK_EQ(o->exit, 0);
    free(o);
    it_fix_stop(&f);
}

/* Every kind the command offers is extended and released by value from
 * another process: readers, a fenced writer, several resources. */
TEST(cmd_every_kind_released_by_value_from_another_process)
{
    struct it_fix f = {0};
    struct out *o = calloc(1, sizeof *o);
    char r1[256], r2[256], w[256], tok[64], m[256];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    use_nodes(f.s);

    rl(o, "acquire", RG, "--read", "co-rw", NULL);
    CHECK_EQ(o->exit, 0);
    first_line(o->out, r1, sizeof r1, 0);
    rl(o, "acquire", RG, "--read", "co-rw", NULL);
    CHECK_EQ(o->exit, 0);
    first_line(o->out, r2, sizeof r2, 0);
    rl(o, "acquire", RG, "-n", "--write", "co-rw", NULL);
    CHECK_EQ(o->exit, 1);
    one_error_line(o, "acquire", "readers");
    rl(o, "extend", RG, "--read", "--value", r1, "--ttl", "60000", "co-rw", NULL);
    CHECK_EQ(o->exit, 0);
    rl(o, "release", RG, "--read", "--value", r1, "co-rw", NULL);
    CHECK_EQ(o->exit, 0);
    rl(o, "acquire", RG, "-n", "--write", "co-rw", NULL);
    CHECK_EQ(o->exit, 1);                   /* the second reader still holds */
    rl(o, "release", RG, "--read", "--value", r2, "co-rw", NULL);
    CHECK_EQ(o->exit, 0);

    rl(o, "acquire", RG, "-n", "--write", "--fencing", "co-rw", NULL);
    CHECK_EQ(o->exit, 0);
    first_line(o->out, w, sizeof w, 0);
    first_line(o->out, tok, sizeof tok, 1);
    CHECK_GT(atoll(tok), 0);
    rl(o, "acquire", RG, "-n", "--read", "co-rw", NULL);
    CHECK_EQ(o->exit, 1);
    one_error_line(o, "acquire", "writer");
    rl(o, "extend", RG, "--write", "--value", w, "co-rw", NULL);
    CHECK_EQ(o->exit, 0);
    rl(o, "release", RG, "--write", "--value", w, "co-rw", NULL);
    CHECK_EQ(o->exit, 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "co-rw", 5), 0);

    rl(o, "acquire", RG, "co-m1", "co-m2", NULL);
    CHECK_EQ(o->exit, 0);
    first_line(o->out, m, sizeof m, 0);
    CHECK_EQ(it_wait_count(f.s, "co-m2", 5, 3, 2000), 3);
    rl(o, "acquire", RG, "-n", "co-m2", NULL);
    CHECK_EQ(o->exit, 1);
    rl(o, "extend", RG, "--value", m, "--ttl", "60000", "co-m2", "co-m1", NULL);
    CHECK_EQ(o->exit, 0);
    CHECK_GT(pttl_above(f.s, 1, "co-m1", 30000), 30000);
    rl(o, "release", RG, "--value", m, "co-m1", "co-m2", NULL);
    CHECK_EQ(o->exit, 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "co-m1", 5) + rlt_servers_count_key(f.s, "co-m2", 5), 0);
    free(o);
    it_fix_stop(&f);
}

/* status: the holder and its time left on every master, the quorum's
 * view; a killed master is shown down, the rest still right. */
TEST(cmd_status_shows_holders_and_a_down_master)
{
    struct it_fix f = {0};
    struct out *o = calloc(1, sizeof *o);
    char v[256], line[512], buf[512];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    use_nodes(f.s);

    rl(o, "status", "co-s", NULL);
    CHECK_EQ(o->exit, 0);
    CHECK(it_has(o->out, "quorum  none"));

    rl(o, "acquire", RG, "--ttl", "40000", "co-s", NULL);
    CHECK_EQ(o->exit, 0);
    first_line(o->out, v, sizeof v, 0);
    CHECK_EQ(it_wait_count(f.s, "co-s", 4, 3, 2000), 3);
    rl(o, "status", "co-s", NULL);
    CHECK_EQ(o->exit, 0);
    for (int i = 0; i < 3; i++) {
        long long ttl = -1;
        snprintf(buf, sizeof buf, "node %d %s  mutex  holders 1  ttl ", i,
                 rlt_servers_addr(f.s, i));
        CHECK_MSG(it_has(o->out, buf), "no \"%s\" in %s", buf, o->out);
        first_line(strstr(o->out, buf), line, sizeof line, 0);
        CHECK_EQ(sscanf(line + strlen(buf), "%lld", &ttl), 1);
        CHECK_GT(ttl, 30000);
        CHECK_LE(ttl, 40000);
        first_line(strstr(o->out, buf), line, sizeof line, 1);
        CHECK(it_has(line, v));
    }
    CHECK(it_has(o->out, "quorum  mutex  holders 1  ttl "));

    /* a re-entrant key shows its owner, a writer's mark is told, a key
     * without a ttl is no lock's */
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS, "SET co-re 5:alice=v1 PX 60000");
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_INTEGER, "HSET {co-re}:ww w x");
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS, "SET co-o v");
    rl(o, "status", "co-re", NULL);
    CHECK(it_has(o->out, "quorum  reentrant  holders 1  ttl "));
    CHECK(it_has(o->out, "owner alice  writer waiting\n    v1  ttl "));
    rl(o, "status", "--json", "co-re", NULL);
    check_json(o);
    CHECK_STREQ(jget(o, "quorum_view.owner", buf, sizeof buf), "alice");
    CHECK_STREQ(jget(o, "masters.1.writer_waiting", buf, sizeof buf), "true");
    rl(o, "status", "--json", "co-o", NULL);
    check_json(o);
    CHECK_STREQ(jget(o, "masters.0.kind", buf, sizeof buf), "other");
    CHECK_EQ(jnum(o, "masters.0.ttl_ms"), -1);

    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    rl(o, "status", "--json", "co-s", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_STREQ(jget(o, "masters.2.result", buf, sizeof buf), "down");
    CHECK(jget(o, "masters.2.detail", buf, sizeof buf)[0] != '\0');
    CHECK_STREQ(jget(o, "masters.0.result", buf, sizeof buf), "ok");
    CHECK_STREQ(jget(o, "masters.1.values.0.value", buf, sizeof buf), v);
    CHECK_STREQ(jget(o, "quorum_view.kind", buf, sizeof buf), "mutex");
    CHECK_STREQ(jget(o, "quorum_view.values.0.value", buf, sizeof buf), v);
    CHECK_EQ(jnum(o, "quorum_view.values.0.masters"), 2);
    CHECK_GT(jnum(o, "quorum_view.ttl_ms"), 20000);
    rl(o, "status", "co-s", NULL);
    snprintf(buf, sizeof buf, "node 2 %s  down", rlt_servers_addr(f.s, 2));
    CHECK_MSG(it_has(o->out, buf), "no \"%s\" in %s", buf, o->out);

    /* no quorum reachable: 69, for status as for extend */
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    rl(o, "status", "--json", "co-s", NULL);
    CHECK_EQ(o->exit, 69);
    check_json(o);
    CHECK_EQ(jnum(o, "exit"), 69);
    rl(o, "extend", "--value", v, "co-s", NULL);
    CHECK_EQ(o->exit, 69);
    free(o);
    it_fix_stop(&f);
}

/* --json: one object on stdout for every outcome, errors included, with
 * the facts the masters show. */
TEST(cmd_json_output_carries_the_facts)
{
    struct it_fix f = {0};
    struct out *o = calloc(1, sizeof *o);
    char v[256], buf[512];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    use_nodes(f.s);

    rl(o, "acquire", RG, "--json", "--fencing", "--ttl", "20000", "co-j", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_STREQ(jget(o, "ok", buf, sizeof buf), "true");
    CHECK_EQ(jnum(o, "exit"), 0);
    CHECK_STREQ(jget(o, "command", buf, sizeof buf), "acquire");
    CHECK_STREQ(jget(o, "kind", buf, sizeof buf), "mutex");
    CHECK_STREQ(jget(o, "resources.0", buf, sizeof buf), "co-j");
    jget(o, "value", v, sizeof v);
    CHECK_EQ(it_wait_count(f.s, "co-j", 4, 3, 2000), 3);
    CHECK_EQ(it_count_value(f.s, "co-j", 4, v, strlen(v)), 3);
    CHECK_GT(jnum(o, "token"), 0);
    CHECK_GT(jnum(o, "validity_ms"), 10000);
    CHECK_GE(jnum(o, "nodes_ok"), 2);
    CHECK_EQ(jnum(o, "quorum"), 2);
    int oks = 0;
    for (int i = 0; i < 3; i++) {       /* decided at the quorum: one may be late */
        char path[32];
        snprintf(path, sizeof path, "nodes.%d.result", i);
        if (strcmp(jget(o, path, buf, sizeof buf), "ok") != 0) {
            CHECK_STREQ(buf, "none");
            continue;
        }
        oks++;
        snprintf(path, sizeof path, "nodes.%d.rtt_us", i);
        CHECK_GE(jnum(o, path), 0);
        snprintf(path, sizeof path, "nodes.%d.detail", i);
        CHECK_STREQ(jget(o, path, buf, sizeof buf), "");
    }
    CHECK_EQ(oks, jnum(o, "nodes_ok"));
    CHECK_EQ(jnum(o, "ttl_ms"), 20000);
    CHECK_STREQ(jget(o, "nodes.1.address", buf, sizeof buf), rlt_servers_addr(f.s, 1));

    rl(o, "acquire", RG, "--json", "-n", "co-j", NULL);
    CHECK_EQ(o->exit, 1);
    check_json(o);
    CHECK_STREQ(jget(o, "ok", buf, sizeof buf), "false");
    CHECK_EQ(jnum(o, "exit"), 1);
    CHECK(it_has(jget(o, "error", buf, sizeof buf), "held elsewhere"));
    int refused = 0;
    for (int i = 0; i < 3; i++) {       /* lost once 2 refused: the third may be late */
        char path[32];
        snprintf(path, sizeof path, "nodes.%d.result", i);
        if (strcmp(jget(o, path, buf, sizeof buf), "refused") == 0)
            refused++;
        else
            CHECK_STREQ(buf, "none");
    }
    CHECK_GE(refused, 2);

    rl(o, "release", RG, "--json", "--value", "wrong", "co-j", NULL);
    CHECK_EQ(o->exit, 75);
    check_json(o);
    CHECK_EQ(jnum(o, "exit"), 75);
    CHECK(it_has(jget(o, "error", buf, sizeof buf), "not the owner"));

    rl(o, "status", "--json", "co-j", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_EQ(jnum(o, "quorum"), 2);
    CHECK_STREQ(jget(o, "masters.0.kind", buf, sizeof buf), "mutex");
    CHECK_EQ(jnum(o, "masters.0.holders"), 1);
    CHECK_STREQ(jget(o, "masters.2.values.0.value", buf, sizeof buf), v);
    CHECK_GT(jnum(o, "masters.2.ttl_ms"), 10000);
    CHECK_STREQ(jget(o, "quorum_view.owner", buf, sizeof buf), "null");

    rl(o, "extend", RG, "--json", "--value", v, "--ttl", "30000", "co-j", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_GT(jnum(o, "validity_ms"), 20000);
    rl(o, "release", RG, "--json", "--value", v, "co-j", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_EQ(jnum(o, "nodes_ok"), 3);

    /* errors before any operation: still one object */
    rl(o, "extend", "--json", "co-j", NULL);
    CHECK_EQ(o->exit, 64);
    check_json(o);
    CHECK_EQ(jnum(o, "exit"), 64);
    CHECK(it_has(jget(o, "error", buf, sizeof buf), "--value"));
    one_error_line(o, "extend", "--value V is needed");
    rl(o, "status", "--json", "{co", NULL);
    CHECK_EQ(o->exit, 64);
    check_json(o);
    CHECK(it_has(jget(o, "error", buf, sizeof buf), "starts with '{'"));
    rl(o, "status", "--json", "a", "b", NULL);
    CHECK_EQ(o->exit, 64);
    check_json(o);
    rl(o, "acquire", "--value", v, "co-j", NULL);
    CHECK_EQ(o->exit, 64);
    one_error_line(o, "acquire", "--value is for extend and release");
    rl(o, "release", "--fencing", "--value", v, "co-j", NULL);
    CHECK_EQ(o->exit, 64);
    one_error_line(o, "release", "--fencing is for acquire");
    free(o);
    it_fix_stop(&f);
}

/* A resource of odd bytes (controls, quote, backslash, DEL, UTF-8 and a
 * byte that is no UTF-8): the JSON stays ASCII and valid, and gives the
 * bytes back; the text output shows them as \xNN. */
TEST(cmd_json_escapes_odd_resource_names)
{
    static const char res[] = "o\x01\x1f\"\\\n\t\x7f\xc3\xa9\xff b";
    struct out *o = calloc(1, sizeof *o);
    struct it_fix f = {0};
    char buf[512];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    use_nodes(f.s);

    rl(o, "acquire", RG, "--json", res, NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_EQ(json_get(o->out, "resources.0", buf, sizeof buf), (long)strlen(res));
    CHECK(memcmp(buf, res, strlen(res)) == 0);
    CHECK(it_has(o->out, "\\u0001\\u001f\\\"\\\\\\n\\t\\u007f\\u00c3\\u00a9\\u00ff b"));
    CHECK_EQ(it_wait_count(f.s, res, strlen(res), 3, 2000), 3);

    rl(o, "status", "--json", res, NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_EQ(json_get(o->out, "resource", buf, sizeof buf), (long)strlen(res));
    CHECK(memcmp(buf, res, strlen(res)) == 0);
    CHECK_STREQ(jget(o, "quorum_view.kind", buf, sizeof buf), "mutex");
    rl(o, "status", res, NULL);
    CHECK(it_has(o->out, "resource o\\x01\\x1f\"\\x5c\\x0a\\x09\\x7f\\xc3\\xa9\\xff b  masters 3"));
    free(o);
    it_fix_stop(&f);
}

/* The strict reader the tests above trust. */
TEST(cmd_json_check_is_strict)
{
    static const char *const good[] = {
        "{}", "[]", " {\"a\":[1,-2.5e+3,0,true,false,null,\"\\u00e9\\ud83d\\ude00\"]} ",
        "\"\xc3\xa9\"", "0", "{\"a\":{\"b\":[{}]}}" };
    static const char *const bad[] = {
        "", "{", "{\"a\":1,}", "[1,]", "{a:1}", "\"\x01\"", "\"\\x41\"", "01", "1.", "-",
        "\"\xff\"", "\"\xc0\xaf\"", "\"\\ud800\"", "\"\\udc00x\"", "{} {}", "[1 2]", "tru",
        "\"abc", "{\"a\" 1}", "+1" };
    char why[128], buf[64];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK_MSG(json_valid(good[i], strlen(good[i]), why, sizeof why) == 0, "%s: %s", good[i],
                  why);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(json_valid(bad[i], strlen(bad[i]), why, sizeof why) != 0, "accepted %s", bad[i]);
    CHECK_EQ(json_get("{\"a\":[1,{\"b\":\"x\\u00ffy\"}]}", "a.1.b", buf, sizeof buf), 3);
    CHECK(memcmp(buf, "x\xffy", 3) == 0);
    CHECK_EQ(json_get("{\"a\":[1,{\"b\":2}]}", "a.0", buf, sizeof buf), 1);
    CHECK_STREQ(buf, "1");
    CHECK_EQ(json_get("{\"a\":[1]}", "a.1", buf, sizeof buf), -1);
    CHECK_EQ(json_get("{\"a\":[1]}", "b", buf, sizeof buf), -1);
}

/* status --metrics: the client's metrics as OpenMetrics text (a strict
 * parser reads them), after the inspection; a master down shows as down;
 * with --json, the same text in "metrics". */
TEST(cmd_status_metrics_are_openmetrics)
{
    struct it_fix f = {0};
    struct out *o = calloc(1, sizeof *o);
    char key[256];
    char *text = malloc(OUT_MAX);
    om_doc d = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    use_nodes(f.s);
    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);

    rl(o, "status", "--metrics", "co-met", NULL);
    CHECK_EQ(o->exit, 0);
    CHECK_MSG(om_parse(&d, o->out, strlen(o->out)) == 0, "%s", d.err);
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "redlock_node_up{node=\"%s\"}", rlt_servers_addr(f.s, i));
        CHECK_EQ(om_value(&d, key), i < 2 ? 1 : 0);
    }
    om_free(&d);
    CHECK(!it_has(o->out, "quorum  none"));     /* the metrics alone */

    rl(o, "status", "--metrics", NULL);
    CHECK_EQ(o->exit, 0);
    memset(&d, 0, sizeof d);
    CHECK_MSG(om_parse(&d, o->out, strlen(o->out)) == 0, "%s", d.err);
    om_free(&d);

    rl(o, "status", "--metrics", "--json", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_GT(json_get(o->out, "metrics", text, OUT_MAX), 0);
    CHECK_EQ(json_get(o->out, "quorum_view", text, OUT_MAX), -1);

    rl(o, "status", "--metrics", "--json", "co-met", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_STREQ(jget(o, "quorum_view.kind", key, sizeof key), "none");
    CHECK_GT(json_get(o->out, "metrics", text, OUT_MAX), 0);
    memset(&d, 0, sizeof d);
    CHECK_MSG(om_parse(&d, text, strlen(text)) == 0, "%s", d.err);
    snprintf(key, sizeof key, "redlock_node_up{node=\"%s\"}", rlt_servers_addr(f.s, 0));
    CHECK_EQ(om_value(&d, key), 1);
    om_free(&d);
    free(text);
    free(o);
    it_fix_stop(&f);
}

/* --permits P: a semaphore from the command line: P holders, then a
 * refusal; another count is a configuration error (78) that leaves the
 * masters as they were; release by value; status shows the semaphore and
 * its count; the quorum reported (acquire, status) is the semaphore's;
 * run holds a permit; bad combinations are usage errors. */
TEST(cmd_semaphore_permits)
{
    struct it_fix f = {0};
    struct out *o = calloc(1, sizeof *o);
    char v1[256], v2[256], json[64];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    use_nodes(f.s);

    rl(o, "acquire", RG, "--permits", "2", "co-sem", NULL);
    CHECK_EQ(o->exit, 0);
    first_line(o->out, v1, sizeof v1, 0);
    rl(o, "acquire", RG, "--permits", "2", "--json", "co-sem", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_STREQ(jget(o, "kind", json, sizeof json), "semaphore");
    CHECK_EQ(jnum(o, "quorum"), 3);         /* 2 permits on 3 masters: all 3, not 2 */
    CHECK_EQ(jnum(o, "nodes_ok"), 3);
    jget(o, "value", v2, sizeof v2);
    rl(o, "acquire", RG, "-n", "--permits", "2", "co-sem", NULL);
    CHECK_EQ(o->exit, 1);
    one_error_line(o, "acquire", "all 2 permits are held");
    rl(o, "acquire", RG, "--permits", "3", "co-sem", NULL);
    CHECK_EQ(o->exit, 78);
    one_error_line(o, "acquire", "permit count mismatch");
    CHECK_EQ(rlt_servers_count_key(f.s, "co-sem", 6), 3);

    rl(o, "status", RG, "co-sem", NULL);
    CHECK_EQ(o->exit, 0);
    CHECK(it_has(o->out, "semaphore  holders 2"));
    CHECK(it_has(o->out, "permits 2"));
    CHECK(it_has(o->out, "masters 3  quorum 3"));
    CHECK(it_has(o->out, v1) && it_has(o->out, v2));
    rl(o, "status", RG, "--json", "co-sem", NULL);
    CHECK_EQ(o->exit, 0);
    check_json(o);
    CHECK_EQ(jnum(o, "quorum_view.permits"), 2);
    CHECK_EQ(jnum(o, "quorum"), 3);

    rl(o, "extend", RG, "--permits", "2", "--value", v1, "--ttl", "60000", "co-sem", NULL);
    CHECK_EQ(o->exit, 0);
    rl(o, "release", RG, "--permits", "2", "--value", v1, "co-sem", NULL);
    CHECK_EQ(o->exit, 0);
    rl(o, "release", RG, "--permits", "2", "--value", v1, "co-sem", NULL);
    CHECK_EQ(o->exit, 75);                  /* no longer a holder */
    rl(o, "run", RG, "-n", "--permits", "2", "co-sem", "--", "true", NULL);
    CHECK_EQ(o->exit, 0);
    rl(o, "release", RG, "--permits", "2", "--value", v2, "co-sem", NULL);
    CHECK_EQ(o->exit, 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "co-sem", 6), 0);

    rl(o, "acquire", RG, "--permits", "2", "--read", "co-sem", NULL);
    CHECK_EQ(o->exit, 64);
    one_error_line(o, "acquire", "--permits excludes --read and --write");
    rl(o, "acquire", RG, "--permits", "2", "co-a", "co-b", NULL);
    CHECK_EQ(o->exit, 64);
    rl(o, "acquire", RG, "--permits", "0", "co-sem", NULL);
    CHECK_EQ(o->exit, 64);
    rl(o, "acquire", RG, "--permits", "1025", "co-sem", NULL);
    CHECK_EQ(o->exit, 64);
    free(o);
    it_fix_stop(&f);
}
