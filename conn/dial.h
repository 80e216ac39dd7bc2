/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* dial.h -- dial.c, for conn.c alone (conn.h includes it): reaching a
 * master's address.  Never installed. */
#ifndef REDLOCK_DIAL_H
#define REDLOCK_DIAL_H

#include <sys/socket.h>
#include "floor/floor.h"

/* The master's socket address: 0, or -1 with why in err. */
int redlock__dial_resolve(const redlock__addr *a, struct sockaddr_storage *ss, socklen_t *sslen,
                          char *err, size_t errlen);
/* A non-blocking, close-on-exec stream socket, or -1 (errno). */
evutil_socket_t redlock__dial_socket(int family);

/* The transport seam (docs/simulator.md): NULL in the library, consulted
 * only when a connection is dialed.  The simulator sets it before it
 * creates a client: it returns one end of a connected stream (a socketpair)
 * standing for `a`, or -1 with why in err; no name is resolved then. */
typedef evutil_socket_t redlock__dial_fn(const redlock__addr *a, char *err, size_t errlen);
extern redlock__dial_fn *redlock__dial_hook;

#endif
