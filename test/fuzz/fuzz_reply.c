/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fuzz_reply.c -- libFuzzer target: whatever a "server" answers, the
 * library must not crash, leak, or misbehave.
 *
 * The harness is the server.  It listens on a unix socket in a temporary
 * directory, and in each iteration a fresh client (on the harness's own
 * event loop, one node: unix://that-socket) connects, runs
 *
 *     try_acquire ──▶ extend ──▶ release        (async, chained in callbacks)
 *
 * and is freed.  Every complete command the server reads gets the next
 * chunk of the fuzz input as its "reply", byte for byte (so a chunk may be
 * half a reply, several replies, garbage...).  Input layout:
 *
 *     byte 0      flags: 1  the handshake (PING, CLIENT INFO, SCRIPT LOAD) gets chunks too,
 *                           otherwise it gets correct canned answers
 *                        2  fixed lock value (extend/release always sent)
 *                        4  free the lock right after starting the extend
 *                        8  free the client from the acquire callback
 *     then chunks: 2 bytes little-endian length, then that many bytes;
 *                  length 0xFFFF: close the connection instead,
 *                  length 0xFFFE: stay silent (the node timeout fires).
 *     When the chunks run out, the server closes the connection.
 *
 * Node timeout 2 ms and connect timeout 10 ms keep an iteration short.
 *
 *   make fuzz-reply FUZZ_SECONDS=60      (see test/sanitize.mk)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "redlock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    F_FUZZ_HANDSHAKE = 1,
    F_FIXED_VALUE = 2,
    F_FREE_LOCK = 4,
    F_FREE_CLIENT = 8,
};

#define MAX_CONNS 16

struct run {
    const uint8_t *data;
    size_t size, pos;
    unsigned flags;
    int active;                       /* this iteration accepts connections */
    struct bufferevent *conns[MAX_CONNS];
    redlock_client *client;
    redlock_lock *lock;
    int step;                         /* 0 acquire, 1 extend, 2 release, 3 done */
    int finished;
};

static struct event_base *base;
static struct evconnlistener *listener;
static char sockdir[256], sockpath[300], sockaddr_str[320];
static struct run *cur;

/* ---- the "server" ------------------------------------------------------ */

static void conn_close(struct run *r, struct bufferevent *bev)
{
    for (int i = 0; i < MAX_CONNS; i++)
        if (r->conns[i] == bev)
            r->conns[i] = NULL;
    bufferevent_free(bev);
}

/* Length of the first complete RESP command in [p, p+n), 0 if incomplete;
 * its first argument (the command name) in *name and *namelen. */
static size_t parse_command(const char *p, size_t n, const char **name, size_t *namelen)
{
    size_t i = 0;
    long argc = 0;

    if (n == 0 || p[0] != '*')
        return n;                     /* not RESP: swallow it */
    for (i = 1; i < n && p[i] != '\r'; i++)
        argc = argc * 10 + (p[i] - '0');
    if (i + 1 >= n)
        return 0;
    i += 2;
    *name = NULL;
    *namelen = 0;
    for (long a = 0; a < argc; a++) {
        size_t len = 0;
        if (i >= n)
            return 0;
        if (p[i] != '$')
            return n;
        for (i++; i < n && p[i] != '\r'; i++)
            len = len * 10 + (size_t)(p[i] - '0');
        if (i + 1 >= n)
            return 0;
        i += 2;
        if (n - i < len + 2)
            return 0;
        if (a == 0) {
            *name = p + i;
            *namelen = len;
        }
        i += len + 2;
    }
    return i;
}

static int is_cmd(const char *name, size_t len, const char *want)
{
    return name && len == strlen(want) && strncasecmp(name, want, len) == 0;
}

