/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* kinds.h -- the lock kinds beyond the mutex, each a family of operations
 * on the lock machine (lock/lock.h): re-entrant, read/write, multi,
 * semaphore.  Never
 * installed. */
#ifndef REDLOCK_KINDS_H
#define REDLOCK_KINDS_H

#include "lock/lock.h"

extern const redlock__family redlock__reentrant;  /* reentrant.c */
extern const redlock__family redlock__read, redlock__write;   /* rwlock.c */
extern const redlock__family redlock__multi;      /* multi.c */
extern const redlock__family redlock__semaphore;  /* semaphore.c */

/* Their scripts, by their numbers (floor.h) */
extern const char redlock__lua_re_acquire[], redlock__lua_re_extend[],
                  redlock__lua_re_release[], redlock__lua_re_fence_raise[];
extern const char redlock__lua_rw_read_extend[], redlock__lua_rw_read_release[],
                  redlock__lua_rw_write[], redlock__lua_rw_abandon[],
                  redlock__lua_rw_write_release[], redlock__lua_rw_read_wait[],
                  redlock__lua_rw_read_abandon[];
extern const char redlock__lua_multi_acquire[], redlock__lua_multi_extend[],
                  redlock__lua_multi_release[];
extern const char redlock__lua_sem_acquire[], redlock__lua_sem_extend[],
                  redlock__lua_sem_release[], redlock__lua_sem_fence_raise[];
/* Their releases that pick a waiter (lock.h, redlock__wake_hook) */
extern const char redlock__lua_re_release_wq[], redlock__lua_multi_release_wq[],
                  redlock__lua_sem_release_wq[], redlock__lua_rw_write_release_wq[],
                  redlock__lua_rw_read_release_wq[];

/* rwlock.c: what the read handles (rwread.c) and write handles share.
 * The kind's part of a handle: the derived key names. */
#define REDLOCK__RW_MARK_ID 32
typedef struct redlock__rw_keys {
    char *mark, *flag, *own;        /* {K}:ww, {K}:rw, {K}:rd:<value> */
    size_t marklen, flaglen, ownlen, owncap;
    char mark_id[REDLOCK__RW_MARK_ID + 1];  /* this handle's id in {K}:ww, {K}:rq, a turn */
    int marked;                     /* this acquire may have left its mark */
    int may_mark;                   /* ... an attempt of it asked for one */
    int id_set;                     /* mark_id begins with the client's waiter id */
} redlock__rw_keys;
int redlock__rw_new(redlock_lock **out, redlock_client *c, const void *resource, size_t len,
                    const redlock__family *fam);
void redlock__rw_free(redlock_lock *l);
/* The life of a waiter's record on the masters this attempt (0: none, a
 * reader's removed): both sides' one notion of it. */
int64_t redlock__rw_wait_ms(const redlock_lock *l);
/* Before an acquire's first op: where waiters are woken, the handle's id
 * begins with the client's waiter id (16 hex), so that a release that
 * finds this handle's record can tell it on its channel "{K}:wq:<id>". */
void redlock__rw_own_id(redlock_lock *l);
/* One command: word[0], the op's items pick[0 .. npick), the other words. */
int redlock__rw_cmd(const redlock__op *op, redlock__buf *out, const char *const *word,
                    size_t nword, const unsigned char *pick, size_t npick);
/* EVAL(SHA) of `script`: KEYS the items pick[0 .. nkeys), ARGV the rest of
 * pick, then ttl_ms unless 0, then `flag` unless NULL. */
int redlock__rw_eval(const redlock__op *op, redlock__buf *out, int eval, int script,
                     const unsigned char *pick, size_t npick, size_t nkeys, int64_t ttl_ms,
                     const char *flag);
int redlock__reply_ok(const redlock__reply *r);          /* +OK */
int redlock__reply_wrongtype(const redlock__reply *r);
/* The scripts' replies: a refusal (-1 a writer, -2 a writer waiting, -2-n
 * n readers) says who holds the resource. */
int redlock__rw_classify(redlock__op *op, size_t node, const redlock__reply *r);

#endif
