/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* server.c -- the server's own commands: the handshake's (AUTH, SELECT,
 * PING, CLIENT, TIME, INFO, CONFIG GET, HELLO), and a standalone master's
 * answers to a cluster client's (CLUSTER, ASKING, READONLY; WAIT with no
 * replica). */
#include <stdio.h>
#include <string.h>
#include "sim/master/internal.h"

#define SIM_REDIS_VERSION "7.0.15"

int sim_cmd_ping(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    if (argc > 2)
        return sim_put_arity(out, &argv[0]);
    if (m->cur && m->cur->nchans) {     /* RESP2 in subscribed mode */
        int rc = sim_put_array(out, 2) || sim_put_cstr(out, "pong");
        return rc || (argc == 2 ? sim_put_bulk(out, argv[1].p, argv[1].len) : sim_put_cstr(out, ""));
    }
    return argc == 2 ? sim_put_bulk(out, argv[1].p, argv[1].len) : sim_put_status(out, "PONG");
}

int sim_cmd_echo(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    (void)m;
    (void)argc;
    return sim_put_bulk(out, argv[1].p, argv[1].len);
}

int sim_cmd_time(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    char s[32], us[32];
    (void)argc;
    (void)argv;
    int ns = sim_fmt_ll(s, (long long)(m->now / 1000));
    int nu = sim_fmt_ll(us, (long long)(m->now % 1000) * 1000);
    return sim_put_array(out, 2) || sim_put_bulk(out, s, (size_t)ns) || sim_put_bulk(out, us, (size_t)nu);
}

static int section(const sim_arg *a, const char *name, int all)
{
    return all || sim_eq(a, name);
}

/* INFO [section ...]: server, persistence and replication carry what the
 * guards read (run_id, uptime_in_seconds, aof_*, role, master_replid2);
 * other sections are empty */
int sim_cmd_info(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    char t[2048];
    size_t n = 0;
    int all = argc == 1 || sim_eq(&argv[1], "all") || sim_eq(&argv[1], "default") ||
              sim_eq(&argv[1], "everything");
    int aof = m->cfg.appendonly && strcmp(m->cfg.appendonly, "yes") == 0;
    for (int i = all ? 0 : 1; i < (all ? 1 : argc); i++) {
        const sim_arg *a = &argv[all ? 0 : i];
        if (section(a, "server", all))
            n += (size_t)snprintf(t + n, sizeof t - n,
                                  "%s# Server\r\nredis_version:" SIM_REDIS_VERSION "\r\n"
                                  "redis_mode:%s\r\nos:sim\r\narch_bits:64\r\n"
                                  "process_id:1\r\nrun_id:%s\r\ntcp_port:%d\r\n"
                                  "server_time_usec:%lld\r\nuptime_in_seconds:%lld\r\n"
                                  "uptime_in_days:%lld\r\nhz:10\r\nexecutable:/sim/redis-server\r\n",
                                  n ? "\r\n" : "", m->cluster ? "cluster" : "standalone",
                                  m->run_id, m->cfg.port, (long long)m->now * 1000,
                                  (long long)(m->now - m->start) / 1000,
                                  (long long)(m->now - m->start) / 86400000);
        if (section(a, "persistence", all))
            n += (size_t)snprintf(t + n, sizeof t - n,
                                  "%s# Persistence\r\nloading:0\r\nasync_loading:0\r\n"
                                  "rdb_changes_since_last_save:%lld\r\nrdb_bgsave_in_progress:0\r\n"
                                  "aof_enabled:%d\r\naof_rewrite_in_progress:0\r\n"
                                  "aof_rewrite_scheduled:0\r\naof_rewrites:0\r\n"
                                  "aof_last_write_status:ok\r\n",
                                  n ? "\r\n" : "", m->dirty, aof);
        if (section(a, "replication", all) && m->cluster) {
            /* a cluster's node: its role and master_replid2 (cluster.c) */
            n += (size_t)snprintf(t + n, sizeof t - n, "%s", n ? "\r\n" : "");
            n += (size_t)sim_cluster_info_replication(m, t + n, sizeof t - n);
        } else if (section(a, "replication", all))
            n += (size_t)snprintf(t + n, sizeof t - n,
                                  "%s# Replication\r\nrole:master\r\nconnected_slaves:0\r\n"
                                  "master_failover_state:no-failover\r\nmaster_replid:%s\r\n"
                                  "master_replid2:0000000000000000000000000000000000000000\r\n"
                                  "master_repl_offset:0\r\nsecond_repl_offset:-1\r\n",
                                  n ? "\r\n" : "", m->replid);
        if (n >= sizeof t)
            n = sizeof t - 1;
    }
    return sim_put_bulk(out, t, n);
}

