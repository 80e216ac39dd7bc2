/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* master.c -- one master: its connection (and a second one on demand, for
 * work that must not queue behind the lock requests), what it is owed, what
 * we know of it (connection ids for undos, its clock, counters).
 *
 * Undos.  A write (a SET that may have taken a key) is undone by a command
 * the operation's kind encoded.  The undo must reach the server after the
 * write, never before it and never not at all:
 *   - on the write's own connection it simply queues behind it;
 *   - on a newer connection, the old one may still hold the write unread
 *     (a slow server): `CLIENT KILL ID <id> ADDR <ip:port>` of the old
 *     connection goes first (the server then never runs what was queued in
 *     it), then the undo;
 *   - while the master is down, the undo is owed and goes right after the
 *     next handshake.
 * An undo answered with an error (BUSY, LOADING, OOM...) is tried again;
 * on a cluster's master, a MOVED or ASK goes to cluster/ first, which
 * sends the undo on (undo_redirect).
 *
 * The handshake adds the master's own steps after the connection's AUTH,
 * SELECT and PING: CLIENT INFO (who the server thinks we are, for the kill
 * above), TIME (a first clock sample), the guards' INFO and CONFIG GET
 * (guard.c) and SCRIPT LOAD of every script.  The clock samples and what
 * they tell are guard.c's too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/master.h"

static int master_hello(void *owner, redlock__conn *cn);
static void master_up(void *owner, redlock__conn *cn);
static void master_down(void *owner, redlock__conn *cn, const char *why, int tell);
static void undo_timer_cb(evutil_socket_t fd, short what, void *arg);
static void undo_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why);

int redlock__master_init(redlock__master *m, const redlock__net *net, size_t index,
                         const char *address, char *err, size_t errlen)
{
    redlock__addr a;
    int rc;

    m->net = net;
    m->index = m->same_as = index;
    evtimer_assign(&m->undo_timer, net->loop->base, undo_timer_cb, m);
    redlock__guard_init(m);
    if ((rc = redlock__addr_parse(&a, address, err, errlen)) != 0)
        return rc;
    if ((rc = redlock__master_init_at(m, net, index, &a)) != 0 && err && errlen)
        snprintf(err, errlen, "out of memory");
    return rc;
}

int redlock__master_init_at(redlock__master *m, const redlock__net *net, size_t index,
                            redlock__addr *a)
{
    redlock__conn_owner own = { master_hello, master_up, master_down, m, NULL,
                                redlock__guard_flushing };
    char label[300];

    if (!m->net) {      /* not through redlock__master_init */
        m->net = net;
        m->index = m->same_as = index;
        evtimer_assign(&m->undo_timer, net->loop->base, undo_timer_cb, m);
        redlock__guard_init(m);
    }
    m->stats.last_rtt_us = -1;
    m->addr = *a;
    if (m->addr.path)
        snprintf(label, sizeof label, "unix:%s", m->addr.path);
    else if (strchr(m->addr.host, ':'))
        snprintf(label, sizeof label, "[%s]:%d", m->addr.host, m->addr.port);
    else
        snprintf(label, sizeof label, "%s:%d", m->addr.host, m->addr.port);
    if (!(m->label = strdup(label)))
        return REDLOCK_ENOMEM;
    redlock__conn_init(&m->conn, net, &m->addr, m->label, &own);
    m->conn.window = REDLOCK__WINDOW;
    return 0;
}

void redlock__master_moot(redlock__master *m, int counted, int voted)
{
    if (counted) {
        m->stats.dropped++;
        m->stats.requests -= !voted;
    }
    redlock__conn_moot(&m->conn);
}

void redlock__master_kick(redlock__master *m)
{
    redlock__conn_kick(&m->conn);
}

int redlock__master_up(const redlock__master *m)
{
    return m->conn.state == REDLOCK__CONN_UP;
}

/* ---- connection ids and kills ------------------------------------------ */

/* The history's entry of connection `gen` (its id known), or NULL. */
static redlock__conn_ref *hist_of(redlock__master *m, uint32_t gen)
{
    for (unsigned i = 0; i < REDLOCK__CONN_HISTORY; i++)
        if (m->hist[i].gen == gen && m->hist[i].id > 0)
            return &m->hist[i];
    return NULL;
}

/* May we kill connection `old` from the current one?  Only over TCP, where
 * ADDR (our ip:port as the server saw it) tells connections apart (over a
 * unix socket every client has the same address), and only when the current
 * connection's id is higher: ids grow within one server process, and a
 * server that restarted lost the old connection anyway, while its new ids
 * could name someone else's. */
