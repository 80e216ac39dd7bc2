/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* redlock.h -- distributed locks over N independent Redis masters.
 *
 * This is the whole public API of libredlock.  It implements the Redlock
 * algorithm: a lock on a resource is a key set with a random value on a
 * majority (N/2+1) of N independent masters, within a time that leaves the
 * lock some validity.
 *
 *   client ──SET key value NX PX ttl──▶ master 0   ─┐
 *          ──SET key value NX PX ttl──▶ master 1    ├─ all at once, one
 *          ──SET key value NX PX ttl──▶ master 2    │  timeout per node
 *          ...                                      ─┘
 *   decided as soon as a quorum of OKs arrived (success, if
 *       validity = ttl - elapsed - drift > 0) or a quorum can no longer be
 *       reached (failure: the key is released on every master, then the
 *       attempt is retried after a random delay).
 *
 * Two objects:
 *   redlock_client  one connection to each master, an event loop, options.
 *   redlock_lock    one resource and the value that proves ownership; it
 *                   runs one operation (acquire, extend, release) at a time.
 *
 * Every operation exists twice: asynchronous (`_async`, completion callback on
 * the caller's libevent loop) and blocking (for clients created without an
 * event base; the client then runs a private loop inside each call).
 *
 * Errors: functions return 0 or a negative REDLOCK_E* code; a readable
 * message for the last failed operation of a lock is redlock_lock_errstr().
 * The library never prints, aborts or exits.
 *
 * Threads: a client and its locks belong to one thread, the thread running
 * the client's event loop.  Separate clients in separate threads are safe.
 * A client must not be used across fork().  The exception is a blocking
 * client with the option loop_thread: its loop runs on a thread the client
 * starts (and joins in redlock_client_free), so that watchdogs, lost-lock
 * notices, probes and reconnections go on between the program's calls.
 * Every function on such a client or its locks may then be called from any
 * thread: one mutex serialises the calls and the loop (callbacks, the
 * lost-lock notice among them, run on the loop thread, and may call the
 * library); a blocking call lets the loop run while it waits, and its
 * waits go by the monotonic clock (a step of the wall clock does not
 * shift them).  Each such client has its own mutex: a call made from a
 * callback of one client, or from inside a call on it, on another
 * loop_thread client takes that client's mutex (and may be a blocking
 * call), while a call on the same client goes straight in.  Do not free
 * the client while another thread is inside a call on it, nor from one of
 * its callbacks (the call is then ignored).
 *
 * Signals: a master that dies while the client writes to it raises SIGPIPE.
 * If the process still has SIGPIPE's default action (terminate), creating a
 * client sets it to SIG_IGN; a handler or disposition the application chose
 * is left alone (then the application must not let SIGPIPE kill it).
 *
 * Callback contract (asynchronous operations):
 *   - the callback runs exactly once, on the client's event loop;
 *   - it never runs when the starting call returned an error;
 *   - it never runs synchronously inside the starting call;
 *   - when the lock or the client is freed while an operation is pending,
 *     the callback runs (inside the free call) with REDLOCK_ECANCELED; so
 *     does an acquire's, inside redlock_acquire_cancel;
 *   - inside a callback it is safe to start another operation on the same
 *     lock (e.g. release after acquire), to free the lock, or to free the
 *     client.
 */
#ifndef REDLOCK_H
#define REDLOCK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REDLOCK_VERSION_MAJOR 0
#define REDLOCK_VERSION_MINOR 2
#define REDLOCK_VERSION_PATCH 0

#if defined(__GNUC__) && !defined(REDLOCK_STATIC_BUILD)
#define REDLOCK_API __attribute__((visibility("default")))
#else
#define REDLOCK_API
#endif

struct event_base;

/* Error codes.  0 is success; every failure is one of these. */
#define REDLOCK_OK          0
#define REDLOCK_EINVAL     -1  /* invalid argument (message says which) */
#define REDLOCK_ENOQUORUM  -2  /* the lock is held elsewhere: a quorum refused */
#define REDLOCK_ETIMEDOUT  -3  /* nodes or the acquire deadline timed out */
#define REDLOCK_ECANCELED  -4  /* the lock or client was freed while pending,
                                * or redlock_acquire_cancel */
#define REDLOCK_ENOTOWNER  -5  /* not (or no longer) the owner: expired or taken */
#define REDLOCK_ENOMEM     -6  /* out of memory */
#define REDLOCK_ECONNECT   -7  /* masters unreachable: not connected, connection lost */
#define REDLOCK_EBUSY      -8  /* an operation is already in flight on this lock,
                                * or (acquire, the setters) this handle holds it */
#define REDLOCK_ESERVER    -9  /* masters answered with errors (OOM, READONLY, ...) */
#define REDLOCK_ECLOSED   -10  /* the lock's client was freed */
#define REDLOCK_ESYSTEM   -11  /* a system call failed (message has errno text) */
#define REDLOCK_EFULL     -12  /* masters' request queues were full (max_pending):
                                * refused by this client, nothing was sent */
#define REDLOCK_EUNCOUNTED -13 /* masters said OK but a guard did not count
                                * their votes (restarted, clock jumped, or an
                                * unsafe configuration in strict mode): no
                                * master refused, and counting them would have
                                * made the quorum or still could with those yet
                                * to answer (since 0.2.0) */
#define REDLOCK_EPERMITS  -14  /* a semaphore's acquire: masters hold it with
                                * another permit count (handles of one
                                * semaphore disagree); no retry, nothing left
                                * on any master */

/* Node events for redlock_node_cb. */
#define REDLOCK_NODE_UP    1   /* connected and answered the handshake */
#define REDLOCK_NODE_DOWN  2   /* connection lost or attempt failed; retried
                                  * with back-off (a failed retry is reported
                                  * only when its reason changed) */
/* Guards (since 0.2.0; docs/safety.md, "What it assumes").  The detail
 * says which guard, why and for how long; redlock_node_stats has the same
 * in guard_flags, counted_in_ms and guard_detail. */
#define REDLOCK_NODE_UNCOUNTED 3 /* its OK votes stop counting towards a
                                  * quorum (restarted or clock jumped within
                                  * the guard window; strict mode: unsafe
                                  * configuration); requests still go to it
                                  * (but not to a node that is the same
                                  * server as a lower-numbered one:
                                  * REDLOCK_GUARD_DUPLICATE) */
#define REDLOCK_NODE_COUNTED   4 /* its OK votes count again */
#define REDLOCK_NODE_UNSAFE    5 /* its configuration breaks an assumption
                                  * (evicting maxmemory-policy, no
                                  * persistence), or INFO / CONFIG were
                                  * refused so a guard cannot judge it; still
                                  * counted unless strict.  Reported when the
                                  * finding changes (first handshake included) */

typedef struct redlock_client redlock_client;
typedef struct redlock_lock redlock_lock;

/* Completion of an operation on `lock`: status is 0 or a REDLOCK_E* code. */
typedef void redlock_cb(redlock_lock *lock, int status, void *privdata);

/* A node went up or down.  `detail` is a readable reason (never a secret).
 * It runs on the client's loop, or inside a call that (re)connects a node;
 * it may read stats and start operations, but redlock_client_free() called
 * from it has no effect. */
