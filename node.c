/* node.c -- one connection per master: connect, handshake, pipelined
 * requests, replies in order, reconnection with capped back-off.
 *
 *   DOWN ──(back-off timer, or a request once it is due)──▶ CONNECTING
 *   CONNECTING ──(TCP up, AUTH/SELECT/PING answered)──▶ UP
 *   CONNECTING/UP ──(EOF, error, connect timeout, bad reply)──▶ DOWN
 *
 * Requests of every operation share the connection (Redis answers in
 * order), so each node keeps a FIFO ring of the ops waiting for a reply.
 * While CONNECTING, requests queue in the bufferevent's output buffer and
 * leave once the socket is up; while DOWN they fail at once, so a dead node
 * costs nothing.  A hung node (SIGSTOP) holds its requests until each op's
 * own timer gives up on it; the others' replies are read independently.
 *
 * Transport: a libevent bufferevent, so that TLS can later be a
 * bufferevent_openssl in the same place; hiredis only parses replies.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <event2/bufferevent.h>
#include <event2/buffer.h>
#include <hiredis/hiredis.h>
#include "redlock_private.h"

static void read_cb(struct bufferevent *bev, void *arg);
static void event_cb(struct bufferevent *bev, short events, void *arg);
static void retry_cb(evutil_socket_t fd, short what, void *arg);
static void connect_timeout_cb(evutil_socket_t fd, short what, void *arg);
static void stall_cb(evutil_socket_t fd, short what, void *arg);
static void flush_cb(evutil_socket_t fd, short what, void *arg);
static void undo_timer_cb(evutil_socket_t fd, short what, void *arg);

int redlock__node_init(redlock__node *n, redlock_client *c, size_t index)
{
    char label[300];

    n->c = c;
    n->index = index;
    n->state = REDLOCK__NODE_DOWN;
    n->backoff_ms = c->opt.reconnect_min_ms;
    /* events first: redlock__node_close may run after a failure below */
    evtimer_assign(&n->retry_timer, c->base, retry_cb, n);
    evtimer_assign(&n->connect_timer, c->base, connect_timeout_cb, n);
    evtimer_assign(&n->stall_ev, c->base, stall_cb, n);
    evtimer_assign(&n->undo_timer, c->base, undo_timer_cb, n);
    event_assign(&n->flush_ev, c->base, -1, 0, flush_cb, n);
    if (n->addr.path)
        snprintf(label, sizeof label, "unix:%s", n->addr.path);
    else if (strchr(n->addr.host, ':'))
        snprintf(label, sizeof label, "[%s]:%d", n->addr.host, n->addr.port);
    else
        snprintf(label, sizeof label, "%s:%d", n->addr.host, n->addr.port);
    if (!(n->label = strdup(label)))
        return REDLOCK_ENOMEM;
    n->cap = 64;
    if (!(n->slots = malloc(n->cap * sizeof *n->slots)))
        return REDLOCK_ENOMEM;
    return 0;
}

static int slot_grow(redlock__node *n)
{
    if (n->count == n->cap) {
        size_t cap = n->cap * 2;
        redlock__slot *s = malloc(cap * sizeof *s);
        if (!s)
            return REDLOCK_ENOMEM;
        for (size_t i = 0; i < n->count; i++)
            s[i] = n->slots[(n->head + i) % n->cap];
        free(n->slots);
        n->slots = s;
        n->head = 0;
        n->cap = cap;
    }
    return 0;
}

/* A request's slot, in the order the requests go out on the wire. */
static inline int slot_push(redlock__node *n, redlock__op *op, int kind)
{
    if (n->count == n->cap && slot_grow(n) != 0)
        return REDLOCK_ENOMEM;
    n->slots[(n->head + n->count) % n->cap].op = op;
    n->slots[(n->head + n->count) % n->cap].undo = NULL;
    n->slots[(n->head + n->count) % n->cap].kind = kind;
    n->count++;
    if (op)
        op->refs++;
    return 0;
}

/* A slot for a request that goes out before every queued one. */
static int slot_push_front(redlock__node *n, int kind)
{
    if (n->count == n->cap && slot_grow(n) != 0)
        return REDLOCK_ENOMEM;
    n->head = (n->head + n->cap - 1) % n->cap;
    n->slots[n->head].op = NULL;
    n->slots[n->head].undo = NULL;
    n->slots[n->head].kind = kind;
    n->count++;
    return 0;
}

static redlock__slot slot_pop(redlock__node *n)
{
    redlock__slot sl = n->slots[n->head];
    n->head = (n->head + 1) % n->cap;
    n->count--;
    return sl;
}

static void owe(redlock__node *n, struct redlock__owed *o);

