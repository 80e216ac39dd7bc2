/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * run.c -- `redlock run RESOURCE... -- COMMAND [ARG...]`: acquire, run the
 * command in a process group of its own while the library's watchdog
 * keeps the lock, release when it exits, exit with its status.
 *
 * One thread, one event loop (ours), the library's asynchronous API;
 * signals arrive as libevent signal events (SIGCHLD, and those forwarded
 * to the command's group).  A lost lock (the lost-lock notice) or
 * --max-hold sends SIGTERM to the group at once and SIGKILL --kill-after
 * later, but never later than the end of the validity last known: it is
 * sampled from the acquire on, often enough to follow the watchdog's
 * extends, since the notice leaves 0 behind (docs/command.md).
 */
#include "cmd/cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <event2/event.h>

/* Forwarded to the command's group (TSTP stops the command, not redlock:
 * its watchdog goes on keeping the lock). */
static const int fwd_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
                                  SIGWINCH, SIGALRM, SIGTSTP, SIGCONT};
#define NFWD (sizeof fwd_signals / sizeof fwd_signals[0])

struct run {
    redlock_cmd *c;
    struct event_base *base;
    redlock_client *cl;
    redlock_lock *l;
    char **argv;                /* the command */
    struct sigaction pipe_was;  /* SIGPIPE as we found it, for the command */
    pid_t pid;                  /* the command: its group too; 0 before */
    int ended;                  /* the command ended (reaped) */
    int status;                 /* its wait status */
    int why_end;                /* 0, or REDLOCK_EXIT_LOST / _MAXHOLD */
    int exit;                   /* the exit code, once decided; -1 before */
    int64_t valid_until;        /* ms (clock_ms): the last known validity end */
    int64_t wait_end;           /* ms (clock_ms): -w's deadline; INT64_MAX: none */
    int tty;                    /* stdin, a terminal redlock had in the
                                 * foreground (handed to the command), or -1 */
    struct event *sigchld, *fwd[NFWD], *notice_timer, *sample_timer, *hold_timer, *kill_timer;
};

static int64_t clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct timeval tv_ms(int64_t ms)
{
    struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)(ms % 1000 * 1000)};
    if (ms < 0)
        tv.tv_sec = tv.tv_usec = 0;
    return tv;
}

static void finish(struct run *r, int code)
{
    if (r->exit < 0)
        r->exit = code;
    event_base_loopbreak(r->base);
}

/* The terminal's foreground goes to group pgid (SIGTTOU blocked: a
 * process of a background group may hand it over too). */
static void give_terminal(int tty, pid_t pgid)
{
    sigset_t ttou, was;
    if (tty < 0)
        return;
    sigemptyset(&ttou);
    sigaddset(&ttou, SIGTTOU);
    sigprocmask(SIG_BLOCK, &ttou, &was);
    tcsetpgrp(tty, pgid);
    sigprocmask(SIG_SETMASK, &was, NULL);
}

/* ---- the end: the command exited, release, exit --------------------------- */

static int command_exit(const struct run *r)
{
    if (r->why_end)
        return r->why_end;
    if (WIFSIGNALED(r->status))
        return 128 + WTERMSIG(r->status);
    return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : REDLOCK_EXIT_SOFTWARE;
}

static void released(redlock_lock *l, int status, void *privdata)
{
    struct run *r = privdata;
    (void)l;
    (void)status;     /* after a loss it may be refused; nothing else to do */
    finish(r, command_exit(r));
}

static void command_ended(struct run *r)
{
    event_del(r->kill_timer);
    event_del(r->hold_timer);
    event_del(r->sample_timer);
    if (redlock_release_async(r->l, released, r) != 0)
        finish(r, command_exit(r));
}

/* SIGCHLD: the command exited?  Whatever it left in its group goes with it
 * when the lock was lost (before it is reaped: the group still exists). */