typedef void redlock_node_cb(redlock_client *client, size_t node, int event,
                             const char *detail, void *privdata);

/* Time source in microseconds; it should never go backwards.  If it does,
 * every lock held then has 0 validity from that moment, and the client's
 * time carries on from its previous reading. */
typedef int64_t redlock_clock_fn(void *privdata);

/* Client options.  Fill with redlock_options_init(), then change fields.
 * Strings are copied; nothing here needs to outlive redlock_client_new().
 * A value outside its range makes redlock_client_new() fail with
 * REDLOCK_EINVAL and a message naming the field.  Every time counts from
 * the real start of what it limits, however late the event loop runs. */
typedef struct redlock_options {
    int64_t node_timeout_ms;     /* 200 (1 .. 3600000): longest wait for one
                                  * node's reply                              */
    int64_t connect_timeout_ms;  /* 1000 (1 .. 3600000): TCP connect + handshake */
    double drift_factor;         /* 0.01 [0, 1): clock drift allowance per ttl */
    int64_t drift_min_ms;        /* 2 (0 .. 2^40): added to ttl * drift_factor */
    int retry_count;             /* 10 (>= 0): extra attempts after the first */
    int64_t retry_delay_ms;      /* 200 (0 .. 3600000): mean delay between
                                  * attempts                                  */
    int64_t retry_jitter_ms;     /* 100 (0 .. retry_delay_ms): delay is
                                  * retry_delay +- this.  Never shorter,
                                  * but after a release announced to the
                                  * waiter (option wake) or a split vote:
                                  * then within the wake window (a few
                                  * round trips).  Among 16 or more waiters
                                  * a poll is slower (times their count, at
                                  * most 256), unless that would pass
                                  * acquire_timeout_ms                       */
    int64_t acquire_timeout_ms;  /* 0 (>= 0): no attempt starts at or after
                                  * this much time since the acquire began
                                  * (ETIMEDOUT); 0, or more than 2^40 (e.g.
                                  * INT64_MAX), is no limit                   */
    int64_t reconnect_min_ms;    /* 10 (1 .. 3600000): first reconnection delay */
    int64_t reconnect_max_ms;    /* 1000 (reconnect_min_ms .. 3600000): cap of
                                  * the doubling back-off                     */
    size_t max_pending;          /* 65536 (>= 1): acquire and extend requests
                                  * queued per node at most; past it a node
                                  * votes REDLOCK_VOTE_FULL without sending
                                  * (REDLOCK_EFULL when that sinks the quorum).
                                  * Releases and roll-backs are never refused. */
    int max_timeouts;            /* 3: a node that lets this many requests in
                                  * a row time out is disconnected and
                                  * reconnected (a hung or vanished host then
                                  * fails fast instead of costing every
                                  * operation its timeout); 0: never */
    const char *key_prefix;      /* "": prepended to every resource name     */
    redlock_clock_fn *clock;     /* NULL: CLOCK_BOOTTIME (see clock.c)       */
    void *clock_privdata;
    redlock_node_cb *node_cb;    /* NULL: no node events                     */
    void *node_privdata;
    /* TLS, for rediss:// nodes.  The server certificate is verified by
     * default against the system's trust store and the node's host name. */
    const char *tls_ca_file;     /* NULL: the system store; else PEM CA file */
    const char *tls_ca_dir;      /* NULL; else a hashed CA directory         */
    const char *tls_cert_file;   /* NULL; client certificate (mutual TLS)    */
    const char *tls_key_file;    /* NULL; its private key                    */
    const char *tls_server_name; /* NULL: each node's host; SNI + check name */
    /* 0.  Nonzero accepts ANY server certificate: anyone on the path can
     * then impersonate the masters.  For throw-away test setups only. */
    int tls_insecure_skip_verify;
    /* ---- since 0.2.0 (see "Growing" below) ---- */
    int64_t clock_probe_ms;      /* 1000 (0 .. 3600000): read every master's
                                  * TIME at least this often (and at each
                                  * handshake) for the clock guard and the
                                  * node stats' clock figures: it rides in a
                                  * write of requests to the master once the
                                  * last is half this old, and goes alone
                                  * only where nothing was written for most
                                  * of the period; 0: only at the handshake.
                                  * The guards' INFO server and CONFIG GETs
                                  * are read again every 5 periods, the same
                                  * way (0: only at the handshake) */
    const char *user;            /* NULL: the ACL user for masters whose
                                  * address names none                       */
    const char *password;        /* NULL: the password for masters whose
                                  * address gives none (no URL encoding
                                  * needed); wiped from memory on free      */
    /* Guards for the algorithm's assumptions (docs/safety.md).  A guarded
     * master still gets every request; its OK votes to an acquire or an
     * extend just do not count towards the quorum (REDLOCK_VOTE_UNCOUNTED,
     * REDLOCK_NODE_UNCOUNTED).  A window is in ms: -1 (the default) is
     * automatic, the largest ttl this client has used (including the
     * operation being decided) plus its drift allowance: every key the
     * master may have lost had at most that ttl when all clients of the
     * masters use the same ttls, so after the window nothing it forgot can
     * still be held; give a fixed window when other clients use longer
     * ttls.  0 turns the guard off; else 1 .. 2^40. */
    int64_t restart_guard_ms;    /* -1: a master whose INFO uptime (or changed
                                  * run_id) shows a restart less than the
                                  * window ago is not counted until the
                                  * window has passed since the restart;
                                  * except a master that keeps every
                                  * acknowledged key across a restart
                                  * (REDLOCK_GUARD_DURABLE): it counts at
                                  * once (docs/safety.md); a Redis Cluster's
                                  * master only when this client saw its
                                  * run before, as a master, or with
                                  * replica_acks.  A cluster's master that
                                  * took over slots (a failover) is not
                                  * counted for the window from when this
                                  * client saw it, durable or not, unless
                                  * replica_acks covers it */
    int64_t clock_guard_ms;      /* -1: a master whose TIME moved against this
                                  * client's clock by more than the drift
                                  * allowance between two samples (a jump, or
                                  * a rate beyond drift_factor) is not counted
                                  * for the window after the sample that
                                  * showed it (seen at most clock_probe_ms
                                  * late) */
    int strict;                  /* 0: a master whose maxmemory-policy may
                                  * evict keys with a ttl, that persists
                                  * nothing (no AOF, no RDB save point), or
                                  * that refused INFO or CONFIG GET, is only
                                  * reported (REDLOCK_NODE_UNSAFE); 1: it is
                                  * also not counted */
    int loop_thread;             /* 0 (0/1): with base == NULL only.  1: the
                                  * client's loop runs on a thread of its own
                                  * (see "Threads" above), so that watchdogs,
                                  * lost-lock notices, probes and reconnects
                                  * go on between the program's blocking
                                  * calls.  Callbacks then run on that
                                  * thread.  Not needed for waking
                                  * waiters (option wake): see the
                                  * blocking operations. */
    int wake;                    /* 1 (0/1): an acquire that waits for a
                                  * mutex, re-entrant, multi-resource
                                  * lock or semaphore held elsewhere (a
                                  * multi-resource lock waits on one of
                                  * its resources at a time) is woken by
                                  * the release that frees it (a
                                  * re-entrant lock's last; a permit
                                  * freed wakes one waiter):
                                  * the waiting client enters the
                                  * registry "{<key>}:wq" on the masters and
                                  * listens on its own channel
                                  * "{<key>}:wq:<id>" (a second connection
                                  * per master, opened at the client's
                                  * first lock, shared by its locks), and
                                  * tells the holder that it waits (the
                                  * holder's client listens on "{<key
                                  * prefix>}:holder:<id>"); that holder's
                                  * release tells the waiter that waited
                                  * longest (the registry is a queue), and
                                  * it retries at once instead of at its
                                  * next poll.  A release nobody waited
                                  * for is the kind's plain release.
                                  * Polling stays (a crashed holder, an ACL
                                  * without the channel), slower when many
                                  * clients wait (docs/design.md, "Many
                                  * clients, one lock").  0: polling only,
                                  * no second connection, no registry. */
    int64_t cluster_refresh_ms;  /* a node that is a Redis Cluster
                                  * ("redis-cluster://seed,..."): its slot
                                  * map is read again this often (1000);
                                  * 0: only when a reply says it changed
                                  * (MOVED, a master lost).  docs/cluster.md */
    int replica_acks;            /* 0 (0 .. 64): a cluster vote's acquires
                                  * and extends are followed, on the
                                  * connection that carried them, by WAIT
                                  * replica_acks replica_wait_ms to the
                                  * master that took them; an OK counts only
                                  * when that many replicas acknowledged it
                                  * (else its vote is an error).  Then its
                                  * replicas hold every lock it granted,
                                  * and a promoted replica needs no restart
                                  * guard window: set it to the number of
                                  * replicas of each master, in every client
                                  * of the clusters (docs/cluster.md,
                                  * "Locks on the replicas").  Plain masters
                                  * get no WAIT */
    int64_t replica_wait_ms;     /* -1: half of node_timeout_ms (at least 1);
                                  * else 1 .. 3600000: WAIT's timeout */
} redlock_options;