/* Answer one command; returns 0 if the connection was closed. */
static int answer(struct run *r, struct bufferevent *bev, const char *name, size_t namelen)
{
    if (!(r->flags & F_FUZZ_HANDSHAKE)) {
        if (is_cmd(name, namelen, "PING")) {
            bufferevent_write(bev, "+PONG\r\n", 7);
            return 1;
        }
        if (is_cmd(name, namelen, "AUTH") || is_cmd(name, namelen, "SELECT")) {
            bufferevent_write(bev, "+OK\r\n", 5);
            return 1;
        }
        if (is_cmd(name, namelen, "CLIENT")) {      /* INFO in the handshake, KILL */
            static const char info[] = "$38\r\nid=7 addr=127.0.0.1:40000 laddr=x fd=8\r\n";
            bufferevent_write(bev, info, sizeof info - 1);
            return 1;
        }
        if (is_cmd(name, namelen, "SCRIPT")) {
            static const char sha[] = "$40\r\n0123456789abcdef0123456789abcdef01234567\r\n";
            bufferevent_write(bev, sha, sizeof sha - 1);
            return 1;
        }
    }
    if (r->size - r->pos < 2) {
        conn_close(r, bev);           /* nothing left to say */
        return 0;
    }
    size_t len = (size_t)r->data[r->pos] | (size_t)r->data[r->pos + 1] << 8;
    r->pos += 2;
    if (len == 0xFFFF) {
        conn_close(r, bev);
        return 0;
    }
    if (len == 0xFFFE)
        return 1;                     /* silence */
    if (len > r->size - r->pos)
        len = r->size - r->pos;
    bufferevent_write(bev, r->data + r->pos, len);
    r->pos += len;
    return 1;
}

static void srv_read(struct bufferevent *bev, void *arg)
{
    struct run *r = arg;
    struct evbuffer *in = bufferevent_get_input(bev);

    for (;;) {
        size_t n = evbuffer_get_length(in), used, namelen = 0;
        const char *name = NULL;
        const char *p;
        if (n == 0)
            return;
        p = (const char *)evbuffer_pullup(in, -1);
        used = parse_command(p, n, &name, &namelen);
        if (used == 0)
            return;                   /* wait for the rest */
        /* answer() may free bev (and its buffer): decide before draining */
        if (name == NULL) {
            evbuffer_drain(in, used);
            continue;
        }
        {
            char cmd[16];
            size_t k = namelen < sizeof cmd ? namelen : sizeof cmd;
            memcpy(cmd, name, k);
            evbuffer_drain(in, used);
            if (!answer(r, bev, cmd, k))
                return;
        }
    }
}

static void srv_event(struct bufferevent *bev, short what, void *arg)
{
    (void)what;
    conn_close(arg, bev);
}

static void accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
                      int salen, void *arg)
{
    struct run *r = cur;
    struct bufferevent *bev;
    (void)l;
    (void)sa;
    (void)salen;
    (void)arg;

    if (!r || !r->active) {
        evutil_closesocket(fd);       /* a connection of a finished iteration */
        return;
    }
    for (int i = 0; i < MAX_CONNS; i++) {
        if (r->conns[i] == NULL) {
            bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
            if (!bev)
                break;
            r->conns[i] = bev;
            bufferevent_setcb(bev, srv_read, NULL, srv_event, r);
            bufferevent_enable(bev, EV_READ | EV_WRITE);
            return;
        }
    }
    evutil_closesocket(fd);
}

/* ---- the client ---------------------------------------------------------- */

static void op_done(redlock_lock *l, int status, void *privdata);

static void finish(struct run *r)
{
    r->finished = 1;
    event_base_loopbreak(base);
}

static void next_step(struct run *r)
{
    int rc;

    for (;;) {
        r->step++;
        if (r->step == 1) {
            rc = redlock_extend_async(r->lock, 10000, op_done, r);
            if (rc == 0 && (r->flags & F_FREE_LOCK)) {
                redlock_lock *l = r->lock;
                r->lock = NULL;
                redlock_lock_free(l);      /* op_done(ECANCELED) runs inside */
                finish(r);
                return;
            }
        } else if (r->step == 2) {
            rc = redlock_release_async(r->lock, op_done, r);
        } else {
            finish(r);
            return;
        }
        if (rc == 0)
            return;
        /* not started (not held, no value...): on to the next one */
    }
}

