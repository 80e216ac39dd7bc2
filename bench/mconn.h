/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* mconn.h -- the masters' stats connections (mstats.c): a master's address
 * to a blocking hiredis connection, and a vote to the masters behind it. */
#ifndef RLB_MCONN_H
#define RLB_MCONN_H

#include <stddef.h>

#include <hiredis/hiredis.h>

/* addr without its credentials (redis://user:pass@host:port ->
 * redis://host:port), in buf or addr itself. */
const char *rlb_addr_shown(const char *addr, char *buf, size_t len);

/* A blocking connection to the master at addr (host:port, redis://,
 * unix://; 2 s timeouts), AUTH done; NULL with why (the address shown
 * without its credentials) when it cannot be had: TLS (rediss://, which
 * this connection does not speak), a bad address, no connection, AUTH
 * refused. */
redisContext *rlb_mconn_open(const char *addr, char *why, size_t whylen);

/* The masters behind the vote at `node`, as addresses rlb_mconn_open
 * takes, into *out (n malloc'd strings in a malloc'd array): node itself
 * for a master; for a Redis Cluster (redis-cluster://[creds@]seed,...)
 * every master that serves slots per CLUSTER SLOTS of the first seed that
 * answers, "redis://[creds@]host:port" (replicas are not counted).
 * Returns n, or -1 with why. */
int rlb_vote_masters(const char *node, char ***out, char *why, size_t whylen);
/* Free what rlb_vote_masters gave. */
void rlb_masters_free(char **v, int n);

#endif