/* Growing.  redlock_options, redlock_node_stats and redlock_node_result
 * only ever gain fields at their end.  The functions that take them are
 * macros passing the size of the struct as the program was compiled (as
 * zlib does): a program built against an older header keeps working with
 * a newer library, which fills in defaults for the fields the program does
 * not know and writes only the fields it does.  The unsuffixed functions
 * remain exported for programs built against 0.1.0. */
REDLOCK_API void redlock_options_init_(redlock_options *opts, size_t size);
#define redlock_options_init(opts) redlock_options_init_((opts), sizeof(redlock_options))

/* Create a client for `nnodes` masters.  Addresses:
 *   host:port   [ipv6]:port   host (port 6379)
 *   redis://[[user]:password@]host[:port][/db]
 *   rediss://[[user]:password@]host[:port][/db]     (TLS, see the tls_ options)
 *   unix:///path/to.sock
 *   redis-cluster://[[user]:password@]host:port[,host:port...]
 *   rediss-cluster://...                            (TLS)
 * A redis-cluster:// node is one Redis Cluster named by seed nodes: one
 * vote, answered by the master of the lock's slot (docs/cluster.md).
 * In URLs the user and password are percent-decoded (%2F is '/', %40 '@',
 * %25 '%'); or leave them out and give opts->user / opts->password.
 * Sockets are close-on-exec.
 * `base` is the caller's event loop; NULL makes the client own a private one
 * (then, and only then, the blocking functions may be used).  Timeouts are
 * in milliseconds: give your base EVENT_BASE_FLAG_PRECISE_TIMER, since
 * libevent's default clock may tick only every few milliseconds (the
 * private base has it).  Connections
 * are opened without blocking; a node that is down does not make creation
 * fail.  On failure *out is NULL and, when errbuf is not NULL, a message is
 * written to it.  opts may be NULL for the defaults. */
REDLOCK_API int redlock_client_new_(redlock_client **out, struct event_base *base,
                                    const char *const *nodes, size_t nnodes,
                                    const redlock_options *opts, size_t opts_size,
                                    char *errbuf, size_t errlen);
#define redlock_client_new(out, base, nodes, nnodes, opts, errbuf, errlen)                \
    redlock_client_new_((out), (base), (nodes), (nnodes), (opts), sizeof(redlock_options), \
                        (errbuf), (errlen))

/* Free the client: pending operations complete with REDLOCK_ECANCELED;
 * locks still alive must be freed by the caller afterwards (their operations
 * then return REDLOCK_ECLOSED).  NULL is accepted. */
REDLOCK_API void redlock_client_free(redlock_client *client);

REDLOCK_API size_t redlock_client_nodes(const redlock_client *client);
REDLOCK_API size_t redlock_client_quorum(const redlock_client *client);
/* How many nodes are connected now (answered their handshake). */
REDLOCK_API size_t redlock_client_connected(const redlock_client *client);
/* Blocking clients: run the loop until at least `min` nodes are connected.
 * Fails with REDLOCK_ECONNECT as soon as too many masters refused the
 * handshake (a wrong password, a missing database: they will not change by
 * waiting), else with REDLOCK_ETIMEDOUT after timeout_ms; either way
 * redlock_client_errstr() names the masters missing and why. */
REDLOCK_API int redlock_client_wait_connected(redlock_client *client, size_t min,
                                              int64_t timeout_ms);
/* Why the client's last redlock_client_wait_connected failed ("" if it did
 * not), or why a lock constructor (redlock_lock_new, _new_reentrant,
 * _new_read, _new_write, _new_multi) or redlock_inspect(_async) last
 * refused its arguments. */
REDLOCK_API const char *redlock_client_errstr(const redlock_client *client);

/* Per-node counters, readable at any time (cheap: a copy of a struct).
 * Strings point into the client and stay valid until the next call into the
 * library on this client. */