static int may_kill(redlock__master *m, const redlock__conn_ref *old)
{
    const redlock__conn_ref *cur = hist_of(m, m->conn.gen);
    return !m->addr.path && old->id > 0 && old->addr[0] && cur && cur->id > old->id;
}

/* CLIENT KILL ID <id> ADDR <addr>: both filters must match. */
static int encode_kill(redlock__buf *b, const redlock__conn_ref *r)
{
    char id[24];
    const char *argv[6] = { "CLIENT", "KILL", "ID", id, "ADDR", r->addr };
    size_t len[6] = { 6, 4, 2, redlock__u64_str(id, (uint64_t)r->id), 4, strlen(r->addr) };
    return redlock__resp_command(b, 6, argv, len);
}

/* A kill's reply, any (an error: it cannot be done, no use trying again):
 * nothing more runs on that connection.  None (this connection was lost
 * too): it may not have run, the next connection kills it. */
static void kill_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__master *m = privdata;
    redlock__conn_ref *h = hist_of(m, (uint32_t)tag);
    (void)why;

    if (h && h->kill == REDLOCK__KILL_SENT)
        h->kill = r ? REDLOCK__KILL_DONE : REDLOCK__KILL_OWED;
}

static redlock__slot kill_slot(redlock__master *m, uint32_t gen)
{
    redlock__slot sl = { kill_reply, m, 0, NULL, 0, 0 };
    sl.tag = gen;
    return sl;
}

int redlock__master_kill_first(redlock__master *m, uint32_t gen)
{
    redlock__conn_ref *h = hist_of(m, gen);
    redlock__slot sl = kill_slot(m, gen);
    redlock__buf b = { 0 };
    int rc;

    if (!h || h->kill == REDLOCK__KILL_SENT || h->kill == REDLOCK__KILL_DONE ||
        !may_kill(m, h) || REDLOCK__MUTANT(NO_KILL) || encode_kill(&b, h) != 0) {
        redlock__buf_free(&b);
        return 0;
    }
    rc = redlock__conn_send(&m->conn, b.p, b.len, NULL, 0, &sl, 0);
    redlock__buf_free(&b);
    if (rc == 0)
        h->kill = REDLOCK__KILL_SENT;
    return rc == 0;
}

/* "id=7 addr=127.0.0.1:5000 laddr=..." from CLIENT INFO */
static void parse_client_info(redlock__master *m, const char *s, size_t len)
{
    redlock__conn_ref *r = &m->hist[m->hist_next];
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
    r->gen = m->conn.gen;
    r->id = id;
    r->kill = REDLOCK__KILL_NONE;
    memcpy(r->addr, a, alen);
    r->addr[alen] = '\0';
    m->hist_next = (m->hist_next + 1) % REDLOCK__CONN_HISTORY;
}

/* ---- undos --------------------------------------------------------------- */

/* Keep an undo for later.  Bounded by max_pending: past it the oldest is
 * forgotten and its key expires with its ttl. */
static void owe(redlock__master *m, redlock__owed *o)
{
    if (m->net->loop->closing) {
        free(o);
        return;
    }
    if (m->nowed >= m->net->max_pending) {
        free(m->owed[0]);
        memmove(m->owed, m->owed + 1, (m->nowed - 1) * sizeof *m->owed);
        m->nowed--;
    }
    if (m->nowed == m->owed_cap) {
        size_t cap = m->owed_cap ? m->owed_cap * 2 : 8;
        redlock__owed **p = realloc(m->owed, cap * sizeof *p);
        if (!p) {
            free(o);
            return;
        }
        m->owed = p;
        m->owed_cap = cap;
    }
    m->owed[m->nowed++] = o;
}

static redlock__slot undo_slot(redlock__master *m, redlock__owed *o)
{
    redlock__slot sl = { undo_reply, m, 0, NULL, 0, 0 };
    sl.tag = (size_t)(uintptr_t)o;
    return sl;
}

/* ASKING, right before an undo that follows an ASK (a cluster's master
 * importing the slot runs it then); its +OK is nobody's. */
static const char asking[] = "*1\r\n$6\r\nASKING\r\n";

static void asking_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    (void)privdata;
    (void)tag;
    (void)r;
    (void)why;
}

static const redlock__slot asking_slot = { asking_reply, NULL, 0, NULL, 0, 0 };

