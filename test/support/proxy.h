/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rlproxy -- a small fault-injecting TCP proxy for network-fault tests.
 *
 * The machines this project runs on have no netem, so faults between the
 * library and its Redis masters are injected by a userspace proxy sitting in
 * front of each master:
 *
 *     client  --->  127.0.0.1:listen_port  (rlp_proxy)  --->  target_host:target_port
 *
 * Two ways to use it:
 *   - rlp_proxy_*  : a proxy object living on an event_base you run yourself
 *                    (single-threaded; every call must come from the thread
 *                    running that base, and never from inside a proxy callback
 *                    -- there are none exposed, so this just means "your code");
 *   - rlp_thread_* : a proxy with its own event_base in its own pthread; every
 *                    rlp_thread_* call may be made from any thread and returns
 *                    only once the change has been applied by the proxy thread.
 *
 * Directions: RLP_UP is client -> server (requests), RLP_DOWN is
 * server -> client (replies), RLP_BOTH both.
 *
 * Fault semantics (all changeable at any time; they apply to existing and new
 * connections unless said otherwise):
 *   latency    Every chunk read from one side is held for delay +/- jitter ms
 *              (uniform, clamped at 0) before it is written to the other side.
 *              Order is always preserved: a chunk is never released before the
 *              one read before it, so jitter only stretches gaps.  A change
 *              applies to data read from then on; chunks already queued keep
 *              the release time they were given.
 *   bandwidth  Token bucket per connection and per direction (bytes/s, 0 =
 *              unlimited, burst = 20 ms worth, at least 1 byte).  Applied to
 *              data after its latency; when the queue of one direction holds
 *              more than RLP_QUEUE_MAX bytes the proxy stops reading that
 *              source, so the sender is throttled by TCP flow control.
 *   blackhole  Accept connections and read everything, forward nothing, answer
 *              nothing.  Connections accepted while it is on never get an
 *              upstream connection (they stay sinks until the client closes,
 *              rlp_proxy_reset_all or rlp_proxy_free).  For existing
 *              connections, turning it on discards the data queued in both
 *              directions and everything read while it stays on (EOFs are held
 *              back, not forwarded, until it is turned off).
 *   halfopen   Like blackhole but only for RLP_DOWN: data from the server is
 *              dropped (queued data too), client->server still forwarded.
 *   pause      (extra) The TCP-faithful partition: the proxy stops reading and
 *              writing both directions; data stays queued / in kernel buffers
 *              and is delivered, in order, once pause is turned off.  New
 *              connections are still accepted (and connected upstream).
 *   refuse     New connections are accepted and immediately reset (RST).
 *              Existing connections are not affected.
 *   reset_all  One-shot: close every current connection, both sides, with RST
 *              (SO_LINGER 0), dropping queued data.
 *   setreset   (failover suite) Count N: the next N times a chunk containing a
 *              SET command ("$3\r\nSET\r\n", any case) has been written in
 *              full to the server, that connection is reset at once, both
 *              sides (RST): the SET reached the server, its reply never
 *              reaches the client.  0 turns it off.
 *   hostile    (failover suite) A master that answers garbage: while on, the
 *              next data a connection receives from its server (a reply) is
 *              replaced, towards the client, by
 *                RLP_HOSTILE_LINE     "+aaaa..." without end of line
 *                                     (RLP_HOSTILE_LINE_BYTES, written as
 *                                     fast as the client reads),
 *                RLP_HOSTILE_ERROR    "-ERR xxxx...\r\n", a 4 MiB error,
 *                RLP_HOSTILE_GARBAGE  4 KiB of random bytes, no valid type;
 *              everything else the server sends on that connection is then
 *              dropped.  Turning it off (or clear) resets those connections.
 *   timeshift  (guards) A master whose clock jumped: every TIME reply the
 *              server sends ("*2\r\n$10\r\n<seconds>...") reaches the client
 *              with its seconds moved by this many (the length unchanged);
 *              nothing else is touched.  The server's own clock is not.
 *
 * Closing: EOF from one side is forwarded (shutdown(SHUT_WR)) to the other
 * side once the data queued before it has been delivered (after its delay);
 * a connection is closed when both directions are finished.  A reset or error
 * on one side aborts the direction towards it, flushes the other direction,
 * then closes.  If the upstream connect fails, the client is reset.
 *
 * While blackhole/halfopen drop a direction, EOFs and resets in it are not
 * forwarded either, so such a connection stays open until the fault is
 * lifted, rlp_proxy_reset_all, or rlp_proxy_free.
 *
 * Listening is on 127.0.0.1 only; the target is resolved once, at creation
 * (IPv4 preferred).  SIGPIPE is never raised (MSG_NOSIGNAL).
 *
 * Linking: libevent core (-levent) and pthreads (part of libc since glibc
 * 2.34; add -lpthread elsewhere).  The thread wrapper does not need
 * libevent_pthreads: it wakes its loop through a pipe.
 * The standalone binary (proxy_main.c, test/rlproxy) documents its commands
 * at the top of that file.
 */
