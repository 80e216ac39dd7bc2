/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_first.c -- a newcomer's first run, as the README and
 * docs/getting-started.md tell it:
 *
 *   firstrun_basic_on_fsync_always_masters_succeeds
 *                         examples/basic on masters started a moment ago
 *                         with appendonly yes + appendfsync always: the
 *                         lock on the first try (the restart guard on, as
 *                         by default);
 *   firstrun_basic_on_fresh_masters_explains
 *                         on masters started a moment ago without
 *                         persistence: it fails, with the whole reason
 *                         (how long, why) and what to do;
 *   firstrun_wait_connected_text_whole
 *                         redlock_client_errstr names every master missing,
 *                         however many;
 *   firstrun_getting_started_commands
 *                         the first-lock commands of the README and of
 *                         docs/getting-started.md, run as written (on free
 *                         ports, in a temporary directory);
 *   firstrun_getting_started_drill
 *                         the page's failover drill with the redlock
 *                         command, run as written after them: it prints
 *                         what the page says.
 */
#include "itest.h"

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

static const char *const always[] = { "--appendonly", "yes", "--appendfsync", "always", NULL };

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return m <= n && strcmp(s + n - m, end) == 0;
}

/* examples/basic on s's masters, its stdout and stderr in out: its status. */
static int run_basic(rlt_servers *s, char *out, size_t size)
{
    char cmd[1024];
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "examples/basic");
    for (int i = 0; i < rlt_servers_count(s); i++)
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, " %s", rlt_servers_addr(s, i));
    CHECK_LT(len, sizeof cmd);
    return it_shell(cmd, out, size);
}

TEST(firstrun_basic_on_fsync_always_masters_succeeds)
{
    char out[4096];
    rlt_servers *s = it_start(3, always);
    CHECK_EQ(run_basic(s, out, sizeof out), 0);
    CHECK_MSG(it_has(out, "held for "), "basic: %s", out);
    rlt_servers_free(s);
}

TEST(firstrun_basic_on_fresh_masters_explains)
{
    char out[4096];
    rlt_servers *s = it_start(3, NULL);     /* no persistence */
    CHECK_EQ(run_basic(s, out, sizeof out), 1);
    /* the error line, whole: how long and why, to its end */
    char *line = strstr(out, "not acquired: ");
    CHECK_MSG(line != NULL, "basic: %s", out);
    char *nl = line ? strchr(line, '\n') : NULL;
    if (nl)
        *nl = '\0';
    CHECK_MSG(line && it_has(line, "not counted for 30.3 s after its start") &&
                  it_has(line, "the restart guard (a master without appendfsync always may "
                               "have lost its locks in a restart; docs/safety.md)") &&
                  ends_with(line, "docs/safety.md)"),
              "line: %s", line ? line : "");
    /* and what to do */
    CHECK_MSG(nl && it_has(nl + 1, "--appendonly yes --appendfsync always"), "basic: %s",
              nl ? nl + 1 : "");
    rlt_servers_free(s);
}

TEST(firstrun_wait_connected_text_whole)
{
    static const char *const addrs[] = { "127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3",
                                         "127.0.0.1:4", "127.0.0.1:5", "127.0.0.1:6",
                                         "127.0.0.1:7" };
    redlock_options o;
    it_opts(&o);
    redlock_client *c = it_client_addrs(addrs, 7, &o, 0);
    CHECK_NE(redlock_client_wait_connected(c, 4, 300), 0);
    const char *e = redlock_client_errstr(c);
    check_note("%zu bytes: %s", strlen(e), e);
    CHECK_MSG(strncmp(e, "0 of 7 masters connected, 4 needed; 127.0.0.1:1: ", 49) == 0, "%s", e);
    const char *last = strstr(e, "; 127.0.0.1:7: ");
    CHECK_MSG(last && !strchr(last + 2, ';') && strlen(last) > 16, "errstr: %s", e);
    CHECK_GT(strlen(e), 256);
    redlock_client_free(c);
}

/* A loopback port nothing listens on now (the kernel's pick). */
static int free_port(void)
{
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t len = sizeof sa;
    int fd = socket(AF_INET, SOCK_STREAM, 0), p = 0;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
        p = ntohs(sa.sin_port);
    if (fd >= 0)
        close(fd);
    CHECK_GT(p, 0);
    return p;
}