/* o's bytes (ASKING first when it asks) at the end of b: 0 or ENOMEM. */
static int undo_bytes(redlock__buf *b, const redlock__owed *o)
{
    size_t ask = o->asking ? sizeof asking - 1 : 0;

    if (redlock__buf_reserve(b, ask + o->len) != 0)
        return REDLOCK_ENOMEM;
    memcpy(b->p + b->len, asking, ask);
    memcpy(b->p + b->len + ask, o->cmd, o->len);
    b->len += ask + o->len;
    return 0;
}

/* Queue an undo (its slot owns it) behind what is queued, after a kill of
 * the write's connection when that is not this one. */
static void queue_undo(redlock__master *m, redlock__owed *o)
{
    redlock__slot sl = undo_slot(m, o);
    redlock__buf b = { 0 };

    if (o->set_gen != m->conn.gen)
        redlock__master_kill_first(m, o->set_gen);
    m->stats.undos++;
    if (o->asking ? undo_bytes(&b, o) != 0 ||
                        redlock__conn_send(&m->conn, b.p, b.len, &asking_slot, 1, &sl, 0) != 0
                  : redlock__conn_send(&m->conn, o->cmd, o->len, NULL, 0, &sl, 0) != 0)
        free(o);        /* out of memory: the key expires with its ttl */
    redlock__buf_free(&b);
}

redlock__owed *redlock__owed_new(const redlock__master *m, uint32_t gen, const redlock__buf *cmd)
{
    redlock__owed *o;

    if (m->net->loop->closing || !(o = calloc(1, sizeof *o + cmd->len)))
        return NULL;    /* out of memory: the key expires with its ttl */
    o->len = cmd->len;
    o->set_gen = gen;
    memcpy(o->cmd, cmd->p, cmd->len);
    return o;
}

void redlock__master_undo_owed(redlock__master *m, redlock__owed *o)
{
    /* Behind the write on its own connection (up, or still waiting for its
     * first handshake with the write queued in it); after a kill of the
     * write's connection on another one that is up; else owed until the
     * next handshake. */
    if (m->conn.state == REDLOCK__CONN_UP ||
        (m->conn.state == REDLOCK__CONN_CONNECTING && o->set_gen == m->conn.gen))
        queue_undo(m, o);
    else
        owe(m, o);
}

void redlock__master_undo(redlock__master *m, uint32_t gen, const redlock__buf *cmd)
{
    redlock__owed *o = redlock__owed_new(m, gen, cmd);

    if (o)
        redlock__master_undo_owed(m, o);
}

/* An undo's reply.  An error means it did not run: BUSY (a long script),
 * LOADING, OOM, MISCONF... all pass, so it is tried again after a back-off
 * (100 ms doubling to 1 s, UNDO_TRIES times: about half a minute), unless
 * the error can only repeat.  No reply (the connection was lost): owed. */
#define UNDO_TRIES 30

static void undo_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__master *m = privdata;
    redlock__owed *o = (redlock__owed *)(uintptr_t)tag;
    int64_t delay_ms;
    (void)why;

    if (!r) {
        owe(m, o);      /* not answered: maybe not run */
        return;
    }
    if (r->type == REDLOCK__REPLY_ERROR && m->undo_redirect &&
        m->undo_redirect(m->undo_owner, r, o))
        return;         /* a cluster's redirect, followed */
    if (r->type != REDLOCK__REPLY_ERROR || o->tries >= UNDO_TRIES ||
        REDLOCK__MUTANT(UNDO_NO_RETRY) ||
        (r->len >= 6 && memcmp(r->str, "NOPERM", 6) == 0) ||
        (r->len >= 9 && memcmp(r->str, "WRONGTYPE", 9) == 0)) {
        free(o);
        return;
    }
    delay_ms = o->tries < 4 ? 100 << o->tries : 1000;
    o->tries++;
    owe(m, o);
    if (!evtimer_pending(&m->undo_timer, NULL))
        redlock__timer_add(m->net->loop, &m->undo_timer, delay_ms * 1000);
}

/* Owed undos of a master that stayed up (they were refused with an error):
 * queue them again.  One that went down sends them after its handshake. */
static void undo_timer_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__master *m = arg;
    size_t nowed = m->nowed;
    (void)fd;
    (void)what;

    if (m->conn.state != REDLOCK__CONN_UP || m->net->loop->closing)
        return;
    m->nowed = 0;       /* each moves to a slot (or is freed: out of memory) */
    for (size_t i = 0; i < nowed; i++) {
        redlock__owed *o = m->owed[i];
        m->owed[i] = NULL;
        queue_undo(m, o);
    }
}

