/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* difftest.c -- the simulated master against the real one: replays
 * captured command streams (redis-cli MONITOR's lines, as
 * sim/master/capture/record.sh writes them) against a redis-server it starts on
 * a free loopback port and against a sim_master, one connection per
 * client address of the capture on each side, command by command in the
 * capture's order, and compares every reply (and every message a
 * subscriber gets).  What legitimately differs is left out: CLIENT ID and
 * INFO's ids, TIME, INFO beyond the fields the guards read, a set's
 * order, and a few ms in a ttl (the two clocks are read at different
 * instants).  Each command reaches the simulated master in two pieces
 * cut at a varying place (its parser keeps a partial command).  Prints
 * each difference, then "N commands, N differences";
 * exit status 1 when any.
 *
 *   sim/master/difftest [-v] FILE...      (REDIS_SERVER: the server binary) */
#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sim/master.h"

#define MAX_ARGS 4096
#define MAX_CONNS 256

typedef struct {
    char addr[64];
    redisContext *real;
    long long sim;
    int subscribed;
} conn;

static int verbose;
static long commands, differences;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the real server ---- */

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { 0 };
    socklen_t len = sizeof a;
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return ntohs(a.sin_port);
}

static pid_t start_server(int port)
{
    const char *bin = getenv("REDIS_SERVER") ? getenv("REDIS_SERVER") : "redis-server";
    char p[16];
    snprintf(p, sizeof p, "%d", port);
    pid_t pid = fork();
    if (pid == 0) {
        const char *argv[] = { bin, "--port", p, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                               "--daemonize", "no", "--logfile", "", "--dir", "/tmp", NULL };
        FILE *null = freopen("/dev/null", "w", stdout);
        (void)null;
        execvp(bin, (char *const *)argv);
        _exit(127);
    }
    for (int i = 0; i < 500 && pid > 0; i++) {
        struct timeval tv = { 0, 200000 };
        redisContext *c = redisConnectWithTimeout("127.0.0.1", port, tv);
        if (c && !c->err) {
            redisReply *r = redisCommand(c, "PING");
            int ok = r && r->type == REDIS_REPLY_STATUS;
            freeReplyObject(r);
            redisFree(c);
            if (ok)
                return pid;
        } else if (c) {
            redisFree(c);
        }
        usleep(10000);
    }
    return -1;
}

