/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* sim.h -- the simulator's parts (docs/simulator.md): world.c (virtual time,
 * the seeded streams, the event queue, the clock, getrandom and getpid the
 * library and libevent read), net.c (the simulated connections behind the
 * dial hook), work.c (the workload), check.c (the checkers), fault.c (the
 * faults' schedule), trace.c (the trace and its hash), main.c (the driver
 * and the command line). */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "sim/master.h"

struct event_base;

/* ---- world.c ---- */

/* the virtual time, us; every clock the process reads follows it */
extern int64_t sim_now_us;
/* a fault: CLOCK_BOOTTIME (the library's clock) reads this much behind */
extern int64_t sim_clock_back_us;
#define SIM_START_US ((int64_t)1000 * 1000000)     /* a run starts 1000 s after boot */
#define SIM_EPOCH_US ((int64_t)1767225600 * 1000000) /* CLOCK_REALTIME - CLOCK_MONOTONIC */

/* seeded streams, one per job, so that one part's draws do not move another's */
enum { SIM_RNG_NET, SIM_RNG_WORK, SIM_RNG_BYTES, SIM_RNG_FAULT, SIM_RNG_CLOCK, SIM_RNG_CLUSTER,
       SIM_RNG_COUNT };
void sim_world_reset(uint64_t seed);
uint64_t sim_rand(int stream);
/* uniform in [lo, hi] */
int64_t sim_rand_range(int stream, int64_t lo, int64_t hi);

/* the event queue: fn(ctx, id, data) at time t; events due at one instant
 * run in the order they were scheduled.  data (may be NULL) is moved in. */
typedef void sim_event_fn(void *ctx, long long id, sim_buf *data);
int sim_at(int64_t t, sim_event_fn *fn, void *ctx, long long id, sim_buf *data);
/* Set when the library or libevent may have run (an event not quiet ran,
 * or a poll found a descriptor ready): libevent's timers may have
 * changed.  sim_quiet(fn): fn's events never run the library's code nor
 * libevent's. */
extern int sim_loop_touched;
/* the same for libevent's set of descriptors and what it waits for, till
 * poll (sock.c) finds that set idle: a loop that runs callbacks after its
 * poll (timers due, events active) sets it for its whole length */
extern int sim_poll_stale, sim_poll_hold;
void sim_quiet(sim_event_fn *fn);
/* the earliest event's time, or INT64_MAX */
int64_t sim_next_at(void);
/* run the events due at sim_now_us; how many ran */
int sim_run_due(void);
void sim_queue_clear(void);

/* ---- work.c: the workload and the exclusion checker ---- */

typedef struct sim_settings {
    int hold_to_release;    /* the checker's own test: a hold lasts until its
                             * release, whatever the validity said */
    int drift_ppm;          /* the masters' clocks run within this many ppm of
                             * the client's (2000: inside drift_factor's 1 %) */
    int clock_guard_off, restart_guard_off;     /* the clients' guards */
    int jumps;              /* a master's clock jumps ahead once a run (an
                             * assumption broken on purpose: docs/safety.md) */
    unsigned kinds;         /* the kinds the workers draw from: 1 << SIM_K_* */
    int wake;               /* the clients' option wake */
    int promises_only;      /* overlaps and unbacked validity are reported,
                             * not counted (with --jumps: what holds even
                             * then is what is checked) */
    int cluster;            /* votes that are Redis Clusters (cluster_world.c) */
} sim_settings;

enum { SIM_K_MUTEX, SIM_K_FENCED, SIM_K_REENTRANT, SIM_K_READ, SIM_K_WRITE, SIM_K_MULTI,
       SIM_K_SEMAPHORE, SIM_KINDS };
#define SIM_KIND_MUTEX (1u << SIM_K_MUTEX)
#define SIM_KIND_ALL ((1u << SIM_KINDS) - 1)
/* "mutex", "fenced", "reentrant", "read", "write", "multi", "semaphore" */
const char *sim_kind_name(int kind);
extern sim_settings sim_set;

/* the clients and their first steps: how many, or -1 with why */
int sim_work_start(struct event_base *base, const char *const *nodes, size_t n, char *why,
                   size_t whylen);
int sim_work_done(void);
/* the library's clock just stepped back (fault.c) */
void sim_work_clock_stepped(void);
/* free the clients; the run's violations */
int sim_work_stop(void);

/* ---- fault.c ---- */

/* the run's faults, into the queue; durable: a restarted master keeps its keys */
void sim_faults_schedule(size_t nmasters, int durable);
/* t, or when the client's process resumed if it was paused at t */
int64_t sim_fault_resumed(int64_t t);