typedef struct redlock_node_stats {
    const char *address;         /* host:port or unix:path, never credentials */
    int connected;               /* 1 when up (handshake answered) */
    int tls;                     /* 1 for rediss:// */
    uint64_t requests;           /* requests sent */
    uint64_t oks;                /* votes: did what was asked */
    uint64_t refused;            /* votes: held elsewhere / not our value */
    uint64_t timeouts;           /* votes: no reply within node_timeout_ms */
    uint64_t errors;             /* votes: the server answered an error */
    uint64_t unreachable;        /* votes: not connected / connection lost */
    uint64_t connects;           /* successful connections (1 + reconnects) */
    int64_t last_rtt_us;         /* last request-to-reply time, -1 if none */
    const char *last_error;      /* why the node was last down, or "" */
    /* ---- since 0.2.0 ---- */
    uint64_t fulls;              /* requests refused: max_pending were queued */
    uint64_t undos;              /* roll-backs and owed releases sent */
    /* The master's clock (TIME), sampled at each handshake and every
     * clock_probe_ms.  offset = master time - this client's clock (which is
     * CLOCK_BOOTTIME by default, so the offset itself is arbitrary; its
     * changes are what tell of a master clock that jumps or runs fast). */
    uint64_t clock_samples;      /* 0: none yet (the fields below are 0) */
    int64_t clock_offset_us;     /* at the latest sample */
    int64_t clock_change_us;     /* latest offset - the previous one */
    int64_t clock_interval_us;   /* client time between those two samples */
    /* Guards (see the options restart_guard_ms, clock_guard_ms, strict). */
    unsigned guard_flags;        /* REDLOCK_GUARD_* bits that hold now */
    int counted;                 /* 1: its OK votes count towards a quorum */
    int64_t counted_in_ms;       /* not counted for a window: ms until it
                                  * counts again (0 otherwise; -1: not while
                                  * strict and its configuration unsafe, nor
                                  * while it is another node's duplicate) */
    int64_t uptime_s;            /* INFO uptime_in_seconds at the last
                                  * handshake; -1: unknown */
    uint64_t restarts;           /* run_id changed between two handshakes */
    uint64_t clock_jumps;        /* samples that moved by more than the drift
                                  * allowance */
    uint64_t uncounted;          /* votes: OK, but kept out of the quorum */
    const char *guard_detail;    /* the guards' findings in words, or "" */
    uint64_t queued;             /* requests the client holds for the node
                                  * now: sent and unanswered, or waiting to
                                  * be sent (it sends 1024 at most before
                                  * it waits for replies) */
    uint64_t dropped;            /* requests never sent: their operation
                                  * was decided without the node while they
                                  * waited (the node was behind), and
                                  * nothing was owed to it (no roll-back,
                                  * no release); not in `requests` unless
                                  * they had timed out first */
} redlock_node_stats;

/* redlock_node_stats.guard_flags */
#define REDLOCK_GUARD_RESTARTED  0x01  /* restarted within the window */
#define REDLOCK_GUARD_CLOCK      0x02  /* its clock jumped within the window */
#define REDLOCK_GUARD_EVICTS     0x04  /* maxmemory-policy volatile-* or allkeys-* */
#define REDLOCK_GUARD_NO_PERSIST 0x08  /* appendonly no and no save point */
#define REDLOCK_GUARD_UNKNOWN    0x10  /* INFO or CONFIG GET refused (an ACL):
                                        * restarts or configuration not seen */
#define REDLOCK_GUARD_DUPLICATE  0x20  /* its INFO run_id is a lower-numbered
                                        * node's: the same server under
                                        * another address (localhost and
                                        * 127.0.0.1); only that node's
                                        * answers count */
#define REDLOCK_GUARD_DURABLE    0x40  /* appendonly yes, appendfsync always
                                        * and no-appendfsync-on-rewrite no:
                                        * a restart loses no acknowledged
                                        * key, so (with its AOF on since its
                                        * start, and so configured at every
                                        * reading of it) the restart guard
                                        * counts it at once (since 0.2.0; a
                                        * cluster's master: see
                                        * restart_guard_ms) */

REDLOCK_API int redlock_client_node_stats_(const redlock_client *client, size_t node,
                                           redlock_node_stats *out, size_t size);
#define redlock_client_node_stats(client, node, out) \
    redlock_client_node_stats_((client), (node), (out), sizeof(redlock_node_stats))

/* The client's acquire attempts, readable at any time (since 0.2.0; a
 * growing struct, like redlock_node_stats). */
typedef struct redlock_acquire_stats {
    uint64_t attempts;           /* acquire attempts sent (first and retries) */
    uint64_t won;                /* attempts that won a quorum */
    uint64_t split_votes;        /* attempts lost that won some masters while
                                  * others refused: the masters' votes split
                                  * between clients (each such attempt backs
                                  * off more: docs/design.md) */
    uint64_t announcements;      /* release announcements heard for resources
                                  * the client waits on (option wake) */
    uint64_t wakeups;            /* retries moved earlier by one */
    uint64_t subscribe_refused;  /* masters whose ACL refused the channel:
                                  * polled only (until they reconnect) */
    uint64_t notices;            /* a waiter told this client, as a holder,
                                  * that it waits (from then on its
                                  * releases of that resource pick a waiter;
                                  * until then they are plain) */
    uint64_t late_picks;         /* picks made after a notice that crossed
                                  * a plain release (a waiter told then) */
    uint64_t looks;              /* polls and tries that looked first (one
                                  * EXISTS on one master) instead of an
                                  * attempt (docs/design.md) */
} redlock_acquire_stats;

REDLOCK_API int redlock_client_acquire_stats_(const redlock_client *client,
                                              redlock_acquire_stats *out, size_t size);
#define redlock_client_acquire_stats(client, out) \
    redlock_client_acquire_stats_((client), (out), sizeof(redlock_acquire_stats))

/* The client's metrics as OpenMetrics text (since 0.2.0), for a scrape
 * that the application serves (the library opens no port): at most `size`
 * bytes, the NUL included, are written to buf (NULL with size 0: only the
 * length); returns the full text's length, like snprintf (call again with
 * a larger buffer when it is >= size), or REDLOCK_EINVAL (NULL client; buf
 * NULL with size > 0: redlock_client_errstr() says so).  Safe to call from
 * any thread with option loop_thread, as the other stats readers are (it
 * takes the client's gate).  docs/metrics.md lists every metric.  Times are
 * in seconds, in histograms labelled kind (mutex, reentrant, read, write,
 * multi) and outcome, with buckets at 0.0005 0.001 0.0025 0.005 0.01 0.025
 * 0.05 0.1 0.25 0.5 1 2.5 5 10 30 60 300 s and +Inf (an uncontended acquire
 * is a round trip: below a millisecond on a LAN, a few across zones; a wait
 * is retry delays, up to acquire_timeout_ms; a hold, up to minutes with a
 * watchdog); only label sets that counted something have samples:
 *   redlock_acquire_duration_seconds  acquires, from the start of the first
 *       attempt to the outcome: acquired, conflict (ENOQUORUM: held
 *       elsewhere), unavailable (ETIMEDOUT, ECONNECT, EFULL, EUNCOUNTED: no
 *       quorum reached), cancelled (ECANCELED, ECLOSED; a freed lock or
 *       client), error (the rest)
 *   redlock_acquire_wait_seconds  acquires that retried after a refusal,
 *       from the start of the first refused attempt to the outcome
 *   redlock_hold_duration_seconds  holds, from the start of the acquire
 *       that won to their end: released (a quorum deleted it), lost (an
 *       extend or a release refused by a quorum), expired (the validity ran
 *       out first), freed (the handle freed while held), unknown (a release
 *       that reached no quorum)
 *   redlock_extends_total, redlock_releases_total  by kind and outcome (ok,
 *       refused, unavailable, error, cancelled)
 * and the counters of redlock_acquire_stats and of redlock_node_stats
 * (labelled node="host:port", never credentials). */
REDLOCK_API int64_t redlock_client_metrics(const redlock_client *client, char *buf,
                                           size_t size);

/* A lock on `resource` (binary-safe, len > 0).  Creating it sends nothing.
 * Its key on the masters is the key prefix + resource, K; the library's own
 * keys for it (a fencing counter, the waiters' registry, the other kinds'
 * keys) are "{K}" and a suffix, in K's Redis Cluster hash slot.  So a key
 * prefix + resource that starts with '{' or contains '}' is refused
 * (REDLOCK_EINVAL, redlock_client_errstr() says why), by every constructor
 * below too: no resource's key is one of the library's (docs/kinds.md,
 * "Keys on the masters"). */