/* ---- the capture ---- */

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* MONITOR's "ts [db addr] "arg" ...": the address and the arguments
 * unquoted in place; 0 for a line to skip (a script's own commands) */
static int parse_line(char *line, char **addr, char **argv, size_t *len, int *argc)
{
    char *p = strchr(line, '['), *e;
    if (!p || !(e = strchr(p, ']')))
        return 0;
    char *sp = strchr(p, ' ');
    if (!sp || sp > e)
        return 0;
    *e = '\0';
    *addr = sp + 1;
    if (strcmp(*addr, "lua") == 0)
        return 0;
    p = e + 1;
    *argc = 0;
    while (*argc < MAX_ARGS) {
        while (*p == ' ')
            p++;
        if (*p != '"')
            break;
        char *w = ++p, *start = p;
        while (*p && *p != '"') {
            if (*p == '\\' && p[1]) {
                p++;
                switch (*p) {
                case 'n': *w++ = '\n'; break;
                case 'r': *w++ = '\r'; break;
                case 't': *w++ = '\t'; break;
                case 'a': *w++ = '\a'; break;
                case 'b': *w++ = '\b'; break;
                case 'x':
                    if (hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
                        *w++ = (char)(hexval(p[1]) * 16 + hexval(p[2]));
                        p += 2;
                        break;
                    }
                    /* fall through */
                default: *w++ = *p; break;
                }
                p++;
            } else {
                *w++ = *p++;
            }
        }
        if (*p != '"')
            return 0;
        argv[*argc] = start;
        len[*argc] = (size_t)(w - start);
        (*argc)++;
        p++;
    }
    return *argc > 0;
}

/* ---- replies ---- */

static void render(const redisReply *r, char *out, size_t size, size_t *n)
{
    size_t room = *n < size ? size - *n : 0;
    int k = 0;
    if (!r) {
        k = snprintf(out + *n, room, "(no reply)");
    } else {
        switch (r->type) {
        case REDIS_REPLY_INTEGER: k = snprintf(out + *n, room, "%lld", r->integer); break;
        case REDIS_REPLY_NIL: k = snprintf(out + *n, room, "nil"); break;
        case REDIS_REPLY_STATUS: k = snprintf(out + *n, room, "+%.*s", (int)r->len, r->str); break;
        case REDIS_REPLY_ERROR: k = snprintf(out + *n, room, "-%.*s", (int)r->len, r->str); break;
        case REDIS_REPLY_STRING: k = snprintf(out + *n, room, "\"%.*s\"", (int)(r->len > 80 ? 80 : r->len), r->str); break;
        case REDIS_REPLY_ARRAY:
            k = snprintf(out + *n, room, "[");
            *n += (size_t)(k > 0 ? k : 0);
            for (size_t i = 0; i < r->elements; i++) {
                if (i) {
                    room = *n < size ? size - *n : 0;
                    k = snprintf(out + *n, room, ", ");
                    *n += (size_t)(k > 0 ? k : 0);
                }
                render(r->element[i], out, size, n);
            }
            room = *n < size ? size - *n : 0;
            k = snprintf(out + *n, room, "]");
            break;
        default: k = snprintf(out + *n, room, "(type %d)", r->type); break;
        }
    }
    *n += (size_t)(k > 0 ? k : 0);
    if (*n >= size)
        *n = size - 1;
}

static int cmp_reply(const void *a, const void *b);

static int epoch_ms(const redisReply *r)
{
    return r->len == 13 && strspn(r->str, "0123456789") == 13;
}

static int same(const redisReply *a, const redisReply *b, int unordered, int ms)
{
    if (!a || !b)
        return a == b;
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case REDIS_REPLY_INTEGER:
        /* a ttl read a few ms apart on the two sides */
        if (ms && a->integer > 100 && b->integer > 100)
            return llabs(a->integer - b->integer) <= 50;
        return a->integer == b->integer;
    case REDIS_REPLY_NIL:
        return 1;
    case REDIS_REPLY_ARRAY: {
        if (a->elements != b->elements)
            return 0;
        if (unordered) {
            redisReply **x = malloc(a->elements * sizeof *x), **y = malloc(b->elements * sizeof *y);
            int ok = x && y;
            for (size_t i = 0; ok && i < a->elements; i++) {
                x[i] = a->element[i];
                y[i] = b->element[i];
            }
            if (ok) {
                qsort(x, a->elements, sizeof *x, cmp_reply);
                qsort(y, b->elements, sizeof *y, cmp_reply);
            }
            for (size_t i = 0; ok && i < a->elements; i++)
                ok = same(x[i], y[i], 0, ms);
            free(x);
            free(y);
            return ok;
        }
        for (size_t i = 0; i < a->elements; i++)
            if (!same(a->element[i], b->element[i], 0, ms))
                return 0;
        return 1;
    }
    default:
        if (a->len == b->len && memcmp(a->str, b->str, a->len) == 0)
            return 1;
        /* a time in ms (a waiter's score, a hold's deadline), read apart */
        return a->type == REDIS_REPLY_STRING && epoch_ms(a) && epoch_ms(b) &&
               llabs(atoll(a->str) - atoll(b->str)) <= 50;
    }
}

static int cmp_reply(const void *pa, const void *pb)
{
    const redisReply *a = *(redisReply *const *)pa, *b = *(redisReply *const *)pb;
    if (a->type != b->type)
        return a->type - b->type;
    if (a->type == REDIS_REPLY_INTEGER)
        return (a->integer > b->integer) - (a->integer < b->integer);
    if (a->type == REDIS_REPLY_STRING || a->type == REDIS_REPLY_STATUS || a->type == REDIS_REPLY_ERROR) {
        size_t n = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->str, b->str, n);
        return c ? c : (a->len > b->len) - (a->len < b->len);
    }
    return 0;
}