/* Tear the connection down and fail everything queued on it. */
static void node_drop(redlock__node *n, const char *why)
{
    redlock_client *c = n->c;
    /* Tell the application when a node goes down, and when a failed
     * reconnection has a new reason; not for every refused retry. */
    int tell = n->state == REDLOCK__NODE_UP || n->attempts <= 1 ||
               strcmp(why, n->told) != 0;
    int64_t retry_at = 0;

    snprintf(n->lasterr, sizeof n->lasterr, "%s", why);
    if (n->bev && n->tcp_up && !n->addr.tls && n->state == REDLOCK__NODE_UP) {
        /* Best effort: hand what is queued (typically the release after a
         * lost attempt, queued behind its SET) to the kernel, which still
         * delivers it after close, instead of dropping it with the buffer.
         * Not for TLS: that buffer is plaintext for OpenSSL to encrypt. */
        struct evbuffer *out = bufferevent_get_output(n->bev);
        size_t len = evbuffer_get_length(out);
        evutil_socket_t fd = bufferevent_getfd(n->bev);
        /* the bufferevent freezes its output's start: read, don't drain */
        unsigned char *p = len ? evbuffer_pullup(out, -1) : NULL;
        /* (Requests leave only once the handshake succeeded: before that
         * `out` holds requests that must never reach the server.) */
        if (p && send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)len)
            n->out.len = 0;     /* best effort: the TTL cleans up the rest */
        if (n->out.len)         /* then what was not even handed over yet */
            (void)send(fd, n->out.p, n->out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    n->out.len = 0;
    n->unflushed = 0;
    n->out_since_us = 0;
    event_del(&n->flush_ev);
    if (n->bev) {
        bufferevent_free(n->bev);
        n->bev = NULL;
    }
    n->tcp_up = 0;
    if (n->reader) {
        redisReaderFree(n->reader);
        n->reader = NULL;
    }
    evtimer_del(&n->connect_timer);
    evtimer_del(&n->stall_ev);
    evtimer_del(&n->undo_timer);    /* owed undos go after the next handshake */
    n->state = REDLOCK__NODE_DOWN;
    n->handshake_left = 0;
    n->timeouts_in_row = 0;
    if (!c->closing) {
        retry_at = redlock__now(c) + n->backoff_ms * 1000;
        redlock__timer_add(c, &n->retry_timer, n->backoff_ms * 1000);
        n->backoff_ms *= 2;
        if (n->backoff_ms > c->opt.reconnect_max_ms)
            n->backoff_ms = c->opt.reconnect_max_ms;
    }
    /* State is DOWN before any op hears of it, so an op started from a
     * callback below fails here at once instead of queueing; and it may not
     * reconnect before this loop has emptied the ring (however long the
     * callbacks take), or the new handshake's slots would be popped too. */
    n->retry_at_us = INT64_MAX;
    while (n->count) {
        redlock__slot sl = slot_pop(n);
        if (sl.op) {
            redlock__op_undelivered(sl.op, n->index);
            redlock__op_fail(sl.op, n->index, REDLOCK__DOWN, n->lasterr);
            redlock__op_unref(sl.op);
        } else if (sl.undo) {
            owe(n, sl.undo);    /* not answered: maybe not run */
        }
    }
    n->retry_at_us = retry_at;
    if (tell && !c->closing) {
        memcpy(n->told, n->lasterr, sizeof n->told);
        redlock__node_event(c, n->index, REDLOCK_NODE_DOWN, n->lasterr);
    }
}

/* Replies are built by our own functions for hiredis's reader: one reply at
 * a time into the node (nothing is allocated unless a string exceeds 128
 * bytes), and arrays are refused.  No command we send is answered with an
 * array, and hiredis 0.14 would allocate whatever element count a reply
 * announces: "*2147483647\r\n" alone asked for 16 GiB.  A refused reply
 * makes the reader report an error, and the connection drops. */
static void *reply_string(const redisReadTask *task, char *str, size_t len)
{
    redlock__node *n = task->privdata;
    char *dst = n->reply_small;

    if (task->parent)
        return NULL;
    if (len >= sizeof n->reply_small) {
        if (!(dst = n->reply_big = malloc(len + 1)))
            return NULL;
    }
    memcpy(dst, str, len);
    dst[len] = '\0';
    n->reply.type = task->type;
    n->reply.str = dst;
    n->reply.len = len;
    return &n->reply;
}

static void *reply_integer(const redisReadTask *task, long long value)
{
    redlock__node *n = task->privdata;
    if (task->parent)
        return NULL;
    n->reply.type = REDIS_REPLY_INTEGER;
    n->reply.integer = value;
    n->reply.str = "";
    n->reply.len = 0;
    return &n->reply;
}

static void *reply_nil(const redisReadTask *task)
{
    redlock__node *n = task->privdata;
    if (task->parent)
        return NULL;
    n->reply.type = REDIS_REPLY_NIL;
    n->reply.str = "";
    n->reply.len = 0;
    return &n->reply;
}

#if HIREDIS_MAJOR >= 1
static void *reply_array(const redisReadTask *task, size_t elements)
#else
static void *reply_array(const redisReadTask *task, int elements)
#endif
{
    redlock__node *n = task->privdata;
    (void)elements;
    n->refused_array = 1;
    return NULL;
}

#if HIREDIS_MAJOR >= 1
/* RESP3 types: never asked for (no HELLO 3), so refused like arrays. */
static void *reply_double(const redisReadTask *task, double d, char *str, size_t len)
{
    (void)d;
    (void)str;
    (void)len;
    return reply_array(task, 0);
}

static void *reply_bool(const redisReadTask *task, int b)
{
    (void)b;
    return reply_array(task, 0);
}
#endif

static void reply_free(void *reply)
{
    (void)reply;    /* the node owns it; see reply_done */
}

static void reply_done(redlock__node *n)
{
    free(n->reply_big);
    n->reply_big = NULL;
}

static redisReader *reader_new(redlock__node *n)
{
    redisReplyObjectFunctions *fn = n->reader_fn;
    redisReader *r;

    if (!fn) {
        if (!(fn = calloc(1, sizeof *fn)))
            return NULL;
        fn->createString = reply_string;
        fn->createArray = reply_array;
        fn->createInteger = reply_integer;
        fn->createNil = reply_nil;
#if HIREDIS_MAJOR >= 1
        fn->createDouble = reply_double;
        fn->createBool = reply_bool;
#endif
        fn->freeObject = reply_free;
        n->reader_fn = fn;
    }
    if (!(r = redisReaderCreateWithFunctions(fn)))
        return NULL;
    r->privdata = n;
    return r;
}

static int resolve(redlock__node *n, struct sockaddr_storage *ss, int *sslen)
{
    struct addrinfo hints, *res = NULL;
    char port[8];
    int rc;

    if (n->addr.path) {
        struct sockaddr_un *un = (struct sockaddr_un *)ss;
        if (strlen(n->addr.path) >= sizeof un->sun_path) {
            snprintf(n->lasterr, sizeof n->lasterr, "unix socket path too long");
            return -1;
        }
        memset(un, 0, sizeof *un);
        un->sun_family = AF_UNIX;
        strcpy(un->sun_path, n->addr.path);
        *sslen = (int)sizeof *un;
        return 0;
    }
    /* Blocking for a host name: documented; numeric addresses never block. */
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof port, "%d", n->addr.port);
    rc = getaddrinfo(n->addr.host, port, &hints, &res);
    if (rc != 0 || !res) {
        snprintf(n->lasterr, sizeof n->lasterr, "cannot resolve host: %s", gai_strerror(rc));
        if (res)
            freeaddrinfo(res);
        return -1;
    }
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *sslen = (int)res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static void wipe_buf(const void *data, size_t len, void *cap)
{
    volatile char *p = (volatile char *)(uintptr_t)data;
    (void)len;
    for (size_t i = 0; p && i < (size_t)(uintptr_t)cap; i++)
        p[i] = 0;
    free((void *)(uintptr_t)data);
}

static int queue_handshake(redlock__node *n)
{
    redlock__buf b = { 0 };
    int rc = 0, cmds = 0;

    if (n->addr.password) {
        const char *argv[3] = { "AUTH", n->addr.user, n->addr.password };
        size_t len[3] = { 4, n->addr.user ? strlen(n->addr.user) : 0, strlen(n->addr.password) };
        if (!n->addr.user) {
            argv[1] = argv[2];
            len[1] = len[2];
        }
        rc |= redlock__resp_command(&b, n->addr.user ? 3 : 2, argv, len);
        cmds++;
    }
    if (n->addr.db >= 0) {
        char db[16];
        const char *argv[2] = { "SELECT", db };
        size_t len[2] = { 6, (size_t)snprintf(db, sizeof db, "%d", n->addr.db) };
        rc |= redlock__resp_command(&b, 2, argv, len);
        cmds++;
    }
    {
        const char *argv[1] = { "PING" };
        size_t len[1] = { 4 };
        rc |= redlock__resp_command(&b, 1, argv, len);
        cmds++;
    }
    for (int i = 0; i < cmds && rc == 0; i++)
        rc = slot_push(n, NULL, REDLOCK__SLOT_HANDSHAKE);
    {
        /* Who the server thinks we are (id, address): to kill this
         * connection from the next one if it is lost with a SET in it.
         * Optional: Redis < 6.2 or an ACL user may refuse it. */
        const char *argv[2] = { "CLIENT", "INFO" };
        size_t len[2] = { 6, 4 };
        rc |= redlock__resp_command(&b, 2, argv, len);
        rc |= slot_push(n, NULL, REDLOCK__SLOT_CLIENT_ID);
        cmds++;
    }
    /* Load the scripts now so the first EVALSHA finds them; optional,
     * because an ACL user may lack SCRIPT (EVAL then loads on NOSCRIPT). */
    for (int i = 0; i < REDLOCK__NSCRIPTS && rc == 0; i++) {
        const char *argv[3] = { "SCRIPT", "LOAD", redlock__script_body[i] };
        size_t len[3] = { 6, 4, strlen(redlock__script_body[i]) };
        rc |= redlock__resp_command(&b, 3, argv, len);
        rc |= slot_push(n, NULL, REDLOCK__SLOT_OPTIONAL);
        cmds++;
    }
    n->handshake_left = (unsigned)cmds;   /* UP once the last one answers */
    /* The buffer holds the password: libevent sends it from our memory
     * (no copy) and wipe_buf clears it once it has been written. */
    if (rc == 0 && evbuffer_add_reference(bufferevent_get_output(n->bev), b.p, b.len,
                                          wipe_buf, (void *)(uintptr_t)b.cap) == 0)
        return 0;
    wipe_buf(b.p, b.len, (void *)(uintptr_t)b.cap);
    return REDLOCK_ENOMEM;
}

void redlock__node_connect(redlock__node *n)
{
    redlock_client *c = n->c;
    struct sockaddr_storage ss;
    int sslen = 0;

    if (n->state != REDLOCK__NODE_DOWN || c->closing)
        return;
    n->attempts++;
    n->gen++;
    if (n->gen == 0)        /* 0 means "never sent" */
        n->gen = 1;
    evtimer_del(&n->retry_timer);
    if (resolve(n, &ss, &sslen) != 0) {
        char why[sizeof n->lasterr];
        memcpy(why, n->lasterr, sizeof why);
        node_drop(n, why);
        return;
    }
    n->bev = n->addr.tls ? redlock__tls_bev_new(n)
                         : bufferevent_socket_new(c->base, -1, BEV_OPT_CLOSE_ON_FREE);
    n->reader = reader_new(n);
    if (!n->bev || !n->reader) {
        node_drop(n, n->addr.tls ? "TLS: cannot set up the connection" : "out of memory");
        return;
    }
    n->state = REDLOCK__NODE_CONNECTING;
    bufferevent_setcb(n->bev, read_cb, NULL, event_cb, n);
    bufferevent_enable(n->bev, EV_READ | EV_WRITE);
    if (bufferevent_socket_connect(n->bev, (struct sockaddr *)&ss, sslen) != 0) {
        char why[sizeof n->lasterr];
        snprintf(why, sizeof why, "connect: %s", strerror(errno));
        node_drop(n, why);
        return;
    }
    if (!n->addr.path) {
        int one = 1;
        evutil_socket_t fd = bufferevent_getfd(n->bev);
        /* keep-alive probes notice a vanished host on an idle connection
         * (after about 10 + 3 x 5 s); busy ones notice by max_timeouts */
        int idle = 10, intvl = 5, cnt = 3;
        if (fd >= 0) {
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
            setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
            setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
            setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
        }
    }
    if (queue_handshake(n) != 0) {
        node_drop(n, "out of memory");
        return;
    }
    redlock__timer_add(c, &n->connect_timer, c->opt.connect_timeout_ms * 1000);
}

/* `out` grew from `before` bytes by requests whose slots were just pushed:
 * they leave with this turn's other requests. */
static inline void out_grew(redlock__node *n, size_t before, size_t slots)
{
    n->unflushed += slots;
    if (before == 0 && n->state == REDLOCK__NODE_UP)
        event_active(&n->flush_ev, EV_WRITE, 1);
}

/* Queue bytes (room reserved) as one request; its slot was just pushed. */
static inline void append_out(redlock__node *n, const char *buf, size_t len)
{
    size_t before = n->out.len;
    memcpy(n->out.p + n->out.len, buf, len);
    n->out.len += len;
    out_grew(n, before, 1);
}

/* What we know of connection `gen`: id 0 when nothing. */
static redlock__conn_ref conn_ref(const redlock__node *n, uint32_t gen)
{
    redlock__conn_ref none = { gen, 0, "" };
    for (unsigned i = 0; i < REDLOCK__CONN_HISTORY; i++)
        if (n->hist[i].gen == gen && n->hist[i].id > 0)
            return n->hist[i];
    return none;
}

/* May we kill connection `old` from the current one?  Only over TCP, where
 * ADDR (our ip:port as the server saw it) tells connections apart (over a
 * unix socket every client has the same address), and only when the current
 * connection's id is higher: ids grow within one server process, and a
 * server that restarted lost the old connection anyway, while its new ids
 * could name someone else's. */
static int may_kill(const redlock__node *n, const redlock__conn_ref *old)
{
    redlock__conn_ref cur = conn_ref(n, n->gen);
    return !n->addr.path && old->id > 0 && old->addr[0] && cur.id > old->id;
}

/* CLIENT KILL ID <id> ADDR <addr>: both filters must match. */
static int encode_kill(redlock__buf *b, const redlock__conn_ref *r)
{
    char id[24];
    const char *argv[6] = { "CLIENT", "KILL", "ID", id, "ADDR", r->addr };
    size_t len[6] = { 6, 4, 2, redlock__u64_str(id, (uint64_t)r->id), 4, strlen(r->addr) };
    return redlock__resp_command(b, 6, argv, len);
}

static int encode_undo(redlock__buf *b, const redlock__owed *o)
{
    /* EVAL, not EVALSHA: its reply is ignored, so a NOSCRIPT could not be
     * answered by a resend */
    const char *body = redlock__script_body[REDLOCK__SCRIPT_RELEASE];
    const char *argv[5] = { "EVAL", body, "1", o->kv, o->kv + o->keylen };
    size_t len[5] = { 4, strlen(body), 1, o->keylen, o->valuelen };
    return redlock__resp_command(b, 5, argv, len);
}

static void owed_release(redlock__owed *o)
{
    free(o);
}

/* Kill connection `gen` on the server (if allowed, see may_kill) before
 * what is queued next. */
static void push_kill(redlock__node *n, uint32_t gen)
{
    redlock__conn_ref old = conn_ref(n, gen);
    size_t before = n->out.len;

    if (!may_kill(n, &old))
        return;
    if (encode_kill(&n->out, &old) != 0 || slot_push(n, NULL, REDLOCK__SLOT_OPTIONAL) != 0) {
        n->out.len = before;    /* out of memory: no kill */
        return;
    }
    out_grew(n, before, 1);
}

/* Keep an undo for the next connection.  Bounded by max_pending: past it
 * the oldest is forgotten and its key expires with its ttl. */
static void owe(redlock__node *n, redlock__owed *o)
{
    if (n->c->closing) {
        owed_release(o);
        return;
    }
    if (n->nowed >= n->c->opt.max_pending) {
        owed_release(n->owed[0]);
        memmove(n->owed, n->owed + 1, (n->nowed - 1) * sizeof *n->owed);
        n->nowed--;
    }
    if (n->nowed == n->owed_cap) {
        size_t cap = n->owed_cap ? n->owed_cap * 2 : 8;
        redlock__owed **p = realloc(n->owed, cap * sizeof *p);
        if (!p) {
            owed_release(o);
            return;
        }
        n->owed = p;
        n->owed_cap = cap;
    }
    n->owed[n->nowed++] = o;
}

/* Queue an undo (its slot owns it) behind what is queued, after a kill of
 * the SET's connection when that is not this one. */
static void queue_undo(redlock__node *n, redlock__owed *o)
{
    redlock__conn_ref old = conn_ref(n, o->set_gen);
    int kill = o->set_gen != n->gen && may_kill(n, &old);
    size_t before = n->out.len, count = n->count;

    /* encoded straight into `out`; on failure both are taken back */
    if ((kill && (encode_kill(&n->out, &old) != 0 ||
                  slot_push(n, NULL, REDLOCK__SLOT_OPTIONAL) != 0)) ||
        encode_undo(&n->out, o) != 0 || slot_push(n, NULL, REDLOCK__SLOT_UNDO) != 0) {
        n->out.len = before;
        n->count = count;       /* the newest slots are ours */
        owed_release(o);        /* out of memory: the key expires with its ttl */
        return;
    }
    n->slots[(n->head + n->count - 1) % n->cap].undo = o;
    out_grew(n, before, (size_t)kill + 1);
}

void redlock__node_undo(redlock__node *n, uint32_t gen, const char *key, size_t keylen,
                        const char *value, size_t valuelen)
{
    redlock__owed *o = malloc(sizeof *o + keylen + valuelen);

    if (!o)
        return;     /* out of memory: the key expires with its ttl */
    o->tries = 0;
    memcpy(o->kv, key, keylen);
    memcpy(o->kv + keylen, value, valuelen);
    o->keylen = keylen;
    o->valuelen = valuelen;
    o->set_gen = gen;
    /* Behind the SET on its own connection (up, or still waiting for its
     * first handshake with the SET queued in it); after a kill of the SET's
     * connection on another one that is up; else owed until the next. */
    if (n->state == REDLOCK__NODE_UP ||
        (n->state == REDLOCK__NODE_CONNECTING && gen == n->gen))
        queue_undo(n, o);
    else
        owe(n, o);
}

/* An undo's reply.  An error means the delete did not run: BUSY (a long
 * script), LOADING, OOM, MISCONF... all pass, so it is tried again after a
 * back-off (100 ms doubling to 1 s, UNDO_TRIES times: about half a minute),
 * unless the error can only repeat. */
#define UNDO_TRIES 30

static void undo_answered(redlock__node *n, redlock__owed *o, const redlock__reply *r)
{
    int64_t delay_ms;

    if (r->type != REDIS_REPLY_ERROR || o->tries >= UNDO_TRIES ||
        (r->len >= 6 && memcmp(r->str, "NOPERM", 6) == 0) ||
        (r->len >= 9 && memcmp(r->str, "WRONGTYPE", 9) == 0)) {
        owed_release(o);
        return;
    }
    delay_ms = o->tries < 4 ? 100 << o->tries : 1000;
    o->tries++;
    owe(n, o);
    if (!evtimer_pending(&n->undo_timer, NULL))
        redlock__timer_add(n->c, &n->undo_timer, delay_ms * 1000);
}

/* Owed undos of a node that stayed up (they were refused with an error):
 * queue them again.  A node that went down sends them after its handshake. */
static void undo_timer_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__node *n = arg;
    size_t nowed = n->nowed;
    (void)fd;
    (void)what;

    if (n->state != REDLOCK__NODE_UP || n->c->closing)
        return;
    n->nowed = 0;       /* each moves to a slot (or is freed: out of memory) */
    for (size_t i = 0; i < nowed; i++) {
        redlock__owed *o = n->owed[i];
        n->owed[i] = NULL;
        queue_undo(n, o);
    }
}

