/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rlproxy -- fault-injecting TCP proxy, see proxy.h. */
#include "proxy.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#define UP 0
#define DOWN 1
#define READ_SIZE 65536
#define ACCEPT_BATCH 64

typedef struct rlp_conn rlp_conn;

typedef struct chunk {
    struct chunk *next;
    int64_t due;        /* monotonic us */
    size_t len, off;
    unsigned char data[];
} chunk;

typedef struct rlp_dir {
    rlp_conn *c;
    int idx;                 /* UP or DOWN */
    struct event *ev_read;   /* on the source fd */
    struct event *ev_write;  /* on the destination fd */
    struct event *ev_timer;
    chunk *head, *tail;
    size_t queued;
    int64_t last_due;
    int eof;                 /* the source will give nothing more */
    int done;                /* destination shut down or dead */
    int reading, writing;    /* events currently added */
    double tokens;
    int64_t tok_time;
} rlp_dir;

struct rlp_conn {
    rlp_proxy *p;
    rlp_conn *prev, *next;
    int fd[2];               /* [0] client, [1] server (-1 for sinks) */
    int connecting;
    int sink;                /* accepted under blackhole: no upstream */
    int kill;                /* reset it at the next conn_check (setreset) */
    int poisoned;            /* RLP_HOSTILE_* injected into it */
    size_t hostile_left;     /* hostile bytes still to generate */
    rlp_dir d[2];
};

struct rlp_proxy {
    struct event_base *base;
    int lfd;
    struct event *ev_accept, *ev_retry;
    int port, target_port;
    struct sockaddr_storage target;
    socklen_t target_len;
    rlp_conn *conns;
    rlp_faults f;
    rlp_stats st;
    uint64_t rng;
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static uint64_t rng_next(rlp_proxy *p)
{
    uint64_t x = p->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p->rng = x;
    return x;
}

static void seterr(char *err, size_t errlen, const char *fmt, const char *a, int e)
{
    if (err && errlen) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, fmt, a ? a : "");
        if (e)
            snprintf(err, errlen, "%s: %s", tmp, strerror(e));
        else
            snprintf(err, errlen, "%s", tmp);
    }
}

