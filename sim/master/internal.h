/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* internal.h -- the simulated master's insides, shared by its files (each one
 * job: resp_in.c parses requests, reply.c writes replies, keyspace.c
 * holds keys, t_*.c are the commands by data type, server.c the server's
 * own commands, lua.c the scripts, commands.c the table, master.c the
 * API of master.h). */
#ifndef SIM_MASTER_INTERNAL_H
#define SIM_MASTER_INTERNAL_H

#include "sim/master.h"

typedef struct sim_arg {
    const char *p;
    size_t len;
} sim_arg;

/* ---- resp_in.c: one request at a time out of a connection's input ---- */
typedef struct sim_req {
    sim_buf in;             /* bytes not yet parsed, from `pos` */
    size_t pos;
    sim_arg *argv;          /* the request parsed, pointing into `in` */
    int argc, cap;
} sim_req;
/* 1 a request in r->argv, 0 more bytes needed, -1 a protocol error
 * (its text in *why) */
int sim_req_next(sim_req *r, const char **why);
void sim_req_compact(sim_req *r);
void sim_req_free(sim_req *r);

/* ---- reply.c: RESP2 replies ---- */
int sim_put_status(sim_buf *b, const char *s);
int sim_put_error(sim_buf *b, const char *s);   /* s without "-" */
int sim_put_errorf(sim_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sim_put_int(sim_buf *b, long long v);
int sim_put_bulk(sim_buf *b, const char *p, size_t len);
int sim_put_cstr(sim_buf *b, const char *s);
int sim_put_nil(sim_buf *b);
int sim_put_nil_array(sim_buf *b);
int sim_put_array(sim_buf *b, long long n);
int sim_put_double(sim_buf *b, double d);       /* a score, as Redis 7 writes it (bulk) */
int sim_format_double(char *out, size_t size, double d);
int sim_put_wrongtype(sim_buf *b);
int sim_put_syntax(sim_buf *b);
int sim_put_arity(sim_buf *b, const sim_arg *cmd);
int sim_put_notint(sim_buf *b);

/* ---- keyspace.c: keys with expiry, in the master's ms ---- */
enum { SIM_STRING = 1, SIM_HASH, SIM_SET, SIM_ZSET };

typedef struct sim_str {
    char *p;
    size_t len;
} sim_str;

typedef struct sim_zent {
    double score;
    sim_str m;
} sim_zent;

typedef struct sim_key {
    struct sim_key *next;
    uint64_t hash;
    int64_t expire_at;      /* master ms; -1: none */
    int type;
    sim_str name;
    sim_str s;              /* SIM_STRING */
    /* SIM_HASH: 2n strings (field, value) in insertion order; SIM_SET: n
     * members in insertion order; SIM_ZSET: zents by (score, member) */
    void *items;
    size_t n, cap;
} sim_key;

typedef struct sim_keyspace {
    sim_key **bucket;
    size_t nbucket, count;
} sim_keyspace;

int sim_ks_init(sim_keyspace *ks);
void sim_ks_clear(sim_keyspace *ks);
void sim_ks_free(sim_keyspace *ks);
/* the live key, NULL when absent (an expired one is deleted on the way) */
sim_key *sim_ks_find(sim_keyspace *ks, const char *name, size_t len, int64_t now);
/* a new empty key of `type` (the name must be absent), NULL out of memory */
sim_key *sim_ks_add(sim_keyspace *ks, const char *name, size_t len, int type);
void sim_ks_del(sim_keyspace *ks, sim_key *k);
size_t sim_ks_purge(sim_keyspace *ks, int64_t now);   /* drops expired keys; live count */
/* frees the value, keeps the key (a SET over another type) */
void sim_key_reset(sim_key *k, int type);
int sim_str_set(sim_str *s, const char *p, size_t len);
void sim_str_free(sim_str *s);
/* removes a hash's i-th (field, value) or a set's i-th member */
void sim_key_remove(sim_key *k, size_t i);
/* grows k->items to hold n + 1 items of `size` bytes */
int sim_key_reserve(sim_key *k, size_t size);

/* ---- master.c: the state ---- */
typedef struct sim_conn {
    long long id;
    sim_req req;
    sim_buf pushes;
    int npushes;
    sim_str *chans;         /* channels subscribed to */
    size_t nchans, capchans;
    int authed, asking;
    int quit;               /* QUIT or CLIENT KILL of itself: closed after the reply */
    sim_str name;
} sim_conn;

typedef struct sim_script {
    char sha[41];
    sim_str body;
} sim_script;

struct sim_master {
    sim_master_config cfg;
    char *cfg_strings[6];
    sim_keyspace ks;
    sim_conn **conns;
    size_t nconns, capconns;
    long long next_id;
    long long *killed;
    size_t nkilled, capkilled;
    sim_script *scripts;
    size_t nscripts, capscripts;
    struct lua_State *L;
    int64_t now, start;     /* ms */
    int started;
    uint64_t rng;
    char run_id[41], replid[41];
    char error[256];
    int fatal;              /* a command unknown: feed fails */
    int in_script;
    sim_conn *cur;          /* the connection whose command runs */
    long long dirty;
    sim_buf scratch;        /* a script's redis.call replies */
    sim_buf argbuf;         /* a script's arguments, as strings */
    sim_arg *sargv;         /* ... and pointers to them */
    size_t sargcap;
    size_t *sargoff;        /* a number's place in argbuf, (size_t)-1: a Lua string */
    struct sim_cluster *cluster;    /* its cluster (cluster.c), NULL: standalone */
    int cnode;              /* ... and its node there */
};

/* ---- commands.c: the table and the dispatch ---- */
/* Runs argv on conn c (NULL inside a script: its connection is m->cur),
 * appending the reply to out.  0, or -1 when the command is unknown (the
 * master's error is set, m->fatal). */
int sim_exec(sim_master *m, int argc, sim_arg *argv, sim_buf *out);
/* Command flags */
enum { SIM_F_NOSCRIPT = 1, SIM_F_WRITE = 2 };
typedef int sim_cmd_fn(sim_master *m, int argc, sim_arg *argv, sim_buf *out);
typedef struct sim_cmd {
    const char *name;
    int arity;              /* Redis's: n exact, -n at least n */
    int flags;
    sim_cmd_fn *fn;
} sim_cmd;
const sim_cmd *sim_cmd_find(const char *name, size_t len);
void sim_fail(sim_master *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* helpers for commands (commands.c) */
int sim_eq(const sim_arg *a, const char *lower);        /* case-insensitive */
int sim_arg_ll(const sim_arg *a, long long *v);         /* 0, or -1 not an integer */
int sim_arg_double(const sim_arg *a, double *v);
/* the option words from argv[*i] on (NX XX GT LT CH INCR, those allowed),
 * *i left at the first other word */
enum { SIM_NX = 1, SIM_XX = 2, SIM_GT = 4, SIM_LT = 8, SIM_CH = 16, SIM_INCR = 32 };
int sim_flags(sim_arg *argv, int argc, int *i, int allowed);
sim_key *sim_lookup(sim_master *m, const sim_arg *a);
/* the key of `type`, NULL with *wrong set when another type holds it */
sim_key *sim_lookup_type(sim_master *m, const sim_arg *a, int type, int *wrong);
/* ... or a new empty one */
sim_key *sim_lookup_create(sim_master *m, const sim_arg *a, int type, int *wrong);
/* glob-style match, * and ? only (KEYS, PUBSUB CHANNELS) */
int sim_glob(const char *p, size_t pl, const char *s, size_t sl);
/* deletes a hash, set or zset left empty */
void sim_drop_if_empty(sim_master *m, sim_key *k);

/* the commands, by file */
sim_cmd_fn sim_cmd_get, sim_cmd_set, sim_cmd_del, sim_cmd_exists, sim_cmd_incr, sim_cmd_mget,
    sim_cmd_type, sim_cmd_pexpire, sim_cmd_expire, sim_cmd_pttl, sim_cmd_ttl, sim_cmd_dbsize,
    sim_cmd_flushall, sim_cmd_keys, sim_cmd_incrby, sim_cmd_decr, sim_cmd_persist,
    sim_cmd_unlink, sim_cmd_pexpiretime, sim_cmd_expiretime;            /* t_string.c */
sim_cmd_fn sim_cmd_hset, sim_cmd_hget, sim_cmd_hdel, sim_cmd_hexists, sim_cmd_hlen, sim_cmd_hkeys,
    sim_cmd_hgetall, sim_cmd_hvals, sim_cmd_hincrby, sim_cmd_hmget;    /* t_hash.c */
sim_cmd_fn sim_cmd_sadd, sim_cmd_srem, sim_cmd_sismember, sim_cmd_smembers, sim_cmd_scard,
    sim_cmd_srandmember;                                                /* t_set.c */
sim_cmd_fn sim_cmd_zadd, sim_cmd_zrem, sim_cmd_zcard, sim_cmd_zrange, sim_cmd_zrank,
    sim_cmd_zscore, sim_cmd_zremrangebyscore;                           /* t_zset.c */
sim_cmd_fn sim_cmd_ping, sim_cmd_echo, sim_cmd_time, sim_cmd_info, sim_cmd_config, sim_cmd_client,
    sim_cmd_auth, sim_cmd_select, sim_cmd_hello, sim_cmd_wait, sim_cmd_cluster, sim_cmd_asking,
    sim_cmd_readonly, sim_cmd_quit;                                     /* server.c */
sim_cmd_fn sim_cmd_subscribe, sim_cmd_unsubscribe, sim_cmd_publish, sim_cmd_pubsub; /* pubsub.c */
sim_cmd_fn sim_cmd_eval, sim_cmd_evalsha, sim_cmd_script;               /* cluster.c: Redis's routing of a command on a cluster's node (0: it runs
 * here; 1: answered with a redirect or an error; -1 out of memory);
 * CLUSTER SLOTS | MYID; INFO replication's section; a restart */
int sim_cluster_route(sim_master *m, const sim_cmd *cmd, int argc, sim_arg *argv, sim_buf *out);
int sim_cluster_command(sim_master *m, int argc, sim_arg *argv, sim_buf *out);
int sim_cluster_info_replication(const sim_master *m, char *t, size_t size);
void sim_cluster_restarted(sim_master *m);

/* lua.c */

/* cluster.c: Redis's routing of a command on a cluster's node (0: it runs
 * here; 1: answered with a redirect or an error; -1 out of memory);
 * CLUSTER SLOTS | MYID; INFO replication's section; a restart */
int sim_cluster_route(sim_master *m, const sim_cmd *cmd, int argc, sim_arg *argv, sim_buf *out);
int sim_cluster_command(sim_master *m, int argc, sim_arg *argv, sim_buf *out);
int sim_cluster_info_replication(const sim_master *m, char *t, size_t size);
void sim_cluster_restarted(sim_master *m);

/* lua.c */
int sim_lua_init(sim_master *m);
void sim_lua_free(sim_master *m);
void sim_scripts_flush(sim_master *m);
void sim_sha1_hex(const void *p, size_t len, char out[41]);
/* reply.c: v in decimal ("%lld"), not terminated; its length */
int sim_fmt_ll(char out[21], long long v);
/* master.c: a connection CLIENT KILL closes (queued for take_killed) */
void sim_master_disconnect_killed(sim_master *m, long long id);
/* pubsub.c */
long long sim_publish(sim_master *m, const sim_arg *chan, const sim_arg *msg);
void sim_conn_unsubscribe_all(sim_conn *c);

#endif