/* The handshake succeeded: first the kills of the connections dropped
 * since (what reached the server on them, a write or an extend, must not
 * run after what follows here: an undo, a newer extend), then the owed
 * undos, then the requests that waited.  Each undo stays owned by its
 * slot, so it is owed again if this connection is lost too; so is a kill. */
static void send_owed(redlock__master *m)
{
    redlock__buf b = { 0 };
    redlock__slot *slots;
    size_t k = 0, nowed = m->nowed, nkill = 0;
    int rc = 0;

    for (unsigned i = 0; i < REDLOCK__CONN_HISTORY; i++)
        nkill += m->hist[i].kill == REDLOCK__KILL_OWED;
    if (!nowed && !nkill)
        return;
    if (!(slots = malloc((nkill + 2 * nowed) * sizeof *slots)))
        rc = REDLOCK_ENOMEM;
    for (unsigned i = 0; i < REDLOCK__CONN_HISTORY && rc == 0; i++) {
        redlock__conn_ref *h = &m->hist[i];
        if (h->kill != REDLOCK__KILL_OWED)
            continue;
        if (!may_kill(m, h)) {
            h->kill = REDLOCK__KILL_NONE;   /* (a window: docs/safety.md) */
        } else if ((rc = encode_kill(&b, h)) == 0) {
            slots[k++] = kill_slot(m, h->gen);
            h->kill = REDLOCK__KILL_SENT;
        }
    }
    for (size_t i = 0; i < nowed && rc == 0; i++) {
        redlock__owed *o = m->owed[i];
        if ((rc = undo_bytes(&b, o)) == 0) {
            if (o->asking)
                slots[k++] = asking_slot;
            slots[k++] = undo_slot(m, o);
        }
    }
    if (rc == 0 && (k == 0 || redlock__conn_prepend(&m->conn, &b, slots, k) == 0)) {
        m->stats.undos += nowed;
        m->nowed = 0;   /* the slots own them now */
    } else {
        for (size_t i = 0; i < nowed; i++)
            free(m->owed[i]);   /* out of memory: their keys expire with the ttl */
        m->nowed = 0;
        for (unsigned i = 0; i < REDLOCK__CONN_HISTORY; i++)
            if (m->hist[i].kill == REDLOCK__KILL_SENT)
                m->hist[i].kill = REDLOCK__KILL_OWED;
    }
    free(slots);
    redlock__buf_free(&b);
}

static void owed_free(redlock__master *m)
{
    for (size_t i = 0; i < m->nowed; i++)
        free(m->owed[i]);
    free(m->owed);
    m->owed = NULL;
    m->nowed = m->owed_cap = 0;
}

/* ---- handshake, up and down ---------------------------------------------- */

enum { HELLO_CLIENT_INFO, HELLO_TIME, HELLO_SCRIPT };

static void hello_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__master *m = privdata;
    int64_t server_us;
    (void)why;

    if (!r)
        return;
    if (tag == HELLO_CLIENT_INFO && r->type == REDLOCK__REPLY_STRING)
        parse_client_info(m, r->str, r->len);
    else if (tag == HELLO_TIME && redlock__time_parse(r, &server_us) == 0)
        /* it left when the connection was made, not when it was queued:
         * the sample's interval is then one round trip, not the connect */
        redlock__master_time(m, server_us,
                             m->conn.connected_us > m->hello_time_us ? m->conn.connected_us
                                                                     : m->hello_time_us,
                             redlock__now(m->net->loop));
    /* SCRIPT LOAD: the reply says nothing we need (EVAL loads on NOSCRIPT) */
}

