/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* cluster.h -- a vote: one master, or one Redis Cluster (cluster.c) whose
 * masters each hold some of its 16384 hash slots, and the pure part of it
 * (slot.c).  Fan-out asks a vote, never a cluster's master, through the
 * inline calls below: for a plain master each is one branch more.  The
 * layer above is fanout.h; never installed.  Inside: slot.h (slot.c),
 * split.h (split.c), vote.h (the state map.c keeps and cluster.c uses).
 */
#ifndef REDLOCK_CLUSTER_H
#define REDLOCK_CLUSTER_H

#include "master/master.h"
#include "cluster/slot.h"

/* ---- cluster.c (and map.c): a vote that is a Redis Cluster ------------ */

/* Vote `index` at `address`: a master, or (redis-cluster://) a cluster
 * whose first seed is m itself; its map is read at once.  As
 * redlock__master_init. */
int redlock__vote_init(redlock__master *m, const redlock__net *net, size_t index,
                       const char *address, char *err, size_t errlen);
/* Every vote of the client (all[0 .. n)), once all are made and their
 * credentials final: the votes a cluster compares itself with (two votes
 * on one server: cluster.c); its other seeds made.  0 or REDLOCK_ENOMEM. */
int redlock__votes_link(redlock__master *all, size_t n, char *err, size_t errlen);
void redlock__vote_close(redlock__master *m);
/* Fan-out's calls on a cluster vote (cluster.c); see the inline ones. */
int redlock__cluster_send(redlock__master *m, unsigned slot, const char *buf, size_t len,
                          const redlock__req *req, const char **why);
int redlock__cluster_counts(redlock__master *m, int64_t now, const char **why);
void redlock__cluster_undo(redlock__master *m, uint32_t gen, const redlock__buf *cmd);

/* Queue a request for the key slot `slot` (a plain master ignores it;
 * REDLOCK__SLOTS: a request without a key): as redlock__master_send.  A cluster's request goes to the slot's master
 * (or to a seed while the map is unknown), follows MOVED and ASK, and its
 * *gen_out names the master and connection it left on. */
static inline int redlock__vote_send(redlock__master *m, unsigned slot, const char *buf,
                                     size_t len, const redlock__req *req, const char **why)
{
    if (__builtin_expect(m->cluster != NULL, 0))
        return redlock__cluster_send(m, slot, buf, len, req, why);
    return redlock__master_send(m, buf, len, req, why);
}
/* Whether an OK vote of m, just answered, counts (redlock__guard_counts;
 * a cluster asks the guards of the master that answered). */
static inline int redlock__vote_counts(redlock__master *m, int64_t now, const char **why)
{
    if (__builtin_expect(m->cluster != NULL || m->votes != NULL, 0))
        return redlock__cluster_counts(m, now, why);
    return redlock__guard_counts(m, now, why);
}
/* 1 when vote m may have lost keys written to it before since_us through
 * no one's command (redlock__master_renewed_since): its master, or one of
 * a cluster's masters, restarted or failed over since. */
int redlock__cluster_renewed_since(const redlock__master *m, int64_t since_us);
static inline int redlock__vote_renewed_since(const redlock__master *m, int64_t since_us)
{
    if (__builtin_expect(m->cluster != NULL, 0))
        return redlock__cluster_renewed_since(m, since_us);
    return redlock__master_renewed_since(m, since_us);
}
/* Whether vote m is connected: its master's handshake answered; for a
 * cluster, its map read and one of its masters' handshake answered (its
 * votes count from then on).  When not:
 * why, for a cluster, or NULL. */
int redlock__cluster_up(const redlock__master *m, const char **why);
static inline int redlock__vote_up(const redlock__master *m)
{
    return m->cluster ? redlock__cluster_up(m, NULL) : redlock__master_up(m);
}
/* 1 while a cluster vote of all[0 .. n) that answers has not read its
 * map yet (no vote counts before: cluster.c): a client that waits for its
 * votes waits for these too. */
int redlock__votes_pending(const redlock__master *all, size_t n);
/* A request just queued that may wait past this loop turn (a cluster's
 * never does: fan-out then never drops it unsent). */
static inline int redlock__vote_holds(const redlock__master *m)
{
    return !m->cluster && redlock__master_holds(m);
}
/* Fan-out marked a request of its op REDLOCK__MARK_MOOT (mark: the op's
 * mark of this vote) while it still waits to leave: it never leaves (on a
 * cluster, from its slot's master's connection); counted and voted as
 * redlock__master_moot. */
void redlock__cluster_moot(redlock__master *m, const unsigned char *mark, int counted, int voted);
static inline void redlock__vote_moot(redlock__master *m, const unsigned char *mark, int counted,
                                      int voted)
{
    if (m->cluster)
        redlock__cluster_moot(m, mark, counted, voted);
    else
        redlock__master_moot(m, counted, voted);
}
static inline void redlock__vote_undo(redlock__master *m, uint32_t gen, const redlock__buf *cmd)
{
    if (m->cluster)
        redlock__cluster_undo(m, gen, cmd);
    else
        redlock__master_undo(m, gen, cmd);
}

#endif /* REDLOCK_CLUSTER_H */