static void set_nodelay(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static void close_rst(int fd)
{
    struct linger lg = { 1, 0 };
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    close(fd);
}

static void free_event(struct event *ev)
{
    if (ev)
        event_free(ev);
}

static int dst_fd(const rlp_dir *d) { return d->c->fd[d->idx == UP ? 1 : 0]; }
static rlp_dir *other(rlp_dir *d) { return &d->c->d[1 - d->idx]; }

static void drop_queue(rlp_dir *d);
static uint64_t rng_next(rlp_proxy *p);

/* Is the data of this direction currently being thrown away? */
static int dropping(const rlp_dir *d)
{
    const rlp_proxy *p = d->c->p;
    return p->f.blackhole || d->c->sink ||
           (d->idx == DOWN && (p->f.halfopen || d->c->poisoned));
}

/* Does this chunk carry a SET command (RESP bulk "SET", any case)? */
static int has_set(const chunk *ch)
{
    static const char pat[] = "$3\r\nset\r\n";
    size_t n = sizeof pat - 1, i, k;
    for (i = 0; i + n <= ch->len; i++) {
        for (k = 0; k < n; k++) {
            unsigned char b = ch->data[i + k];
            if (b >= 'A' && b <= 'Z')
                b = (unsigned char)(b - 'A' + 'a');
            if (b != (unsigned char)pat[k])
                break;
        }
        if (k == n)
            return 1;
    }
    return 0;
}

static void enqueue(rlp_dir *d, chunk *ch)
{
    ch->next = NULL;
    if (d->tail)
        d->tail->next = ch;
    else
        d->head = ch;
    d->tail = ch;
    d->queued += ch->len;
}

/* The next n bytes of c's hostile reply (hostile_left of it are still to
 * come) into buf. */
static void hostile_bytes(rlp_conn *c, unsigned char *buf, size_t n)
{
    switch (c->poisoned) {
    case RLP_HOSTILE_LINE:
        memset(buf, 'a', n);
        if (c->hostile_left == RLP_HOSTILE_LINE_BYTES)
            buf[0] = '+';
        break;
    case RLP_HOSTILE_ERROR:
        memset(buf, 'x', n);
        if (c->hostile_left == RLP_HOSTILE_ERROR_BYTES + 7)
            memcpy(buf, "-ERR ", 5);
        if (c->hostile_left == n) {
            buf[n - 2] = '\r';
            buf[n - 1] = '\n';
        }
        break;
    default:
        for (size_t i = 0; i < n; i++)
            buf[i] = (unsigned char)(rng_next(c->p) >> 24);
        buf[0] = '?';   /* no RESP type byte */
        break;
    }
}

/* A poisoned connection: queue the next piece of the hostile reply towards
 * the client (only when nothing is queued, so at most 64 KiB wait). */
static void hostile_refill(rlp_dir *d)
{
    rlp_conn *c = d->c;
    size_t n;
    chunk *ch;
    if (d->idx != DOWN || !c->poisoned || d->head || !c->hostile_left || d->done)
        return;
    n = c->hostile_left < READ_SIZE ? c->hostile_left : READ_SIZE;
    ch = malloc(sizeof *ch + n);
    if (!ch)
        return;
    ch->due = 0;
    ch->len = n;
    ch->off = 0;
    hostile_bytes(c, ch->data, n);
    c->hostile_left -= n;
    enqueue(d, ch);
}

/* Start the hostile reply on c (its server just sent something). */
static void poison(rlp_conn *c, int kind)
{
    c->poisoned = kind;
    c->hostile_left = kind == RLP_HOSTILE_LINE    ? RLP_HOSTILE_LINE_BYTES
                      : kind == RLP_HOSTILE_ERROR ? RLP_HOSTILE_ERROR_BYTES + 7
                                                  : 4096;
    c->p->st.hostile_conns++;
    drop_queue(&c->d[DOWN]);
    hostile_refill(&c->d[DOWN]);
}

static void drop_queue(rlp_dir *d)
{
    chunk *ch = d->head;
    while (ch) {
        chunk *n = ch->next;
        free(ch);
        ch = n;
    }
    d->head = d->tail = NULL;
    d->queued = 0;
}

/* Adds or deletes ev (if any) unless *added says it is so already. */
static void watch(struct event *ev, int *added, int on)
{
    if (!ev || on == *added)
        return;
    if (on)
        event_add(ev, NULL);
    else
        event_del(ev);
    *added = on;
}

static void set_reading(rlp_dir *d, int on) { watch(d->ev_read, &d->reading, on); }
static void set_writing(rlp_dir *d, int on) { watch(d->ev_write, &d->writing, on); }

static void arm_timer(rlp_dir *d, int64_t wait_us)
{
    struct timeval tv;
    if (wait_us < 0)
        wait_us = 0;
    tv.tv_sec = (time_t)(wait_us / 1000000);
    tv.tv_usec = (suseconds_t)(wait_us % 1000000);
    event_add(d->ev_timer, &tv);
}

/* Stop everything in one direction for good. */
static void dir_finish(rlp_dir *d)
{
    d->done = 1;
    d->eof = 1;
    drop_queue(d);
    set_reading(d, 0);
    set_writing(d, 0);
    if (d->ev_timer)
        event_del(d->ev_timer);
}

static void update_reading(rlp_dir *d)
{
    const rlp_conn *c = d->c;
    int on = !d->eof && !d->done && !c->p->f.pause && d->queued < RLP_QUEUE_MAX;
    if (d->idx == DOWN && (c->connecting || c->sink))
        on = 0;
    set_reading(d, on);
}

static void pump(rlp_dir *d);

/* The destination of d is broken (write error): abort d, and stop reading
 * from that same socket (the source of the other direction), letting the
 * other direction flush what it already has. */
static void dst_broken(rlp_dir *d)
{
    rlp_dir *o = other(d);
    dir_finish(d);
    o->eof = 1;
    set_reading(o, 0);
    pump(o);   /* flush it, or finish it if it is empty */
}

/* The stats counter of d's bytes: delivered, or dropped. */
static unsigned long long *bytes_stat(rlp_dir *d, int dropped)
{
    rlp_stats *st = &d->c->p->st;
    if (dropped)
        return d->idx == UP ? &st->dropped_up : &st->dropped_down;
    return d->idx == UP ? &st->bytes_up : &st->bytes_down;
}

/* While connecting or paused nothing moves: only reading is looked at. */
static int pump_held(rlp_dir *d)
{
    if (d->c->connecting) {
        /* UP's write event is watching the connect: leave it alone. */
        update_reading(d);
        return 1;
    }
    if (d->c->p->f.pause) {
        set_writing(d, 0);
        event_del(d->ev_timer);
        update_reading(d);
        return 1;
    }
    return 0;
}

/* Token bucket: 1 with *n cut to the tokens there are, or 0 with the
 * timer armed for when there will be enough. */
static int take_tokens(rlp_dir *d, long rate, int64_t now, size_t *n)
{
    double burst = (double)rate / 50.0;
    if (burst < 1.0)
        burst = 1.0;
    d->tokens += (double)(now - d->tok_time) * (double)rate / 1e6;
    d->tok_time = now;
    if (d->tokens > burst)
        d->tokens = burst;
    if (d->tokens < 1.0) {
        double want = (double)*n < burst ? (double)*n : burst;
        arm_timer(d, (int64_t)((want - d->tokens) * 1e6 / (double)rate) + 1);
        set_writing(d, 0);
        return 0;
    }
    if ((double)*n > d->tokens)
        *n = (size_t)d->tokens;
    return 1;
}

/* The head chunk is delivered: free it.  -1 when it carried a SET that
 * setreset kills the connection for. */
static int head_delivered(rlp_dir *d)
{
    rlp_conn *c = d->c;
    rlp_proxy *p = c->p;
    chunk *ch = d->head;
    int reset = d->idx == UP && p->f.setreset > 0 && has_set(ch);
    d->head = ch->next;
    if (!d->head)
        d->tail = NULL;
    free(ch);
    if (reset) {
        /* the SET is in the server's socket: kill the connection now */
        p->f.setreset--;
        p->st.setresets++;
        c->kill = 1;
        dir_finish(d);
        dir_finish(other(d));
        return -1;
    }
    if (!d->head)
        hostile_refill(d);
    return 0;
}

/* w bytes of the head chunk went out. */
static void sent(rlp_dir *d, long rate, size_t w)
{
    d->head->off += w;
    d->queued -= w;
    if (rate > 0)
        d->tokens -= (double)w;
    *bytes_stat(d, 0) += w;
}

/* Sends what is due of d's queue, within its bandwidth, until the
 * destination is full.  -1 when d was finished meanwhile. */
static int send_due(rlp_dir *d)
{
    long rate = d->c->p->f.bandwidth[d->idx];
    int64_t now = now_us();
    while (d->head) {
        chunk *ch = d->head;
        size_t n = ch->len - ch->off;
        ssize_t w;
        if (ch->due > now) {
            arm_timer(d, ch->due - now);
            set_writing(d, 0);
            return 0;
        }
        if (rate > 0 && !take_tokens(d, rate, now, &n))
            return 0;
        w = send(dst_fd(d), ch->data + ch->off, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                dst_broken(d);
                return -1;
            }
            set_writing(d, 1);
            return 0;
        }
        sent(d, rate, (size_t)w);
        if (ch->off == ch->len) {
            if (head_delivered(d) < 0)
                return -1;
        } else if ((size_t)w < n) {
            set_writing(d, 1);   /* kernel buffer full */
            return 0;
        }
    }
    return 0;
}