static void owed_free(redlock__node *n)
{
    for (size_t i = 0; i < n->nowed; i++)
        owed_release(n->owed[i]);
    free(n->owed);
    n->owed = NULL;
    n->nowed = n->owed_cap = 0;
}

/* The handshake succeeded: the owed undos go first (each behind the kill of
 * the connection its SET used), then the requests that waited.  Each stays
 * owned by its slot, so it is owed again if this connection is lost too. */
static void send_owed(redlock__node *n)
{
    redlock__buf b = { 0 };
    size_t k = 0, nowed = n->nowed;
    int rc = 0;

    if (!nowed)
        return;
    /* the waiting requests' slots are already queued: these go before them,
     * so they are pushed to the front from the last one */
    for (size_t i = nowed; i-- > 0 && rc == 0;) {
        redlock__owed *o = n->owed[i];
        redlock__conn_ref old = conn_ref(n, o->set_gen);
        rc = slot_push_front(n, REDLOCK__SLOT_UNDO);
        if (rc == 0) {
            n->slots[n->head].undo = o;
            n->owed[i] = NULL;
            k++;
        }
        if (rc == 0 && may_kill(n, &old) &&
            (i == 0 || n->owed[i - 1]->set_gen != o->set_gen)) {
            rc = slot_push_front(n, REDLOCK__SLOT_OPTIONAL);
            k += rc == 0;
        }
    }
    /* encode in wire order: the slots from the front */
    for (size_t i = 0; i < k && rc == 0; i++) {
        const redlock__slot *sl = &n->slots[(n->head + i) % n->cap];
        if (sl->kind == REDLOCK__SLOT_UNDO) {
            rc = encode_undo(&b, sl->undo);
        } else {
            redlock__conn_ref old = conn_ref(n, n->slots[(n->head + i + 1) % n->cap].undo->set_gen);
            rc = encode_kill(&b, &old);
        }
    }
    if (rc != 0 || (k && bufferevent_write(n->bev, b.p, b.len) != 0)) {
        /* out of memory: take the slots back; their keys expire with the ttl */
        for (size_t i = 0; i < k; i++) {
            redlock__slot *sl = &n->slots[n->head];
            if (sl->kind == REDLOCK__SLOT_UNDO)
                owed_release(sl->undo);
            slot_pop(n);
        }
    }
    redlock__buf_free(&b);
    for (size_t i = 0; i < nowed; i++)
        owed_release(n->owed[i]);   /* those not moved (out of memory) */
    n->nowed = 0;
}

