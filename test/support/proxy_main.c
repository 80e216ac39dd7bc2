/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rlproxy -- standalone fault-injecting TCP proxy (see proxy.h).
 *
 *   rlproxy --listen PORT --target HOST:PORT [--listen PORT --target HOST:PORT ...]
 *           [--map LISTEN:[HOST:]PORT ...] [--control PORT] [--exit-on-eof]
 *
 * Each --listen/--target pair (or --map) is one proxy; proxies are numbered
 * from 0 in the order given.  --listen 0 (or a --target without --listen)
 * picks a free port.  When everything is listening it prints
 *     listening P0 [P1 ...]
 * and, with --control,
 *     control C
 * on stdout (flushed).  Then it reads one command per line on stdin and on
 * every connection to the control port (127.0.0.1 only) and answers one line,
 * "ok ..." or "err <reason>".  A command may be prefixed by "@N" (or "N") to
 * apply to proxy N only; without it, it applies to all proxies.
 *
 *   latency up|down|both MS [JITTER_MS]
 *   bandwidth up|down|both BYTES_PER_SEC      (0 = unlimited)
 *   blackhole on|off
 *   halfopen on|off
 *   pause on|off
 *   refuse on|off
 *   reset                                     (RST every current connection)
 *   setreset N                                (reset the next N connections right
 *                                              after they forwarded a SET; 0 = off)
 *   hostile line|error|garbage|off            (replace the next reply of every
 *                                              connection by an endless line, a
 *                                              4 MiB error or garbage; see proxy.h)
 *   clear                                     (all faults off)
 *   status                                    (ok + one "[i] key=value..." group per proxy)
 *   ports                                     (ok P0 P1 ...)
 *   help
 *   quit                                      (answers ok, then exits)
 *
 * Blank lines and lines starting with '#' are ignored (no answer).  EOF on
 * stdin is ignored unless --exit-on-eof.  SIGINT/SIGTERM exit cleanly.
 */
#include "proxy.h"

#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

#define MAX_PROXIES 64
#define LINE_MAX_LEN 1024

typedef struct linebuf {
    char buf[LINE_MAX_LEN];
    size_t len;
    int overflow;
} linebuf;

typedef struct client {
    struct client *next, *prev;
    int fd;
    struct event *ev;
    linebuf lb;
} client;

static struct {
    struct event_base *base;
    rlp_proxy *px[MAX_PROXIES];
    char host[MAX_PROXIES][256];
    int nproxies;
    int cfd;
    struct event *ev_ctl, *ev_stdin, *ev_int, *ev_term;
    client *clients;
    linebuf stdin_lb;
    int exit_on_eof;
    int quitting;
} G;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rlproxy --listen PORT --target HOST:PORT [--listen PORT --target HOST:PORT ...]\n"
            "               [--map LISTEN:[HOST:]PORT ...] [--control PORT] [--exit-on-eof]\n"
            "commands (stdin / control port, optional @N prefix selects proxy N):\n"
            "  latency up|down|both MS [JITTER] | bandwidth up|down|both BPS\n"
            "  blackhole on|off | halfopen on|off | pause on|off | refuse on|off\n"
            "  setreset N | hostile line|error|garbage|off\n"
            "  reset | clear | status | ports | help | quit\n");
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;
    if (!s || !*s)
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_onoff(const char *s)
{
    if (!s)
        return -1;
    if (!strcasecmp(s, "on") || !strcmp(s, "1") || !strcasecmp(s, "true"))
        return 1;
    if (!strcasecmp(s, "off") || !strcmp(s, "0") || !strcasecmp(s, "false"))
        return 0;
    return -1;
}

/* "HOST:PORT", "PORT" or "[v6]:PORT" -> host (default 127.0.0.1) and port. */
static int parse_hostport(const char *s, char *host, size_t hostlen, int *port)
{
    const char *colon = strrchr(s, ':');
    long v;
    if (!colon) {
        snprintf(host, hostlen, "127.0.0.1");
        if (parse_int(s, 1, 65535, &v) < 0)
            return -1;
        *port = (int)v;
        return 0;
    }
    if (parse_int(colon + 1, 1, 65535, &v) < 0)
        return -1;
    *port = (int)v;
    if (colon == s) {
        snprintf(host, hostlen, "127.0.0.1");
    } else if (s[0] == '[' && colon[-1] == ']') {
        snprintf(host, hostlen, "%.*s", (int)(colon - s - 2), s + 1);
    } else {
        snprintf(host, hostlen, "%.*s", (int)(colon - s), s);
    }
    return 0;
}

