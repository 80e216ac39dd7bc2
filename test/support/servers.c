/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* servers.c -- real redis-server processes for tests (see servers.h). */
#include "servers.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#define RLT_READY_TIMEOUT_MS 5000
#define RLT_START_ATTEMPTS 5
#define RLT_CLUSTER_BUS_INCR 10000
#define RLT_CLUSTER_MAX_PORT (65535 - RLT_CLUSTER_BUS_INCR)

struct rlt_server {
    pid_t pid;        /* 0: not running */
    int port;
    int paused;
    char *dir;
    char addr[32];
};

struct rlt_servers {
    int n;
    char *root;       /* the mkdtemp() directory */
    char *binary;     /* path of redis-server */
    char **extra;     /* copy of extra_args, NULL-terminated */
    size_t nextra;
    const char *password; /* last --requirepass of extra, or NULL */
    int cluster;      /* the last --cluster-enabled of extra is "yes" */
    struct rlt_server *srv;
    const char **addrs;
};

static void rlt_seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void rlt_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (err == NULL || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static int64_t rlt_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void rlt_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static char *rlt_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = malloc(len);
    if (p != NULL)
        memcpy(p, s, len);
    return p;
}

static char *rlt_path_join(const char *a, const char *b)
{
    size_t len = strlen(a) + 1 + strlen(b) + 1;
    char *p = malloc(len);
    if (p != NULL)
        snprintf(p, len, "%s/%s", a, b);
    return p;
}

/* $REDIS_SERVER, or redis-server on $PATH. */
static char *rlt_find_binary(void)
{
    const char *env = getenv("REDIS_SERVER");
    if (env != NULL && *env != '\0')
        return access(env, X_OK) == 0 ? rlt_strdup(env) : NULL;
    const char *path = getenv("PATH");
    if (path == NULL || *path == '\0')
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path != '\0') {
        const char *colon = strchr(path, ':');
        size_t len = colon != NULL ? (size_t)(colon - path) : strlen(path);
        char dir[PATH_MAX];
        if (len == 0) {
            snprintf(dir, sizeof dir, ".");
        } else if (len < sizeof dir) {
            memcpy(dir, path, len);
            dir[len] = '\0';
        } else {
            dir[0] = '\0';
        }
        if (dir[0] != '\0') {
            char *cand = rlt_path_join(dir, "redis-server");
            if (cand != NULL && access(cand, X_OK) == 0)
                return cand;
            free(cand);
        }
        if (colon == NULL)
            break;
        path = colon + 1;
    }
    return NULL;
}

/* A port that was free a moment ago; 0 on error. */
static int rlt_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = 0;
    socklen_t salen = sizeof sa;
    int port = 0;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        getsockname(fd, (struct sockaddr *)&sa, &salen) == 0)
        port = ntohs(sa.sin_port);
    close(fd);
    return port;
}

static int rlt_port_in_use(const rlt_servers *s, int port, int except)
{
    for (int i = 0; i < s->n; i++)
        if (i != except && s->srv[i].port == port)
            return 1;
    return 0;
}

/* 1 when 127.0.0.1:port can be bound now. */
static int rlt_port_free(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons((uint16_t)port);
    int ok = bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    close(fd);
    return ok;
}

/* Can server i listen on port?  A cluster node also listens on its bus
 * port, port + 10000 (Redis's default), and refuses to start on a port
 * above 55535 for that reason: the bus port must be free too, and must not
 * be another server's port or bus port. */
static int rlt_port_fits(const rlt_servers *s, int port, int i)
{
    if (rlt_port_in_use(s, port, i))
        return 0;
    if (!s->cluster)
        return 1;
    return port <= RLT_CLUSTER_MAX_PORT && !rlt_port_in_use(s, port - RLT_CLUSTER_BUS_INCR, i) &&
           !rlt_port_in_use(s, port + RLT_CLUSTER_BUS_INCR, i) &&
           rlt_port_free(port + RLT_CLUSTER_BUS_INCR);
}

/* The last non-empty line of a file, for error messages. */
static void rlt_tail(const char *path, char *out, size_t outlen)
{
    out[0] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[1024];
    off_t size = lseek(fd, 0, SEEK_END);
    off_t from = size > (off_t)sizeof buf - 1 ? size - (off_t)(sizeof buf - 1) : 0;
    ssize_t got = pread(fd, buf, sizeof buf - 1, from);
    close(fd);
    if (got <= 0)
        return;
    buf[got] = '\0';
    while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
        buf[--got] = '\0';
    char *line = strrchr(buf, '\n');
    line = line != NULL ? line + 1 : buf;
    size_t len = strlen(line);
    if (len >= outlen)
        len = outlen - 1;
    memcpy(out, line, len);
    out[len] = '\0';
}