/* ---- cluster_world.c: runs with Redis Cluster votes (--cluster) ---- */

/* the run's nodes into masters[] (its count returned) and the votes'
 * addresses into addrs[] (*nvotes) */
size_t sim_cw_make(uint64_t seed, int durable, sim_master **masters, const char **addrs,
                   size_t *nvotes);
/* the clusters' faults, into the queue: migrations, a master down,
 * failovers, replicas' syncs */
void sim_cw_faults(void);
void sim_cw_free(void);
/* the checkers' view (without --cluster, vote v is master v): the votes;
 * vote v's nodes that are masters now (their count); when it last lost
 * keys (a restart without them, a failover) and when a fault last touched
 * it (INT64_MIN: never); whether node i is a master now, and its vote */
size_t sim_votes(void);
size_t sim_vote_masters(size_t v, size_t *out, size_t max);
int64_t sim_vote_lost_keys_us(size_t v);
int64_t sim_vote_fault_us(size_t v);
int sim_node_is_master(size_t i);
size_t sim_node_vote(size_t i);

/* ---- trace.c ---- */

void sim_trace_reset(int verbose);
void sim_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* sim_trace("m%zu c%lld %c %zu", master, conn, dir, len), faster */
void sim_trace_flow(size_t master, long long conn, char dir, size_t len);
/* bytes into the hash (and shown, escaped and cut, when verbose) */
void sim_trace_bytes(const char *p, size_t len);
uint64_t sim_trace_hash(void);

/* ---- sock.c: the connections' streams, in the process ---- */

typedef struct sim_sock sim_sock;
/* a connected stream, the simulator's number id: the library's descriptor
 * in *lib_fd */
sim_sock *sim_sock_open(long long id, int *lib_fd);
/* the streams the library wrote to or closed since the last call, in the
 * order of their numbers (the list is the callee's, valid until the next
 * call); the others have nothing to take */
size_t sim_sock_changed(sim_sock ***list);
long long sim_sock_id(const sim_sock *s);
/* what the library wrote, appended to out; 1 once the library closed its
 * side and everything was taken (after an error it left, once: 0) */
int sim_sock_take(sim_sock *s, sim_buf *out);
/* a stream both sides hold open has bytes the library has not read */
int sim_sock_unread_any(void);
/* bytes to the library: 0, or -1 if it closed its side */
int sim_sock_write(sim_sock *s, const void *p, size_t len);
/* the simulator's side closes; s is not to be used after */
void sim_sock_close(sim_sock *s);

/* ---- net.c ---- */

#define SIM_MAX_MASTERS 32
/* each master's clock runs at its own rate, within max_ppm of the
 * virtual time's (seeded), from its own origin */
void sim_net_init(struct event_base *base, sim_master **masters, size_t n, int max_ppm);
/* master i's clock now, in ms */
int64_t sim_net_master_ms(size_t i);
/* the masters (for the checkers) */
size_t sim_net_masters(void);
sim_master *sim_net_master(size_t i);
/* a span of master i's clock (ms) in true time (us) */
int64_t sim_net_true_us(size_t i, int64_t master_ms);
/* a fault: master i's clock jumps by ms (its keys expire on it) */
void sim_net_jump(size_t i, int64_t ms);
/* when the latest fault on master i (a reset, a stall, a restart, a
 * jump) ended (INT64_MIN: none yet) */
int64_t sim_net_fault_us(size_t i);
/* when master i last restarted without its keys (INT64_MIN: never) */
int64_t sim_net_lost_keys_us(size_t i);
/* move what the library wrote into the queue; nonzero if the library
 * needs another turn now (bytes left to read, or a socket it may have
 * filled) */
int sim_net_pump(void);
void sim_net_close_all(void);
/* a fault: the open connection number `pick` (modulo their count) is reset:
 * both ends see it at once, what was in flight is lost */
void sim_net_reset(uint64_t pick);
/* a fault: the open connection `pick` delivers nothing either way for
 * us microseconds (what it carries waits, in order) */
void sim_net_stall(uint64_t pick, int64_t us);
/* a fault: master i restarts (keeping its keys or not); its connections
 * are reset */
void sim_net_restart(size_t i, int keep_data);
/* a fault: master i goes down for us microseconds (its connections
 * reset, every dial refused), then answers as restarted; and whether it
 * is down now */
void sim_net_down(size_t i, int64_t us, int keep_data);
int sim_net_is_down(size_t i);
/* a master failed the run (unknown command, protocol error): its message */
const char *sim_net_failure(void);

#endif