static const char *config_value(const sim_master *m, const sim_arg *name)
{
    if (sim_eq(name, "maxmemory-policy"))
        return m->cfg.maxmemory_policy ? m->cfg.maxmemory_policy : "noeviction";
    if (sim_eq(name, "appendonly"))
        return m->cfg.appendonly ? m->cfg.appendonly : "no";
    if (sim_eq(name, "appendfsync"))
        return m->cfg.appendfsync ? m->cfg.appendfsync : "everysec";
    if (sim_eq(name, "no-appendfsync-on-rewrite"))
        return "no";
    if (sim_eq(name, "save"))
        return m->cfg.save ? m->cfg.save : "3600 1 300 100 60 10000";
    if (sim_eq(name, "maxmemory"))
        return "0";
    return NULL;
}

/* CONFIG GET name ... (exact names; an unknown one is left out, as a
 * pattern matching nothing is) */
int sim_cmd_config(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    if (!sim_eq(&argv[1], "get")) {
        sim_fail(m, "CONFIG %.*s is not simulated", (int)argv[1].len, argv[1].p);
        return -1;
    }
    if (argc < 3)
        return sim_put_error(out, "ERR wrong number of arguments for 'config|get' command");
    long long n = 0;
    for (int i = 2; i < argc; i++)
        n += config_value(m, &argv[i]) != NULL;
    int rc = sim_put_array(out, 2 * n);
    for (int i = 2; i < argc && rc == 0; i++) {
        const char *v = config_value(m, &argv[i]);
        if (!v)
            continue;
        char name[64];
        size_t len = argv[i].len < sizeof name ? argv[i].len : sizeof name - 1;
        for (size_t j = 0; j < len; j++)
            name[j] = (char)(argv[i].p[j] >= 'A' && argv[i].p[j] <= 'Z' ? argv[i].p[j] + 32 : argv[i].p[j]);
        rc = sim_put_bulk(out, name, len) || sim_put_cstr(out, v);
    }
    return rc;
}

static int client_addr(char *t, size_t size, const sim_master *m, long long id)
{
    (void)m;
    return snprintf(t, size, "127.0.0.1:%lld", 20000 + id % 40000);
}

static int client_kill(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    long long id = -1;
    const sim_arg *addr = NULL;
    int skipme = 1;
    if (argc == 3) {                    /* the old form: CLIENT KILL addr:port */
        for (size_t i = 0; i < m->nconns; i++) {
            char a[64];
            int n = client_addr(a, sizeof a, m, m->conns[i]->id);
            if ((size_t)n == argv[2].len && memcmp(a, argv[2].p, (size_t)n) == 0) {
                sim_master_disconnect_killed(m, m->conns[i]->id);
                return sim_put_status(out, "OK");
            }
        }
        return sim_put_error(out, "ERR No such client");
    }
    if (argc % 2 == 1)
        return sim_put_syntax(out);
    for (int i = 2; i < argc; i += 2) {
        if (sim_eq(&argv[i], "id")) {
            if (sim_arg_ll(&argv[i + 1], &id) != 0 || id <= 0)
                return sim_put_error(out, "ERR client-id should be greater than 0");
        } else if (sim_eq(&argv[i], "addr")) {
            addr = &argv[i + 1];
        } else if (sim_eq(&argv[i], "skipme")) {
            skipme = !sim_eq(&argv[i + 1], "no");
        } else {
            return sim_put_syntax(out);
        }
    }
    long long killed = 0;
    for (size_t i = 0; i < m->nconns;) {
        sim_conn *c = m->conns[i];
        char a[64];
        int n = client_addr(a, sizeof a, m, c->id);
        if ((id < 0 || c->id == id) && (!addr || ((size_t)n == addr->len && memcmp(a, addr->p, addr->len) == 0)) &&
            !(skipme && c == m->cur)) {
            sim_master_disconnect_killed(m, c->id);
            killed++;
            continue;       /* conns[i] is another one now */
        }
        i++;
    }
    return sim_put_int(out, killed);
}

int sim_cmd_client(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    sim_conn *c = m->cur;
    char t[512];
    if (sim_eq(&argv[1], "id") && argc == 2)
        return sim_put_int(out, c ? c->id : 0);
    if (sim_eq(&argv[1], "info") && argc == 2) {
        char a[64];
        client_addr(a, sizeof a, m, c ? c->id : 0);
        int n = snprintf(t, sizeof t,
                         "id=%lld addr=%s laddr=127.0.0.1:%d fd=8 name=%.*s age=0 idle=0 flags=N "
                         "db=0 sub=%zu psub=0 ssub=0 multi=-1 qbuf=26 qbuf-free=20448 argv-mem=10 "
                         "multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=22298 events=r "
                         "cmd=client|info user=default redir=-1 resp=2\n",
                         c ? c->id : 0, a, m->cfg.port, c ? (int)c->name.len : 0,
                         c && c->name.p ? c->name.p : "", c ? c->nchans : 0);
        return sim_put_bulk(out, t, (size_t)n);
    }
    if (sim_eq(&argv[1], "setname") && argc == 3) {
        for (size_t i = 0; i < argv[2].len; i++)
            if (argv[2].p[i] <= ' ' || argv[2].p[i] > '~')
                return sim_put_error(out, "ERR Client names cannot contain spaces, newlines or "
                                          "special characters.");
        if (c && sim_str_set(&c->name, argv[2].p, argv[2].len))
            return -1;
        return sim_put_status(out, "OK");
    }
    if (sim_eq(&argv[1], "getname") && argc == 2)
        return c && c->name.len ? sim_put_bulk(out, c->name.p, c->name.len) : sim_put_nil(out);
    if (sim_eq(&argv[1], "kill") && argc >= 3)
        return client_kill(m, argc, argv, out);
    sim_fail(m, "CLIENT %.*s is not simulated", (int)argv[1].len, argv[1].p);
    return -1;
}

