/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rawconn.c -- the baselines' minimal client (rawconn.h). */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "rawconn.h"

/* ---- address parsing ------------------------------------------------------- */

/* strcpy that refuses to truncate */
static int copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        return -1;
    memcpy(dst, src, n + 1);
    return 0;
}

/* redis://[user[:pass]@]host:port[/db]: the user, password and db into a,
 * cut off p; *host: where the host begins.  0, or -1 when too long. */
static int parse_url(char *p, raddr *a, char **host)
{
    char *at = strrchr(p, '@');
    if (at) {
        *at = '\0';
        char *colon = strchr(p, ':');
        if (colon) {
            *colon = '\0';
            if (copy_str(a->user, sizeof(a->user), p) != 0 ||
                copy_str(a->pass, sizeof(a->pass), colon + 1) != 0)
                return -1;
        } else if (copy_str(a->pass, sizeof(a->pass), p) != 0) {
            return -1;
        }
        p = at + 1;
    }
    char *slash = strchr(p, '/');
    if (slash) {
        *slash = '\0';
        if (slash[1])
            a->db = atoi(slash + 1);
    }
    *host = p;
    return 0;
}

/* host[:port] or [v6 address][:port] into a.  0, or -1 when malformed. */
static int parse_host_port(char *p, raddr *a)
{
    if (*p == '[') {
        char *close = strchr(p, ']');
        if (!close)
            return -1;
        *close = '\0';
        if (copy_str(a->host, sizeof(a->host), p + 1) != 0)
            return -1;
        if (close[1] == ':')
            return copy_str(a->port, sizeof(a->port), close + 2);
        return close[1] ? -1 : 0;
    }
    char *colon = strrchr(p, ':');
    if (colon) {
        *colon = '\0';
        if (copy_str(a->port, sizeof(a->port), colon + 1) != 0)
            return -1;
    }
    return copy_str(a->host, sizeof(a->host), p);
}

int rconn_parse_addr(const char *s, raddr *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof(*a));
    snprintf(a->port, sizeof(a->port), "6379");
    if (strncasecmp(s, "rediss://", 9) == 0) {
        snprintf(err, errlen, "'%s': the raw baseline speaks plain TCP only (no TLS)", s);
        return -1;
    }
    if (strncmp(s, "unix://", 7) == 0) {
        if (s[7] != '\0' && copy_str(a->path, sizeof(a->path), s + 7) == 0)
            return 0;
    } else {
        char buf[512];
        char *p = buf;
        if (copy_str(buf, sizeof(buf), s) == 0 &&
            (strncasecmp(p, "redis://", 8) != 0 || parse_url(p + 8, a, &p) == 0) &&
            parse_host_port(p, a) == 0 && a->host[0] && a->port[0])
            return 0;
    }
    snprintf(err, errlen, "cannot parse address '%s'", s);
    return -1;
}

/* ---- pending replies ------------------------------------------------------- */

static int fifo_push(rconn *c, uintptr_t tag)
{
    if (c->count == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 64;
        uintptr_t *nf = malloc(ncap * sizeof(*nf));
        if (!nf)
            return -1;
        for (size_t i = 0; i < c->count; i++)
            nf[i] = c->fifo[(c->head + i) % c->cap];
        free(c->fifo);
        c->fifo = nf;
        c->cap = ncap;
        c->head = 0;
    }
    c->fifo[(c->head + c->count) % c->cap] = tag;
    c->count++;
    return 0;
}

static uintptr_t fifo_pop(rconn *c)
{
    if (c->count == 0)
        return 0;
    uintptr_t s = c->fifo[c->head];
    c->head = (c->head + 1) % c->cap;
    c->count--;
    return s;
}

static size_t put_uint(char *p, size_t v)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

/* Format one command in RESP into buf; 0 when it does not fit. */
size_t rconn_format(char *buf, size_t cap, int argc, const char *const *argv,
                    const size_t *lens)
{
    size_t need = 16;
    for (int i = 0; i < argc; i++)
        need += lens[i] + 26;
    if (need > cap)
        return 0;
    char *p = buf;
    *p++ = '*';
    p += put_uint(p, (size_t)argc);
    *p++ = '\r';
    *p++ = '\n';
    for (int i = 0; i < argc; i++) {
        *p++ = '$';
        p += put_uint(p, lens[i]);
        *p++ = '\r';
        *p++ = '\n';
        memcpy(p, argv[i], lens[i]);
        p += lens[i];
        *p++ = '\r';
        *p++ = '\n';
    }
    return (size_t)(p - buf);
}


/* ---- sending --------------------------------------------------------------- */

int rconn_send_raw(rconn *c, uintptr_t tag, const char *cmd, size_t len)
{
    if (evbuffer_add(bufferevent_get_output(c->bev), cmd, len) != 0)
        return -1;
    return fifo_push(c, tag);
}

int rconn_send_now(rconn *c, uintptr_t tag, const char *cmd, size_t len)
{
    size_t off = 0;
    if (fifo_push(c, tag) != 0)
        return -1;
    /* (what does not fit, or fails, goes through the bufferevent, which
     * then sees the error itself) */
    if (c->connected && evbuffer_get_length(bufferevent_get_output(c->bev)) == 0) {
        ssize_t w = send(bufferevent_getfd(c->bev), cmd, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0)
            off = (size_t)w;
    }
    if (off < len && evbuffer_add(bufferevent_get_output(c->bev), cmd + off, len - off) != 0)
        return -1;
    return 0;
}