/* Move due data of d to its destination, arm timers/events as needed.
 * Never frees the connection: callers call conn_check() afterwards. */
static void pump(rlp_dir *d)
{
    if (d->done || pump_held(d))
        return;
    event_del(d->ev_timer);
    hostile_refill(d);
    if (send_due(d) < 0)
        return;
    if (!d->head) {
        set_writing(d, 0);
        /* Forward the EOF once everything before it is delivered, unless
         * this direction is being dropped (the FIN is held back then). */
        if (d->eof && (!dropping(d) || d->c->sink)) {
            if (dst_fd(d) >= 0)
                shutdown(dst_fd(d), SHUT_WR);
            d->done = 1;
        }
    }
    update_reading(d);
}

static void conn_free(rlp_conn *c, int rst)
{
    rlp_proxy *p = c->p;
    int i;
    for (i = 0; i < 2; i++) {
        rlp_dir *d = &c->d[i];
        drop_queue(d);
        free_event(d->ev_read);
        free_event(d->ev_write);
        free_event(d->ev_timer);
    }
    for (i = 0; i < 2; i++) {
        if (c->fd[i] < 0)
            continue;
        if (rst)
            close_rst(c->fd[i]);
        else
            close(c->fd[i]);
    }
    if (c->prev)
        c->prev->next = c->next;
    else
        p->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    p->st.conns--;
    free(c);
}

/* Frees c if both directions are finished; returns 1 if it did. */
static int conn_check(rlp_conn *c)
{
    if (c->kill) {
        conn_free(c, 1);
        return 1;
    }
    if (c->d[UP].done && c->d[DOWN].done) {
        conn_free(c, 0);
        return 1;
    }
    return 0;
}

/* timeshift: move the seconds of every TIME reply in buf (a chunk from the
 * server) by `shift`, keeping their 10 digits. */
static void shift_time(rlp_proxy *p, unsigned char *buf, size_t n, int shift)
{
    static const char head[] = "*2\r\n$10\r\n";
    size_t hl = sizeof head - 1;

    for (size_t i = 0; i + hl + 12 <= n; i++) {
        long long s = 0;
        size_t k;
        char digits[16];
        if (memcmp(buf + i, head, hl) != 0)
            continue;
        for (k = 0; k < 10 && buf[i + hl + k] >= '0' && buf[i + hl + k] <= '9'; k++)
            s = s * 10 + (buf[i + hl + k] - '0');
        if (k < 10 || buf[i + hl + 10] != '\r')
            continue;
        s += shift;
        if (s < 1000000000LL || s > 9999999999LL)
            continue;
        snprintf(digits, sizeof digits, "%010lld", s);
        memcpy(buf + i + hl, digits, 10);
        p->st.time_rewrites++;
    }
}

/* TIME commands in a chunk from a client, and whether it held nothing else
 * (the client wrote a TIME on its own). */
static void count_time(rlp_proxy *p, const unsigned char *buf, size_t n)
{
    static const char cmd[] = "*1\r\n$4\r\nTIME\r\n";
    size_t cl = sizeof cmd - 1;

    for (size_t i = 0; i + cl <= n; i++)
        if (memcmp(buf + i, cmd, cl) == 0)
            p->st.time_cmds++;
    if (n == cl && memcmp(buf, cmd, cl) == 0)
        p->st.time_alone++;
}