#ifndef RLPROXY_H
#define RLPROXY_H

#include <stddef.h>

struct event_base;

enum { RLP_UP = 1, RLP_DOWN = 2, RLP_BOTH = 3 };

/* Per direction, data queued above this stops reading from that source. */
#define RLP_QUEUE_MAX (4u * 1024u * 1024u)

typedef struct rlp_proxy rlp_proxy;

typedef struct rlp_stats {
    int conns;                    /* connections open now */
    unsigned long accepted;       /* connections accepted, refused ones included */
    unsigned long refused;        /* reset at accept because of refuse */
    unsigned long upstream_failed;/* upstream connect failed -> client reset */
    unsigned long resets;         /* connections killed by rlp_proxy_reset_all */
    unsigned long long bytes_up, bytes_down;     /* delivered */
    unsigned long long dropped_up, dropped_down; /* discarded by blackhole/halfopen */
    unsigned long setresets;      /* connections reset after forwarding a SET */
    unsigned long hostile_conns;  /* connections given a hostile reply */
    unsigned long time_rewrites;  /* TIME replies moved by timeshift */
    unsigned long time_cmds;      /* TIME commands read from clients */
    unsigned long time_alone;     /* reads from a client that held one TIME
                                   * command and nothing else */
} rlp_stats;

/* Current fault settings, as last set. */
typedef struct rlp_faults {
    int delay_ms[2], jitter_ms[2];    /* [0] = up, [1] = down */
    long bandwidth[2];                /* bytes/s, 0 = unlimited */
    int blackhole, halfopen, refuse, pause;
    int setreset;                     /* SET-forwarding resets still to do */
    int hostile;                      /* RLP_HOSTILE_* */
    int timeshift_s;                  /* seconds added to TIME replies */
} rlp_faults;

enum { RLP_HOSTILE_OFF = 0, RLP_HOSTILE_LINE = 1, RLP_HOSTILE_ERROR = 2, RLP_HOSTILE_GARBAGE = 3 };
#define RLP_HOSTILE_LINE_BYTES (8u * 1024u * 1024u)
#define RLP_HOSTILE_ERROR_BYTES (4u * 1024u * 1024u)

/* Listen on 127.0.0.1:listen_port (0 = pick a free port) and forward each
 * accepted connection to target_host:target_port (NULL host = 127.0.0.1).
 * Returns NULL and writes a message into err (if non-NULL) on failure. */
rlp_proxy *rlp_proxy_new(struct event_base *base, int listen_port,
                         const char *target_host, int target_port,
                         char *err, size_t errlen);
/* The port actually listened on. */
int rlp_proxy_port(const rlp_proxy *p);
int rlp_proxy_target_port(const rlp_proxy *p);

/* Setters: negative values are taken as 0.  dir is RLP_UP, RLP_DOWN or
 * RLP_BOTH; anything else is ignored. */
