/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* split.h -- split.c, for cluster.c alone: a multi-resource script over
 * several slots, as one script per slot, and their answers made one. */
#ifndef REDLOCK_CLUSTER_SPLIT_H
#define REDLOCK_CLUSTER_SPLIT_H

#include "master/master.h"
#include "cluster/slot.h"

enum { REDLOCK__SPLIT_ACQUIRE, REDLOCK__SPLIT_EXTEND, REDLOCK__SPLIT_RELEASE,
       REDLOCK__SPLIT_RELEASE_WQ, REDLOCK__SPLIT_RULES };

/* A multi-resource set has at most 1024 resources (kinds/multi.c). */
#define REDLOCK__SPLIT_MAX_ARGS (1024 + 16)

typedef struct redlock__split_scripts {
    const char *body[REDLOCK__SPLIT_RULES];
    char sha[REDLOCK__SPLIT_RULES][41];
} redlock__split_scripts;

typedef struct redlock__split_part {
    unsigned slot;
    size_t first, nkeys;           /* its keys: gidx[first .. first + nkeys) */
    unsigned took : 1;             /* an acquire's part that took its keys */
    redlock__buf cmd;              /* its script */
} redlock__split_part;

typedef struct redlock__split {
    int rule;
    size_t nkeys, nparts, got;
    size_t *gidx;                  /* the parts' keys, by their place in the set */
    redlock__split_part *part;
    long long acc;                 /* the answer so far */
    unsigned got_int : 1, lost : 1;
    char *value;                   /* an acquire's value (ARGV[1]), for roll-backs */
    size_t vlen;
    char *err;                     /* the first error answered, or NULL */
    size_t errlen;
    char why[128];                 /* why a part got no reply */
    /* cluster.c's: its cluster, fan-out's slot, each part's master */
    struct redlock__cluster *cl;
    redlock__slot up;
    void *nodes;
} redlock__split;

/* The multi scripts' bodies (by number: bodies[REDLOCK__SCRIPT_*]) and
 * SHA-1s. */
void redlock__split_init(redlock__split_scripts *s, const char *const *bodies);
/* 1 with *out when buf runs a multi script over keys of several slots; 0
 * when it needs no split; -1 out of memory. */
int redlock__split_plan(const redlock__split_scripts *s, const char *buf, size_t len,
                        redlock__split **out);
/* Part p answered r (NULL: none, why): 1 when it was the last. */
int redlock__split_answer(redlock__split *sp, size_t p, const redlock__reply *r, const char *why);
/* The whole's answer (valid while sp is); when a part got no reply, the
 * caller passes none up (sp->lost, sp->why). */
void redlock__split_reply(const redlock__split *sp, redlock__reply *out);
/* The release of part p's keys (an acquire's part that took them while
 * another was refused): 0, or -1 out of memory. */
int redlock__split_rollback(const redlock__split_scripts *s, const redlock__split *sp, size_t p,
                            redlock__buf *out);
void redlock__split_free(redlock__split *sp);

#endif /* REDLOCK_CLUSTER_SPLIT_H */