/* When data read now is to be released: after delay +/- jitter, never
 * before what was read earlier. */
static int64_t release_time(rlp_dir *d)
{
    rlp_proxy *p = d->c->p;
    int64_t now = now_us(), due;
    int delay = p->f.delay_ms[d->idx], jit = p->f.jitter_ms[d->idx];
    due = now + (int64_t)delay * 1000;
    if (jit > 0) {
        int64_t span = (int64_t)jit * 2000 + 1;
        due += (int64_t)(rng_next(p) % (uint64_t)span) - (int64_t)jit * 1000;
    }
    if (due < now)
        due = now;
    if (due < d->last_due)
        due = d->last_due;   /* never reorder */
    d->last_due = due;
    return due;
}

/* Queues a copy of what was read; -1 when out of memory. */
static int queue_data(rlp_dir *d, const unsigned char *buf, size_t n)
{
    chunk *ch = malloc(sizeof *ch + n);
    if (!ch)
        return -1;
    ch->due = release_time(d);
    ch->len = n;
    ch->off = 0;
    memcpy(ch->data, buf, n);
    enqueue(d, ch);
    return 0;
}

/* n bytes read from d's source: rewritten, dropped or queued by the faults
 * in force. */
static void on_data(rlp_dir *d, unsigned char *buf, size_t n)
{
    rlp_conn *c = d->c;
    rlp_proxy *p = c->p;
    if (d->idx == UP)
        count_time(p, buf, n);
    if (d->idx == DOWN && p->f.timeshift_s)
        shift_time(p, buf, n, p->f.timeshift_s);
    if (d->idx == DOWN && p->f.hostile && !c->poisoned && !c->sink && !d->done) {
        p->st.dropped_down += n;
        poison(c, p->f.hostile);
    } else if (dropping(d) || d->done) {
        *bytes_stat(d, 1) += n;
    } else if (queue_data(d, buf, n) < 0) {
        /* Out of memory: treat like a broken source. */
        d->eof = 1;
        dir_finish(other(d));
    }
    pump(d);
}

static void on_read(evutil_socket_t fd, short what, void *arg)
{
    rlp_dir *d = arg;
    rlp_conn *c = d->c;
    unsigned char buf[READ_SIZE];
    ssize_t n;
    (void)what;

    n = recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
        on_data(d, buf, (size_t)n);
    } else if (n == 0) {
        d->eof = 1;
        set_reading(d, 0);
        pump(d);
    } else {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return;
        /* Source reset/broken: nothing more from it, nothing can go to it. */
        d->eof = 1;
        set_reading(d, 0);
        dir_finish(other(d));
        pump(d);
    }
    conn_check(c);
}

static void pump_and_check(rlp_dir *d)
{
    rlp_conn *c = d->c;
    pump(d);
    conn_check(c);
}

/* The upstream connect of c has finished, or not yet (EINPROGRESS). */
static void connect_done(rlp_conn *c, evutil_socket_t fd)
{
    int e = 0;
    socklen_t len = sizeof e;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) < 0)
        e = errno;
    if (e == EINPROGRESS || e == EALREADY)
        return;
    set_writing(&c->d[UP], 0);
    c->connecting = 0;
    if (e) {
        c->p->st.upstream_failed++;
        conn_free(c, 1);
        return;
    }
    pump(&c->d[DOWN]);
    pump(&c->d[UP]);
    conn_check(c);
}

static void on_write(evutil_socket_t fd, short what, void *arg)
{
    rlp_dir *d = arg;
    (void)what;
    if (d->c->connecting && d->idx == UP)
        connect_done(d->c, fd);
    else
        pump_and_check(d);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    pump_and_check(arg);
}

static int dir_init(rlp_conn *c, int idx)
{
    rlp_dir *d = &c->d[idx];
    struct event_base *base = c->p->base;
    int s = c->fd[idx == UP ? 0 : 1], t = c->fd[idx == UP ? 1 : 0];
    d->c = c;
    d->idx = idx;
    d->tok_time = now_us();
    d->tokens = 0;
    if (s >= 0 && !(d->ev_read = event_new(base, s, EV_READ | EV_PERSIST, on_read, d)))
        return -1;
    if (t >= 0 && !(d->ev_write = event_new(base, t, EV_WRITE | EV_PERSIST, on_write, d)))
        return -1;
    if (!(d->ev_timer = event_new(base, -1, 0, on_timer, d)))
        return -1;
    return 0;
}