void rlp_proxy_set_latency(rlp_proxy *p, int dir, int delay_ms, int jitter_ms);
void rlp_proxy_set_bandwidth(rlp_proxy *p, int dir, long bytes_per_sec);
void rlp_proxy_set_blackhole(rlp_proxy *p, int on);
void rlp_proxy_set_halfopen(rlp_proxy *p, int on);
void rlp_proxy_set_pause(rlp_proxy *p, int on);
void rlp_proxy_set_refuse(rlp_proxy *p, int on);
void rlp_proxy_reset_all(rlp_proxy *p);
void rlp_proxy_set_setreset(rlp_proxy *p, int count);
void rlp_proxy_set_hostile(rlp_proxy *p, int kind);
void rlp_proxy_set_timeshift(rlp_proxy *p, int seconds);
/* Back to a clean pipe: no latency, no bandwidth limit, no blackhole,
 * halfopen, pause, refuse, setreset or hostile.  Existing connections are
 * kept, except those a hostile reply was injected into (reset). */
void rlp_proxy_clear(rlp_proxy *p);

void rlp_proxy_stats(const rlp_proxy *p, rlp_stats *out);
void rlp_proxy_faults(const rlp_proxy *p, rlp_faults *out);

/* Closes the listener and every connection (plain close, queued data lost).
 * NULL is fine.  Must not be called while the base is dispatching a proxy
 * event (i.e. call it from your own code, not from inside the loop's
 * callbacks of this proxy -- there are none you can hook anyway). */
void rlp_proxy_free(rlp_proxy *p);

/* ---- Thread wrapper --------------------------------------------------- */

typedef struct rlp_thread rlp_thread;

/* Starts a pthread running a fresh event_base with one proxy on it.
 * Returns NULL and fills err on failure. */
rlp_thread *rlp_thread_start(int listen_port, const char *target_host,
                             int target_port, char *err, size_t errlen);
/* Immutable after start: safe from any thread. */
int rlp_thread_port(const rlp_thread *t);

/* Runs fn(proxy, arg) in the proxy thread and waits for it to return.
 * Calls from several threads are serialized.  Calling it from the proxy
 * thread itself (i.e. from inside fn) runs fn directly. */
void rlp_thread_call(rlp_thread *t, void (*fn)(rlp_proxy *p, void *arg), void *arg);

/* The setters above, thread-safe: each returns once applied. */
void rlp_thread_set_latency(rlp_thread *t, int dir, int delay_ms, int jitter_ms);
void rlp_thread_set_bandwidth(rlp_thread *t, int dir, long bytes_per_sec);
void rlp_thread_set_blackhole(rlp_thread *t, int on);
void rlp_thread_set_halfopen(rlp_thread *t, int on);
void rlp_thread_set_pause(rlp_thread *t, int on);
void rlp_thread_set_refuse(rlp_thread *t, int on);
void rlp_thread_reset_all(rlp_thread *t);
void rlp_thread_set_setreset(rlp_thread *t, int count);
void rlp_thread_set_hostile(rlp_thread *t, int kind);
void rlp_thread_set_timeshift(rlp_thread *t, int seconds);
void rlp_thread_clear(rlp_thread *t);
void rlp_thread_stats(rlp_thread *t, rlp_stats *out);

/* Stops the thread, frees the proxy (closing its connections) and the base.
 * NULL is fine. */
void rlp_thread_stop(rlp_thread *t);

/* The proxy of a thread: only to be touched from inside rlp_thread_call. */
rlp_proxy *rlp_thread_proxy(rlp_thread *t);

/* An event_base with EVENT_BASE_FLAG_PRECISE_TIMER (timerfd: sub-ms timer
 * precision instead of epoll's ms rounding); falls back to a plain one. */
struct event_base *rlp_base_new(void);

/* A non-blocking TCP socket listening on 127.0.0.1:port (0 = a free port);
 * *bound gets the port.  -1 with errno set and *step naming the call that
 * failed ("socket", "bind", "listen" or "getsockname"). */
int rlp_listen_loopback(int port, int backlog, int *bound, const char **step);

/* "up" / "down" / "both" -> RLP_*; 0 if not recognised. */
int rlp_parse_dir(const char *s);
/* "off" / "line" / "error" / "garbage" -> RLP_HOSTILE_*; -1 if not recognised. */
int rlp_parse_hostile(const char *s);
const char *rlp_hostile_name(int kind);

#endif