static void op_done(redlock_lock *l, int status, void *privdata)
{
    struct run *r = privdata;
    (void)l;

    if (status == REDLOCK_ECANCELED || r->finished)
        return;
    /* whatever the replies were, only a known code may come out */
    if (status > 0 || strcmp(redlock_strerror(status), redlock_strerror(-12345)) == 0) {
        fprintf(stderr, "fuzz_reply: unknown status %d\n", status);
        abort();
    }
    if (status == 0 && r->step == 0 && redlock_lock_validity(l) <= 0) {
        /* an acquire reported without validity would be a lie */
        fprintf(stderr, "fuzz_reply: acquired with no validity\n");
        abort();
    }
    if (r->step == 0 && (r->flags & F_FREE_CLIENT)) {
        redlock_client *c = r->client;
        r->client = NULL;
        redlock_client_free(c);
        finish(r);
        return;
    }
    next_step(r);
}

static void hard_stop(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    ((struct run *)arg)->finished = 1;
    event_base_loopbreak(base);
}

static void cleanup(void)
{
    if (listener)
        evconnlistener_free(listener);
    if (base)
        event_base_free(base);
    listener = NULL;
    base = NULL;
    if (sockpath[0])
        unlink(sockpath);
    if (sockdir[0])
        rmdir(sockdir);
}

static int setup(void)
{
    struct sockaddr_un sun;
    const char *tmp = getenv("TMPDIR");

    if (base)
        return 0;
    snprintf(sockdir, sizeof sockdir, "%s/fuzz-reply-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(sockdir)) {
        sockdir[0] = '\0';
        return -1;
    }
    snprintf(sockpath, sizeof sockpath, "%s/s.sock", sockdir);
    snprintf(sockaddr_str, sizeof sockaddr_str, "unix://%s", sockpath);
    memset(&sun, 0, sizeof sun);
    sun.sun_family = AF_UNIX;
    if (strlen(sockpath) >= sizeof sun.sun_path)
        return -1;
    strcpy(sun.sun_path, sockpath);
    if (!(base = event_base_new()))
        return -1;
    listener = evconnlistener_new_bind(base, accept_cb, NULL, LEV_OPT_CLOSE_ON_FREE, 64,
                                       (struct sockaddr *)&sun, (int)sizeof sun);
    if (!listener)
        return -1;
    atexit(cleanup);
    return 0;
}

/* The client of this iteration, on the harness's socket, and its lock with
 * the acquire started. */
static void start_client(struct run *r)
{
    redlock_options o;
    const char *nodes[1] = { sockaddr_str };
    char err[256];

    redlock_options_init(&o);
    o.node_timeout_ms = 2;
    o.connect_timeout_ms = 10;
    o.retry_count = 0;
    o.reconnect_min_ms = 1000;
    o.reconnect_max_ms = 1000;
    if (redlock_client_new(&r->client, base, nodes, 1, &o, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_reply: client_new: %s\n", err);
        abort();
    }
    if (redlock_lock_new(&r->lock, r->client, "fuzz-key", 8) != 0)
        abort();
    if ((r->flags & F_FIXED_VALUE) && redlock_lock_set_value(r->lock, "fuzz-value", 10) != 0)
        abort();
    if (redlock_try_acquire_async(r->lock, 10000, op_done, r) != 0)
        abort();
}

static void close_conns(struct run *r)
{
    for (int i = 0; i < MAX_CONNS; i++)
        if (r->conns[i])
            conn_close(r, r->conns[i]);
}

/* Pending operations are cancelled (op_done ignores them), the server's
 * side closed. */
static void tear_down(struct run *r)
{
    r->finished = 1;
    if (r->client)
        redlock_client_free(r->client);
    if (r->lock)
        redlock_lock_free(r->lock);
    r->active = 0;
    close_conns(r);
    /* let libevent finalize what was freed, and refuse late connections */
    for (int i = 0; i < 3; i++)
        event_base_loop(base, EVLOOP_NONBLOCK);
    close_conns(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct run r;
    struct event *stop;
    struct timeval tv = {0, 500000};

    if (size < 1)
        return 0;
    if (setup() != 0) {
        fprintf(stderr, "fuzz_reply: cannot listen on a unix socket\n");
        abort();
    }
    memset(&r, 0, sizeof r);
    r.data = data;
    r.size = size;
    r.pos = 1;
    r.flags = data[0];
    r.active = 1;
    cur = &r;
    start_client(&r);

    stop = evtimer_new(base, hard_stop, &r);
    evtimer_add(stop, &tv);
    while (!r.finished)
        event_base_loop(base, EVLOOP_ONCE);
    event_free(stop);
    tear_down(&r);
    cur = NULL;
    return 0;
}