/* Starts c's connection to the target; -1 if it failed at once. */
static int connect_upstream(rlp_proxy *p, rlp_conn *c)
{
    int sfd = socket(p->target.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (sfd < 0)
        return -1;
    set_nodelay(sfd);
    if (connect(sfd, (struct sockaddr *)&p->target, p->target_len) < 0) {
        if (errno != EINPROGRESS) {
            close(sfd);
            return -1;
        }
        c->connecting = 1;
    }
    c->fd[1] = sfd;
    return 0;
}

static void new_conn(rlp_proxy *p, int cfd)
{
    rlp_conn *c = calloc(1, sizeof *c);

    if (!c) {
        close_rst(cfd);
        return;
    }
    c->p = p;
    c->fd[0] = cfd;
    c->fd[1] = -1;
    set_nodelay(cfd);
    if (p->f.blackhole) {
        c->sink = 1;
    } else if (connect_upstream(p, c) < 0) {
        free(c);
        close_rst(cfd);
        p->st.upstream_failed++;
        return;
    }
    c->next = p->conns;
    if (p->conns)
        p->conns->prev = c;
    p->conns = c;
    p->st.conns++;
    if (dir_init(c, UP) < 0 || dir_init(c, DOWN) < 0) {
        conn_free(c, 1);
        return;
    }
    if (c->sink)
        c->d[DOWN].done = c->d[DOWN].eof = 1;
    if (c->connecting) {
        set_writing(&c->d[UP], 1);   /* connect completion */
        update_reading(&c->d[UP]);   /* buffer client data meanwhile */
    } else {
        pump(&c->d[UP]);
        pump(&c->d[DOWN]);
    }
}

static void on_accept_retry(evutil_socket_t fd, short what, void *arg)
{
    rlp_proxy *p = arg;
    (void)fd;
    (void)what;
    event_add(p->ev_accept, NULL);
}

static void on_accept(evutil_socket_t fd, short what, void *arg)
{
    rlp_proxy *p = arg;
    int i;
    (void)what;
    for (i = 0; i < ACCEPT_BATCH; i++) {
        int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (cfd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                /* Out of descriptors: the listener would fire in a busy
                 * loop; look again in 100 ms. */
                struct timeval tv = { 0, 100000 };
                event_del(p->ev_accept);
                event_add(p->ev_retry, &tv);
            }
            return;
        }
        p->st.accepted++;
        if (p->f.refuse) {
            p->st.refused++;
            close_rst(cfd);
            continue;
        }
        new_conn(p, cfd);
    }
}

static int resolve(const char *host, int port, struct sockaddr_storage *ss,
                   socklen_t *len, char *err, size_t errlen)
{
    struct addrinfo hints, *res = NULL, *ai, *pick = NULL;
    char ps[16];
    int rc;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(ps, sizeof ps, "%d", port);
    rc = getaddrinfo(host, ps, &hints, &res);
    if (rc != 0) {
        if (err && errlen)
            snprintf(err, errlen, "cannot resolve %s: %s", host, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai; ai = ai->ai_next)
        if (ai->ai_family == AF_INET) {
            pick = ai;
            break;
        }
    if (!pick)
        pick = res;
    if (!pick || pick->ai_addrlen > sizeof *ss) {
        freeaddrinfo(res);
        seterr(err, errlen, "cannot resolve %s", host, 0);
        return -1;
    }
    memcpy(ss, pick->ai_addr, pick->ai_addrlen);
    *len = (socklen_t)pick->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

int rlp_listen_loopback(int port, int backlog, int *bound, const char **step)
{
    struct sockaddr_in sin;
    socklen_t sl = sizeof sin;
    int one = 1, e;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *step = "socket";
        return -1;
    }
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)port);
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&sin, sizeof sin) < 0)
        *step = "bind";
    else if (listen(fd, backlog) < 0)
        *step = "listen";
    else if (getsockname(fd, (struct sockaddr *)&sin, &sl) < 0)
        *step = "getsockname";
    else {
        *bound = ntohs(sin.sin_port);
        return fd;
    }
    e = errno;
    close(fd);
    errno = e;
    return -1;
}

/* The listener of p and its events; -1 with err filled. */
static int proxy_listen(rlp_proxy *p, int listen_port, char *err, size_t errlen)
{
    const char *step = "";
    p->lfd = rlp_listen_loopback(listen_port, 128, &p->port, &step);
    if (p->lfd < 0) {
        char what[64];
        if (!strcmp(step, "bind"))
            snprintf(what, sizeof what, "bind 127.0.0.1:%d", listen_port);
        else
            snprintf(what, sizeof what, "%s", step);
        seterr(err, errlen, "%s", what, errno);
        return -1;
    }
    p->ev_accept = event_new(p->base, p->lfd, EV_READ | EV_PERSIST, on_accept, p);
    p->ev_retry = evtimer_new(p->base, on_accept_retry, p);
    if (!p->ev_accept || !p->ev_retry || event_add(p->ev_accept, NULL) < 0) {
        seterr(err, errlen, "event_new/event_add failed%s", "", 0);
        return -1;
    }
    return 0;
}

rlp_proxy *rlp_proxy_new(struct event_base *base, int listen_port,
                         const char *target_host, int target_port,
                         char *err, size_t errlen)
{
    rlp_proxy *p;

    if (!base || listen_port < 0 || listen_port > 65535 ||
        target_port <= 0 || target_port > 65535) {
        seterr(err, errlen, "bad arguments%s", "", 0);
        return NULL;
    }
    if (!target_host || !*target_host)
        target_host = "127.0.0.1";
    p = calloc(1, sizeof *p);
    if (!p) {
        seterr(err, errlen, "out of memory%s", "", 0);
        return NULL;
    }
    p->base = base;
    p->lfd = -1;
    p->target_port = target_port;
    p->rng = (uint64_t)now_us() * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)p;
    if (!p->rng)
        p->rng = 1;
    if (resolve(target_host, target_port, &p->target, &p->target_len, err, errlen) < 0 ||
        proxy_listen(p, listen_port, err, errlen) < 0) {
        rlp_proxy_free(p);
        return NULL;
    }
    return p;
}