/* "id=7 addr=127.0.0.1:5000 laddr=..." from CLIENT INFO */
static void parse_client_info(redlock__node *n, const char *s, size_t len)
{
    redlock__conn_ref *r = &n->hist[n->hist_next];
    long long id = 0;
    const char *p = s, *end = s + len, *a;
    size_t alen;

    if (len < 3 || memcmp(s, "id=", 3) != 0)
        return;
    for (p = s + 3; p < end && *p >= '0' && *p <= '9' && id < (INT64_MAX - 9) / 10; p++)
        id = id * 10 + (*p - '0');
    for (a = p; a + 6 <= end && memcmp(a, " addr=", 6) != 0; a++)
        ;
    if (id <= 0 || a + 6 > end)
        return;
    a += 6;
    for (alen = 0; a + alen < end && a[alen] != ' ' && alen < sizeof r->addr - 1; alen++)
        ;
    r->gen = n->gen;
    r->id = id;
    memcpy(r->addr, a, alen);
    r->addr[alen] = '\0';
    n->hist_next = (n->hist_next + 1) % REDLOCK__CONN_HISTORY;
}

void redlock__node_send(redlock__node *n, redlock__op *op, const char *buf, size_t len)
{
    redlock_client *c = n->c;

    if (n->state == REDLOCK__NODE_DOWN && redlock__now(c) >= n->retry_at_us)
        redlock__node_connect(n);   /* due anyway: don't wait for the timer */
    /* Requests wait for a connection only on the client's first attempt
     * (so that a program may create a client and lock at once); a node
     * that is reconnecting after a failure may well be hung or gone, and
     * waiting for it would cost every operation the node timeout. */
    if (n->state == REDLOCK__NODE_DOWN ||
        (n->state == REDLOCK__NODE_CONNECTING && n->attempts > 1)) {
        redlock__op_undelivered(op, n->index);
        redlock__op_fail(op, n->index, REDLOCK__DOWN,
                         n->lasterr[0] ? n->lasterr : "not connected");
        return;
    }
    /* A release is never refused: it undoes or ends a lock, and refusing
     * it would leave the key for its whole ttl. */
    if (n->count >= c->opt.max_pending && !op->kind->is_release) {
        char why[64];
        snprintf(why, sizeof why, "request queue full (max_pending %zu)", c->opt.max_pending);
        redlock__op_fail(op, n->index, REDLOCK__FULL, why);
        return;
    }
    if (op->kind->is_release) {
        /* Releasing a SET that left on an earlier connection: kill that one
         * on the server first, so nothing still queued in it can run after
         * the release. */
        if (op->gen[n->index] && op->gen[n->index] != n->gen && n->state == REDLOCK__NODE_UP)
            push_kill(n, op->gen[n->index]);    /* (its reply is ignored) */
    } else {
        op->gen[n->index] = n->gen;
    }
    n->stats.requests++;
    if (slot_push(n, op, REDLOCK__SLOT_OP) != 0) {
        redlock__op_fail(op, n->index, REDLOCK__ERROR, "out of memory");
        return;
    }
    if (redlock__buf_reserve(&n->out, len) != 0) {
        /* undo the push: it is the newest slot */
        n->count--;
        op->refs--;
        redlock__op_fail(op, n->index, REDLOCK__ERROR, "out of memory");
        return;
    }
    /* Requests made in one turn of the loop leave together, once, after the
     * callbacks that made them: one write per node per turn. */
    if (!n->out_since_us)
        n->out_since_us = op->start_us;
    append_out(n, buf, len);
}