REDLOCK_API int redlock_lock_new(redlock_lock **out, redlock_client *client,
                                 const void *resource, size_t len);
/* Free the lock (a pending operation completes with REDLOCK_ECANCELED).  It
 * does NOT release a held lock: call redlock_release first.  NULL is ok. */
REDLOCK_API void redlock_lock_free(redlock_lock *lock);

/* Use a fixed value instead of a fresh random one for every acquire, e.g.
 * to release or extend a lock acquired by another process that handed the
 * value over.  NULL/0 goes back to random values.
 * The setters (this and redlock_lock_set_fencing) are refused with
 * REDLOCK_EBUSY while the handle holds its lock (validity > 0: the masters
 * keep the old value; errstr "... the lock is held by this handle (release
 * it first)") or while an acquire, extend or release of the application is
 * in flight ("... an operation is already in flight on this lock").  The
 * watchdog's own extend refuses nothing: while the lock is held that is
 * EBUSY anyway; once the hold has ended, a setter forgets the watchdog's
 * extend still in flight (its outcome ignored, as when the application's
 * own extend takes over), and a new value ends the watchdog and the
 * lost-lock notice of the old hold, as an acquire does. */
REDLOCK_API int redlock_lock_set_value(redlock_lock *lock, const void *value, size_t len);
/* The value of the last acquire (or the fixed value); NULL if none. */
REDLOCK_API const char *redlock_lock_value(const redlock_lock *lock, size_t *len);
/* Milliseconds of validity left as this client knows it; 0 when not held.
 * The promise (docs/safety.md): while this returns v > 0, a quorum of
 * masters holds the lock's value with at least v ms of TTL left.  So it is
 * never more than ttl - drift; it drops to what a pending extend may leave
 * the moment the extend starts; it is 0 from the start of a release, after
 * an extend that a quorum refused, and after the client's clock was seen
 * going backwards. */
REDLOCK_API int64_t redlock_lock_validity(const redlock_lock *lock);

/* ---- lock kinds (since 0.2.0) -------------------------------------------- */

/* redlock_lock_new makes a mutex, the plain Redlock lock.  The constructors
 * below make the other kinds of the same handle: every call above and below
 * (acquire, try_acquire, extend, release, async or blocking, the watchdog,
 * the lost-lock notice, node results, errstr) works on them, with the
 * differences each kind states.  A refusal says by whom the resource is
 * held (another owner, a writer, readers) in redlock_lock_errstr() and in
 * the refusing nodes' redlock_node_result detail.  docs/kinds.md has each
 * kind's keys on the masters and why it is safe over a quorum.  Use a
 * resource with one kind only: the mutex and the multi-resource lock share
 * their keys and exclude each other, but other kinds meeting on one
 * resource are refused ("held by a lock of another kind") or vote
 * REDLOCK_VOTE_ERROR, depending on the kinds.  Their own keys ("{<key>}:h",
 * "{<key>}:rd:<id>" ...) are out of every resource's reach (redlock_lock_new). */
#define REDLOCK_KIND_MUTEX     0   /* redlock_lock_new */
#define REDLOCK_KIND_REENTRANT 1   /* redlock_lock_new_reentrant */
#define REDLOCK_KIND_READ      2   /* redlock_lock_new_read */
#define REDLOCK_KIND_WRITE     3   /* redlock_lock_new_write */
#define REDLOCK_KIND_MULTI     4   /* redlock_lock_new_multi */
#define REDLOCK_KIND_SEMAPHORE 5   /* redlock_lock_new_semaphore */
/* The kind of a lock handle (REDLOCK_EINVAL for NULL). */
REDLOCK_API int redlock_lock_kind(const redlock_lock *lock);

/* Re-entrant lock.  An owner may acquire the lock again while it holds it:
 * an acquire on a handle that holds the lock adds one hold (the handle's
 * hold count grows on the masters; the key's ttl is lengthened to the new
 * ttl, never shortened, and the validity is the later of the two ends); a
 * release takes one away and keeps the lock (and its validity) until the
 * last.  An acquire that adds a hold and fails leaves the hold as it was,
 * unless a quorum refused it (the hold had been lost): then, as after a
 * refused extend, the validity is 0 and the lost-lock notice runs.
 * Handles created with the same owner (1 .. 512 bytes, binary-safe; e.g.
 * one per thread or task, even in other clients) are the same owner: each
 * may hold the lock at the same time; another owner is refused
 * (REDLOCK_ENOQUORUM, "held by another owner '<id>'").  owner NULL (and
 * ownerlen 0): the handle is its own owner.  The lock is free when no
 * handle of its owner holds it.  Fencing: the token of the hold's first
 * acquire, kept by the acquires that add holds.  On the masters: the key
 * and, while several handles or holds share it, "{<key>}:h"; one handle's
 * single hold costs them what a mutex's does (a plain SET NX, then a
 * compare-and-delete); docs/kinds.md. */
REDLOCK_API int redlock_lock_new_reentrant(redlock_lock **out, redlock_client *client,
                                           const void *resource, size_t len,
                                           const void *owner, size_t ownerlen);
/* A handle's holds: how many acquires its releases have not yet undone
 * (0 when not held; for other kinds 1 while held). */
REDLOCK_API int64_t redlock_lock_holds(const redlock_lock *lock);

/* Read/write lock on `resource`: a read handle shares it with other
 * readers, a write handle holds it alone.  Each handle's hold is a key of
 * its own with its own ttl on the masters, so every hold ends on its own
 * (expired or released), and a reader's release never frees another
 * reader.  A writer that was refused because readers hold the lock, and
 * will try again (an acquire with retries left), leaves a mark on the
 * masters that turns new readers away ("a writer is waiting") until it got
 * in (or for a short time after it gave up), so a stream of readers cannot
 * starve it.  Fencing: write handles only.  No downgrade: a write handle
 * cannot turn into a read handle without letting another writer in
 * (release, then acquire the read lock, is not atomic; docs/kinds.md). */
REDLOCK_API int redlock_lock_new_read(redlock_lock **out, redlock_client *client,
                                      const void *resource, size_t len);
REDLOCK_API int redlock_lock_new_write(redlock_lock **out, redlock_client *client,
                                       const void *resource, size_t len);

/* Multi-resource lock: all of `n` resources (1 .. 1024, distinct) or none,
 * in one acquire.  Each master takes every key or none (one script; one
 * resource is a mutex's SET NX), so two clients asking for {a, b} and
 * {b, a} cannot deadlock; extend and
 * release cover them all.  The order of `resources` does not matter: {b, a}
 * is the same lock as {a, b}.  Each resource's key is a mutex's, so a
 * mutex (redlock_lock_new) on one of them and the multi lock exclude each
 * other; a refusal names a held resource.  A key without a ttl at a
 * resource's key is not a lock: refused ("is not a lock"), left alone.
 * Bad arguments (n out of range, NULL, an empty or repeated resource):
 * REDLOCK_EINVAL, and redlock_client_errstr() says why.  No fencing (one
 * token cannot order the writes to several resources: lock them one by one
 * for that). */