int rlp_proxy_port(const rlp_proxy *p) { return p ? p->port : -1; }
int rlp_proxy_target_port(const rlp_proxy *p) { return p ? p->target_port : -1; }

/* Re-evaluate every direction of every connection after a setting change. */
static void repump_all(rlp_proxy *p)
{
    rlp_conn *c = p->conns;
    while (c) {
        rlp_conn *n = c->next;
        if (!c->connecting) {
            pump(&c->d[UP]);
            pump(&c->d[DOWN]);
        } else {
            update_reading(&c->d[UP]);
        }
        conn_check(c);
        c = n;
    }
}

static int clampi(int v) { return v < 0 ? 0 : v; }

void rlp_proxy_set_latency(rlp_proxy *p, int dir, int delay_ms, int jitter_ms)
{
    int i;
    if (!p || dir < RLP_UP || dir > RLP_BOTH)
        return;
    for (i = 0; i < 2; i++)
        if (dir & (1 << i)) {
            p->f.delay_ms[i] = clampi(delay_ms);
            p->f.jitter_ms[i] = clampi(jitter_ms);
        }
}

void rlp_proxy_set_bandwidth(rlp_proxy *p, int dir, long bytes_per_sec)
{
    int i;
    rlp_conn *c;
    int64_t now = now_us();
    if (!p || dir < RLP_UP || dir > RLP_BOTH)
        return;
    if (bytes_per_sec < 0)
        bytes_per_sec = 0;
    for (i = 0; i < 2; i++)
        if (dir & (1 << i)) {
            p->f.bandwidth[i] = bytes_per_sec;
            for (c = p->conns; c; c = c->next) {
                c->d[i].tokens = 0;
                c->d[i].tok_time = now;
            }
        }
    repump_all(p);
}

static void drop_dirs(rlp_proxy *p, int mask)
{
    rlp_conn *c;
    int i;
    for (c = p->conns; c; c = c->next)
        for (i = 0; i < 2; i++)
            if ((mask & (1 << i)) && !c->d[i].done) {
                *bytes_stat(&c->d[i], 1) += c->d[i].queued;
                drop_queue(&c->d[i]);
            }
}

/* Sets a fault flag; turning it on discards what the directions in
 * drop_mask hold queued.  Every connection then looks at it. */
static void set_flag(rlp_proxy *p, int *flag, int on, int drop_mask)
{
    *flag = !!on;
    if (on)
        drop_dirs(p, drop_mask);
    repump_all(p);
}

void rlp_proxy_set_blackhole(rlp_proxy *p, int on)
{
    if (p)
        set_flag(p, &p->f.blackhole, on, RLP_BOTH);
}

void rlp_proxy_set_halfopen(rlp_proxy *p, int on)
{
    if (p)
        set_flag(p, &p->f.halfopen, on, RLP_DOWN);
}

void rlp_proxy_set_pause(rlp_proxy *p, int on)
{
    if (p)
        set_flag(p, &p->f.pause, on, 0);
}

void rlp_proxy_set_refuse(rlp_proxy *p, int on)
{
    if (p)
        p->f.refuse = !!on;
}

void rlp_proxy_reset_all(rlp_proxy *p)
{
    if (!p)
        return;
    while (p->conns) {
        p->st.resets++;
        conn_free(p->conns, 1);
    }
}

void rlp_proxy_set_setreset(rlp_proxy *p, int count)
{
    if (p)
        p->f.setreset = count < 0 ? 0 : count;
}

/* Reset the connections a hostile reply was injected into. */
static void reset_poisoned(rlp_proxy *p)
{
    rlp_conn *c = p->conns;
    while (c) {
        rlp_conn *n = c->next;
        if (c->poisoned) {
            p->st.resets++;
            conn_free(c, 1);
        }
        c = n;
    }
}

void rlp_proxy_set_hostile(rlp_proxy *p, int kind)
{
    if (!p || kind < RLP_HOSTILE_OFF || kind > RLP_HOSTILE_GARBAGE)
        return;
    p->f.hostile = kind;
    if (!kind)
        reset_poisoned(p);
}

void rlp_proxy_set_timeshift(rlp_proxy *p, int seconds)
{
    if (p)
        p->f.timeshift_s = seconds;
}

void rlp_proxy_clear(rlp_proxy *p)
{
    if (!p)
        return;
    memset(&p->f, 0, sizeof p->f);
    reset_poisoned(p);
    repump_all(p);
}

/* *from into out, or zeros when there is no from. */
static void copy_out(void *out, const void *from, size_t n)
{
    if (out && from)
        memcpy(out, from, n);
    else if (out)
        memset(out, 0, n);
}

