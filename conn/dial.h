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

#endif