REDLOCK_API int redlock_lock_new_multi(redlock_lock **out, redlock_client *client,
                                       const void *const *resources, const size_t *lens,
                                       size_t n);

/* Counting semaphore: up to `permits` (1 .. 1024) handles hold `resource`
 * at once, each with its own permit and ttl, extended, watched and
 * released on its own like any lock (a crashed holder's permit expires on
 * the masters).  Every operation of the handle needs q of the n masters,
 * the smallest q with q * (permits + 1) > permits * n (a majority for 1
 * permit; n = 5: 4 for 2 or 3 permits, all 5 from 4 permits on), so that
 * permits + 1 holders cannot each win q masters that grant at most
 * `permits` each (docs/kinds.md, "Semaphore"); redlock_lock_quorum says
 * which.  Every handle of one semaphore must give the same `permits`: an
 * acquire that meets permits held with another count ends at once, without
 * retries, with REDLOCK_EPERMITS, and leaves nothing on any master; once
 * every permit has ended the count may change.  A release by a handle that
 * holds no permit is REDLOCK_ENOTOWNER and changes nothing.  permits 0 or
 * above 1024: REDLOCK_EINVAL (redlock_client_errstr() says why).
 * Fencing: tokens increase from one permit's acquire to the next's, over
 * all holders.  On the masters: the key (a hash: the count and the
 * holders) and "{<key>}:s:<value>" per permit. */
REDLOCK_API int redlock_lock_new_semaphore(redlock_lock **out, redlock_client *client,
                                           const void *resource, size_t len, unsigned permits);
/* The number of masters the handle's operations need (a majority but for
 * a semaphore); REDLOCK_EINVAL for NULL, REDLOCK_ECLOSED once its client
 * was freed. */
REDLOCK_API int redlock_lock_quorum(const redlock_lock *lock);

/* ---- fencing tokens ---------------------------------------------------- */

/* Fencing (off by default): every acquire also yields a token, a number
 * strictly greater than every token handed out for the same resource
 * before it, as long as mutual exclusion holds (docs/safety.md).  Give it
 * to the resource the lock protects with every write; the resource keeps
 * the largest token it has seen and refuses writes that carry a smaller
 * one, so a holder that was paused past its validity cannot write after
 * the next holder did (examples/fencing.c).  The counter is a key of its
 * own on every master, `{<key>}:fence` (no ttl).
 * Costs nothing extra while the masters' counters agree; otherwise one
 * more round trip raises them before the acquire succeeds.  Refused like
 * redlock_lock_set_value (REDLOCK_EBUSY while held or while an operation
 * is in flight), unless it changes nothing (already on, or off). */
REDLOCK_API int redlock_lock_set_fencing(redlock_lock *lock, int on);
/* The token of the lock's latest successful fenced acquire (kept after
 * the release, until the next acquire), or 0. */
REDLOCK_API int64_t redlock_lock_token(const redlock_lock *lock);

/* ---- watchdog and lost-lock notice ------------------------------------ */

/* Why a held lock was lost (redlock_lost_cb). */
#define REDLOCK_LOST_REFUSED     1  /* an extend was refused by masters enough to
                                     * sink the quorum: the key is another's, or
                                     * gone from a master that did not restart
                                     * (deleted: taken away) */
#define REDLOCK_LOST_UNREACHABLE 2  /* the watchdog's extends failed (timeouts,
                                     * masters down) until no time was left to try */
#define REDLOCK_LOST_CAP         3  /* the watchdog's max_hold_ms was reached */
#define REDLOCK_LOST_EXPIRED     4  /* the validity ran out before an extend won */
#define REDLOCK_LOST_CLOCK       5  /* a master that granted it was seen with its
                                     * clock jumped ahead (the clock guard), so
                                     * its key may have expired early, and the
                                     * other masters that granted it are no
                                     * quorum */

/* Runs once per hold, on the client's loop, when the lock can no longer be
 * trusted; redlock_lock_validity() is 0 from then on.  Never after a
 * release or a free.  The callback may free the lock. */
typedef void redlock_lost_cb(redlock_lock *lock, int reason, void *privdata);

/* Keep the lock while it is held: extend it with the acquire's ttl every
 * every_ms (0: ttl/3; -1: no watchdog, the default), until the release, the
 * free, or max_hold_ms after the acquire (0: no cap; the last extend is
 * shortened so that the hold ends at the cap).  A failed extend is tried
 * again sooner while two more node timeouts fit before the validity ends;
 * then the lost-lock notice says it is over, about a node timeout or more
 * before the validity ends.  An extend or release
 * the application starts meanwhile takes the watchdog's place.  Needs the
 * client's loop to run: a blocking client (base == NULL) needs the option
 * loop_thread, else REDLOCK_EINVAL.  May be set before or while the lock
 * is held. */
REDLOCK_API int redlock_lock_set_watchdog(redlock_lock *lock, int64_t every_ms,
                                          int64_t max_hold_ms);
/* The lost-lock notice (cb NULL: none).  Without a watchdog it still fires
 * when the validity runs out, when an extend is refused by a quorum, or
 * when a master's clock is seen jumping ahead (REDLOCK_LOST_CLOCK). */
REDLOCK_API int redlock_lock_on_lost(redlock_lock *lock, redlock_lost_cb *cb, void *privdata);
/* Nodes that answered OK in the last operation, counted when it was
 * decided: an acquire or extend is decided as soon as a quorum said OK, so
 * this may be the quorum even if more nodes take the key a moment later.  A
 * release is decided as soon as its outcome is known too, but the replies
 * of the masters still deleting come in after its callback and are counted
 * then: this and redlock_lock_node_result() grow to how many nodes actually
 * deleted the key, until the lock's next operation starts (its results are
 * never overwritten by them). */
REDLOCK_API size_t redlock_lock_nodes_ok(const redlock_lock *lock);
/* A readable message for the last operation's outcome ("" after success),
 * whole, however long.  A failed fan-out reads "<op>: <redlock_strerror>
 * (N of M nodes OK, quorum Q; N refused, N timed out, N unreachable, N
 * errors, N full, N not counted); first: node I (<address>): <why>", or
 * "<op>: the validity ran out before a quorum answered (ttl T ms; N of M
 * nodes OK, quorum Q); first: ...".  Node I is the first to fail the way
 * the code says (a guard's reason says which guard and for how long). */
REDLOCK_API const char *redlock_lock_errstr(const redlock_lock *lock);

/* What one node did in the lock's last operation. */
#define REDLOCK_VOTE_NONE     0   /* not asked, or no answer before the decision */
#define REDLOCK_VOTE_OK       1   /* acquired / extended / deleted */
#define REDLOCK_VOTE_REFUSED  2   /* held by someone else, or not our value */
#define REDLOCK_VOTE_TIMEOUT  3   /* no reply within node_timeout_ms */
#define REDLOCK_VOTE_DOWN     4   /* not connected, or the connection was lost */
#define REDLOCK_VOTE_ERROR    5   /* the server answered an error */
#define REDLOCK_VOTE_FULL     6   /* not sent: max_pending requests were queued;
                                   * or, once the outcome was known without
                                   * it, the request still waited for the
                                   * node to catch up (node stats: dropped) */
