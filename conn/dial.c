/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* dial.c -- reaching a master: its address resolved, a socket of our own
 * (conn.c runs the connection itself, its handshake first).
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "conn/dial.h"

redlock__dial_fn *redlock__dial_hook;

int redlock__dial_resolve(const redlock__addr *a, struct sockaddr_storage *ss, socklen_t *sslen,
                          char *err, size_t errlen)
{
    struct addrinfo hints, *res = NULL;
    char port[8];
    int rc;

    if (a->path) {
        struct sockaddr_un *un = (struct sockaddr_un *)ss;
        if (strlen(a->path) >= sizeof un->sun_path) {
            snprintf(err, errlen, "unix socket path too long");
            return -1;
        }
        memset(un, 0, sizeof *un);
        un->sun_family = AF_UNIX;
        strcpy(un->sun_path, a->path);
        *sslen = (socklen_t)sizeof *un;
        return 0;
    }
    /* Blocking for a host name: documented; numeric addresses never block. */
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof port, "%d", a->port);
    rc = getaddrinfo(a->host, port, &hints, &res);
    if (rc != 0 || !res) {
        snprintf(err, errlen, "cannot resolve host: %s", gai_strerror(rc));
        if (res)
            freeaddrinfo(res);
        return -1;
    }
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *sslen = (socklen_t)res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

/* A socket of our own: close-on-exec (a child started with system() must
 * not inherit the connections to the masters) and non-blocking. */
evutil_socket_t redlock__dial_socket(int family)
{
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}