/* INFO: the fields the guards read (run_id and uptime only in shape) */
static int same_info(const redisReply *a, const redisReply *b)
{
    static const char *const exact[] = { "role:", "master_replid2:", "aof_enabled:", "aof_rewrites:",
                                          "aof_rewrite_scheduled:", "aof_rewrite_in_progress:",
                                          "redis_version:", "loading:" };
    if (!a || !b || a->type != REDIS_REPLY_STRING || b->type != REDIS_REPLY_STRING)
        return same(a, b, 0, 0);
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++) {
        const char *x = strstr(a->str, exact[i]), *y = strstr(b->str, exact[i]);
        if (!x != !y)
            return 0;
        if (x && strcspn(x, "\r") != strcspn(y, "\r"))
            return 0;
        if (x && memcmp(x, y, strcspn(x, "\r")) != 0)
            return 0;
    }
    const char *x = strstr(a->str, "run_id:"), *y = strstr(b->str, "run_id:");
    if (!x != !y || (x && strcspn(x + 7, "\r") != strcspn(y + 7, "\r")))
        return 0;
    x = strstr(a->str, "uptime_in_seconds:");
    y = strstr(b->str, "uptime_in_seconds:");
    return !x == !y && (!x || llabs(atoll(x + 18) - atoll(y + 18)) <= 2);
}

static int is(const char *a, size_t len, const char *word)
{
    return strlen(word) == len && strncasecmp(a, word, len) == 0;
}

/* the comparison that fits the command */
static int compare(char **argv, size_t *len, int argc, const redisReply *real, const redisReply *sim)
{
    if (is(argv[0], len[0], "info"))
        return same_info(real, sim);
    if (is(argv[0], len[0], "time") ||
        (argc >= 2 && is(argv[0], len[0], "client") && (is(argv[1], len[1], "id") || is(argv[1], len[1], "info"))))
        return real && sim && real->type == sim->type &&
               (real->type != REDIS_REPLY_ARRAY || real->elements == sim->elements);
    if (is(argv[0], len[0], "hello"))
        return real && sim && real->type == sim->type && real->elements == sim->elements;
    int unordered = is(argv[0], len[0], "smembers") || is(argv[0], len[0], "srandmember") ||
                    is(argv[0], len[0], "keys") || is(argv[0], len[0], "pubsub");
    int ms = is(argv[0], len[0], "pttl") || is(argv[0], len[0], "pexpiretime") || is(argv[0], len[0], "ttl") || is(argv[0], len[0], "eval") ||
             is(argv[0], len[0], "evalsha");
    return same(real, sim, unordered, ms);
}

/* ---- one capture ---- */

static redisReply *sim_reply(redisReader *rd, const sim_buf *b)
{
    void *r = NULL;
    if (redisReaderFeed(rd, b->p, b->len) != REDIS_OK || redisReaderGetReply(rd, &r) != REDIS_OK)
        return NULL;
    return r;
}