void rlp_proxy_stats(const rlp_proxy *p, rlp_stats *out)
{
    copy_out(out, p ? &p->st : NULL, sizeof *out);
}

void rlp_proxy_faults(const rlp_proxy *p, rlp_faults *out)
{
    copy_out(out, p ? &p->f : NULL, sizeof *out);
}

void rlp_proxy_free(rlp_proxy *p)
{
    if (!p)
        return;
    while (p->conns)
        conn_free(p->conns, 0);
    free_event(p->ev_accept);
    free_event(p->ev_retry);
    if (p->lfd >= 0)
        close(p->lfd);
    free(p);
}

struct event_base *rlp_base_new(void)
{
    struct event_base *base = NULL;
    struct event_config *cfg = event_config_new();
    if (cfg) {
        event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
        base = event_base_new_with_config(cfg);
        event_config_free(cfg);
    }
    return base ? base : event_base_new();
}

struct word { const char *name; int value; };

static const struct word hostile_words[] = {
    { "off", RLP_HOSTILE_OFF }, { "0", RLP_HOSTILE_OFF }, { "line", RLP_HOSTILE_LINE },
    { "error", RLP_HOSTILE_ERROR }, { "garbage", RLP_HOSTILE_GARBAGE },
};
static const struct word dir_words[] = {
    { "up", RLP_UP }, { "down", RLP_DOWN }, { "both", RLP_BOTH },
};

/* The value of word s (any case) in words[0 .. n-1], or none. */
static int word_value(const struct word *words, size_t n, const char *s, int none)
{
    for (size_t i = 0; s && i < n; i++)
        if (!strcasecmp(s, words[i].name))
            return words[i].value;
    return none;
}

int rlp_parse_hostile(const char *s)
{
    return word_value(hostile_words, sizeof hostile_words / sizeof hostile_words[0], s, -1);
}

const char *rlp_hostile_name(int kind)
{
    for (size_t i = 0; i < sizeof hostile_words / sizeof hostile_words[0]; i++)
        if (hostile_words[i].value == kind)
            return hostile_words[i].name;
    return "off";
}

int rlp_parse_dir(const char *s)
{
    return word_value(dir_words, sizeof dir_words / sizeof dir_words[0], s, 0);
}

/* ---- Thread wrapper --------------------------------------------------- */

struct rlp_thread {
    pthread_t th;
    struct event_base *base;
    rlp_proxy *p;
    int port;
    int wake[2];
    struct event *ev_wake;
    pthread_mutex_t callmu;   /* one call at a time */
    pthread_mutex_t mu;       /* protects the fields below */
    pthread_cond_t cv;
    void (*fn)(rlp_proxy *, void *);
    void *arg;
    unsigned long req, done;
};