int sim_cmd_auth(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    const sim_arg *pass = &argv[argc - 1];
    if (argc > 3)
        return sim_put_syntax(out);
    if (!m->cfg.password && argc == 2)
        return sim_put_error(out, "ERR AUTH <password> called without any password configured for "
                                  "the default user. Are you sure your configuration is correct?");
    int ok = (argc == 2 || sim_eq(&argv[1], "default")) &&
             (m->cfg.password ? strlen(m->cfg.password) == pass->len &&
                                    memcmp(m->cfg.password, pass->p, pass->len) == 0
                              : 1);
    if (!ok)
        return sim_put_error(out, "WRONGPASS invalid username-password pair or user is disabled.");
    if (m->cur)
        m->cur->authed = 1;
    return sim_put_status(out, "OK");
}

int sim_cmd_select(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    long long db;
    (void)argc;
    if (sim_arg_ll(&argv[1], &db) != 0)
        return sim_put_notint(out);
    if (db < 0 || db >= 16)
        return sim_put_error(out, "ERR DB index is out of range");
    if (db != 0) {
        sim_fail(m, "SELECT %lld: only db 0 is simulated", db);
        return -1;
    }
    return sim_put_status(out, "OK");
}

/* HELLO [2]: RESP3 is not simulated */
int sim_cmd_hello(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    if (argc > 2 || (argc == 2 && !sim_eq(&argv[1], "2"))) {
        sim_fail(m, "HELLO %.*s is not simulated", (int)argv[1].len, argv[1].p);
        return -1;
    }
    if (m->cfg.password && m->cur && !m->cur->authed)
        return sim_put_error(out, "NOAUTH HELLO must be called with the client already authenticated, "
                                  "otherwise the HELLO <proto> AUTH <user> <pass> option can be used "
                                  "to authenticate the client and select the RESP protocol version at "
                                  "the same time");
    return sim_put_array(out, 14) || sim_put_cstr(out, "server") || sim_put_cstr(out, "redis") ||
           sim_put_cstr(out, "version") || sim_put_cstr(out, SIM_REDIS_VERSION) ||
           sim_put_cstr(out, "proto") || sim_put_int(out, 2) || sim_put_cstr(out, "id") ||
           sim_put_int(out, m->cur ? m->cur->id : 0) || sim_put_cstr(out, "mode") ||
           sim_put_cstr(out, m->cluster ? "cluster" : "standalone") || sim_put_cstr(out, "role") || sim_put_cstr(out, "master") ||
           sim_put_cstr(out, "modules") || sim_put_array(out, 0);
}

/* WAIT n timeout: a master without replicas acknowledges none (the real
 * one answers 0 after the timeout; the delay is not simulated) */
int sim_cmd_wait(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    long long n, t;
    (void)m;
    (void)argc;
    if (sim_arg_ll(&argv[1], &n) != 0 || sim_arg_ll(&argv[2], &t) != 0)
        return sim_put_notint(out);
    if (t < 0)
        return sim_put_error(out, "ERR timeout is negative");
    return sim_put_int(out, 0);
}

static int no_cluster(sim_buf *out)
{
    return sim_put_error(out, "ERR This instance has cluster support disabled");
}

int sim_cmd_cluster(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    if (m->cluster)
        return sim_cluster_command(m, argc, argv, out);
    return no_cluster(out);
}

/* ASKING: the next command may run on a slot this node imports */
int sim_cmd_asking(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    (void)argc;
    (void)argv;
    if (!m->cluster)
        return no_cluster(out);
    if (m->cur)
        m->cur->asking = 1;
    return sim_put_status(out, "OK");
}

int sim_cmd_readonly(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    (void)argc;
    (void)argv;
    return m->cluster ? sim_put_status(out, "OK") : no_cluster(out);
}

int sim_cmd_quit(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    (void)argc;
    (void)argv;
    if (m->cur)
        m->cur->quit = 1;
    return sim_put_status(out, "OK");
}