static void rlt_server_tail(const rlt_servers *s, int i, char *out, size_t outlen)
{
    char *log = rlt_path_join(s->srv[i].dir, "redis.log");
    char *stdio = rlt_path_join(s->srv[i].dir, "stdio.log");
    out[0] = '\0';
    if (log != NULL)
        rlt_tail(log, out, outlen);
    if (out[0] == '\0' && stdio != NULL)
        rlt_tail(stdio, out, outlen);
    free(log);
    free(stdio);
}

/* The argv of server sv: the fixed arguments, then the caller's extras;
 * NULL when out of memory.  It points into port, logfile and s. */
static const char **rlt_server_argv(const rlt_servers *s, const struct rlt_server *sv,
                                    const char *port, const char *logfile)
{
    const char *fixed[] = {
        s->binary, "--port", port, "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--dir", sv->dir, "--daemonize", "no",
        "--protected-mode", "no", "--logfile", logfile,
    };
    size_t nfixed = sizeof fixed / sizeof fixed[0], argc = 0;
    const char **argv = calloc(nfixed + s->nextra + 1, sizeof *argv);
    if (argv == NULL)
        return NULL;
    for (size_t k = 0; k < nfixed; k++)
        argv[argc++] = fixed[k];
    for (size_t k = 0; k < s->nextra; k++)
        argv[argc++] = s->extra[k];
    argv[argc] = NULL;
    return argv;
}

/* In the fork()ed child: output to stdiofile, default signal handling,
 * death with the parent, then exec.  Only async-signal-safe calls. */
