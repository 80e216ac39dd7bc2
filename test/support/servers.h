/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* servers.h -- start and control real redis-server processes on loopback,
 * for the tests, the benchmark and the demo.
 *
 * Every server is a child of the calling thread, started with
 *   redis-server --port P --bind 127.0.0.1 --save "" --appendonly no
 *                --dir D --daemonize no --protected-mode no --logfile D/redis.log
 * plus the caller's extra arguments (later ones win), in a directory D of a
 * fresh mkdtemp() under $TMPDIR (or /tmp).  The binary is $REDIS_SERVER, or
 * redis-server found on $PATH.  A server gets SIGKILL when the thread that
 * started it dies (PR_SET_PDEATHSIG), so servers do not outlive a crashed
 * test; start them from a thread that lives as long as they should.
 *
 * With "--cluster-enabled yes" among the extra arguments, every server gets
 * a port whose cluster bus port (port + 10000) is free too (clusters.h).
 */
#ifndef RLT_SERVERS_H
#define RLT_SERVERS_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct rlt_servers rlt_servers;

/* Start n masters on free 127.0.0.1 ports, each with its own dir in a fresh
 * mkdtemp() under $TMPDIR (or /tmp).  extra_args: NULL-terminated extra
 * redis-server argv (e.g. {"--appendonly", "yes", NULL}) or NULL.  Blocks
 * until each answers PING (deadline ~5 s).  NULL on failure with a message
 * in err. */
rlt_servers *rlt_servers_start(int n, const char *const *extra_args, char *err, size_t errlen);

int rlt_servers_count(const rlt_servers *s);
const char *rlt_servers_addr(const rlt_servers *s, int i);  /* "127.0.0.1:PORT" */
const char *const *rlt_servers_addrs(const rlt_servers *s); /* n addresses */
int rlt_servers_port(const rlt_servers *s, int i);
const char *rlt_servers_dir(const rlt_servers *s, int i);   /* server i's --dir */
pid_t rlt_servers_pid(const rlt_servers *s, int i);         /* 0 when not running */
int rlt_servers_running(const rlt_servers *s, int i);       /* 1: neither killed nor paused */

/* All return 0 on success, -1 on error (bad index, not running, ...). */
int rlt_servers_kill(rlt_servers *s, int i);    /* SIGKILL, waitpid */
int rlt_servers_pause(rlt_servers *s, int i);   /* SIGSTOP, waits until stopped */
int rlt_servers_resume(rlt_servers *s, int i);  /* SIGCONT, waits until continued */
/* Start server i again (killing it first if running) with the same port,
 * dir and arguments (so AOF/RDB files are kept when configured), and wait
 * until it answers PING and has loaded its data. */
int rlt_servers_restart(rlt_servers *s, int i);

/* Run one command on server i over a short-lived blocking hiredis connection
 * (1 s connect and command timeouts); returns the redisReply (free it with
 * freeReplyObject) or NULL.  printf-style like redisCommand (%s, %b, ...). */
void *rlt_servers_command(rlt_servers *s, int i, const char *fmt, ...);
void *rlt_servers_vcommand(rlt_servers *s, int i, const char *fmt, va_list ap);
/* The same with an argument vector (argvlen NULL: strlen of each), for
 * binary arguments in any number. */
void *rlt_servers_command_argv(rlt_servers *s, int i, int argc, const char **argv,
                               const size_t *argvlen);

/* Does the binary key exist on server i?  1/0, -1 on error. */
int rlt_servers_exists(rlt_servers *s, int i, const void *key, size_t len);
/* On how many running (neither killed nor paused) servers the key exists;
 * -1 when one of them does not answer. */
int rlt_servers_count_key(rlt_servers *s, const void *key, size_t len);

/* SIGKILL all, waitpid, remove the temporary directories.  NULL is ok. */
void rlt_servers_free(rlt_servers *s);

#endif /* RLT_SERVERS_H */
