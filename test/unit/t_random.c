/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_random.c -- the client's buffer of random bytes for lock values
 * (floor/random.c): one getrandom(2) for many values, and a fork's child never
 * draws the parent's values (the page is wiped in the child). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "floor/floor.h"
#include "client/client.h"

TEST(random_values_come_from_the_buffer_and_differ)
{
    redlock_client *c = calloc(1, sizeof *c);
    char a[33], b[33];
    CHECK(c != NULL);
    redlock__random_init(&c->rnd, 1);
    CHECK(c->rnd.buf != NULL);         /* (Linux 4.14 or later) */
    CHECK_EQ(redlock__client_random_hex(c, a, 16), 0);
    CHECK_EQ(strlen(a), 32);
    CHECK_EQ(strspn(a, "0123456789abcdef"), 32);
    size_t pos = c->rnd.pos;
    CHECK_EQ(redlock__client_random_hex(c, b, 16), 0);
    CHECK_EQ(c->rnd.pos, pos + 16);    /* (no new getrandom: the next 16 bytes) */
    CHECK(strcmp(a, b) != 0);
    for (int i = 0; i < 600; i++)   /* (past the end of one fill, and again) */
        CHECK_EQ(redlock__client_random_hex(c, a, 16), 0);
    CHECK_EQ(strlen(a), 32);
    redlock__random_free(&c->rnd);
    CHECK(c->rnd.buf == NULL);
    free(c);
}

/* The child of a fork draws other values than the parent's next ones: a
 * copied buffer would give both processes the same lock values. */
TEST(random_values_of_a_forks_child_are_its_own)
{
    redlock_client *c = calloc(1, sizeof *c);
    char mine[33], child[33] = "";
    int fd[2];
    CHECK(c != NULL);
    redlock__random_init(&c->rnd, 1);
    CHECK(c->rnd.buf != NULL);
    CHECK_EQ(redlock__client_random_hex(c, mine, 16), 0);   /* (the buffer is full) */
    CHECK_EQ(pipe(fd), 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        char v[33];
        int ok = redlock__client_random_hex(c, v, 16) == 0 && write(fd[1], v, 32) == 32;
        redlock__random_free(&c->rnd);
        free(c);            /* (valgrind checks the child for leaks too) */
        _exit(ok ? 0 : 1);
    }
    int st = 0;
    CHECK_EQ(waitpid(pid, &st, 0), pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK_EQ(read(fd[0], child, 32), 32);
    child[32] = '\0';
    CHECK_EQ(redlock__client_random_hex(c, mine, 16), 0);
    check_note("parent's next %s, child's %s", mine, child);
    CHECK(strcmp(mine, child) != 0);
    close(fd[0]);
    close(fd[1]);
    redlock__random_free(&c->rnd);
    free(c);
}
