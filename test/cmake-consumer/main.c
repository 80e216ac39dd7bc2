/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* test/cmake-consumer/main.c -- prints the installed library's version.
 * Fails when it differs from the header it was compiled against, or when
 * libevent (which redlock::redlock brings along) is not usable. */
#include <stdio.h>
#include <string.h>

#include <event2/event.h>
#include <redlock.h>

#define STR2(x) #x
#define STR(x) STR2(x)
#define HEADER_VERSION \
    STR(REDLOCK_VERSION_MAJOR) "." STR(REDLOCK_VERSION_MINOR) "." STR(REDLOCK_VERSION_PATCH)

int main(void)
{
    struct event_base *base = event_base_new();
    const char *v = redlock_version();

    if (base == NULL) {
        fprintf(stderr, "event_base_new failed\n");
        return 1;
    }
    event_base_free(base);
    if (strcmp(v, HEADER_VERSION) != 0) {
        fprintf(stderr, "library %s, header %s\n", v, HEADER_VERSION);
        return 1;
    }
    printf("%s\n", v);
    return 0;
}
