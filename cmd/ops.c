/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* ops.c -- `redlock acquire`, `extend` and `release` (not yet: stubs). */
#include "cmd/cmd.h"

static int not_yet(redlock_cmd *c)
{
    redlock_cmd_error(c, "not yet");
    return REDLOCK_EXIT_SOFTWARE;
}

int redlock_cmd_acquire(redlock_cmd *c, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_yet(c);
}

int redlock_cmd_extend(redlock_cmd *c, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_yet(c);
}

int redlock_cmd_release(redlock_cmd *c, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_yet(c);
}