static void on_sigchld(evutil_socket_t fd, short what, void *arg)
{
    struct run *r = arg;
    siginfo_t si;
    (void)fd;
    (void)what;
    memset(&si, 0, sizeof si);
    if (r->ended || waitid(P_PID, (id_t)r->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        si.si_pid != r->pid)
        return;
    if (r->why_end)
        kill(-r->pid, SIGKILL);
    if (waitpid(r->pid, &r->status, 0) != r->pid)
        r->status = 0;
    r->ended = 1;
    give_terminal(r->tty, getpgrp());
    command_ended(r);
}

static void on_forward(evutil_socket_t sig, short what, void *arg)
{
    struct run *r = arg;
    (void)what;
    if (r->pid == 0 && (sig == SIGWINCH || sig == SIGCONT || sig == SIGTSTP))
        return;                 /* still acquiring: nothing to stop */
    if (r->pid == 0)            /* still acquiring: give up, as if killed */
        finish(r, 128 + (int)sig);
    else if (!r->ended)
        kill(-r->pid, (int)sig);
}

/* ---- stopping the command before the validity ends ------------------------- */

static void on_kill(evutil_socket_t fd, short what, void *arg)
{
    struct run *r = arg;
    (void)fd;
    (void)what;
    if (!r->ended)
        kill(-r->pid, SIGKILL);
}

static void stop_command(struct run *r, int why)
{
    if (r->why_end || r->ended)
        return;
    r->why_end = why;
    event_del(r->sample_timer);
    kill(-r->pid, SIGTERM);
    /* SIGKILL a node timeout before the validity ends: a timer may be late */
    int64_t now = clock_ms(), at = now + r->c->kill_after_ms;
    if (at > r->valid_until - r->c->opts.node_timeout_ms)
        at = r->valid_until - r->c->opts.node_timeout_ms;
    struct timeval tv = tv_ms(at - now);
    evtimer_add(r->kill_timer, &tv);
}

static void sample_validity(struct run *r)
{
    int64_t v = redlock_lock_validity(r->l);
    if (v > 0)
        r->valid_until = clock_ms() + v;
}

static void on_sample(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    sample_validity(arg);
}

static void on_lost(redlock_lock *l, int reason, void *privdata)
{
    struct run *r = privdata;
    (void)l;
    if (!r->why_end && !r->ended)
        fprintf(stderr, "redlock: run: the lock was lost (%s): stopping the command\n",
                reason == REDLOCK_LOST_REFUSED       ? "taken or expired on the masters"
                : reason == REDLOCK_LOST_UNREACHABLE ? "masters unreachable"
                : reason == REDLOCK_LOST_CLOCK       ? "a master's clock jumped"
                                                     : "its validity ran out");
    stop_command(r, REDLOCK_EXIT_LOST);
}

static void on_max_hold(evutil_socket_t fd, short what, void *arg)
{
    struct run *r = arg;
    (void)fd;
    (void)what;
    fprintf(stderr, "redlock: run: --max-hold reached: stopping the command\n");
    sample_validity(r);
    stop_command(r, REDLOCK_EXIT_MAXHOLD);
}

/* ---- starting the command -------------------------------------------------- */

/* REDLOCK_RESOURCE (several: joined by spaces), REDLOCK_VALUE and, with
 * --fencing, REDLOCK_TOKEN; not REDLOCK_PASSWORD: the command has no use
 * for the masters' password. */
static int set_env(struct run *r)
{
    int n = r->c->dashdash;
    size_t len = 1, vlen = 0;
    for (int i = 0; i < n; i++)
        len += strlen(r->c->args[i]) + 1;
    char *res = calloc(len, 1), token[32];
    const char *v = redlock_lock_value(r->l, &vlen);
    if (!res)
        return -1;
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(res, " ");
        strcat(res, r->c->args[i]);
    }
    int rc = setenv("REDLOCK_RESOURCE", res, 1) | setenv("REDLOCK_VALUE", v ? v : "", 1) |
             unsetenv("REDLOCK_PASSWORD");
    free(res);
    snprintf(token, sizeof token, "%lld", (long long)redlock_lock_token(r->l));
    if (r->c->fencing)
        rc |= setenv("REDLOCK_TOKEN", token, 1);
    else
        unsetenv("REDLOCK_TOKEN");
    return rc;
}

/* In the child: its own group (in the terminal's foreground if redlock
 * was), SIGKILL should redlock die (nothing would keep the lock then),
 * SIGPIPE as redlock found it, then exec; an exec that fails tells the
 * parent its errno through the close-on-exec pipe. */
static void child(struct run *r, pid_t parent, int errfd)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    give_terminal(r->tty, getpid());
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(REDLOCK_EXIT_SOFTWARE);
    sigaction(SIGPIPE, &r->pipe_was, NULL);
    execvp(r->argv[0], r->argv);
    int e = errno;
    if (write(errfd, &e, sizeof e) != (ssize_t)sizeof e)
        _exit(REDLOCK_EXIT_NOEXEC);
    _exit(e == ENOENT ? REDLOCK_EXIT_NOTFOUND : REDLOCK_EXIT_NOEXEC);
}