static void report(const char *file, long lineno, char **argv, size_t *len, int argc, const char *what,
                   const redisReply *real, const redisReply *sim)
{
    char a[400], b[400], cmd[200];
    size_t na = 0, nb = 0, nc = 0;
    render(real, a, sizeof a, &na);
    render(sim, b, sizeof b, &nb);
    for (int i = 0; i < argc && nc < sizeof cmd - 1; i++) {
        int k = snprintf(cmd + nc, sizeof cmd - nc, "%s%.*s", i ? " " : "", (int)(len[i] > 40 ? 40 : len[i]), argv[i]);
        nc += (size_t)(k > 0 ? k : 0);
    }
    if (nc >= sizeof cmd)
        nc = sizeof cmd - 1;
    cmd[nc] = '\0';
    printf("%s %s:%ld %s: %s\n  real: %s\n  sim:  %s\n", strcmp(what, "same") ? "DIFF" : "same", file, lineno, what, cmd, a, b);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sim's pushes for c against as many messages read from the real one,
 * as a set: a script that publishes to the members of a set does so in
 * the set's order, which differs (t_set.c) */
static void compare_pushes(const char *file, long lineno, sim_master *m, conn *c)
{
    sim_buf b = { 0 };
    int n = sim_master_take_pushes(m, c->sim, &b);
    if (n <= 0) {
        sim_buf_free(&b);
        return;
    }
    redisReader *rd = redisReaderCreate();
    redisReaderFeed(rd, b.p, b.len);
    char **real = calloc((size_t)n, sizeof *real), **sim = calloc((size_t)n, sizeof *sim);
    for (int i = 0; i < n; i++) {
        void *r = NULL, *x = NULL;
        if (redisGetReply(c->real, &r) != REDIS_OK)
            r = NULL;
        redisReaderGetReply(rd, &x);
        size_t len = 0;
        real[i] = malloc(512);
        sim[i] = malloc(512);
        render(r, real[i], 512, &len);
        len = 0;
        render(x, sim[i], 512, &len);
        freeReplyObject(r);
        freeReplyObject(x);
    }
    qsort(real, (size_t)n, sizeof *real, cmp_str);
    qsort(sim, (size_t)n, sizeof *sim, cmp_str);
    for (int i = 0; i < n; i++) {
        commands++;
        if (strcmp(real[i], sim[i]) != 0) {
            differences++;
            printf("DIFF %s:%ld push: a message on %s\n  real: %s\n  sim:  %s\n", file, lineno, c->addr,
                   real[i], sim[i]);
        }
        free(real[i]);
        free(sim[i]);
    }
    free(real);
    free(sim);
    redisReaderFree(rd);
    sim_buf_free(&b);
}

/* One file: its connections are new, the key space empty on both sides;
 * the scripts loaded stay (a file may use those another loaded, as a
 * client's EVALSHA uses those its handshake loaded). */
static int replay(const char *file, int port, redisContext *admin, sim_master *m)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        return -1;
    }
    freeReplyObject(redisCommand(admin, "FLUSHALL"));
    {
        static const char flush[] = "*1\r\n$8\r\nFLUSHALL\r\n";
        sim_buf o = { 0 };
        long long id = sim_master_connect(m);
        sim_master_feed(m, id, flush, sizeof flush - 1, now_ms(), &o);
        sim_master_disconnect(m, id);
        sim_buf_free(&o);
    }
    static conn conns[MAX_CONNS];
    int nconns = 0;
    static char *argv[MAX_ARGS];
    static size_t len[MAX_ARGS];
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    sim_buf out = { 0 }, req = { 0 };

    while (getline(&line, &cap, f) > 0) {
        char *addr;
        int argc;
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (!parse_line(line, &addr, argv, len, &argc))
            continue;
        int i = 0;
        while (i < nconns && strcmp(conns[i].addr, addr) != 0)
            i++;
        if (i == nconns) {
            if (nconns == MAX_CONNS)
                continue;
            snprintf(conns[i].addr, sizeof conns[i].addr, "%s", addr);
            conns[i].real = redisConnect("127.0.0.1", port);
            conns[i].sim = sim_master_connect(m);
            conns[i].subscribed = 0;
            struct timeval tv = { 2, 0 };
            redisSetTimeout(conns[i].real, tv);
            nconns++;
        }
        conn *c = &conns[i];
        if (!c->real || c->real->err)
            continue;       /* killed: the capture's later lines on it went nowhere */

        /* the real server */
        redisReply *real = redisCommandArgv(c->real, argc, (const char **)argv, len);
        /* the simulated one, from the same bytes */
        req.len = 0;
        char head[32];
        int k = snprintf(head, sizeof head, "*%d\r\n", argc);
        sim_buf_put(&req, head, (size_t)k);
        for (int j = 0; j < argc; j++) {
            k = snprintf(head, sizeof head, "$%zu\r\n", len[j]);
            sim_buf_put(&req, head, (size_t)k);
            sim_buf_put(&req, argv[j], len[j]);
            sim_buf_put(&req, "\r\n", 2);
        }
        /* in two pieces, cut anywhere: the first one alone is no command */
        out.len = 0;
        size_t cut = (size_t)lineno * 7919 % req.len;
        int rc = sim_master_feed(m, c->sim, req.p, cut, now_ms(), &out);
        if (rc == 0 && out.len != 0) {
            differences++;
            printf("DIFF %s:%ld the sim answered %zu of %zu bytes of a command\n", file, lineno, cut, req.len);
        }
        if (rc == 0)
            rc = sim_master_feed(m, c->sim, req.p + cut, req.len - cut, now_ms(), &out);
        redisReader *rd = redisReaderCreate();
        redisReply *sim = out.len ? sim_reply(rd, &out) : NULL;
        commands++;
        if (rc != 0) {
            differences++;
            printf("DIFF %s:%ld sim failed: %s\n", file, lineno, sim_master_error(m));
        } else if (!compare(argv, len, argc, real, sim)) {
            differences++;
            report(file, lineno, argv, len, argc, "reply", real, sim);
        } else if (verbose) {
            report(file, lineno, argv, len, argc, "same", real, sim);
        }
        if (is(argv[0], len[0], "subscribe"))
            c->subscribed = 1;
        /* SUBSCRIBE with several channels: one reply each */
        for (int j = 2; rc == 0 && j < argc && (is(argv[0], len[0], "subscribe") || is(argv[0], len[0], "unsubscribe")); j++) {
            void *more_real = NULL;
            void *more_sim = NULL;
            if (redisGetReply(c->real, &more_real) != REDIS_OK)
                more_real = NULL;
            redisReaderGetReply(rd, &more_sim);
            commands++;
            if (!same(more_real, more_sim, 0, 0)) {
                differences++;
                report(file, lineno, argv, len, argc, "reply", more_real, more_sim);
            }
            freeReplyObject(more_real);
            freeReplyObject(more_sim);
        }
        redisReaderFree(rd);
        freeReplyObject(real);
        freeReplyObject(sim);
        for (int j = 0; j < nconns; j++)
            if (conns[j].subscribed && conns[j].real && !conns[j].real->err)
                compare_pushes(file, lineno, m, &conns[j]);
        for (long long id; (id = sim_master_take_killed(m)) >= 0;)
            for (int j = 0; j < nconns; j++)
                if (conns[j].sim == id && conns[j].real) {
                    redisFree(conns[j].real);
                    conns[j].real = NULL;
                }
    }
    for (int j = 0; j < nconns; j++) {
        if (conns[j].real)
            redisFree(conns[j].real);
        sim_master_disconnect(m, conns[j].sim);
    }
    sim_buf_free(&out);
    sim_buf_free(&req);
    free(line);
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
        verbose = 1;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-v] CAPTURE...\n", argv[0]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int port = free_port();
    pid_t pid = port > 0 ? start_server(port) : -1;
    if (pid < 0) {
        fprintf(stderr, "difftest: cannot start redis-server\n");
        return 2;
    }
    int failed = 0;
    redisContext *admin = redisConnect("127.0.0.1", port);
    sim_master_config cfg = { .name = "sim", .appendonly = "no", .save = "", .port = port, .run_id_seed = 1 };
    sim_master *m = sim_master_new(&cfg);
    if (!admin || admin->err || !m) {
        fprintf(stderr, "difftest: no admin connection or no sim_master\n");
        failed = 1;
    }
    for (int i = first; i < argc && !failed; i++)
        failed |= replay(argv[i], port, admin, m) != 0;
    sim_master_free(m);
    if (admin)
        redisFree(admin);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    printf("%ld commands, %ld differences\n", commands, differences);
    return failed || differences ? 1 : 0;
}
