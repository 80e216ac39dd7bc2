/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* conn.c -- one connection to a master: connect, handshake, pipelined
 * requests answered in order, reconnection with capped back-off.
 *
 *   DOWN ──(back-off timer, or a request once it is due)──▶ CONNECTING
 *   CONNECTING ──(TCP up, every handshake step answered)──▶ UP
 *   CONNECTING/UP ──(EOF, error, connect timeout, bad reply)──▶ DOWN
 *
 * The queue holds callbacks: each request's slot says whom its reply goes
 * to (an operation, a handshake step, an undo, a probe), so this file
 * knows nothing of what it carries.  Redis answers in order, so the slots
 * form a FIFO ring.  Requests made while CONNECTING wait in `out` until the
 * handshake succeeded; a connection that is DOWN refuses them at once
 * (redlock__conn_accepts), so a dead master costs nothing.
 *
 * A window bounds what a slow master costs: with `window` requests sent and
 * unanswered, the next ones wait in `out` (written as replies make room),
 * where a request its owner no longer needs (redlock__conn_moot) is dropped
 * unsent.  A master that keeps up never fills it.
 *
 * Transport: a libevent bufferevent (plain or OpenSSL) on a socket we make
 * ourselves, close-on-exec; resp.c parses the replies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <event2/bufferevent.h>
#include <event2/buffer.h>
#include "conn/conn.h"
#include "conn/dial.h"

static void read_cb(struct bufferevent *bev, void *arg);
static void event_cb(struct bufferevent *bev, short events, void *arg);
static void retry_cb(evutil_socket_t fd, short what, void *arg);
static void connect_timeout_cb(evutil_socket_t fd, short what, void *arg);
static void stall_cb(evutil_socket_t fd, short what, void *arg);
static void flush_cb(evutil_socket_t fd, short what, void *arg);

void redlock__conn_init(redlock__conn *cn, const redlock__net *net, const redlock__addr *addr,
                        const char *label, const redlock__conn_owner *own)
{
    struct event_base *base = net->loop->base;

    cn->net = net;
    cn->addr = addr;
    cn->hold_above = SIZE_MAX;
    cn->label = label;
    cn->own = *own;
    cn->state = REDLOCK__CONN_DOWN;
    cn->backoff_ms = net->reconnect_min_ms;
    evtimer_assign(&cn->retry_timer, base, retry_cb, cn);
    evtimer_assign(&cn->connect_timer, base, connect_timeout_cb, cn);
    evtimer_assign(&cn->stall_ev, base, stall_cb, cn);
    event_assign(&cn->flush_ev, base, -1, 0, flush_cb, cn);
}

int redlock__conn_slot_grow(redlock__conn *cn)
{
    size_t cap = cn->cap ? cn->cap * 2 : 64;
    redlock__slot *s = malloc(cap * sizeof *s);

    if (!s)
        return REDLOCK_ENOMEM;
    for (size_t i = 0; i < cn->count; i++)
        s[i] = cn->slots[(cn->head + i) & (cn->cap - 1)];
    free(cn->slots);
    cn->slots = s;
    cn->head = 0;
    cn->cap = cap;
    return 0;
}

static inline redlock__slot slot_pop(redlock__conn *cn)
{
    redlock__slot sl = cn->slots[cn->head];
    cn->head = (cn->head + 1) & (cn->cap - 1);
    cn->count--;
    return sl;
}

void redlock__conn_kick(redlock__conn *cn)
{
    if (cn->state == REDLOCK__CONN_DOWN && redlock__now(cn->net->loop) >= cn->retry_at_us)
        redlock__conn_connect(cn);  /* due anyway: don't wait for the timer */
}

int redlock__conn_accepts(redlock__conn *cn)
{
    redlock__conn_kick(cn);
    /* Requests wait for a connection only on the first attempt (so that a
     * program may create a client and lock at once); a master that is
     * reconnecting after a failure may well be hung or gone, and waiting
     * for it would cost every operation the node timeout. */
    return cn->state == REDLOCK__CONN_UP ||
           (cn->state == REDLOCK__CONN_CONNECTING && cn->attempts <= 1);
}

