/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* mutant.c -- the mutants' switch and names (floor/mutant.h); nothing
 * outside a build with -DREDLOCK_MUTANTS. */
#include <string.h>
#include "floor/mutant.h"

#ifdef REDLOCK_MUTANTS
int redlock__mutant;

#define REDLOCK__MUTANT_ROW(name, what) { #name, what },
static const struct { const char *name, *what; } table[] = {
    { "NONE", "no mutant" },
    REDLOCK__MUTANTS(REDLOCK__MUTANT_ROW)
};

int redlock__mutant_by_name(const char *name)
{
    for (int m = 0; m < REDLOCK__M_COUNT; m++)
        if (strcmp(table[m].name, name) == 0)
            return m;
    return -1;
}

const char *redlock__mutant_name(int m)
{
    return m > 0 && m < REDLOCK__M_COUNT ? table[m].name : NULL;
}

const char *redlock__mutant_what(int m)
{
    return m > 0 && m < REDLOCK__M_COUNT ? table[m].what : NULL;
}
#else
typedef int redlock__no_mutants;    /* (a translation unit is not empty) */
#endif