__attribute__((noreturn))
static void rlt_exec_child(const char *binary, const char **argv, const char *stdiofile,
                           pid_t parent)
{
    sigset_t none;
    struct sigaction sa;
    int in = open("/dev/null", O_RDONLY);
    int out = open(stdiofile, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (in >= 0)
        dup2(in, 0);
    if (out >= 0) {
        dup2(out, 1);
        dup2(out, 2);
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &sa, NULL);
    sigaction(SIGCHLD, &sa, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    execv(binary, (char *const *)argv);
    _exit(127);
}

/* fork() + exec redis-server for server i on its current port. */
static int rlt_spawn(rlt_servers *s, int i, char *err, size_t errlen)
{
    struct rlt_server *sv = &s->srv[i];
    char port[16];
    snprintf(port, sizeof port, "%d", sv->port);
    snprintf(sv->addr, sizeof sv->addr, "127.0.0.1:%d", sv->port);
    char *logfile = rlt_path_join(sv->dir, "redis.log");
    char *stdiofile = rlt_path_join(sv->dir, "stdio.log");
    const char **argv = logfile != NULL ? rlt_server_argv(s, sv, port, logfile) : NULL;
    int oom = logfile == NULL || stdiofile == NULL || argv == NULL;
    pid_t pid = -1;
    if (!oom) {
        pid_t parent = getpid();
        pid = fork();
        if (pid == 0)
            rlt_exec_child(s->binary, argv, stdiofile, parent);
    }
    int saved = errno;
    free(logfile);
    free(stdiofile);
    free(argv);
    if (oom) {
        rlt_seterr(err, errlen, "out of memory");
        return -1;
    }
    if (pid < 0) {
        rlt_seterr(err, errlen, "fork: %s", strerror(saved));
        return -1;
    }
    sv->pid = pid;
    sv->paused = 0;
    return 0;
}

static redisContext *rlt_connect(const rlt_servers *s, int port, int timeout_ms)
{
    struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", port, tv);
    if (c == NULL)
        return NULL;
    if (c->err) {
        redisFree(c);
        return NULL;
    }
    struct timeval cmd = {1, 0};
    redisSetTimeout(c, cmd);
    if (s->password != NULL) {
        redisReply *r = redisCommand(c, "AUTH %s", s->password);
        int ok = r != NULL && r->type == REDIS_REPLY_STATUS;
        if (r != NULL)
            freeReplyObject(r);
        if (!ok) {
            redisFree(c);
            return NULL;
        }
    }
    return c;
}

/* 1: server i (our process) answers and has loaded its data; 0: not yet;
 * -1: the process exited; -2: someone else answers on its port. */
static int rlt_probe(rlt_servers *s, int i)
{
    struct rlt_server *sv = &s->srv[i];
    int status;
    pid_t r = waitpid(sv->pid, &status, WNOHANG);
    if (r == sv->pid) {
        sv->pid = 0;
        return -1;
    }
    redisContext *c = rlt_connect(s, sv->port, 200);
    if (c == NULL)
        return 0;
    int res = 0;
    redisReply *rep = redisCommand(c, "PING");
    if (rep != NULL && rep->type == REDIS_REPLY_STATUS && strcmp(rep->str, "PONG") == 0) {
        freeReplyObject(rep);
        rep = redisCommand(c, "INFO");
        if (rep != NULL && rep->type == REDIS_REPLY_STRING) {
            char want[48];
            snprintf(want, sizeof want, "\nprocess_id:%d\r", (int)sv->pid);
            if (strstr(rep->str, want) == NULL)
                res = -2;
            else if (strstr(rep->str, "\nloading:0\r") != NULL)
                res = 1;
        }
    }
    if (rep != NULL)
        freeReplyObject(rep);
    redisFree(c);
    return res;
}

static void rlt_reap(struct rlt_server *sv)
{
    if (sv->pid <= 0)
        return;
    kill(sv->pid, SIGKILL);
    while (waitpid(sv->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    sv->pid = 0;
    sv->paused = 0;
}

/* Wait for server i to be ready; on failure kill it and explain in err. */
static int rlt_wait_ready(rlt_servers *s, int i, char *err, size_t errlen)
{
    struct rlt_server *sv = &s->srv[i];
    int64_t deadline = rlt_now_ms() + RLT_READY_TIMEOUT_MS;
    for (;;) {
        int st = rlt_probe(s, i);
        if (st == 1)
            return 0;
        char tail[256];
        if (st == -1) {
            rlt_server_tail(s, i, tail, sizeof tail);
            rlt_seterr(err, errlen, "redis-server %d (port %d) exited: %s", i, sv->port,
                       tail[0] != '\0' ? tail : "no log");
            return -1;
        }
        if (st == -2) {
            rlt_reap(sv);
            rlt_seterr(err, errlen, "port %d of redis-server %d is taken by another process",
                       sv->port, i);
            return -1;
        }
        if (rlt_now_ms() >= deadline) {
            rlt_reap(sv);
            rlt_server_tail(s, i, tail, sizeof tail);
            rlt_seterr(err, errlen, "redis-server %d (port %d) did not answer PING within %d ms: %s",
                       i, sv->port, RLT_READY_TIMEOUT_MS, tail[0] != '\0' ? tail : "no log");
            return -1;
        }
        rlt_sleep_ms(5);
    }
}

static int rlt_pick_port(rlt_servers *s, int i)
{
    for (int k = 0; k < 100; k++) {
        int port = rlt_free_port();
        if (port != 0 && rlt_port_fits(s, port, i))
            return port;
    }
    return 0;
}

/* A copy of the caller's extra arguments, and the password among them. */
static int rlt_copy_extra(rlt_servers *s, const char *const *extra_args)
{
    size_t nextra = 0;
    while (extra_args != NULL && extra_args[nextra] != NULL)
        nextra++;
    s->extra = calloc(nextra + 1, sizeof *s->extra);
    if (s->extra == NULL)
        return -1;
    for (size_t k = 0; k < nextra; k++) {
        s->extra[k] = rlt_strdup(extra_args[k]);
        if (s->extra[k] == NULL)
            return -1;
        s->nextra++;
        if (k > 0 && strcmp(extra_args[k - 1], "--requirepass") == 0)
            s->password = s->extra[k][0] != '\0' ? s->extra[k] : NULL;
        if (k > 0 && strcmp(extra_args[k - 1], "--cluster-enabled") == 0)
            s->cluster = strcmp(extra_args[k], "yes") == 0;
    }
    return 0;
}

/* The mkdtemp() root and one directory in it per server. */
static int rlt_make_dirs(rlt_servers *s, int n, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || *tmp == '\0')
        tmp = "/tmp";
    s->root = rlt_path_join(tmp, "rlt-XXXXXX");
    if (s->root == NULL)
        goto oom;
    if (mkdtemp(s->root) == NULL) {
        rlt_seterr(err, errlen, "mkdtemp %s: %s", s->root, strerror(errno));
        free(s->root);
        s->root = NULL;
        return -1;
    }
    s->n = n;
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "s%d", i);
        s->srv[i].dir = rlt_path_join(s->root, name);
        if (s->srv[i].dir == NULL)
            goto oom;
        if (mkdir(s->srv[i].dir, 0700) != 0) {
            rlt_seterr(err, errlen, "mkdir %s: %s", s->srv[i].dir, strerror(errno));
            return -1;
        }
        s->addrs[i] = s->srv[i].addr;
    }
    return 0;
oom:
    rlt_seterr(err, errlen, "out of memory");
    return -1;
}

/* Start them all, then wait for each; a server that fails to start (its
 * port was taken meanwhile) is tried again on another port. */
static int rlt_start_all(rlt_servers *s, char *err, size_t errlen)
{
    for (int i = 0; i < s->n; i++) {
        s->srv[i].port = rlt_pick_port(s, i);
        if (s->srv[i].port == 0) {
            rlt_seterr(err, errlen, "no free port: %s", strerror(errno));
            return -1;
        }
        if (rlt_spawn(s, i, err, errlen) != 0)
            return -1;
    }
    for (int i = 0; i < s->n; i++) {
        int attempt = 1;
        while (rlt_wait_ready(s, i, err, errlen) != 0) {
            if (++attempt > RLT_START_ATTEMPTS)
                return -1;
            s->srv[i].port = rlt_pick_port(s, i);
            if (s->srv[i].port == 0 || rlt_spawn(s, i, err, errlen) != 0)
                return -1;
        }
    }
    return 0;
}

rlt_servers *rlt_servers_start(int n, const char *const *extra_args, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (n <= 0) {
        rlt_seterr(err, errlen, "rlt_servers_start: n must be positive, not %d", n);
        return NULL;
    }
    rlt_servers *s = calloc(1, sizeof *s);
    if (s == NULL) {
        rlt_seterr(err, errlen, "out of memory");
        return NULL;
    }
    s->binary = rlt_find_binary();
    if (s->binary == NULL) {
        rlt_seterr(err, errlen, "redis-server not found (install it, put it on PATH or set REDIS_SERVER)");
        free(s);
        return NULL;
    }
    s->srv = calloc((size_t)n, sizeof *s->srv);
    s->addrs = calloc((size_t)n + 1, sizeof *s->addrs);
    if (s->srv == NULL || s->addrs == NULL || rlt_copy_extra(s, extra_args) != 0) {
        rlt_seterr(err, errlen, "out of memory");
        rlt_servers_free(s);
        return NULL;
    }
    if (rlt_make_dirs(s, n, err, errlen) != 0 || rlt_start_all(s, err, errlen) != 0) {
        rlt_servers_free(s);
        return NULL;
    }
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    return s;
}

static int rlt_valid(const rlt_servers *s, int i)
{
    return s != NULL && i >= 0 && i < s->n;
}

int rlt_servers_count(const rlt_servers *s)
{
    return s != NULL ? s->n : 0;
}

const char *rlt_servers_addr(const rlt_servers *s, int i)
{
    return rlt_valid(s, i) ? s->srv[i].addr : NULL;
}

const char *const *rlt_servers_addrs(const rlt_servers *s)
{
    return s != NULL ? s->addrs : NULL;
}

int rlt_servers_port(const rlt_servers *s, int i)
{
    return rlt_valid(s, i) ? s->srv[i].port : -1;
}

const char *rlt_servers_dir(const rlt_servers *s, int i)
{
    return rlt_valid(s, i) ? s->srv[i].dir : NULL;
}

pid_t rlt_servers_pid(const rlt_servers *s, int i)
{
    return rlt_valid(s, i) ? s->srv[i].pid : 0;
}

int rlt_servers_running(const rlt_servers *s, int i)
{
    return rlt_valid(s, i) && s->srv[i].pid > 0 && !s->srv[i].paused;
}

int rlt_servers_kill(rlt_servers *s, int i)
{
    if (!rlt_valid(s, i) || s->srv[i].pid <= 0)
        return -1;
    rlt_reap(&s->srv[i]);
    return 0;
}

/* Stop (SIGSTOP, paused 1) or continue (SIGCONT, paused 0) server i and
 * wait until waitpid reports it done. */
static int rlt_stop_or_continue(rlt_servers *s, int i, int paused)
{
    if (!rlt_valid(s, i) || s->srv[i].pid <= 0)
        return -1;
    struct rlt_server *sv = &s->srv[i];
    if (sv->paused == paused)
        return 0;
    if (kill(sv->pid, paused ? SIGSTOP : SIGCONT) != 0)
        return -1;
    for (;;) {
        int status;
        pid_t r = waitpid(sv->pid, &status, paused ? WUNTRACED : WCONTINUED);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != sv->pid)
            return -1;
        if (paused ? WIFSTOPPED(status) : WIFCONTINUED(status))
            break;
        if (WIFEXITED(status) || WIFSIGNALED(status)) {
            sv->pid = 0;
            return -1;
        }
    }
    sv->paused = paused;
    return 0;
}