/* A request that leaves this long after its op started left late: a
 * quarter of the node timeout, at least 1 ms (a loaded machine delays every
 * write by a little; only a long hold of the loop matters here). */
static int64_t late_us(const redlock_client *c)
{
    int64_t q = c->opt.node_timeout_ms * 250;
    return q > 1000 ? q : 1000;
}

static void flush_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__node *n = arg;
    size_t off = 0;
    (void)fd;
    (void)what;

    /* Nothing leaves before the handshake succeeded (it may yet fail, e.g.
     * SELECT of a database the server lacks: the requests would then run
     * in the wrong one). */
    if (!n->bev || !n->out.len || n->state != REDLOCK__NODE_UP)
        return;
    if (n->out_since_us && redlock__now(n->c) - n->out_since_us > late_us(n->c)) {
        /* These requests leave late: the application held the loop after
         * starting them (or they waited for the handshake).  Their op's
         * timer may fire before a reply could come back; that is no sign
         * that this node hangs. */
        for (size_t i = n->count - (n->unflushed < n->count ? n->unflushed : n->count);
             i < n->count; i++) {
            redlock__op *op = n->slots[(n->head + i) % n->cap].op;
            if (op)
                op->late[n->index] = 1;
        }
    }
    n->unflushed = 0;
    n->out_since_us = 0;
    /* Plain TCP with nothing queued in the bufferevent: write straight to
     * the socket, saving a loop turn; what does not fit (or fails: the
     * bufferevent then sees the error itself) goes to the bufferevent. */
    if (n->tcp_up && !n->addr.tls && evbuffer_get_length(bufferevent_get_output(n->bev)) == 0) {
        ssize_t w = send(bufferevent_getfd(n->bev), n->out.p, n->out.len,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0)
            off = (size_t)w;
    }
    if (off < n->out.len && bufferevent_write(n->bev, n->out.p + off, n->out.len - off) != 0) {
        redlock__enter(n->c);
        node_drop(n, "out of memory");
        redlock__leave(n->c);
        return;
    }
    n->out.len = 0;
}