/* Replace every `from` in s (of size `size`) by `to`. */
static void replace_all(char *s, size_t size, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to);
    for (char *p = strstr(s, from); p; p = strstr(p + nt, from)) {
        CHECK_LT(strlen(s) - nf + nt, size);
        memmove(p + nt, p + nf, strlen(p + nf) + 1);
        memcpy(p, to, nt);
    }
}

/* The ```sh block after `marker` in `file`, appended to out. */
static void doc_block(const char *file, const char *marker, char *out, size_t size)
{
    static char text[65536];
    FILE *fp = fopen(file, "r");
    CHECK_MSG(fp != NULL, "%s", file);
    size_t n = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
    if (fp)
        fclose(fp);
    text[n] = '\0';
    const char *m = strstr(text, marker), *b = m ? strstr(m, "```sh\n") : NULL;
    const char *e = b ? strstr(b + 6, "```") : NULL;
    size_t have = strlen(out);
    CHECK_MSG(e != NULL, "%s: no block after %s", file, marker);
    CHECK_LT(have + (size_t)(e - b - 6), size);
    memcpy(out + have, b + 6, (size_t)(e - b - 6));
    out[have + (size_t)(e - b - 6)] = '\0';
}

static void shutdown_port(int port)
{
    redisContext *c = redisConnect("127.0.0.1", port);
    if (c && !c->err) {
        redisReply *r = redisCommand(c, "SHUTDOWN NOSAVE");     /* no reply: it is gone */
        if (r)
            freeReplyObject(r);
    }
    if (c)
        redisFree(c);
}

/* The blocks after `markers` (NULL-terminated) in `file`, run as written
 * (sh -e), on free ports instead of 7001..7003 and in a temporary directory
 * instead of /tmp; what they print into out. */
static void run_doc(const char *file, const char *const *markers, char *out, size_t size)
{
    char block[8192] = "", dir[] = "/tmp/rl-first.XXXXXX", to[64], cmd[8192];
    int port[3];
    for (size_t i = 0; markers[i]; i++)
        doc_block(file, markers[i], block, sizeof block);
    CHECK(mkdtemp(dir) != NULL);
    for (int i = 0; i < 3; i++) {
        char from[8];
        port[i] = free_port();
        snprintf(from, sizeof from, "700%d", i + 1);
        snprintf(to, sizeof to, "%d", port[i]);
        replace_all(block, sizeof block, from, to);
    }
    snprintf(to, sizeof to, "%s/redlock-", dir);
    replace_all(block, sizeof block, "/tmp/redlock-", to);
    CHECK_MSG(!it_has(block, "7001") && !it_has(block, "/tmp/redlock-"), "%s", block);
    snprintf(cmd, sizeof cmd, "%s/first-lock.sh", dir);
    FILE *fp = fopen(cmd, "w");
    CHECK(fp != NULL && fputs(block, fp) >= 0 && fclose(fp) == 0);
    snprintf(cmd, sizeof cmd, "sh -e %s/first-lock.sh", dir);
    int rc = it_shell(cmd, out, size);
    for (int i = 0; i < 3; i++)
        shutdown_port(port[i]);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ(system(cmd), 0);
    CHECK_MSG(rc == 0, "%s: exit %d: %s", file, rc, out);
}

#define FIRST_LOCK "<!-- first-lock"

TEST(firstrun_getting_started_commands)
{
    static const char *const first[] = { FIRST_LOCK, NULL };
    char out[8192];
    run_doc("docs/getting-started.md", first, out, sizeof out);
    CHECK_MSG(it_has(out, "held for "), "%s", out);
    run_doc("README.md", first, out, sizeof out);
    CHECK_MSG(it_has(out, "held for "), "%s", out);
}

/* The failover drill: what the page says it prints, in that order. */
TEST(firstrun_getting_started_drill)
{
    static const char *const drill[] = { FIRST_LOCK, "<!-- drill", NULL };
    static const char *const says[] = { "second job: exit 1\n", "after the crash: exit 1\n",
                                        "first job: exit 75\n", "a new job holds it\n" };
    char out[8192];
    run_doc("docs/getting-started.md", drill, out, sizeof out);
    const char *at = out;
    for (size_t i = 0; i < sizeof says / sizeof *says; i++) {
        const char *p = strstr(at, says[i]);
        CHECK_MSG(p != NULL, "no \"%s\" after the previous line in: %s", says[i], out);
        at = p ? p : at;
    }
}