int rlt_servers_pause(rlt_servers *s, int i)
{
    return rlt_stop_or_continue(s, i, 1);
}

int rlt_servers_resume(rlt_servers *s, int i)
{
    return rlt_stop_or_continue(s, i, 0);
}

int rlt_servers_restart(rlt_servers *s, int i)
{
    if (!rlt_valid(s, i))
        return -1;
    rlt_reap(&s->srv[i]);
    char err[256];
    for (int attempt = 0; attempt < RLT_START_ATTEMPTS; attempt++) {
        if (rlt_spawn(s, i, err, sizeof err) != 0)
            return -1;
        if (rlt_wait_ready(s, i, err, sizeof err) == 0)
            return 0;
    }
    fprintf(stderr, "rlt_servers_restart: %s\n", err);
    return -1;
}

/* A server that closes the connection must not kill the caller with
 * SIGPIPE: commands run with it blocked in this thread, and what was raised
 * meanwhile is discarded. */
static void rlt_block_pipe(sigset_t *pipe_set, sigset_t *old)
{
    sigemptyset(pipe_set);
    sigaddset(pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, pipe_set, old);
}

static void rlt_restore_pipe(const sigset_t *pipe_set, const sigset_t *old)
{
    if (sigismember(old, SIGPIPE))
        return;
    struct timespec zero = {0, 0};
    while (sigtimedwait(pipe_set, NULL, &zero) == SIGPIPE)
        ;
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

void *rlt_servers_vcommand(rlt_servers *s, int i, const char *fmt, va_list ap)
{
    if (!rlt_valid(s, i) || s->srv[i].pid <= 0)
        return NULL;
    sigset_t pipe_set, old;
    rlt_block_pipe(&pipe_set, &old);
    void *reply = NULL;
    redisContext *c = rlt_connect(s, s->srv[i].port, 1000);
    if (c != NULL) {
        reply = redisvCommand(c, fmt, ap);
        redisFree(c);
    }
    rlt_restore_pipe(&pipe_set, &old);
    return reply;
}

void *rlt_servers_command(rlt_servers *s, int i, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    void *reply = rlt_servers_vcommand(s, i, fmt, ap);
    va_end(ap);
    return reply;
}

void *rlt_servers_command_argv(rlt_servers *s, int i, int argc, const char **argv,
                               const size_t *argvlen)
{
    if (!rlt_valid(s, i) || s->srv[i].pid <= 0 || argc <= 0)
        return NULL;
    sigset_t pipe_set, old;
    rlt_block_pipe(&pipe_set, &old);
    void *reply = NULL;
    redisContext *c = rlt_connect(s, s->srv[i].port, 1000);
    if (c != NULL) {
        reply = redisCommandArgv(c, argc, argv, argvlen);
        redisFree(c);
    }
    rlt_restore_pipe(&pipe_set, &old);
    return reply;
}

int rlt_servers_exists(rlt_servers *s, int i, const void *key, size_t len)
{
    redisReply *r = rlt_servers_command(s, i, "EXISTS %b", key, len);
    int res = -1;
    if (r != NULL && r->type == REDIS_REPLY_INTEGER)
        res = r->integer > 0;
    if (r != NULL)
        freeReplyObject(r);
    return res;
}

int rlt_servers_count_key(rlt_servers *s, const void *key, size_t len)
{
    int count = 0;
    if (s == NULL)
        return -1;
    for (int i = 0; i < s->n; i++) {
        if (!rlt_servers_running(s, i))
            continue;
        int e = rlt_servers_exists(s, i, key, len);
        if (e < 0)
            return -1; /* never mistake a failed probe for an absent key */
        count += e;
    }
    return count;
}

static int rlt_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void rlt_servers_free(rlt_servers *s)
{
    if (s == NULL)
        return;
    for (int i = 0; i < s->n; i++)
        rlt_reap(&s->srv[i]);
    if (s->root != NULL)
        nftw(s->root, rlt_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (s->srv != NULL)
        for (int i = 0; i < s->n; i++)
            free(s->srv[i].dir);
    if (s->extra != NULL)
        for (size_t k = 0; k < s->nextra; k++)
            free(s->extra[k]);
    free(s->extra);
    free(s->srv);
    free(s->addrs);
    free(s->root);
    free(s->binary);
    free(s);
}