static void dispatch(redlock__node *n, const redlock__reply *r)
{
    redlock__slot sl;
    int kind;

    if (n->count == 0) {
        node_drop(n, "protocol error: reply without a request");
        return;
    }
    sl = slot_pop(n);
    kind = sl.kind;
    n->timeouts_in_row = 0;     /* alive, even if late */
    if (sl.op) {
        redlock__op_reply(sl.op, n->index, r);
        redlock__op_unref(sl.op);
        return;
    }
    if (sl.undo) {
        undo_answered(n, sl.undo, r);
        return;
    }
    if (n->state == REDLOCK__NODE_UP)
        return;     /* a kill's reply: nothing to do */
    /* a handshake reply */
    if (kind == REDLOCK__SLOT_CLIENT_ID && r->type == REDIS_REPLY_STRING)
        parse_client_info(n, r->str, r->len);
    if (r->type == REDIS_REPLY_ERROR && kind == REDLOCK__SLOT_HANDSHAKE) {
        char why[sizeof n->lasterr];
        /* AUTH errors never echo the password; keep the server's words. */
        snprintf(why, sizeof why, "handshake failed: %.*s",
                 (int)(r->len < 120 ? r->len : 120), r->str);
        node_drop(n, why);
        return;
    }
    if (--n->handshake_left == 0) {
        send_owed(n);
        n->state = REDLOCK__NODE_UP;
        if (n->out.len)         /* the requests that waited for this */
            event_active(&n->flush_ev, EV_WRITE, 1);
        n->backoff_ms = n->c->opt.reconnect_min_ms;
        n->lasterr[0] = '\0';
        n->stats.connects++;
        n->told[0] = '\0';
        evtimer_del(&n->connect_timer);
        redlock__node_event(n->c, n->index, REDLOCK_NODE_UP, "connected");
    }
}