/* Tear the connection down and fail everything queued on it. */
static void conn_drop(redlock__conn *cn, const char *why)
{
    redlock__loop *loop = cn->net->loop;
    /* Tell the application when a connection goes down, and when a failed
     * reconnection has a new reason; not for every refused retry. */
    int tell = cn->state == REDLOCK__CONN_UP || cn->attempts <= 1 || strcmp(why, cn->told) != 0;
    int64_t retry_at = 0;

    snprintf(cn->lasterr, sizeof cn->lasterr, "%s", why);
    if (cn->bev && cn->tcp_up && !cn->addr->tls && cn->state == REDLOCK__CONN_UP) {
        /* Best effort: hand what is queued (typically the undo after a
         * lost attempt, queued behind its SET) to the kernel, which still
         * delivers it after close, instead of dropping it with the buffer.
         * Not for TLS: that buffer is plaintext for OpenSSL to encrypt. */
        struct evbuffer *out = bufferevent_get_output(cn->bev);
        size_t len = evbuffer_get_length(out);
        evutil_socket_t fd = bufferevent_getfd(cn->bev);
        /* the bufferevent freezes its output's start: read, don't drain */
        unsigned char *p = len ? evbuffer_pullup(out, -1) : NULL;
        /* (Requests leave only once the handshake succeeded: before that
         * `out` holds requests that must never reach the server.) */
        if (p && send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)len)
            cn->out.len = 0;    /* best effort: the TTL cleans up the rest */
        /* then what was not even handed over yet (unless some of it was
         * to be dropped) */
        if (cn->out.len && !cn->mooted)
            (void)send(fd, cn->out.p, cn->out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    cn->out.len = 0;
    cn->unflushed = 0;
    cn->out_since_us = 0;
    cn->unsent = cn->mooted = 0;
    cn->sent_seq = cn->queued_seq;
    event_del(&cn->flush_ev);
    if (cn->bev) {
        bufferevent_free(cn->bev);
        cn->bev = NULL;
    }
    cn->tcp_up = 0;
    redlock__reader_free(cn->reader);
    cn->reader = NULL;
    evtimer_del(&cn->connect_timer);
    evtimer_del(&cn->stall_ev);
    cn->state = REDLOCK__CONN_DOWN;
    cn->hold_above = SIZE_MAX;
    cn->handshake_left = 0;
    cn->timeouts_in_row = 0;
    if (!loop->closing) {
        retry_at = redlock__now(loop) + cn->backoff_ms * 1000;
        redlock__timer_add(loop, &cn->retry_timer, cn->backoff_ms * 1000);
        cn->backoff_ms *= 2;
        if (cn->backoff_ms > cn->net->reconnect_max_ms)
            cn->backoff_ms = cn->net->reconnect_max_ms;
    }
    /* State is DOWN before any requester hears of it, so a request made
     * from a callback below is refused at once instead of queueing; and no
     * reconnection may start before this loop has emptied the ring
     * (however long the callbacks take), or the new handshake's slots
     * would be popped too. */
    cn->retry_at_us = INT64_MAX;
    while (cn->count) {
        redlock__slot sl = slot_pop(cn);
        if (sl.fn)
            sl.fn(sl.privdata, sl.tag, NULL, cn->lasterr);
    }
    cn->retry_at_us = retry_at;
    if (tell && !loop->closing)
        memcpy(cn->told, cn->lasterr, sizeof cn->told);
    cn->own.down(cn->own.owner, cn, cn->lasterr, tell && !loop->closing);
}

int redlock__conn_hello(redlock__conn *cn, int argc, const char *const *argv,
                        const size_t *argvlen, const redlock__slot *sl)
{
    redlock__slot s = *sl;
    size_t before = cn->hello.len;

    s.handshake = 1;
    if (redlock__resp_command(&cn->hello, argc, argv, argvlen) != 0 || redlock__conn_slot_push(cn, &s) != 0) {
        cn->hello.len = before;
        return REDLOCK_ENOMEM;
    }
    cn->handshake_left++;
    return 0;
}

static void wipe_buf(const void *data, size_t len, void *cap)
{
    (void)len;
    /* (the scripts make it ~23 KB: a wipe the compiler keeps, not a loop
     * of volatile stores, a byte at a time) */
    if (data)
        explicit_bzero((void *)(uintptr_t)data, (size_t)(uintptr_t)cap);
    free((void *)(uintptr_t)data);
}

/* Queue the connection's own steps (AUTH, SELECT and PING must succeed)
 * and its owner's, in front of everything; 0 or ENOMEM. */
static int handshake(redlock__conn *cn)
{
    const redlock__addr *a = cn->addr;
    redlock__slot req = { NULL, NULL, 0, NULL, 1, 1 };
    int rc = 0;

    if (a->password) {
        const char *argv[3] = { "AUTH", a->user, a->password };
        size_t len[3] = { 4, a->user ? strlen(a->user) : 0, strlen(a->password) };
        if (!a->user) {
            argv[1] = argv[2];
            len[1] = len[2];
        }
        rc |= redlock__conn_hello(cn, a->user ? 3 : 2, argv, len, &req);
    }
    if (a->db >= 0) {
        char db[16];
        const char *argv[2] = { "SELECT", db };
        size_t len[2] = { 6, (size_t)snprintf(db, sizeof db, "%d", a->db) };
        rc |= redlock__conn_hello(cn, 2, argv, len, &req);
    }
    {
        const char *argv[1] = { "PING" };
        size_t len[1] = { 4 };
        rc |= redlock__conn_hello(cn, 1, argv, len, &req);
    }
    if (rc == 0)
        rc = cn->own.hello(cn->own.owner, cn);
    /* The buffer holds the password: libevent sends it from our memory
     * (no copy) and wipe_buf clears it once it has been written. */
    if (rc == 0 && evbuffer_add_reference(bufferevent_get_output(cn->bev), cn->hello.p,
                                          cn->hello.len, wipe_buf,
                                          (void *)(uintptr_t)cn->hello.cap) == 0) {
        cn->hello.p = NULL;
        cn->hello.len = cn->hello.cap = 0;
        return 0;
    }
    wipe_buf(cn->hello.p, cn->hello.len, (void *)(uintptr_t)cn->hello.cap);
    cn->hello.p = NULL;
    cn->hello.len = cn->hello.cap = 0;
    return REDLOCK_ENOMEM;
}

void redlock__conn_connect(redlock__conn *cn)
{
    const redlock__net *net = cn->net;
    struct sockaddr_storage ss;
    socklen_t sslen = 0;
    evutil_socket_t fd;

    if (cn->state != REDLOCK__CONN_DOWN || net->loop->closing)
        return;
    cn->attempts++;
    cn->gen++;
    if (cn->gen == 0)       /* 0 means "never sent" */
        cn->gen = 1;
    evtimer_del(&cn->retry_timer);
    if (redlock__dial_hook)     /* the simulator's stream, connected already (sslen 0) */
        fd = redlock__dial_hook(cn->addr, cn->lasterr, sizeof cn->lasterr);
    else if (redlock__dial_resolve(cn->addr, &ss, &sslen, cn->lasterr, sizeof cn->lasterr) != 0)
        fd = -1;
    else if ((fd = redlock__dial_socket(ss.ss_family)) < 0)
        snprintf(cn->lasterr, sizeof cn->lasterr, "socket: %s", strerror(errno));
    if (fd < 0) {
        char why[sizeof cn->lasterr];
        memcpy(why, cn->lasterr, sizeof why);
        conn_drop(cn, why);
        return;
    }
    cn->bev = cn->addr->tls ? redlock__tls_bev_new(net, cn->addr, fd)
                            : bufferevent_socket_new(net->loop->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (!cn->bev)
        close(fd);
    cn->reader = redlock__reader_new();
    if (!cn->bev || !cn->reader) {
        conn_drop(cn, cn->addr->tls ? "TLS: cannot set up the connection" : "out of memory");
        return;
    }
    cn->state = REDLOCK__CONN_CONNECTING;
    bufferevent_setcb(cn->bev, read_cb, NULL, event_cb, cn);
    bufferevent_enable(cn->bev, EV_READ | EV_WRITE);
    if (!cn->addr->path && sslen) {
        int one = 1;
        /* keep-alive probes notice a vanished host on an idle connection
         * (after about 10 + 3 x 5 s); busy ones notice by max_timeouts */
        int idle = 10, intvl = 5, cnt = 3;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
    }
    /* (no address: libevent waits for the connected stream to be writable) */
    if (bufferevent_socket_connect(cn->bev, sslen ? (struct sockaddr *)&ss : NULL, (int)sslen) != 0) {
        char why[sizeof cn->lasterr];
        snprintf(why, sizeof why, "connect: %s", strerror(errno));
        conn_drop(cn, why);
        return;
    }
    if (handshake(cn) != 0) {
        conn_drop(cn, "out of memory");
        return;
    }
    redlock__timer_add(net->loop, &cn->connect_timer, net->connect_timeout_ms * 1000);
}

int redlock__conn_prepend(redlock__conn *cn, const redlock__buf *bytes, const redlock__slot *slots,
                          size_t k)
{
    if (!k)
        return 0;
    while (cn->cap - cn->count < k)
        if (redlock__conn_slot_grow(cn) != 0)
            return REDLOCK_ENOMEM;
    if (bufferevent_write(cn->bev, bytes->p, bytes->len) != 0)
        return REDLOCK_ENOMEM;
    for (size_t i = k; i-- > 0;) {
        cn->head = (cn->head + cn->cap - 1) & (cn->cap - 1);
        cn->slots[cn->head] = slots[i];
        cn->count++;
    }
    return 0;
}

/* A request that leaves this long after its operation started left late: a
 * quarter of the node timeout, at least 1 ms (a loaded machine delays every
 * write by a little; only a long hold of the loop matters here). */
static int64_t late_us(const redlock__net *net)
{
    int64_t q = net->node_timeout_ms * 250;
    return q > 1000 ? q : 1000;
}

static inline redlock__slot *ring(redlock__conn *cn, size_t i)
{
    return &cn->slots[(cn->head + i) & (cn->cap - 1)];
}

/* Keep the moot slots from ring index i (n of them: one request) until
 * they are told; 0 or ENOMEM. */
static int keep_dropped(redlock__conn *cn, size_t *ndrop, size_t i, size_t n)
{
    if (*ndrop + n > cn->dropped_cap) {
        size_t cap = cn->dropped_cap ? cn->dropped_cap * 2 : 64;
        redlock__slot *d;
        while (cap < *ndrop + n)
            cap *= 2;
        if (!(d = realloc(cn->dropped, cap * sizeof *d)))
            return REDLOCK_ENOMEM;
        cn->dropped = d;
        cn->dropped_cap = cap;
    }
    for (size_t k = 0; k < n; k++)
        cn->dropped[(*ndrop)++] = *ring(cn, i + k);
    return 0;
}

/* The unsent requests, in order (the last `unsent` slots of the ring, their
 * bytes all of `out`): take whole requests from the front until `room`
 * slots are taken, dropping the moot ones met on the way (all of them with
 * `all`).  The taken ones count as written (their bytes now lead `out`:
 * the count is returned); the dropped ones wait in cn->dropped (*ndrop
 * slots) for tell_dropped(). */
static size_t unsent_take(redlock__conn *cn, size_t room, int all, size_t *ndrop)
{
    size_t end = cn->count, r = end - cn->unsent, w = r, rb = 0, wb = 0;
    size_t taken = 0, bytes = 0, moots = 0;
    uint32_t seq = cn->sent_seq;

    *ndrop = 0;
    while (r < end) {
        size_t g = r, n, len;
        const redlock__slot *last;
        int moot;
        while (g + 1 < end && ring(cn, g)->lead)
            g++;
        last = ring(cn, g);
        n = g - r + 1;
        len = last->len;
        moot = last->mark && (*last->mark & REDLOCK__MARK_MOOT);
        if (!moot && taken >= room && !all)
            break;
        /* (out of memory: sent after all; its master keeps the key until
         * the ttl, as when a reply is lost) */
        if (moot && keep_dropped(cn, ndrop, r, n) == 0) {
            moots++;
        } else {
            if (taken < room) {
                taken += n;
                bytes = wb + len;
                seq = last->seq;
            }
            for (size_t k = 0; w != r && k < n; k++)
                *ring(cn, w + k) = *ring(cn, r + k);
            if (wb != rb)
                memmove(cn->out.p + wb, cn->out.p + rb, len);
            w += n;
            wb += len;
        }
        r += n;
        rb += len;
    }
    if (w != r) {       /* close the gap the dropped ones left */
        for (size_t k = r; k < end; k++)
            *ring(cn, w + k - r) = *ring(cn, k);
        memmove(cn->out.p + wb, cn->out.p + rb, cn->out.len - rb);
    }
    cn->count -= r - w;
    cn->out.len -= rb - wb;
    cn->unsent -= r - w + taken;
    cn->mooted = all || cn->mooted < moots ? 0 : cn->mooted - moots;
    cn->sent_seq = seq;
    return bytes;
}

/* The dropped requests' owners hear that no reply will come. */
static void tell_dropped(redlock__conn *cn, size_t ndrop)
{
    redlock__slot *d = cn->dropped;
    size_t cap = cn->dropped_cap;

    /* (a callback that dropped more would reuse the array: it is ours) */
    cn->dropped = NULL;
    cn->dropped_cap = 0;
    for (size_t i = 0; i < ndrop; i++)
        if (d[i].fn)
            d[i].fn(d[i].privdata, d[i].tag, NULL, "not sent: decided without this master");
    if (!cn->dropped) {
        cn->dropped = d;
        cn->dropped_cap = cap;
    } else {
        free(d);
    }
}

void redlock__conn_moot(redlock__conn *cn)
{
    /* dropped when they would leave, or once they are half of what waits
     * (each request is moved at most twice on average) */
    if (++cn->mooted >= 64 && cn->mooted * 2 >= cn->unsent && cn->state == REDLOCK__CONN_UP)
        event_active(&cn->flush_ev, EV_WRITE, 1);
}

/* The requests made since the last flush leave late: the application held
 * the loop after starting them (or they waited for the handshake).  Their
 * operation's timer may fire before a reply could come back; that is no
 * sign that this master hangs. */
static void mark_late(redlock__conn *cn)
{
    if (cn->out_since_us && redlock__now(cn->net->loop) - cn->out_since_us > late_us(cn->net)) {
        for (size_t i = cn->count - (cn->unflushed < cn->count ? cn->unflushed : cn->count);
             i < cn->count; i++) {
            unsigned char *mark = ring(cn, i)->mark;
            if (mark)
                *mark |= REDLOCK__MARK_LATE;
        }
    }
    cn->unflushed = 0;
    cn->out_since_us = 0;
}

/* Write what may leave now: everything, or, past the window, as many as it
 * has room for (the rest goes as replies come: dispatch()). */
static void flush_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__conn *cn = arg;
    redlock__loop *loop = cn->net->loop;
    size_t off = 0, len, ndrop = 0;
    (void)fd;
    (void)what;

    /* Nothing leaves before the handshake succeeded (it may yet fail, e.g.
     * SELECT of a database the server lacks: the requests would then run
     * in the wrong one). */
    if (!cn->bev || !cn->out.len || cn->state != REDLOCK__CONN_UP)
        return;
    mark_late(cn);
    if (cn->window && cn->count > cn->window) {
        size_t sent = cn->count - cn->unsent;
        len = unsent_take(cn, sent < cn->window ? cn->window - sent : 0,
                          cn->mooted * 2 >= cn->unsent, &ndrop);
    } else {
        if (cn->mooted)
            unsent_take(cn, 0, 1, &ndrop);
        /* (a TIME rides only with requests that leave at once: its reply
         * then times the round trip from now) */
        if (cn->own.flushing && cn->out.len) {
            cn->own.flushing(cn->own.owner, cn);
            cn->unflushed = 0;
            cn->out_since_us = 0;
        }
        len = cn->out.len;
        cn->unsent = 0;
        cn->sent_seq = cn->queued_seq;
    }
    if (ndrop) {
        redlock__enter(loop);
        tell_dropped(cn, ndrop);
        if (redlock__leave(loop) || cn->state != REDLOCK__CONN_UP)
            return;
    }
    if (len) {
        /* Plain TCP with nothing queued in the bufferevent: write straight
         * to the socket, saving a loop turn; what does not fit (or fails:
         * the bufferevent then sees the error itself) goes to the
         * bufferevent. */
        if (cn->tcp_up && !cn->addr->tls &&
            evbuffer_get_length(bufferevent_get_output(cn->bev)) == 0) {
            ssize_t wr = send(bufferevent_getfd(cn->bev), cn->out.p, len,
                              MSG_NOSIGNAL | MSG_DONTWAIT);
            if (wr > 0)
                off = (size_t)wr;
        }
        if (off < len && bufferevent_write(cn->bev, cn->out.p + off, len - off) != 0) {
            redlock__enter(loop);
            conn_drop(cn, "out of memory");
            redlock__leave(loop);
            return;
        }
        if (len < cn->out.len)
            memmove(cn->out.p, cn->out.p + len, cn->out.len - len);
        cn->out.len -= len;
    }
}

/* A published message: ["message", channel, payload]. */
static int is_message(const redlock__reply *r)
{
    const redlock__reply *e;

    if (r->type != REDLOCK__REPLY_ARRAY || r->elements != 3)
        return 0;
    e = r->element[0];
    return e->type == REDLOCK__REPLY_STRING && e->len == 7 && !memcmp(e->str, "message", 7) &&
           r->element[1]->type == REDLOCK__REPLY_STRING;
}

static void dispatch(redlock__conn *cn, const redlock__reply *r)
{
    redlock__slot sl;

    if (cn->own.push && is_message(r)) {
        cn->timeouts_in_row = 0;
        cn->own.push(cn->own.owner, cn, r);
        return;
    }
    if (cn->count == 0) {
        conn_drop(cn, "protocol error: reply without a request");
        return;
    }
    sl = slot_pop(cn);
    cn->timeouts_in_row = 0;    /* alive, even if late */
    /* room in the window again: the requests held back go (in batches;
     * those made since the last flush go with the next one anyway) */
    if (cn->unsent > cn->unflushed && cn->count - cn->unsent <= cn->window / 2)
        event_active(&cn->flush_ev, EV_WRITE, 1);
    if (sl.handshake && sl.required && r->type == REDLOCK__REPLY_ERROR) {
        char why[sizeof cn->lasterr];
        /* AUTH errors never echo the password; keep the server's words. */
        snprintf(why, sizeof why, "handshake failed: %.*s",
                 (int)(r->len < 120 ? r->len : 120), r->str);
        conn_drop(cn, why);
        return;
    }
    if (sl.fn)
        sl.fn(sl.privdata, sl.tag, r, NULL);
    if (sl.handshake && cn->state == REDLOCK__CONN_CONNECTING && --cn->handshake_left == 0) {
        cn->backoff_ms = cn->net->reconnect_min_ms;
        cn->lasterr[0] = '\0';
        cn->told[0] = '\0';
        evtimer_del(&cn->connect_timer);
        cn->state = REDLOCK__CONN_UP;
        cn->hold_above = cn->window ? cn->window : SIZE_MAX;
        /* the owner may put owed requests before the waiting ones, and
         * tells the application (which may make requests: they follow) */
        cn->own.up(cn->own.owner, cn);
        if (cn->out.len && cn->state == REDLOCK__CONN_UP)
            event_active(&cn->flush_ev, EV_WRITE, 1);   /* those that waited */
    }
}

/* In bounded chunks, each parsed before the next is fed, so that an endless
 * reply is caught after REDLOCK__REPLY_MAX_BYTES, not after everything that
 * arrived. */
#define FEED_CHUNK 16384

/* Hand complete replies to their requests; 0 when the connection is gone. */
static int take_replies(redlock__conn *cn, struct bufferevent *bev)
{
    for (;;) {
        const redlock__reply *r = NULL;
        int got = redlock__reader_next(cn->reader, &r);
        if (got < 0) {
            char why[sizeof cn->lasterr];
            snprintf(why, sizeof why, "protocol error: %s", redlock__reader_error(cn->reader));
            conn_drop(cn, why);
            return 0;
        }
        if (got == 0)
            return 1;
        dispatch(cn, r);
        /* a callback may have dropped this connection or freed the client */
        if (cn->bev != bev || cn->net->loop->closing)
            return 0;
    }
}

static void read_cb(struct bufferevent *bev, void *arg)
{
    redlock__conn *cn = arg;
    redlock__loop *loop = cn->net->loop;
    struct evbuffer *in = bufferevent_get_input(bev);
    struct evbuffer_iovec v;

    redlock__enter(loop);
    while (evbuffer_peek(in, -1, NULL, &v, 1) > 0) {
        size_t len = v.iov_len < FEED_CHUNK ? v.iov_len : FEED_CHUNK;
        if (redlock__reader_feed(cn->reader, v.iov_base, len) != 0) {
            conn_drop(cn, "out of memory");
            break;
        }
        evbuffer_drain(in, len);
        if (!take_replies(cn, bev))
            break;
        if (redlock__reader_pending(cn->reader) > REDLOCK__REPLY_MAX_BYTES) {
            char why[sizeof cn->lasterr];
            snprintf(why, sizeof why, "protocol error: a reply longer than %d bytes",
                     REDLOCK__REPLY_MAX_BYTES);
            conn_drop(cn, why);
            break;
        }
    }
    redlock__leave(loop);
}

static void event_cb(struct bufferevent *bev, short events, void *arg)
{
    redlock__conn *cn = arg;
    redlock__loop *loop = cn->net->loop;
    char why[sizeof cn->lasterr];

    if (events & BEV_EVENT_CONNECTED) {
        cn->tcp_up = 1;
        cn->connected_us = redlock__now(loop);  /* the handshake leaves now */
        return;     /* the handshake's replies will say when we are UP */
    }
    redlock__enter(loop);
    if (cn->addr->tls && redlock__tls_describe(bev, why, sizeof why))
        ;   /* a certificate or handshake problem, described */
    else if (events & BEV_EVENT_EOF)
        snprintf(why, sizeof why, "connection closed by the server");
    else
        snprintf(why, sizeof why, "connection error: %s",
                 evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
    conn_drop(cn, why);
    redlock__leave(loop);
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__conn *cn = arg;
    (void)fd;
    (void)what;
    redlock__enter(cn->net->loop);
    redlock__conn_connect(cn);
    redlock__leave(cn->net->loop);
}

static void connect_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__conn *cn = arg;
    (void)fd;
    (void)what;
    redlock__enter(cn->net->loop);
    conn_drop(cn, "connect timed out");
    redlock__leave(cn->net->loop);
}

/* Counted per timed-out request; the drop itself runs from the loop, never
 * inside the operation that timed out. */
void redlock__conn_timed_out(redlock__conn *cn)
{
    int max = cn->net->max_timeouts;

    if (max > 0 && ++cn->timeouts_in_row >= max && cn->state != REDLOCK__CONN_DOWN &&
        !cn->net->loop->closing)
        event_active(&cn->stall_ev, EV_TIMEOUT, 1);
}

static void stall_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__conn *cn = arg;
    char why[sizeof cn->lasterr];
    (void)fd;
    (void)what;
    if (cn->state == REDLOCK__CONN_DOWN || cn->timeouts_in_row < cn->net->max_timeouts)
        return;
    redlock__enter(cn->net->loop);
    snprintf(why, sizeof why, "not answering: %d requests in a row timed out",
             cn->timeouts_in_row);
    conn_drop(cn, why);
    redlock__leave(cn->net->loop);
}

void redlock__conn_close(redlock__conn *cn)
{
    if (!cn->net)
        return;
    /* the loop is closing: conn_drop deletes every event but this one and
     * arms no new retry */
    evtimer_del(&cn->retry_timer);
    conn_drop(cn, "client freed");
    redlock__buf_free(&cn->out);
    free(cn->slots);
    cn->slots = NULL;
    free(cn->dropped);
    cn->dropped = NULL;
    cn->net = NULL;
}