static void reply_fd(int fd, const char *s)
{
    size_t len = strlen(s), off = 0;
    while (off < len) {
        ssize_t w = fd == STDOUT_FILENO ? write(fd, s + off, len - off)
                                        : send(fd, s + off, len - off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;   /* reader gone or not reading: answers are best effort */
        off += (size_t)w;
    }
}

/* Small append-only string builder for answers. */
typedef struct sbuf {
    char s[8192];
    size_t len;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (b->len >= sizeof b->s - 1)
        return;
    va_start(ap, fmt);
    n = vsnprintf(b->s + b->len, sizeof b->s - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
    if (b->len > sizeof b->s - 1)
        b->len = sizeof b->s - 1;
}

static void status_of(sbuf *b, int i)
{
    rlp_stats st;
    rlp_faults f;
    rlp_proxy_stats(G.px[i], &st);
    rlp_proxy_faults(G.px[i], &f);
    sb_add(b, " [%d] listen=%d target=%s:%d conns=%d accepted=%lu refused=%lu"
              " upstream_failed=%lu resets=%lu bytes_up=%llu bytes_down=%llu"
              " dropped_up=%llu dropped_down=%llu latency_up=%d/%d latency_down=%d/%d"
              " bandwidth_up=%ld bandwidth_down=%ld blackhole=%d halfopen=%d pause=%d refuse=%d"
              " setreset=%d hostile=%s setresets=%lu hostile_conns=%lu",
           i, rlp_proxy_port(G.px[i]), G.host[i], rlp_proxy_target_port(G.px[i]),
           st.conns, st.accepted, st.refused, st.upstream_failed, st.resets,
           st.bytes_up, st.bytes_down, st.dropped_up, st.dropped_down,
           f.delay_ms[0], f.jitter_ms[0], f.delay_ms[1], f.jitter_ms[1],
           f.bandwidth[0], f.bandwidth[1], f.blackhole, f.halfopen, f.pause, f.refuse,
           f.setreset, rlp_hostile_name(f.hostile), st.setresets, st.hostile_conns);
}

/* Executes one command line; writes the answer (with '\n') into out.
 * Returns 0, or 1 if nothing is to be answered. */
static int run_command(char *line, sbuf *out)
{
    char *tok[8];
    int ntok = 0, first, last, i, onoff;
    long a, b;
    char *save = NULL, *t;
    const char *cmd;

    for (t = strtok_r(line, " \t\r\n", &save); t && ntok < 8; t = strtok_r(NULL, " \t\r\n", &save))
        tok[ntok++] = t;
    if (ntok == 0 || tok[0][0] == '#')
        return 1;
    if (t) {
        sb_add(out, "err too many arguments\n");
        return 0;
    }
    first = 0;
    last = G.nproxies - 1;
    if (tok[0][0] == '@' || (tok[0][0] >= '0' && tok[0][0] <= '9')) {
        const char *n = tok[0][0] == '@' ? tok[0] + 1 : tok[0];
        if (parse_int(n, 0, G.nproxies - 1, &a) < 0) {
            sb_add(out, "err no such proxy index: %s (have %d)\n", n, G.nproxies);
            return 0;
        }
        first = last = (int)a;
        memmove(tok, tok + 1, (size_t)(ntok - 1) * sizeof tok[0]);
        ntok--;
        if (ntok == 0) {
            sb_add(out, "err missing command\n");
            return 0;
        }
    }
    cmd = tok[0];

    if (!strcasecmp(cmd, "latency") || !strcasecmp(cmd, "bandwidth")) {
        int dir = ntok > 1 ? rlp_parse_dir(tok[1]) : 0;
        int is_lat = !strcasecmp(cmd, "latency");
        if (!dir) {
            sb_add(out, "err usage: %s up|down|both %s\n", cmd, is_lat ? "MS [JITTER]" : "BYTES_PER_SEC");
            return 0;
        }
        if (ntok < 3 || ntok > (is_lat ? 4 : 3) ||
            parse_int(tok[2], 0, is_lat ? 3600000 : LONG_MAX, &a) < 0) {
            sb_add(out, "err usage: %s up|down|both %s\n", cmd, is_lat ? "MS [JITTER]" : "BYTES_PER_SEC");
            return 0;
        }
        b = 0;
        if (ntok == 4 && parse_int(tok[3], 0, 3600000, &b) < 0) {
            sb_add(out, "err bad jitter: %s\n", tok[3]);
            return 0;
        }
        for (i = first; i <= last; i++) {
            if (is_lat)
                rlp_proxy_set_latency(G.px[i], dir, (int)a, (int)b);
            else
                rlp_proxy_set_bandwidth(G.px[i], dir, a);
        }
        sb_add(out, "ok\n");
        return 0;
    }
    if (!strcasecmp(cmd, "blackhole") || !strcasecmp(cmd, "halfopen") ||
        !strcasecmp(cmd, "pause") || !strcasecmp(cmd, "refuse")) {
        if (ntok != 2 || (onoff = parse_onoff(tok[1])) < 0) {
            sb_add(out, "err usage: %s on|off\n", cmd);
            return 0;
        }
        for (i = first; i <= last; i++) {
            if (!strcasecmp(cmd, "blackhole"))
                rlp_proxy_set_blackhole(G.px[i], onoff);
            else if (!strcasecmp(cmd, "halfopen"))
                rlp_proxy_set_halfopen(G.px[i], onoff);
            else if (!strcasecmp(cmd, "pause"))
                rlp_proxy_set_pause(G.px[i], onoff);
            else
                rlp_proxy_set_refuse(G.px[i], onoff);
        }
        sb_add(out, "ok\n");
        return 0;
    }
    if (!strcasecmp(cmd, "setreset")) {
        if (ntok != 2 || parse_int(tok[1], 0, 1000000, &a) < 0) {
            sb_add(out, "err usage: setreset N\n");
            return 0;
        }
        for (i = first; i <= last; i++)
            rlp_proxy_set_setreset(G.px[i], (int)a);
        sb_add(out, "ok\n");
        return 0;
    }
    if (!strcasecmp(cmd, "hostile")) {
        int kind = ntok == 2 ? rlp_parse_hostile(tok[1]) : -1;
        if (kind < 0) {
            sb_add(out, "err usage: hostile line|error|garbage|off\n");
            return 0;
        }
        for (i = first; i <= last; i++)
            rlp_proxy_set_hostile(G.px[i], kind);
        sb_add(out, "ok\n");
        return 0;
    }
    if (ntok != 1) {
        sb_add(out, "err unexpected arguments to %s\n", cmd);
        return 0;
    }
    if (!strcasecmp(cmd, "reset")) {
        for (i = first; i <= last; i++)
            rlp_proxy_reset_all(G.px[i]);
        sb_add(out, "ok\n");
    } else if (!strcasecmp(cmd, "clear")) {
        for (i = first; i <= last; i++)
            rlp_proxy_clear(G.px[i]);
        sb_add(out, "ok\n");
    } else if (!strcasecmp(cmd, "status")) {
        sb_add(out, "ok");
        for (i = first; i <= last; i++)
            status_of(out, i);
        sb_add(out, "\n");
    } else if (!strcasecmp(cmd, "ports")) {
        sb_add(out, "ok");
        for (i = first; i <= last; i++)
            sb_add(out, " %d", rlp_proxy_port(G.px[i]));
        sb_add(out, "\n");
    } else if (!strcasecmp(cmd, "help")) {
        sb_add(out, "ok commands: latency up|down|both MS [JITTER]; bandwidth up|down|both BPS;"
                    " blackhole|halfopen|pause|refuse on|off; setreset N;"
                    " hostile line|error|garbage|off; reset; clear; status; ports; quit;"
                    " prefix @N for one proxy\n");
    } else if (!strcasecmp(cmd, "quit") || !strcasecmp(cmd, "exit")) {
        sb_add(out, "ok\n");
        G.quitting = 1;
        event_base_loopbreak(G.base);
    } else {
        sb_add(out, "err unknown command: %s\n", cmd);
    }
    return 0;
}

/* Feeds bytes to a line buffer, running and answering each complete line. */
static void feed(linebuf *lb, const char *data, size_t n, int outfd)
{
    size_t i;
    for (i = 0; i < n; i++) {
        char ch = data[i];
        if (ch != '\n') {
            if (lb->len < sizeof lb->buf - 1)
                lb->buf[lb->len++] = ch;
            else
                lb->overflow = 1;
            continue;
        }
        if (lb->overflow) {
            reply_fd(outfd, "err line too long\n");
        } else if (!G.quitting) {
            sbuf out;
            out.len = 0;
            out.s[0] = '\0';
            lb->buf[lb->len] = '\0';
            if (run_command(lb->buf, &out) == 0)
                reply_fd(outfd, out.s);
        }
        lb->len = 0;
        lb->overflow = 0;
    }
}

static void client_free(client *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        G.clients = c->next;
    if (c->next)
        c->next->prev = c->prev;
    event_free(c->ev);
    close(c->fd);
    free(c);
}

static void on_client(evutil_socket_t fd, short what, void *arg)
{
    client *c = arg;
    char buf[4096];
    ssize_t n;
    (void)what;
    n = recv(fd, buf, sizeof buf, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) {
        client_free(c);
        return;
    }
    feed(&c->lb, buf, (size_t)n, c->fd);
}

static void on_ctl_accept(evutil_socket_t fd, short what, void *arg)
{
    int i;
    (void)what;
    (void)arg;
    for (i = 0; i < 16; i++) {
        int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        client *c;
        if (cfd < 0)
            return;
        c = calloc(1, sizeof *c);
        if (!c) {
            close(cfd);
            continue;
        }
        c->fd = cfd;
        c->ev = event_new(G.base, cfd, EV_READ | EV_PERSIST, on_client, c);
        if (!c->ev || event_add(c->ev, NULL) < 0) {
            if (c->ev)
                event_free(c->ev);
            close(cfd);
            free(c);
            continue;
        }
        c->next = G.clients;
        if (G.clients)
            G.clients->prev = c;
        G.clients = c;
    }
}

static void stdin_eof(void)
{
    if (G.ev_stdin) {
        event_free(G.ev_stdin);
        G.ev_stdin = NULL;
    }
    if (G.exit_on_eof) {
        G.quitting = 1;
        event_base_loopbreak(G.base);
    }
}

static void on_stdin(evutil_socket_t fd, short what, void *arg)
{
    char buf[4096];
    ssize_t n;
    (void)what;
    (void)arg;
    n = read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) {
        stdin_eof();
        return;
    }
    feed(&G.stdin_lb, buf, (size_t)n, STDOUT_FILENO);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    (void)arg;
    G.quitting = 1;
    event_base_loopbreak(G.base);
}

static int control_listen(int port)
{
    struct sockaddr_in sin;
    socklen_t sl = sizeof sin;
    int one = 1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)port);
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&sin, sizeof sin) < 0 || listen(fd, 16) < 0 ||
        getsockname(fd, (struct sockaddr *)&sin, &sl) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    G.cfd = fd;
    return ntohs(sin.sin_port);
}