/* 0 when the command runs; else the exit code, after one line. */
static int spawn(struct run *r)
{
    int p[2], e = 0;
    if (set_env(r) != 0 || pipe2(p, O_CLOEXEC) != 0) {
        redlock_cmd_error(r->c, "cannot start %s: %s", r->argv[0], strerror(errno));
        return REDLOCK_EXIT_SOFTWARE;
    }
    fflush(NULL);
    pid_t parent = getpid();
    r->pid = fork();
    if (r->pid == 0)
        child(r, parent, p[1]);
    close(p[1]);
    if (r->pid < 0) {
        close(p[0]);
        redlock_cmd_error(r->c, "cannot start %s: %s", r->argv[0], strerror(errno));
        return REDLOCK_EXIT_SOFTWARE;
    }
    setpgid(r->pid, r->pid);
    give_terminal(r->tty, r->pid);
    ssize_t got;
    while ((got = read(p[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(p[0]);
    if (got != (ssize_t)sizeof e)
        return 0;
    while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    r->ended = 1;
    give_terminal(r->tty, getpgrp());
    redlock_cmd_error(r->c, "%s: %s", r->argv[0], strerror(e));
    return e == ENOENT ? REDLOCK_EXIT_NOTFOUND : REDLOCK_EXIT_NOEXEC;
}

static void start_timers(struct run *r)
{
    int64_t period = r->c->ttl_ms / 20;
    struct timeval tv = tv_ms(period < 5 ? 5 : period > 250 ? 250 : period);
    evtimer_del(r->notice_timer);
    event_add(r->sample_timer, &tv);
    if (r->c->max_hold_ms > 0) {
        tv = tv_ms(r->c->max_hold_ms);
        evtimer_add(r->hold_timer, &tv);
    }
}

static void acquired(redlock_lock *l, int status, void *privdata)
{
    struct run *r = privdata;
    if (r->exit >= 0)           /* given up already: canceled by the free */
        return;
    if (status != 0) {
        finish(r, redlock_cmd_acquire_exit(r->c, r->cl, l, status));
        return;
    }
    sample_validity(r);
    int rc = redlock_lock_set_watchdog(l, 0, 0);
    if (rc == 0)
        rc = redlock_lock_on_lost(l, on_lost, r);
    if (rc != 0) {
        redlock_cmd_error(r->c, "%s", redlock_lock_errstr(l));
        r->exit = REDLOCK_EXIT_SOFTWARE;
        command_ended(r);
        return;
    }
    start_timers(r);
    if ((rc = spawn(r)) != 0) {
        r->why_end = rc;
        command_ended(r);
    }
}

/* ---- a wait that goes on ---------------------------------------------------- */

/* Still acquiring after REDLOCK_CMD_NOTICE_MS: say once what it waits for
 * (the last attempt's outcome: held elsewhere, masters down, hung or not
 * counted) and until when; or end it when the masters' votes refuse this
 * client (78: waiting will not change an ACL).  The wait goes on: -w waits for the lock
 * whatever keeps it, masters that are down included; the library
 * reconnects with its back-off and attempts at its retry delay. */
static void on_notice(evutil_socket_t fd, short what, void *arg)
{
    struct run *r = arg;
    (void)fd;
    (void)what;
    if (r->pid != 0 || r->exit >= 0)
        return;
    if (redlock_cmd_refused(r->c, r->cl, r->l)) {      /* an ACL's NOPERM, in the votes */
        finish(r, REDLOCK_EXIT_CONFIG);
        return;
    }
    redlock_cmd_still_waiting(r->c, redlock_lock_errstr(r->l), REDLOCK_CMD_NOTICE_MS,
                              r->wait_end == INT64_MAX ? -1 : r->wait_end - clock_ms());
}

/* A master refused the handshake (a password, an ACL user, a database):
 * when those that refuse leave no quorum, waiting cannot help (78). */
static void on_node(redlock_client *cl, size_t node, int event, const char *detail,
                    void *privdata)
{
    struct run *r = privdata;
    (void)node;
    (void)detail;
    if (event == REDLOCK_NODE_DOWN && r->pid == 0 && r->exit < 0 &&
        redlock_cmd_refused(r->c, cl, NULL))
        finish(r, REDLOCK_EXIT_CONFIG);
}

/* ---- set-up and tear-down -------------------------------------------------- */

/* The signals we wait for must not stay blocked (a parent may block them). */
static int make_events(struct run *r)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    for (size_t i = 0; i < NFWD; i++)
        sigaddset(&set, fwd_signals[i]);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    int ok = (r->sigchld = evsignal_new(r->base, SIGCHLD, on_sigchld, r)) &&
             (r->notice_timer = evtimer_new(r->base, on_notice, r)) &&
             (r->sample_timer = event_new(r->base, -1, EV_PERSIST, on_sample, r)) &&
             (r->hold_timer = evtimer_new(r->base, on_max_hold, r)) &&
             (r->kill_timer = evtimer_new(r->base, on_kill, r)) && event_add(r->sigchld, NULL) == 0;
    for (size_t i = 0; ok && i < NFWD; i++)
        ok = (r->fwd[i] = evsignal_new(r->base, fwd_signals[i], on_forward, r)) &&
             event_add(r->fwd[i], NULL) == 0;
    return ok ? 0 : -1;
}

static void free_events(struct run *r)
{
    struct event *evs[] = {r->sigchld, r->notice_timer, r->sample_timer, r->hold_timer,
                           r->kill_timer};
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        if (evs[i])
            event_free(evs[i]);
    for (size_t i = 0; i < NFWD; i++)
        if (r->fwd[i])
            event_free(r->fwd[i]);
}

static struct event_base *precise_base(void)
{
    struct event_config *cfg = event_config_new();
    struct event_base *b = NULL;
    if (cfg && event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER) == 0)
        b = event_base_new_with_config(cfg);
    if (cfg)
        event_config_free(cfg);
    return b;
}

static int run_usage(redlock_cmd *c)
{
    redlock_cmd_error(c, "usage: redlock run [options] RESOURCE... -- COMMAND [ARG...]");
    return REDLOCK_EXIT_USAGE;
}

/* Acquire, then the loop runs until the exit code is decided. */
static int run_loop(struct run *r)
{
    int rc = redlock_acquire_for_async(r->l, r->c->acquire_wait_ms, r->c->ttl_ms, acquired, r);
    if (rc != 0) {
        redlock_cmd_error(r->c, "%s", redlock_lock_errstr(r->l));
        return redlock_cmd_exit_for(r->c, rc);
    }
    r->wait_end = r->c->acquire_wait_ms == INT64_MAX ? INT64_MAX
                                                     : clock_ms() + r->c->acquire_wait_ms;
    struct timeval tv = tv_ms(REDLOCK_CMD_NOTICE_MS);
    if (!r->c->nonblock)
        evtimer_add(r->notice_timer, &tv);
    event_base_dispatch(r->base);
    return r->exit < 0 ? REDLOCK_EXIT_SOFTWARE : r->exit;
}

int redlock_cmd_run(redlock_cmd *c, int argc, char **argv)
{
    struct run r = {.c = c, .exit = -1, .tty = -1};
    int rc = REDLOCK_EXIT_SOFTWARE;
    (void)argc;
    (void)argv;
    if (c->dashdash < 1 || c->dashdash >= c->nargs)
        return run_usage(c);
    if (c->json) {
        redlock_cmd_error(c, "--json is for acquire, extend, release and status (run's "
                             "stdout is the command's)");
        return REDLOCK_EXIT_USAGE;
    }
    r.argv = c->args + c->dashdash;
    if (isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp())
        r.tty = STDIN_FILENO;
    sigaction(SIGPIPE, NULL, &r.pipe_was);
    c->opts.node_cb = on_node;      /* (refused handshakes) */
    c->opts.node_privdata = &r;
    if (!(r.base = precise_base()) || make_events(&r) != 0)
        redlock_cmd_error(c, "cannot set up the event loop");
    else if ((r.cl = redlock_cmd_client(c, r.base, 0, 0, &rc)) &&
             (r.l = redlock_cmd_lock(c, r.cl, &rc)))
        rc = run_loop(&r);
    redlock_lock_free(r.l);
    redlock_client_free(r.cl);
    free_events(&r);
    if (r.base)
        event_base_free(r.base);
    return rc;
}
