/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* itest.h -- helpers shared by the integration and fault tests (itest.c). */
#ifndef ITEST_H
#define ITEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "redlock.h"
#include "servers.h"

struct event_base;

/* Options for fast tests: node_timeout 100 ms, connect_timeout 500 ms,
 * 3 retries 10 +- 5 ms apart, reconnection back-off 5 .. 50 ms; the
 * restart guard off (the masters were just started). */
void it_opts(redlock_options *o);

/* it_opts() with retry_count, retry_delay_ms and retry_jitter_ms set. */
void it_opts_retry(redlock_options *o, int count, int delay_ms, int jitter_ms);

/* Start n servers; the test fails when they do not start. */
rlt_servers *it_start(int n, const char *const *extra);

/* A blocking client on all of s's servers (opts NULL: it_opts()), connected
 * to all of them (the test fails otherwise). */
redlock_client *it_client(rlt_servers *s, const redlock_options *opts);
/* A blocking client on the given addresses; waits for `wait_min` nodes. */
redlock_client *it_client_addrs(const char *const *addrs, size_t n,
                                const redlock_options *opts, size_t wait_min);
/* A client on base (NULL: a blocking client) on the given addresses, not
 * waiting for any connection (opts NULL: it_opts()). */
redlock_client *it_client_new(struct event_base *base, const char *const *addrs, size_t n,
                              const redlock_options *opts);
/* A client on the caller's event base, connected to all of s's servers
 * (runs the loop until they are). */
redlock_client *it_async_client(struct event_base *base, rlt_servers *s,
                                const redlock_options *opts);

redlock_lock *it_lock(redlock_client *c, const void *res, size_t len);
#define IT_LOCK(c, str) it_lock((c), (str), strlen(str))

/* "" for NULL, else redlock_lock_errstr(). */
const char *it_errstr(const redlock_lock *lock);

/* Server i's value of key equals val?  1/0, -1 when the server fails. */
int it_has_value(rlt_servers *s, int i, const void *key, size_t klen,
                 const void *val, size_t vlen);
/* On how many running servers the key holds exactly val. */
int it_count_value(rlt_servers *s, const void *key, size_t klen,
                   const void *val, size_t vlen);
/* On how many running servers the key holds the lock's current value. */
int it_count_lock(rlt_servers *s, const void *key, size_t klen, const redlock_lock *lock);
/* PTTL of key on server i (-2: no key, -1: no ttl, -3: error). */
long long it_pttl(rlt_servers *s, int i, const void *key, size_t klen);

/* Poll the servers (every few ms) until the key exists on exactly `want`
 * running servers, or timeout_ms passed; returns the last count. */
int it_wait_count(rlt_servers *s, const void *key, size_t klen, int want, int64_t timeout_ms);
/* Same, until the key holds the lock's value on at least `want` servers. */
int it_wait_lock_count(rlt_servers *s, const void *key, size_t klen,
                       const redlock_lock *lock, int want, int64_t timeout_ms);

/* Run the event loop until event_base_loopbreak() or timeout_ms; returns 1
 * when the timeout ended it. */
int it_dispatch(struct event_base *base, int64_t timeout_ms);
/* Run the loop until the client has at least `min` connected nodes;
 * 0, or -1 after timeout_ms. */
int it_async_wait_connected(struct event_base *base, redlock_client *c,
                            size_t min, int64_t timeout_ms);

/* An event base with precise timers, as redlock.h asks of callers' bases
 * (the test fails when it cannot be made). */
struct event_base *it_base(void);

/* ---- fixtures -------------------------------------------------------------
 *
 * The usual set-up of a test and its reverse:
 *
 *   struct it_fix f = {.key = "res"};       // or {0}; optional: .extra, .key
 *   it_fix_start(&f, 3, &opts, IT_ASYNC);   // opts NULL: it_opts()
 *   ... f.s, f.base, f.c, f.lock ...
 *   it_fix_stop(&f);
 *
 * it_fix_start starts n servers (with f->extra), makes a client on all of
 * them and waits until it is connected to all (IT_ASYNC: on f->base, a new
 * it_base(); else a blocking client), and a lock on f->key when set.
 * it_fix_stop frees, each when set: the locks (it_fix_lock's, then f->lock),
 * the clients (it_fix_client's, then f->c), f->base, f->s.  A test that
 * frees one of them itself sets the field to NULL. */
enum {
    IT_ASYNC = 1,       /* the client runs on f->base */
    IT_NOCLIENT = 2,    /* no client, no lock (with IT_ASYNC: still a base) */
};

#define IT_FIX_MAX 8

