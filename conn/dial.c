/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* dial.c -- reaching a master: its address resolved, a socket of our own,
 * and the handshake a new connection sends before anything else (conn.c
 * runs the connection itself).
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <event2/bufferevent.h>
#include <event2/buffer.h>
#include "conn/conn.h"

int redlock__dial_resolve(redlock__conn *cn, struct sockaddr_storage *ss, socklen_t *sslen)
{
    struct addrinfo hints, *res = NULL;
    char port[8];
    int rc;

    if (cn->addr->path) {
        struct sockaddr_un *un = (struct sockaddr_un *)ss;
        if (strlen(cn->addr->path) >= sizeof un->sun_path) {
            snprintf(cn->lasterr, sizeof cn->lasterr, "unix socket path too long");
            return -1;
        }
        memset(un, 0, sizeof *un);
        un->sun_family = AF_UNIX;
        strcpy(un->sun_path, cn->addr->path);
        *sslen = (socklen_t)sizeof *un;
        return 0;
    }
    /* Blocking for a host name: documented; numeric addresses never block. */
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof port, "%d", cn->addr->port);
    rc = getaddrinfo(cn->addr->host, port, &hints, &res);
    if (rc != 0 || !res) {
        snprintf(cn->lasterr, sizeof cn->lasterr, "cannot resolve host: %s", gai_strerror(rc));
        if (res)
            freeaddrinfo(res);
        return -1;
    }
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *sslen = (socklen_t)res->ai_addrlen;
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

/* The connection's own steps: AUTH, SELECT and PING must succeed. */
int redlock__dial_handshake(redlock__conn *cn)
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

/* A socket of our own: close-on-exec (a child started with system() must
 * not inherit the connections to the masters) and non-blocking. */
evutil_socket_t redlock__dial_socket(int family)
{
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}
