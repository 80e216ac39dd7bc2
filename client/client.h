/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* client.h -- what the client (redlock.c) does on top of the kinds: the
 * probe of the masters' clocks (probe.c); the blocking calls (blocking.c)
 * and the counters (stats.c) are public functions of redlock.h.  Never
 * installed. */
#ifndef REDLOCK_CLIENT_H
#define REDLOCK_CLIENT_H

#include "kinds/kinds.h"

void redlock__probe_arm(redlock_client *c);

extern const char redlock__lua_inspect[];     /* inspect.c */

#endif
