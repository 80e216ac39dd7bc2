/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* slot.h -- slot.c, the pure part of a cluster vote: key slots, CLUSTER
 * SLOTS, MOVED and ASK, our own commands read.  Included by cluster.h and
 * the folder's files. */
#ifndef REDLOCK_CLUSTER_SLOT_H
#define REDLOCK_CLUSTER_SLOT_H

#include "floor/floor.h"

#define REDLOCK__SLOTS 16384

/* A key's hash slot (its hash tag's, when it has one). */
unsigned redlock__keyslot(const char *key, size_t len);

/* One range of slots and the master that serves it. */
typedef struct redlock__slot_range {
    unsigned lo, hi;
    int port;
    char host[REDLOCK__HOST_MAX + 1];   /* "": the node that answered */
    char id[41];                        /* its node id, "" unknown */
} redlock__slot_range;

/* Read a CLUSTER SLOTS reply into out[0 .. *n): 0 when every slot has a
 * master, 1 when some have none (*why says so; the ranges are still
 * read), -1 when it is no map (*why). */
int redlock__slots_read(const redlock__reply *r, redlock__slot_range *out, size_t max,
                        size_t *n, const char **why);
/* Read "MOVED <slot> <host>:<port>" or "ASK ..." (an error reply's text):
 * 0 with *ask, *slot, host (REDLOCK__HOST_MAX + 1 bytes) and *port; -1
 * when it is neither. */
int redlock__redirect_read(const char *s, size_t len, int *ask, unsigned *slot, char *host,
                           int *port);

/* Read the command that starts at buf[off] (RESP, as resp.c encodes it):
 * its number of arguments (the first `max` of them in arg and alen) with
 * *end just past it, or -1 when it is malformed. */
long redlock__command_read(const char *buf, size_t len, size_t off, const char **arg,
                           size_t *alen, size_t max, size_t *end);

#endif /* REDLOCK_CLUSTER_SLOT_H */
