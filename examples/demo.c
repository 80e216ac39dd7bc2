/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/demo.c -- the lock story on 5 local masters, told step by step.
 * Started by `make demo` (or `sh scripts/dev.sh demo`); it needs only the
 * library and a redis-server on the PATH (or in $REDIS_SERVER): it starts
 * its masters itself, on free loopback ports in a temporary directory, and
 * removes them at the end. */
#define _XOPEN_SOURCE 700
#include <arpa/inet.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "redlock.h"

#define MASTERS 5

static pid_t pid[MASTERS];
static int port[MASTERS];
static char addr[MASTERS][32];
static const char *addrs[MASTERS];

/* A loopback port nothing listens on now (the kernel's pick), or 0. */
static int free_port(void)
{
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t len = sizeof sa;
    int fd = socket(AF_INET, SOCK_STREAM, 0), p = 0;

    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
        p = ntohs(sa.sin_port);
    if (fd >= 0)
        close(fd);
    return p;
}

/* Master i: redis-server in dir/i, with appendonly yes and appendfsync
 * always, so that the restart guard counts it at once (docs/safety.md). */
static int start_master(const char *dir, int i)
{
    const char *bin = getenv("REDIS_SERVER") ? getenv("REDIS_SERVER") : "redis-server";
    char sub[4096], p[16];

    snprintf(sub, sizeof sub, "%s/%d", dir, i);
    if ((port[i] = free_port()) == 0 || mkdir(sub, 0700) != 0)
        return -1;
    snprintf(p, sizeof p, "%d", port[i]);
    snprintf(addr[i], sizeof addr[i], "127.0.0.1:%d", port[i]);
    addrs[i] = addr[i];
    if ((pid[i] = fork()) < 0)
        return -1;
    if (pid[i] == 0) {
        execlp(bin, bin, "--port", p, "--bind", "127.0.0.1", "--dir", sub, "--save", "",
               "--appendonly", "yes", "--appendfsync", "always", "--logfile", "server.log",
               (char *)NULL);
        fprintf(stderr, "cannot run %s (set REDIS_SERVER to its path)\n", bin);
        _exit(127);
    }
    return 0;
}

static void stop_master(int i)
{
    if (pid[i] > 0) {
        kill(pid[i], SIGKILL);
        waitpid(pid[i], NULL, 0);
        pid[i] = 0;
    }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Does master i have `key` (EXISTS over a plain socket)?  1, 0, or -1. */
static int exists_on(int i, const char *key)
{
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port[i]) };
    char cmd[128], reply[16] = "";
    int fd = socket(AF_INET, SOCK_STREAM, 0), n = 0;

    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    snprintf(cmd, sizeof cmd, "*2\r\n$6\r\nEXISTS\r\n$%zu\r\n%s\r\n", strlen(key), key);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        write(fd, cmd, strlen(cmd)) == (ssize_t)strlen(cmd))
        n = (int)read(fd, reply, sizeof reply - 1);
    if (fd >= 0)
        close(fd);
    return n > 1 && reply[0] == ':' ? reply[1] == '1' : -1;
}

static int count_key(const char *key)
{
    int n = 0;
    for (int i = 0; i < MASTERS; i++)
        n += pid[i] > 0 && exists_on(i, key) == 1;
    return n;
}

static double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static int step(const char *what, int rc, redlock_lock *l, const struct timespec *t0)
{
    printf("  %-44s %-8s %7.2f ms", what, rc == 0 ? "ok" : "refused", ms_since(t0));
    if (rc == 0)
        printf("  (validity %lld ms, %zu nodes OK)\n", (long long)redlock_lock_validity(l),
               redlock_lock_nodes_ok(l));
    else
        printf("\n      -> %s\n", redlock_lock_errstr(l));
    return rc;
}

static int story(redlock_client *a, redlock_client *b)
{
    redlock_lock *la, *lb;
    struct timespec t0;
    int rc, fails = 0;

    redlock_lock_new(&la, a, "orders:42", 9);
    redlock_lock_new(&lb, b, "orders:42", 9);
    printf("\nclient A and client B both want \"orders:42\" (ttl 10 s):\n");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fails += step("A acquires", redlock_acquire(la, 10000), la, &t0) != 0;
    printf("      value %s on %d of 5 masters\n", redlock_lock_value(la, NULL),
           count_key("orders:42"));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fails += step("B tries while A holds", redlock_try_acquire(lb, 10000), lb, &t0) == 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fails += step("A extends to 30 s", redlock_extend(la, 30000), la, &t0) != 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = redlock_release(la);
    printf("  %-44s %-8s %7.2f ms  (deleted on %zu masters)\n", "A releases", rc ? "failed" : "ok",
           ms_since(&t0), redlock_lock_nodes_ok(la));
    fails += rc != 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fails += step("B tries again", redlock_try_acquire(lb, 10000), lb, &t0) != 0;
    fails += redlock_release(lb) != 0;

    printf("\nkilling 3 of 5 masters (kill -9): no quorum is possible any more\n");
    for (int i = 0; i < 3; i++)
        stop_master(i);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = step("A acquires (fails fast, keys rolled back)", redlock_try_acquire(la, 10000), la, &t0);
    fails += rc == 0;
    printf("      keys left on the 2 survivors: %d\n", count_key("orders:42"));
    redlock_lock_free(la);
    redlock_lock_free(lb);
    return fails;
}

int main(void)
{
    char err[512], dir[] = "/tmp/redlock-demo.XXXXXX";
    redlock_client *a = NULL, *b = NULL;
    redlock_options o;
    int fails = 1;

    printf("redlock %s demo: 5 independent masters on loopback\n", redlock_version());
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    for (int i = 0; i < MASTERS; i++) {
        if (start_master(dir, i) != 0) {
            perror("starting redis-server");
            goto out;
        }
        printf("  master %d at %s\n", i, addr[i]);
    }
    redlock_options_init(&o);
    o.node_timeout_ms = 50;
    o.retry_count = 2;
    o.retry_delay_ms = 50;
    o.retry_jitter_ms = 25;
    /* the restart guard stays on: masters with appendfsync always count at
     * once, even a moment after their start (docs/safety.md) */
    if (redlock_client_new(&a, NULL, addrs, MASTERS, &o, err, sizeof err) != 0 ||
        redlock_client_new(&b, NULL, addrs, MASTERS, &o, err, sizeof err) != 0) {
        fprintf(stderr, "client: %s\n", err);
        goto out;
    }
    if (redlock_client_wait_connected(a, MASTERS, 5000) != 0) {
        fprintf(stderr, "masters not up: %s\n", redlock_client_errstr(a));
        goto out;
    }
    if (redlock_client_wait_connected(b, MASTERS, 5000) != 0) {
        fprintf(stderr, "masters not up: %s\n", redlock_client_errstr(b));
        goto out;
    }
    fails = story(a, b);
out:
    redlock_client_free(a);
    redlock_client_free(b);
    for (int i = 0; i < MASTERS; i++)
        stop_master(i);
    nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
    printf("\nmasters stopped. %s\n", fails ? "SOMETHING WENT WRONG" : "all steps behaved as expected");
    return fails ? 1 : 0;
}
