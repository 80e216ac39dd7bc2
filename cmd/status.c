/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* status.c -- `redlock status` (not yet: a stub). */
#include "cmd/cmd.h"

int redlock_cmd_status(redlock_cmd *c, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    redlock_cmd_error(c, "not yet");
    return REDLOCK_EXIT_SOFTWARE;
}