static void cleanup(void)
{
    int i;
    while (G.clients)
        client_free(G.clients);
    if (G.ev_ctl)
        event_free(G.ev_ctl);
    if (G.cfd >= 0)
        close(G.cfd);
    if (G.ev_stdin)
        event_free(G.ev_stdin);
    if (G.ev_int)
        event_free(G.ev_int);
    if (G.ev_term)
        event_free(G.ev_term);
    for (i = 0; i < G.nproxies; i++)
        rlp_proxy_free(G.px[i]);
    if (G.base)
        event_base_free(G.base);
    libevent_global_shutdown();
}

int main(int argc, char **argv)
{
    int listen_ports[MAX_PROXIES], target_ports[MAX_PROXIES];
    int n = 0, pending_listen = -1, control = -1, i, cport = -1;
    char err[512];
    long v;
    struct stat sst;

    memset(&G, 0, sizeof G);
    G.cfd = -1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--exit-on-eof")) {
            G.exit_on_eof = 1;
        } else if (!strcmp(a, "--listen") || !strcmp(a, "-l")) {
            if (pending_listen >= 0 || parse_int(val, 0, 65535, &v) < 0) {
                fprintf(stderr, "rlproxy: --listen needs a port (0-65535), each followed by --target\n");
                return 2;
            }
            pending_listen = (int)v;
            i++;
        } else if (!strcmp(a, "--target") || !strcmp(a, "-t")) {
            if (n >= MAX_PROXIES || !val ||
                parse_hostport(val, G.host[n], sizeof G.host[n], &target_ports[n]) < 0) {
                fprintf(stderr, "rlproxy: bad --target (HOST:PORT) or too many proxies\n");
                return 2;
            }
            listen_ports[n] = pending_listen >= 0 ? pending_listen : 0;
            pending_listen = -1;
            n++;
            i++;
        } else if (!strcmp(a, "--map") || !strcmp(a, "-m")) {
            const char *colon = val ? strchr(val, ':') : NULL;
            char lp[16];
            if (n >= MAX_PROXIES || !colon || (size_t)(colon - val) >= sizeof lp) {
                fprintf(stderr, "rlproxy: bad --map (LISTEN:[HOST:]PORT) or too many proxies\n");
                return 2;
            }
            snprintf(lp, sizeof lp, "%.*s", (int)(colon - val), val);
            if (parse_int(lp, 0, 65535, &v) < 0 ||
                parse_hostport(colon + 1, G.host[n], sizeof G.host[n], &target_ports[n]) < 0) {
                fprintf(stderr, "rlproxy: bad --map %s\n", val);
                return 2;
            }
            listen_ports[n] = (int)v;
            n++;
            i++;
        } else if (!strcmp(a, "--control") || !strcmp(a, "-c")) {
            if (parse_int(val, 0, 65535, &v) < 0) {
                fprintf(stderr, "rlproxy: --control needs a port (0-65535)\n");
                return 2;
            }
            control = (int)v;
            i++;
        } else {
            fprintf(stderr, "rlproxy: unknown argument %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (pending_listen >= 0) {
        fprintf(stderr, "rlproxy: --listen %d has no --target\n", pending_listen);
        return 2;
    }
    if (n == 0) {
        usage(stderr);
        return 2;
    }

    signal(SIGPIPE, SIG_IGN);
    /* Started in the background of an interactive shell, reading the tty
     * must fail (EIO -> stdin ignored) rather than stop the proxy. */
    signal(SIGTTIN, SIG_IGN);
    signal(SIGTTOU, SIG_IGN);
    G.base = rlp_base_new();
    if (!G.base) {
        fprintf(stderr, "rlproxy: event_base_new failed\n");
        return 1;
    }
    for (i = 0; i < n; i++) {
        G.px[i] = rlp_proxy_new(G.base, listen_ports[i], G.host[i], target_ports[i], err, sizeof err);
        if (!G.px[i]) {
            fprintf(stderr, "rlproxy: proxy %d: %s\n", i, err);
            cleanup();
            return 1;
        }
        G.nproxies = i + 1;
    }
    if (control >= 0) {
        cport = control_listen(control);
        if (cport < 0) {
            fprintf(stderr, "rlproxy: control port %d: %s\n", control, strerror(errno));
            cleanup();
            return 1;
        }
        G.ev_ctl = event_new(G.base, G.cfd, EV_READ | EV_PERSIST, on_ctl_accept, NULL);
        if (!G.ev_ctl || event_add(G.ev_ctl, NULL) < 0) {
            fprintf(stderr, "rlproxy: control event failed\n");
            cleanup();
            return 1;
        }
    }
    G.ev_int = evsignal_new(G.base, SIGINT, on_signal, NULL);
    G.ev_term = evsignal_new(G.base, SIGTERM, on_signal, NULL);
    if (!G.ev_int || !G.ev_term || evsignal_add(G.ev_int, NULL) < 0 ||
        evsignal_add(G.ev_term, NULL) < 0) {
        fprintf(stderr, "rlproxy: signal events failed\n");
        cleanup();
        return 1;
    }

    printf("listening");
    for (i = 0; i < n; i++)
        printf(" %d", rlp_proxy_port(G.px[i]));
    printf("\n");
    if (cport >= 0)
        printf("control %d\n", cport);
    fflush(stdout);

    /* stdin: pipes, sockets and ttys go through the event loop; regular
     * files and /dev/null cannot be polled, so they are read right away. */
    if (fstat(STDIN_FILENO, &sst) == 0 &&
        !(S_ISREG(sst.st_mode) || (S_ISCHR(sst.st_mode) && !isatty(STDIN_FILENO))))
        G.ev_stdin = event_new(G.base, STDIN_FILENO, EV_READ | EV_PERSIST, on_stdin, NULL);
    if (!G.ev_stdin || event_add(G.ev_stdin, NULL) < 0) {
        char buf[4096];
        ssize_t r;
        if (G.ev_stdin)
            event_free(G.ev_stdin);
        G.ev_stdin = NULL;
        while (!G.quitting && (r = read(STDIN_FILENO, buf, sizeof buf)) > 0)
            feed(&G.stdin_lb, buf, (size_t)r, STDOUT_FILENO);
        stdin_eof();
    }

    if (!G.quitting)
        event_base_dispatch(G.base);
    cleanup();
    return 0;
}
