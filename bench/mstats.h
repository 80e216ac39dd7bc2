/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* mstats.h -- what the masters spend over a measured window: INFO cpu and
 * INFO commandstats, read on a plain connection of the bench's own (not the
 * workload's) just before and just after the window, and their differences
 * summed over the masters. */
#ifndef RLB_MSTATS_H
#define RLB_MSTATS_H

#include <stddef.h>
#include <stdint.h>

/* One command's line of INFO commandstats ("set", "evalsha", "client|setname"). */
typedef struct rlb_cmdstat {
    char name[48];
    uint64_t calls;
    uint64_t usec;
} rlb_cmdstat;

typedef struct rlb_mstats {
    int available;          /* the figures below are valid */
    char why[256];          /* when they are not: why */
    size_t votes;           /* the nodes given */
    size_t cluster_votes;   /* how many of them are Redis Clusters */
    size_t nodes;           /* the masters read: each cluster's every master */
    double cpu_s;           /* the window's CPU, user + sys, all masters together */
    int main_thread;        /* cpu_s is the main threads' (Redis 7), else the processes' */
    rlb_cmdstat *cmd;       /* per command, all masters together, busiest first; the
                             * bench's own INFO calls taken out */
    int ncmd;
    uint64_t calls;         /* all of them */
    void *priv;             /* between begin and end: the connections, the first readings */
} rlb_mstats;

/* Connect to the masters behind the n votes at nodes (a Redis Cluster's:
 * every master that serves slots, per CLUSTER SLOTS) and take the first
 * readings.  Never fails the run:
 * a master that cannot be read (TLS, ACL, down) leaves m->available 0 and
 * says why in m->why. */
void rlb_mstats_begin(rlb_mstats *m, const char *const *nodes, size_t n);
/* The second readings, the differences, the connections closed. */
void rlb_mstats_end(rlb_mstats *m);
void rlb_mstats_free(rlb_mstats *m);

#endif
