/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-util -- small helpers for the failover scripts (docs/failover.md).
 *
 *   rl-util now          print CLOCK_BOOTTIME in us (the clock of the logs)
 *   rl-util free-port    print a free 127.0.0.1 port
 *   rl-util ping PORT    exit 0 when 127.0.0.1:PORT answers PING with +PONG
 */
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "rl-common.h"

const char *rl_prog = "rl-util";

static struct sockaddr_in loopback(int port)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons((uint16_t)port);
    return sa;
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in sa = loopback(0);
    socklen_t len = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
        close(fd);
        return -1;
    }
    close(fd);
    return ntohs(sa.sin_port);
}

/* PING a Redis on 127.0.0.1:port with a 500 ms deadline: 0 on +PONG (a
 * server still loading its data answers -LOADING: not ready yet). */
static int ping(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct timeval tv = {0, 500000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in sa = loopback(port);
    char buf[64];
    ssize_t n = -1;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        write(fd, "PING\r\n", 6) == 6)
        n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n < 5)
        return -1;
    return memcmp(buf, "+PONG", 5) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "now")) {
        printf("%lld\n", (long long)now_us());
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "free-port")) {
        int p = free_port();
        if (p < 0) {
            perror("rl-util: free port");
            return 2;
        }
        printf("%d\n", p);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "ping"))
        return ping(atoi(argv[2])) == 0 ? 0 : 1;
    fprintf(stderr, "usage: rl-util now | free-port | ping PORT\n");
    return 2;
}