struct it_fix {
    const char *const *extra;   /* in: extra redis-server arguments, or NULL */
    const char *key;            /* in: f->lock's resource, or NULL: no lock */
    int flags;
    rlt_servers *s;
    struct event_base *base;    /* IT_ASYNC only */
    redlock_client *c;
    redlock_lock *lock;
    int nclients, nlocks;
    redlock_client *clients[IT_FIX_MAX];
    redlock_lock *locks[IT_FIX_MAX];
};

void it_fix_start(struct it_fix *f, int n, const redlock_options *opts, int flags);
void it_fix_stop(struct it_fix *f);
/* Another client on f's servers, made like f->c (opts NULL: it_opts()),
 * freed by it_fix_stop. */
redlock_client *it_fix_client(struct it_fix *f, const redlock_options *opts);
/* A lock of client c on a NUL-terminated resource, freed by it_fix_stop. */
redlock_lock *it_fix_lock(struct it_fix *f, redlock_client *c, const char *res);

/* Two owners of one resource: f started on n masters (flags as for
 * it_fix_start) with another client (made with opts_b; NULL: it_opts()),
 * *a a lock of f->c on res, *b the other client's; returns that client. */
redlock_client *it_fix_two(struct it_fix *f, int n, int flags, const redlock_options *opts_b,
                           const char *res, redlock_lock **a, redlock_lock **b);

/* How many of l's first n nodes refused its last operation; each
 * refusal's text must contain why (exact: be why), else the test fails. */
int it_refusals(const redlock_lock *l, size_t n, const char *why, int exact);

/* ---- every master's keys: nothing left behind -------------------------------
 *
 * The invariant every fault scenario ends with: once its operations are
 * over (failed, cancelled, decided, released) and nothing new is held, no
 * master of any vote holds a key it did not hold before.  Take
 * it_keyspace() before, run the scenario, then it_wait_keyspace() with it:
 * a roll-back that never came (left until its ttl, the next client refused
 * "held elsewhere") fails it and names the key and the master. */

struct rlt_clusters;

/* rlt_clusters_start(votes, shards, replicas) without extra arguments;
 * the test fails (with why) when they do not start. */
struct rlt_clusters *it_clusters(int votes, int shards, int replicas);
/* INFO errorstats of node `node` of vote `vote`: how many errors `code`
 * ("MOVED", "ASK") it answered; the test fails when it does not answer. */
long long it_cluster_errors(struct rlt_clusters *c, int vote, int node, const char *code);
/* ... and INFO commandstats: how many times it ran `cmd` (it_calls). */
long long it_cluster_calls(struct rlt_clusters *c, int vote, int node, const char *cmd);

/* Every master's keys, sorted: the running plain masters of s ("0: k k |
 * 1: | 2: k | "), then every node of every vote of c that is a master now
 * ("c0/1: k | ": vote 0, node 1); s or c may be NULL.  The test fails when
 * a master does not answer. */
void it_keyspace(rlt_servers *s, struct rlt_clusters *c, char *out, size_t size);
/* Until it_keyspace(s, c) is `want` (running base meanwhile, when not NULL:
 * the client's undos leave from it), at most timeout_ms; the test fails
 * otherwise, with both keyspaces. */
void it_wait_keyspace(struct event_base *base, rlt_servers *s, struct rlt_clusters *c,
                      const char *want, int64_t timeout_ms);

/* ---- waiting for asynchronous operations ---------------------------------- */

/* The outcome of one asynchronous operation: give it_op_cb and the it_op as
 * callback and privdata.  The callback records the outcome and breaks the
 * loop; reset `done` to 0 to use the it_op again. */
struct it_op {
    struct event_base *base;
    int done;           /* how many times the callback ran */
    int status;
    int64_t validity;   /* redlock_lock_validity() inside the callback */
    size_t nodes_ok;    /* redlock_lock_nodes_ok() inside the callback */
    int64_t at_ms;      /* check_now_ms() when it ran */
};

void it_op_cb(redlock_lock *l, int status, void *privdata);
/* Run the loop until the operation completed; the test fails unless it
 * completed exactly once within timeout_ms. */
void it_op_wait(struct it_op *op, int64_t timeout_ms);
/* Run the loop until *flag is set (by a callback that breaks the loop) or
 * timeout_ms passed; returns *flag. */
int it_run_until(struct event_base *base, const int *flag, int64_t timeout_ms);
/* Run the loop (the clients make progress meanwhile) for about ms. */
void it_run(struct event_base *base, int64_t ms);
/* Run base until every master of c has had `want` clock samples (TIME),
 * at most timeout_ms (then the test fails, saying how many). */
void it_wait_clock_samples(struct event_base *base, redlock_client *c, uint64_t want,
                           int64_t timeout_ms);