int rconn_send(rconn *c, uintptr_t tag, int argc, const char *const *argv, const size_t *lens)
{
    size_t need = 16;
    for (int i = 0; i < argc; i++)
        need += lens[i] + 26;
    char *buf = malloc(need);
    if (!buf)
        return -1;
    size_t n = rconn_format(buf, need, argc, argv, lens);
    int rc = rconn_send_raw(c, tag, buf, n);
    free(buf);
    return rc;
}

int rconn_handshake(rconn *c, const raddr *a, uintptr_t tag)
{
    int n = 0;
    if (a->pass[0]) {
        const char *av[3] = {"AUTH", a->user, a->pass};
        size_t al[3] = {4, strlen(a->user), strlen(a->pass)};
        if (a->user[0]) {
            rconn_send(c, tag, 3, av, al);
        } else {
            av[1] = a->pass;
            al[1] = al[2];
            rconn_send(c, tag, 2, av, al);
        }
        n++;
    }
    if (a->db) {
        char db[16];
        int dl = snprintf(db, sizeof(db), "%d", a->db);
        const char *av[2] = {"SELECT", db};
        size_t al[2] = {6, (size_t)dl};
        rconn_send(c, tag, 2, av, al);
        n++;
    }
    return n;
}

/* ---- receiving ------------------------------------------------------------- */

static void on_read(struct bufferevent *bev, void *arg)
{
    rconn *c = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    size_t len;
    while ((len = evbuffer_get_length(in)) > 0) {
        struct evbuffer_iovec v[16];
        int n = evbuffer_peek(in, -1, NULL, v, 16);
        if (n > 16)
            n = 16;
        size_t fed = 0;
        for (int i = 0; i < n; i++) {
            if (redisReaderFeed(c->rd, v[i].iov_base, v[i].iov_len) != REDIS_OK) {
                c->ops->failed(c, "protocol error");
                return;
            }
            fed += v[i].iov_len;
        }
        evbuffer_drain(in, fed);
    }
    for (;;) {
        void *reply = NULL;
        if (redisReaderGetReply(c->rd, &reply) != REDIS_OK) {
            c->ops->failed(c, "protocol error");
            return;
        }
        if (!reply)
            break;
        /* (the owner may close or halt c in the callback) */
        uintptr_t tag = fifo_pop(c);
        c->ops->reply(c, tag, reply);
        freeReplyObject(reply);
        if (!c->bev || c->halt)
            return;
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    (void)bev;
    rconn *c = arg;
    if (what & BEV_EVENT_CONNECTED) {
        c->connected = 1;
        evutil_socket_t fd = bufferevent_getfd(c->bev);
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)); /* fails on unix: fine */
        if (c->setup_left)
            rconn_setup_step(c->setup_left, 0, bufferevent_get_base(c->bev));
        if (c->ops->connected)
            c->ops->connected(c);
        return;
    }
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        char why[160];
        if (!c->connected)
            snprintf(why, sizeof why, "cannot connect: %s",
                     evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
        else
            snprintf(why, sizeof why, "connection lost");
        c->ops->failed(c, why);
    }
}

/* ---- connecting ------------------------------------------------------------ */

int rconn_open(rconn *c, struct event_base *base, const char *addr, const raddr *a, char *err,
               size_t errlen)
{
    snprintf(c->desc, sizeof(c->desc), "%s", addr);
    c->rd = redisReaderCreate();
    c->bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
    if (!c->rd || !c->bev) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    bufferevent_setcb(c->bev, on_read, NULL, on_event, c);
    bufferevent_enable(c->bev, EV_READ | EV_WRITE);
    int rc;
    if (a->path[0]) {
        struct sockaddr_un sun;
        memset(&sun, 0, sizeof(sun));
        sun.sun_family = AF_UNIX;
        memcpy(sun.sun_path, a->path, strlen(a->path) + 1);
        rc = bufferevent_socket_connect(c->bev, (struct sockaddr *)&sun, (int)sizeof(sun));
    } else {
        struct addrinfo hints, *res = NULL;
        memset(&hints, 0, sizeof(hints));
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        int g = getaddrinfo(a->host, a->port, &hints, &res);
        if (g != 0 || !res) {
            snprintf(err, errlen, "cannot resolve %s: %s", addr, gai_strerror(g));
            return -1;
        }
        rc = bufferevent_socket_connect(c->bev, res->ai_addr, (int)res->ai_addrlen);
        freeaddrinfo(res);
    }
    if (rc != 0) {
        snprintf(err, errlen, "cannot connect to %s", addr);
        return -1;
    }
    return 0;
}

void rconn_close(rconn *c)
{
    if (c->bev)
        bufferevent_free(c->bev);
    if (c->rd)
        redisReaderFree(c->rd);
    free(c->fifo);
    c->bev = NULL;
    c->rd = NULL;
    c->fifo = NULL;
    c->count = 0;
}

/* ---- setup --------------------------------------------------------------------- */

void rconn_setup_step(size_t *left, int stop, struct event_base *base)
{
    if (--*left == 0 || stop)
        event_base_loopbreak(base);
}

int rconn_script_sha(const redisReply *r, char *sha)
{
    if (r->type != REDIS_REPLY_STRING || r->len != 40)
        return -1;
    memcpy(sha, r->str, 40);
    sha[40] = '\0';
    return 0;
}