/* Replies we expect are a few bytes (+OK, :1, $-1, a 40-byte SHA, a short
 * error, a CLIENT INFO line); a longer unfinished one is a broken or
 * hostile server.  Without a bound it would grow without end and, because
 * the reader looks for the end of a line from its start each time, cost
 * time that grows with its square. */
#define REPLY_MAX 65536
#define FEED_CHUNK 16384

/* Hand complete replies to their requests; 0 when the connection is gone. */
static int take_replies(redlock__node *n, struct bufferevent *bev)
{
    redlock_client *c = n->c;

    for (;;) {
        void *reply = NULL;
        if (redisReaderGetReply(n->reader, &reply) != REDIS_OK) {
            char why[sizeof n->lasterr];
            snprintf(why, sizeof why, "protocol error: %s",
                     n->refused_array ? "unexpected array or RESP3 reply" : n->reader->errstr);
            n->refused_array = 0;
            node_drop(n, why);
            return 0;
        }
        if (!reply)
            return 1;
        dispatch(n, reply);
        reply_done(n);
        /* a callback may have dropped this connection or freed the client */
        if (n->bev != bev || c->closing)
            return 0;
    }
}

static void read_cb(struct bufferevent *bev, void *arg)
{
    redlock__node *n = arg;
    redlock_client *c = n->c;
    struct evbuffer *in = bufferevent_get_input(bev);
    struct evbuffer_iovec v;

    redlock__enter(c);
    /* In bounded chunks, each parsed before the next is fed, so that an
     * endless reply is caught after REPLY_MAX bytes, not after everything
     * that arrived. */
    while (evbuffer_peek(in, -1, NULL, &v, 1) > 0) {
        size_t len = v.iov_len < FEED_CHUNK ? v.iov_len : FEED_CHUNK;
        redisReaderFeed(n->reader, v.iov_base, len);
        evbuffer_drain(in, len);
        if (!take_replies(n, bev))
            break;
        if (n->reader->len - n->reader->pos > REPLY_MAX) {
            char why[sizeof n->lasterr];
            snprintf(why, sizeof why, "protocol error: a reply longer than %d bytes", REPLY_MAX);
            node_drop(n, why);
            break;
        }
    }
    redlock__leave(c);
}