#define REDLOCK_VOTE_UNCOUNTED 7  /* it said OK, but a guard kept it out of the
                                   * quorum (detail says which; since 0.2.0);
                                   * or it was not asked: the same server as
                                   * another node ("same server as node K") */

typedef struct redlock_node_result {
    int vote;                    /* REDLOCK_VOTE_* */
    int64_t rtt_us;              /* request to reply; -1 without a reply */
    const char *detail;          /* the error or connection problem, "" if
                                  * none; never contains a password */
} redlock_node_result;

/* Fill *out for node `node` (0 .. nodes-1).  detail stays valid until the
 * lock's next operation starts or the lock is freed. */
REDLOCK_API int redlock_lock_node_result_(const redlock_lock *lock, size_t node,
                                          redlock_node_result *out, size_t size);
#define redlock_lock_node_result(lock, node, out) \
    redlock_lock_node_result_((lock), (node), (out), sizeof(redlock_node_result))
/* Short name of a REDLOCK_VOTE_* value ("ok", "refused", ...). */
REDLOCK_API const char *redlock_vote_name(int vote);

/* Asynchronous operations (see the callback contract above). */
/* Acquire with the client's retry policy; ttl_ms in 1 .. 2^40, and large
 * enough to leave at least 1 ms after the drift allowance (with the
 * defaults: ttl_ms >= 4).  A success always leaves >= 1 ms of validity.
 * REDLOCK_EBUSY while the lock still has validity (a new value would
 * orphan the held key): extend or release it first.  A lost attempt is
 * removed from every master its SET may have reached (docs/safety.md). */
REDLOCK_API int redlock_acquire_async(redlock_lock *lock, int64_t ttl_ms,
                                      redlock_cb *cb, void *privdata);
/* Exactly one attempt. */
REDLOCK_API int redlock_try_acquire_async(redlock_lock *lock, int64_t ttl_ms,
                                          redlock_cb *cb, void *privdata);
/* Acquire with the call's own deadline instead of the client's
 * acquire_timeout_ms and retry_count (since 0.2.0): attempts go on (at the
 * client's retry delays, or sooner when a release is announced) until one
 * wins or wait_ms have passed since the call.  No attempt starts at or
 * after the deadline, and one in flight then is cut there (undone where it
 * may have written); the callback then gets REDLOCK_ETIMEDOUT, errstr
 * "acquire: the call's deadline passed (wait_ms N); last attempt: ...".
 * wait_ms 0: exactly one attempt, as redlock_try_acquire_async (its
 * outcome's code); above 2^40 (e.g. INT64_MAX): no deadline, it waits
 * until it gets the lock or is cancelled (redlock_acquire_cancel) or the
 * lock or client is freed; negative: REDLOCK_EINVAL. */
REDLOCK_API int redlock_acquire_for_async(redlock_lock *lock, int64_t wait_ms, int64_t ttl_ms,
                                          redlock_cb *cb, void *privdata);
/* Cancel the lock's pending acquire (since 0.2.0): waiting for its next
 * attempt, or with an attempt in flight; any acquire call, blocking or
 * not, any kind.  Returns 0 and the acquire ends: its callback runs once,
 * inside this call, with REDLOCK_ECANCELED and errstr "acquire: cancelled
 * by redlock_acquire_cancel" (a freed lock's or client's ECANCELED says
 * otherwise); a blocking acquire returns that.  Nothing is left on any
 * master: the attempt in flight is undone at once on every master its
 * request went to (behind it: a reply still to come changes nothing), the
 * waiters' registry entry is taken away, a waiting writer's mark too, a
 * waiting reader's place among the readers waiting and in their turn
 * (docs/design.md, "Cancel and per-call deadlines").  A re-entrant lock's
 * acquire of one more hold ends; the holds it had stay.  REDLOCK_EINVAL
 * when no acquire is pending (never started, already decided: its
 * callback ran, or an extend or release is in flight), REDLOCK_ECLOSED when
 * the client was freed.  From a callback of the client (an async client's,
 * or one run inside a blocking call), or with option loop_thread from any
 * thread: a blocking acquire waiting in another thread then returns
 * REDLOCK_ECANCELED. */
REDLOCK_API int redlock_acquire_cancel(redlock_lock *lock);
/* Reset the ttl on every node still holding our value; succeeds with a
 * quorum and at least 1 ms of validity measured from the extend's own
 * start.  On failure the validity is at most min(old end, extend start +
 * ttl - drift), and 0 when a quorum refused (REDLOCK_ENOTOWNER).  A node
 * without the key refuses: the key was taken away (an operator's DEL),
 * unless that master restarted (a new run_id in INFO) or, in a Redis
 * Cluster, failed over since it last had the key while the lock is held:
 * then the key is set again there (re-grown, an OK vote), once per
 * restart.  A master whose INFO is refused is never thought restarted. */
REDLOCK_API int redlock_extend_async(redlock_lock *lock, int64_t ttl_ms,
                                     redlock_cb *cb, void *privdata);
/* Delete the key on every node where it still holds our value; cb may be
 * NULL.  Decided as soon as the outcome is known, without waiting for the
 * slower masters (their deletes go on; redlock_lock_nodes_ok() counts them
 * as they answer): 0 once a quorum deleted it (it was held until the
 * release); REDLOCK_ENOTOWNER once refusals show that a quorum no longer
 * held it (expired or taken: the lock had been lost); otherwise
 * REDLOCK_ETIMEDOUT, REDLOCK_ECONNECT or REDLOCK_ESERVER, the outcome on
 * the silent masters unknown.  A master
 * the release could not reach (down, or its connection lost first) is
 * owed it: it is sent right after that master's next handshake.  The
 * validity is 0 from the start of the release, whatever the result. */
REDLOCK_API int redlock_release_async(redlock_lock *lock, redlock_cb *cb, void *privdata);

/* Blocking operations: clients created with base == NULL only.  Such a
 * client's connections only make progress inside these calls (and
 * redlock_client_wait_connected): replies that arrive after an operation was
 * decided, reconnections and the like are handled at the next call.  So
 * on such a client (without loop_thread) redlock_release, unlike
 * redlock_release_async, returns only once every master answered or timed
 * out (node_timeout_ms): its node results are then complete.  With option
 * wake, such a client's calls also take to their end what the waking of
 * waiters has on its way: the client's first acquire returns once it
 * listens for the waiters' notices on every master that answers (a second
 * connection per master, about a round trip more, once; a master that
 * answers its acquire a few round trips after the quorum is waited for, a
 * hung master is not, and a waiter heard only where it does not listen yet
 * comes at its poll), and a call during which a waiter's notice came
 * returns once the release's late pick is answered; so its releases wake
 * waiters as a listening client's do.  Nothing more while nobody waits. */
REDLOCK_API int redlock_acquire(redlock_lock *lock, int64_t ttl_ms);
REDLOCK_API int redlock_try_acquire(redlock_lock *lock, int64_t ttl_ms);
/* redlock_acquire_for_async, waiting for its outcome (since 0.2.0). */
REDLOCK_API int redlock_acquire_for(redlock_lock *lock, int64_t wait_ms, int64_t ttl_ms);
REDLOCK_API int redlock_extend(redlock_lock *lock, int64_t ttl_ms);
REDLOCK_API int redlock_release(redlock_lock *lock);