static void on_wake(evutil_socket_t fd, short what, void *arg)
{
    rlp_thread *t = arg;
    char buf[64];
    void (*fn)(rlp_proxy *, void *) = NULL;
    void *farg = NULL;
    unsigned long req;
    (void)what;
    while (read(fd, buf, sizeof buf) > 0)
        ;
    pthread_mutex_lock(&t->mu);
    req = t->req;
    if (t->done != req) {
        fn = t->fn;
        farg = t->arg;
    }
    pthread_mutex_unlock(&t->mu);
    if (!fn)
        return;
    fn(t->p, farg);
    pthread_mutex_lock(&t->mu);
    t->done = req;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

static void *thread_main(void *arg)
{
    rlp_thread *t = arg;
    event_base_dispatch(t->base);
    return NULL;
}

/* Everything of t but its thread (not started, or joined). */
static void thread_free(rlp_thread *t)
{
    rlp_proxy_free(t->p);
    free_event(t->ev_wake);
    if (t->wake[0] >= 0)
        close(t->wake[0]);
    if (t->wake[1] >= 0)
        close(t->wake[1]);
    if (t->base)
        event_base_free(t->base);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    pthread_mutex_destroy(&t->callmu);
    free(t);
}

rlp_thread *rlp_thread_start(int listen_port, const char *target_host,
                             int target_port, char *err, size_t errlen)
{
    rlp_thread *t = calloc(1, sizeof *t);
    int rc;
    if (!t) {
        seterr(err, errlen, "out of memory%s", "", 0);
        return NULL;
    }
    t->wake[0] = t->wake[1] = -1;
    pthread_mutex_init(&t->callmu, NULL);
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    if (!(t->base = rlp_base_new())) {
        seterr(err, errlen, "event_base_new failed%s", "", 0);
        goto fail;
    }
    if (!(t->p = rlp_proxy_new(t->base, listen_port, target_host, target_port, err, errlen)))
        goto fail;
    t->port = rlp_proxy_port(t->p);
    if (pipe2(t->wake, O_NONBLOCK | O_CLOEXEC) < 0) {
        seterr(err, errlen, "pipe%s", "", errno);
        goto fail;
    }
    t->ev_wake = event_new(t->base, t->wake[0], EV_READ | EV_PERSIST, on_wake, t);
    if (!t->ev_wake || event_add(t->ev_wake, NULL) < 0) {
        seterr(err, errlen, "event_new failed%s", "", 0);
        goto fail;
    }
    rc = pthread_create(&t->th, NULL, thread_main, t);
    if (rc != 0) {
        seterr(err, errlen, "pthread_create%s", "", rc);
        goto fail;
    }
    return t;
fail:
    thread_free(t);
    return NULL;
}

int rlp_thread_port(const rlp_thread *t) { return t ? t->port : -1; }
rlp_proxy *rlp_thread_proxy(rlp_thread *t) { return t ? t->p : NULL; }

void rlp_thread_call(rlp_thread *t, void (*fn)(rlp_proxy *p, void *arg), void *arg)
{
    unsigned long my;
    ssize_t w;
    if (!t || !fn)
        return;
    if (pthread_equal(pthread_self(), t->th)) {
        fn(t->p, arg);
        return;
    }
    pthread_mutex_lock(&t->callmu);
    pthread_mutex_lock(&t->mu);
    t->fn = fn;
    t->arg = arg;
    my = ++t->req;
    pthread_mutex_unlock(&t->mu);
    do
        w = write(t->wake[1], "x", 1);
    while (w < 0 && errno == EINTR);
    /* w < 0 with EAGAIN means the pipe is full of wake-ups already: fine. */
    pthread_mutex_lock(&t->mu);
    while (t->done != my)
        pthread_cond_wait(&t->cv, &t->mu);
    pthread_mutex_unlock(&t->mu);
    pthread_mutex_unlock(&t->callmu);
}

struct targs { int dir, a, b; long l; rlp_stats *st; void (*set)(rlp_proxy *, int); };

static void c_latency(rlp_proxy *p, void *v) { struct targs *a = v; rlp_proxy_set_latency(p, a->dir, a->a, a->b); }
static void c_bandwidth(rlp_proxy *p, void *v) { struct targs *a = v; rlp_proxy_set_bandwidth(p, a->dir, a->l); }
static void c_set(rlp_proxy *p, void *v) { struct targs *a = v; a->set(p, a->a); }
static void c_reset(rlp_proxy *p, void *v) { (void)v; rlp_proxy_reset_all(p); }
static void c_clear(rlp_proxy *p, void *v) { (void)v; rlp_proxy_clear(p); }
static void c_stats(rlp_proxy *p, void *v) { struct targs *a = v; rlp_proxy_stats(p, a->st); }
static void c_stop(rlp_proxy *p, void *v) { (void)v; event_base_loopbreak(p->base); }

/* set(proxy, v) in the proxy thread. */
static void thread_set(rlp_thread *t, void (*set)(rlp_proxy *, int), int v)
{
    struct targs a = { 0, v, 0, 0, NULL, set };
    rlp_thread_call(t, c_set, &a);
}

void rlp_thread_set_latency(rlp_thread *t, int dir, int delay_ms, int jitter_ms)
{
    struct targs a = { dir, delay_ms, jitter_ms, 0, NULL, NULL };
    rlp_thread_call(t, c_latency, &a);
}

void rlp_thread_set_bandwidth(rlp_thread *t, int dir, long bytes_per_sec)
{
    struct targs a = { dir, 0, 0, bytes_per_sec, NULL, NULL };
    rlp_thread_call(t, c_bandwidth, &a);
}

void rlp_thread_set_blackhole(rlp_thread *t, int on) { thread_set(t, rlp_proxy_set_blackhole, on); }
void rlp_thread_set_halfopen(rlp_thread *t, int on) { thread_set(t, rlp_proxy_set_halfopen, on); }
void rlp_thread_set_pause(rlp_thread *t, int on) { thread_set(t, rlp_proxy_set_pause, on); }
void rlp_thread_set_refuse(rlp_thread *t, int on) { thread_set(t, rlp_proxy_set_refuse, on); }
void rlp_thread_set_setreset(rlp_thread *t, int count) { thread_set(t, rlp_proxy_set_setreset, count); }
void rlp_thread_set_hostile(rlp_thread *t, int kind) { thread_set(t, rlp_proxy_set_hostile, kind); }
void rlp_thread_set_timeshift(rlp_thread *t, int seconds) { thread_set(t, rlp_proxy_set_timeshift, seconds); }
void rlp_thread_reset_all(rlp_thread *t) { rlp_thread_call(t, c_reset, NULL); }
void rlp_thread_clear(rlp_thread *t) { rlp_thread_call(t, c_clear, NULL); }

void rlp_thread_stats(rlp_thread *t, rlp_stats *out)
{
    struct targs a = { 0, 0, 0, 0, out, NULL };
    if (!t) {
        if (out)
            memset(out, 0, sizeof *out);
        return;
    }
    rlp_thread_call(t, c_stats, &a);
}

void rlp_thread_stop(rlp_thread *t)
{
    if (!t)
        return;
    rlp_thread_call(t, c_stop, NULL);
    pthread_join(t->th, NULL);
    thread_free(t);
}