static int master_hello(void *owner, redlock__conn *cn)
{
    redlock__master *m = owner;
    redlock__slot sl = { hello_reply, m, 0, NULL, 0, 0 };
    int rc = 0;

    /* Who the server thinks we are (id, address): to kill this connection
     * from the next one if it is lost with a write in it.  Optional: Redis
     * < 6.2 or an ACL user may refuse it. */
    {
        const char *argv[2] = { "CLIENT", "INFO" };
        size_t len[2] = { 6, 4 };
        sl.tag = HELLO_CLIENT_INFO;
        rc |= redlock__conn_hello(cn, 2, argv, len, &sl);
    }
    /* The master's clock, a first sample (optional: an ACL may refuse it). */
    {
        const char *argv[1] = { "TIME" };
        size_t len[1] = { 4 };
        sl.tag = HELLO_TIME;
        m->hello_time_us = m->time_sent_us = redlock__now(m->net->loop);
        rc |= redlock__conn_hello(cn, 1, argv, len, &sl);
    }
    /* INFO server and CONFIG GET for the guards (guard.c; optional) */
    rc |= redlock__guard_hello(m, cn);
    /* Load the scripts now so the first EVALSHA finds them; optional,
     * because an ACL user may lack SCRIPT (EVAL then loads on NOSCRIPT). */
    for (int i = 0; i < REDLOCK__NSCRIPTS && rc == 0; i++) {
        const char *argv[3] = { "SCRIPT", "LOAD", m->net->scripts[i] };
        size_t len[3] = { 6, 4, strlen(m->net->scripts[i]) };
        sl.tag = HELLO_SCRIPT;
        rc |= redlock__conn_hello(cn, 3, argv, len, &sl);
    }
    return rc ? REDLOCK_ENOMEM : 0;
}

static void master_up(void *owner, redlock__conn *cn)
{
    redlock__master *m = owner;
    (void)cn;

    send_owed(m);
    m->stats.connects++;
    redlock__guard_up(m);
    if (m->net->event)
        m->net->event(m->net->event_privdata, m->index, REDLOCK_NODE_UP, "connected");
}

static void master_down(void *owner, redlock__conn *cn, const char *why, int tell)
{
    redlock__master *m = owner;
    redlock__conn_ref *h = hist_of(m, cn->gen);

    if (h && h->kill == REDLOCK__KILL_NONE && !REDLOCK__MUTANT(NO_EXTEND_KILL) &&
        !REDLOCK__MUTANT(NO_KILL))
        h->kill = REDLOCK__KILL_OWED;
    evtimer_del(&m->undo_timer);    /* owed undos go after the next handshake */
    if (tell && m->net->event)
        m->net->event(m->net->event_privdata, m->index, REDLOCK_NODE_DOWN, why);
}

/* ---- the second connection ------------------------------------------------ */

static int side_hello(void *owner, redlock__conn *cn)
{
    (void)owner;
    (void)cn;
    return 0;       /* the connection's AUTH, SELECT and PING are enough */
}

/* The second connection is the client's subscriber: its ups, downs and
 * messages go up to the client (lock/announce.c); the master's own state is its
 * lock connection's. */
static void side_up(void *owner, redlock__conn *cn)
{
    redlock__master *m = owner;
    (void)cn;
    if (m->net->side)
        m->net->side(m->net->event_privdata, m->index, 1);
}

static void side_down(void *owner, redlock__conn *cn, const char *why, int tell)
{
    redlock__master *m = owner;
    (void)cn;
    (void)why;
    (void)tell;
    if (m->net->side)
        m->net->side(m->net->event_privdata, m->index, 0);
}

static void side_push(void *owner, redlock__conn *cn, const redlock__reply *r)
{
    redlock__master *m = owner;
    (void)cn;
    if (m->net->message)
        m->net->message(m->net->event_privdata, m->index, r->element[1]->str,
                        r->element[1]->len, r->element[2]->str, r->element[2]->len);
}

int redlock__master_side_send(redlock__master *m, const char *buf, size_t len,
                              const redlock__slot *sl, const char **why)
{
    redlock__conn *cn = &m->side;

    if (!cn->net) {
        redlock__conn_owner own = { side_hello, side_up, side_down, m, side_push };
        redlock__conn_init(cn, m->net, &m->addr, m->label, &own);
    }
    if (!redlock__conn_accepts(cn)) {
        *why = cn->lasterr[0] ? cn->lasterr : "not connected";
        return REDLOCK__DOWN;
    }
    if (redlock__conn_send(cn, buf, len, NULL, 0, sl, redlock__now(m->net->loop)) != 0) {
        *why = "out of memory";
        return REDLOCK__ERROR;
    }
    return 0;
}

int redlock__master_side_up(const redlock__master *m)
{
    return m->side.net && m->side.state == REDLOCK__CONN_UP;
}

void redlock__master_close(redlock__master *m)
{
    if (!m->net)
        return;
    evtimer_del(&m->undo_timer);
    redlock__guard_close(m);
    redlock__conn_close(&m->side);
    redlock__conn_close(&m->conn);
    owed_free(m);
    free(m->label);
    redlock__addr_free(&m->addr);
    m->net = NULL;
}