/* Votes master i of c answered OK so far (its node stats). */
uint64_t it_node_oks(redlock_client *c, size_t i);
/* Run the loop until the lock's node results say `want` nodes OK (a
 * release's late replies), at most timeout_ms; redlock_lock_nodes_ok then. */
size_t it_wait_nodes_ok(struct event_base *base, const redlock_lock *l, size_t want,
                        int64_t timeout_ms);
/* Likewise until node `node` shows vote `want`; its vote then. */
int it_wait_vote(struct event_base *base, const redlock_lock *l, size_t node, int want,
                 int64_t timeout_ms);

/* SET key value on server i (another owner's value, a lost key given
 * back); the test fails unless it answers OK. */
void it_set(rlt_servers *s, int i, const char *key, const char *value);
/* The same with a number for the value (a fencing counter). */
void it_set_int(rlt_servers *s, int i, const char *key, long long value);
/* DEL key on server i; the test fails unless it deleted it (a lost key). */
void it_del(rlt_servers *s, int i, const char *key);
/* Run cmd on servers from .. to-1 (a command without % conversions, its
 * words split at spaces); the test fails unless each answers with a reply
 * of type want (REDIS_REPLY_*), or with any reply but an error when want
 * is 0. */
void it_cmd_on(rlt_servers *s, int from, int to, int want, const char *cmd);

/* The lost-lock notice of a lock (redlock_lock_on_lost): give it_lost_cb
 * and the it_lost as callback and privdata.  It counts the notices, keeps
 * the last reason and breaks the loop. */
struct it_lost {
    struct event_base *base;
    int n, reason;
};

void it_lost_cb(redlock_lock *l, int reason, void *privdata);

/* ---- small things ------------------------------------------------------------ */

/* haystack is not NULL and contains needle? */
int it_has(const char *haystack, const char *needle);
void it_sleep_ms(long ms);
/* Read the pipe p (of popen) to its end into out (what does not fit is
 * read and dropped), NUL-terminated, and pclose it; pclose's status. */
int it_read_all(FILE *p, char *out, size_t size);
/* Run a shell command, its stdout and stderr into out (noted in the
 * test's log); the test fails unless it exits normally; its exit status. */
int it_shell(const char *cmd, char *out, size_t size);
/* The number after "key": in s, or -1 when it is not there (s NULL: -1). */
double it_json_num(const char *s, const char *key);
/* Run an example program with s's addresses as its arguments ("examples/
 * fencing"), its output into out (noted in the test's log); returns its
 * exit status (pclose's). */
int it_run_example(const char *program, rlt_servers *s, char *out, size_t size);
/* Run the example program (it_run_example) on s; the test fails unless it
 * exits 0 and its output has each of the NULL-ended phrases. */
void it_example_says(const char *program, rlt_servers *s, const char *const *phrases);
/* INFO commandstats: how many times server i ran `cmd` ("set", "eval",
 * "client|kill"); the test fails when the server does not answer. */
long long it_calls(rlt_servers *s, int i, const char *cmd);
/* Poll it_calls(s, i, cmd) until it is above `above` or timeout_ms passed
 * (a decided operation's last master may run it later); returns it. */
long long it_wait_calls(rlt_servers *s, int i, const char *cmd, long long above,
                        int64_t timeout_ms);
/* ... and how many of its calls it refused (an ACL, a wrong arity). */
long long it_rejected(rlt_servers *s, int i, const char *cmd);
/* A proxy (proxy.h) in front of each of servers 0 .. n-1: px[i], its
 * address ("127.0.0.1:port") in addr[i], addrs[i] pointing there.  Fails
 * the test when one cannot start.  rlp_thread_stop frees each. */
struct rlp_thread;
void it_proxies(rlt_servers *s, int n, struct rlp_thread **px, char (*addr)[32],
                const char **addrs);

/* Check a status code; on failure print it and the lock's errstr. */
#define CHECK_RC(lock, expr, want)                                            \
    do {                                                                      \
        int it_rc_ = (expr);                                                  \
        int it_want_ = (want);                                                \
        if (it_rc_ != it_want_)                                               \
            check_fail(__FILE__, __LINE__,                                    \
                       "%s == %s (got %d \"%s\", errstr \"%s\")", #expr,      \
                       #want, it_rc_, redlock_strerror(it_rc_),               \
                       it_errstr(lock));                                      \
    } while (0)

/* Server i's INFO uptime_in_seconds (-1: no answer); waiting until it is
 * at least want (the restart guard counts a master by its age). */
long long it_uptime_s(rlt_servers *s, int i);
void it_wait_uptime(rlt_servers *s, int i, long long want);

#endif /* ITEST_H */