static void event_cb(struct bufferevent *bev, short events, void *arg)
{
    redlock__node *n = arg;
    redlock_client *c = n->c;
    char why[sizeof n->lasterr];

    if (events & BEV_EVENT_CONNECTED) {
        n->tcp_up = 1;
        return;     /* the handshake's replies will say when we are UP */
    }
    redlock__enter(c);
    if (n->addr.tls && redlock__tls_describe(bev, why, sizeof why))
        ;   /* a certificate or handshake problem, described */
    else if (events & BEV_EVENT_EOF)
        snprintf(why, sizeof why, "connection closed by the server");
    else
        snprintf(why, sizeof why, "connection error: %s",
                 evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
    node_drop(n, why);
    redlock__leave(c);
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__node *n = arg;
    (void)fd;
    (void)what;
    redlock__enter(n->c);
    redlock__node_connect(n);
    redlock__leave(n->c);
}

static void connect_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__node *n = arg;
    (void)fd;
    (void)what;
    redlock__enter(n->c);
    node_drop(n, "connect timed out");
    redlock__leave(n->c);
}

/* Counted per timed-out request; the drop itself runs from the loop, never
 * inside the op that timed out. */
void redlock__node_timed_out(redlock__node *n)
{
    int max = n->c->opt.max_timeouts;

    if (max > 0 && ++n->timeouts_in_row >= max && n->state != REDLOCK__NODE_DOWN &&
        !n->c->closing)
        event_active(&n->stall_ev, EV_TIMEOUT, 1);
}

static void stall_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__node *n = arg;
    char why[sizeof n->lasterr];
    (void)fd;
    (void)what;
    if (n->state == REDLOCK__NODE_DOWN || n->timeouts_in_row < n->c->opt.max_timeouts)
        return;
    redlock__enter(n->c);
    snprintf(why, sizeof why, "not answering: %d requests in a row timed out", n->timeouts_in_row);
    node_drop(n, why);
    redlock__leave(n->c);
}

void redlock__node_close(redlock__node *n)
{
    if (!n->c)
        return;
    /* the client is closing: node_drop deletes every event but this one
     * and arms no new retry */
    evtimer_del(&n->retry_timer);
    node_drop(n, "client freed");
    redlock__buf_free(&n->out);
    free(n->slots);
    owed_free(n);
    free(n->reader_fn);
    reply_done(n);
    free(n->label);
    redlock__addr_free(&n->addr);
    n->slots = NULL;
    n->c = NULL;
}