/* ---- inspecting a resource (since 0.2.0) -------------------------------- */

/* What every master holds for a resource, read without touching it: one
 * read-only script per master (it changes no key and no ttl), sent to all
 * at once and decided when each answered or timed out (node_timeout_ms).
 * Not a lock operation: it needs no handle, and the votes of
 * redlock_node_stats do not count it.  The result is an opaque inspection, read with the
 * functions below (growing structs, as in "Growing") and freed with
 * redlock_inspection_free(). */
typedef struct redlock_inspection redlock_inspection;

/* What a master's keys for the resource hold (docs/kinds.md, "Keys on the
 * masters"). */
#define REDLOCK_HELD_NONE      0  /* no key: free */
#define REDLOCK_HELD_MUTEX     1  /* a mutex's key (a string with a ttl): a
                                   * mutex, a write handle or a multi-resource
                                   * lock holds it; their keys are the same, so
                                   * a master cannot tell them apart */
#define REDLOCK_HELD_REENTRANT 2  /* a re-entrant lock's: owner, handles */
#define REDLOCK_HELD_READERS   3  /* read handles (0 holders: only expired
                                   * readers' ids are left, free for a writer) */
#define REDLOCK_HELD_OTHER     4  /* a key that is no lock's: no ttl, or a
                                   * type no kind writes there */
#define REDLOCK_HELD_SEMAPHORE 5  /* a semaphore's: its permit count, the
                                   * holders whose permits are live */
/* Short name of a REDLOCK_HELD_* value ("none", "mutex", "reentrant",
 * "readers", "other", "semaphore"). */
REDLOCK_API const char *redlock_held_name(int kind);

/* One master's answer, or (node REDLOCK_INSPECT_QUORUM) the quorum's
 * view: what a quorum of the masters agrees is held. */
typedef struct redlock_inspect_node {
    int result;                  /* REDLOCK_VOTE_OK: it answered; else
                                  * REDLOCK_VOTE_DOWN, _TIMEOUT or _ERROR;
                                  * _UNCOUNTED: the same server as a
                                  * lower-numbered node (REDLOCK_GUARD_
                                  * DUPLICATE), its answer not counted
                                  * twice.  The quorum's view: _OK when a
                                  * quorum answered, else _NONE */
    int64_t rtt_us;              /* request to reply; -1 without one */
    const char *detail;          /* why it did not answer, or "" */
    int kind;                    /* REDLOCK_HELD_*; the quorum's: the kind a
                                  * quorum reports (else REDLOCK_HELD_NONE) */
    size_t holders;              /* the handles that hold it (a mutex's key: 1;
                                  * readers, a semaphore's permits: the live
                                  * ones; a re-entrant key: its handles); the
                                  * quorum's: those held on a quorum of
                                  * masters */
    size_t listed;               /* holders readable with
                                  * redlock_inspection_holder (at most 200 a
                                  * master; all of the quorum's) */
    int64_t ttl_ms;              /* ms until no holder holds it there (its
                                  * PTTL; readers: the longest); 0: free; -1:
                                  * a key without a ttl.  The quorum's: the
                                  * longest time a quorum still grants one of
                                  * its holders (see redlock_inspect_holder) */
    const char *owner;           /* re-entrant: the owner id (NUL-terminated,
                                  * binary-safe with ownerlen), else NULL */
    size_t ownerlen;
    int writer_waiting;          /* 1: a writer's mark ("{<key>}:ww") is there,
                                  * new readers are turned away */
    int64_t permits;             /* a semaphore's permit count there, else 0;
                                  * the quorum's: the count a quorum reports
                                  * (its holders: those on as many masters
                                  * as the semaphore's quorum; none when no
                                  * count is agreed) */
} redlock_inspect_node;

/* One holder: a mutex's value, a reader's id (its value), a re-entrant
 * handle's value. */
typedef struct redlock_inspect_holder {
    const char *value;           /* NUL-terminated; binary-safe with len
                                  * (cut to 4096 bytes) */
    size_t len;
    int64_t ttl_ms;              /* its time left on that master; the
                                  * quorum's: the quorum-th largest of its
                                  * time left on every master (0 where a
                                  * master does not hold it) */
    int64_t holds;               /* a re-entrant handle's hold count; else 1 */
    size_t masters;              /* the quorum's: masters that hold it; else 1 */
} redlock_inspect_holder;

#define REDLOCK_INSPECT_QUORUM ((size_t)-1)

/* status: 0 when a quorum of masters answered; else REDLOCK_ETIMEDOUT,
 * REDLOCK_ECONNECT or REDLOCK_ESERVER (the first that applies: some timed
 * out, some were down, errors) and redlock_inspection_errstr() says which
 * nodes; REDLOCK_ECANCELED when the client was freed first; insp is never
 * NULL and belongs to the callback (free it with redlock_inspection_free,
 * there or later).  The callback contract at the top applies. */
typedef void redlock_inspect_cb(redlock_client *client, redlock_inspection *insp, int status,
                                void *privdata);
/* Start an inspection of `resource` (binary-safe, len > 0, refused like
 * redlock_lock_new's: REDLOCK_EINVAL, redlock_client_errstr() says why;
 * cb NULL is EINVAL too). */
REDLOCK_API int redlock_inspect_async(redlock_client *client, const void *resource, size_t len,
                                      redlock_inspect_cb *cb, void *privdata);
/* Blocking form (clients created without an event base): the status as
 * above; *out is the inspection (free it) unless the call was refused
 * (REDLOCK_EINVAL), cancelled or out of memory: then NULL. */
REDLOCK_API int redlock_inspect(redlock_client *client, const void *resource, size_t len,
                                redlock_inspection **out);
REDLOCK_API void redlock_inspection_free(redlock_inspection *insp);
REDLOCK_API size_t redlock_inspection_nodes(const redlock_inspection *insp);
/* "" after success; else why (whole). */
REDLOCK_API const char *redlock_inspection_errstr(const redlock_inspection *insp);
/* Node `node` (0 .. nodes-1, or REDLOCK_INSPECT_QUORUM) into *out; its
 * strings live as long as the inspection. */
REDLOCK_API int redlock_inspection_node_(const redlock_inspection *insp, size_t node,
                                         redlock_inspect_node *out, size_t size);
#define redlock_inspection_node(insp, node, out) \
    redlock_inspection_node_((insp), (node), (out), sizeof(redlock_inspect_node))
/* Holder i (0 .. listed-1) of node `node` (or REDLOCK_INSPECT_QUORUM). */
REDLOCK_API int redlock_inspection_holder_(const redlock_inspection *insp, size_t node, size_t i,
                                           redlock_inspect_holder *out, size_t size);
#define redlock_inspection_holder(insp, node, i, out) \
    redlock_inspection_holder_((insp), (node), (i), (out), sizeof(redlock_inspect_holder))

REDLOCK_API const char *redlock_strerror(int code);
REDLOCK_API const char *redlock_version(void);

#ifdef __cplusplus
}
#endif
#endif /* REDLOCK_H */
