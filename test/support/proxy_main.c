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

/* One command line: its words (the @N prefix taken off), the proxies it
 * applies to, and where its answer goes. */
typedef struct command command;
typedef struct cmdline {
    char **tok;
    int ntok, first, last;
    const command *cmd;
    sbuf *out;
} cmdline;

struct command {
    const char *name;
    int takes_args;                       /* else: "unexpected arguments" */
    void (*run)(const cmdline *c);
    void (*set)(rlp_proxy *p, int v);     /* what run applies, if it is generic */
    void (*act)(rlp_proxy *p);
};

static void each_set(const cmdline *c, int v)
{
    for (int i = c->first; i <= c->last; i++)
        c->cmd->set(G.px[i], v);
    sb_add(c->out, "ok\n");
}

/* latency DIR MS [JITTER] / bandwidth DIR BYTES_PER_SEC */
static void cmd_rate(const cmdline *c)
{
    int is_lat = !strcmp(c->cmd->name, "latency");
    int dir = c->ntok > 1 ? rlp_parse_dir(c->tok[1]) : 0;
    long a, b = 0;
    if (!dir || c->ntok < 3 || c->ntok > (is_lat ? 4 : 3) ||
        parse_int(c->tok[2], 0, is_lat ? 3600000 : LONG_MAX, &a) < 0) {
        sb_add(c->out, "err usage: %s up|down|both %s\n", c->tok[0],
               is_lat ? "MS [JITTER]" : "BYTES_PER_SEC");
        return;
    }
    if (c->ntok == 4 && parse_int(c->tok[3], 0, 3600000, &b) < 0) {
        sb_add(c->out, "err bad jitter: %s\n", c->tok[3]);
        return;
    }
    for (int i = c->first; i <= c->last; i++) {
        if (is_lat)
            rlp_proxy_set_latency(G.px[i], dir, (int)a, (int)b);
        else
            rlp_proxy_set_bandwidth(G.px[i], dir, a);
    }
    sb_add(c->out, "ok\n");
}

static void cmd_onoff(const cmdline *c)
{
    int on = c->ntok == 2 ? parse_onoff(c->tok[1]) : -1;
    if (on < 0)
        sb_add(c->out, "err usage: %s on|off\n", c->tok[0]);
    else
        each_set(c, on);
}

static void cmd_setreset(const cmdline *c)
{
    long n;
    if (c->ntok != 2 || parse_int(c->tok[1], 0, 1000000, &n) < 0)
        sb_add(c->out, "err usage: setreset N\n");
    else
        each_set(c, (int)n);
}

static void cmd_hostile(const cmdline *c)
{
    int kind = c->ntok == 2 ? rlp_parse_hostile(c->tok[1]) : -1;
    if (kind < 0)
        sb_add(c->out, "err usage: hostile line|error|garbage|off\n");
    else
        each_set(c, kind);
}

static void cmd_each(const cmdline *c)
{
    for (int i = c->first; i <= c->last; i++)
        c->cmd->act(G.px[i]);
    sb_add(c->out, "ok\n");
}

static void cmd_status(const cmdline *c)
{
    sb_add(c->out, "ok");
    for (int i = c->first; i <= c->last; i++)
        status_of(c->out, i);
    sb_add(c->out, "\n");
}

static void cmd_ports(const cmdline *c)
{
    sb_add(c->out, "ok");
    for (int i = c->first; i <= c->last; i++)
        sb_add(c->out, " %d", rlp_proxy_port(G.px[i]));
    sb_add(c->out, "\n");
}

static void cmd_help(const cmdline *c)
{
    sb_add(c->out, "ok commands: latency up|down|both MS [JITTER]; bandwidth up|down|both BPS;"
                   " blackhole|halfopen|pause|refuse on|off; setreset N;"
                   " hostile line|error|garbage|off; reset; clear; status; ports; quit;"
                   " prefix @N for one proxy\n");
}

static void cmd_quit(const cmdline *c)
{
    sb_add(c->out, "ok\n");
    G.quitting = 1;
    event_base_loopbreak(G.base);
}

static const command commands[] = {
    { "latency", 1, cmd_rate, NULL, NULL },
    { "bandwidth", 1, cmd_rate, NULL, NULL },
    { "blackhole", 1, cmd_onoff, rlp_proxy_set_blackhole, NULL },
    { "halfopen", 1, cmd_onoff, rlp_proxy_set_halfopen, NULL },
    { "pause", 1, cmd_onoff, rlp_proxy_set_pause, NULL },
    { "refuse", 1, cmd_onoff, rlp_proxy_set_refuse, NULL },
    { "setreset", 1, cmd_setreset, rlp_proxy_set_setreset, NULL },
    { "hostile", 1, cmd_hostile, rlp_proxy_set_hostile, NULL },
    { "reset", 0, cmd_each, NULL, rlp_proxy_reset_all },
    { "clear", 0, cmd_each, NULL, rlp_proxy_clear },
    { "status", 0, cmd_status, NULL, NULL },
    { "ports", 0, cmd_ports, NULL, NULL },
    { "help", 0, cmd_help, NULL, NULL },
    { "quit", 0, cmd_quit, NULL, NULL },
    { "exit", 0, cmd_quit, NULL, NULL },
};

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcasecmp(name, commands[i].name))
            return &commands[i];
    return NULL;
}

/* Splits line into at most max words: their count, or max + 1 if there
 * are more. */
static int split_words(char *line, char **tok, int max)
{
    char *save = NULL, *t;
    int n = 0;
    for (t = strtok_r(line, " \t\r\n", &save); t && n < max; t = strtok_r(NULL, " \t\r\n", &save))
        tok[n++] = t;
    return t ? max + 1 : n;
}

/* An "@N" (or "N") first word picks proxy N: takes it off.  0, or -1 with
 * the error answered. */
static int pick_proxies(cmdline *c)
{
    const char *w = c->tok[0];
    long i;
    c->first = 0;
    c->last = G.nproxies - 1;
    if (w[0] != '@' && !(w[0] >= '0' && w[0] <= '9'))
        return 0;
    if (w[0] == '@')
        w++;
    if (parse_int(w, 0, G.nproxies - 1, &i) < 0) {
        sb_add(c->out, "err no such proxy index: %s (have %d)\n", w, G.nproxies);
        return -1;
    }
    c->first = c->last = (int)i;
    c->tok++;
    if (--c->ntok == 0) {
        sb_add(c->out, "err missing command\n");
        return -1;
    }
    return 0;
}

/* Commands without arguments refuse any, known or not. */
static void dispatch(cmdline *c)
{
    c->cmd = find_command(c->tok[0]);
    if (c->cmd && c->cmd->takes_args)
        c->cmd->run(c);
    else if (c->ntok != 1)
        sb_add(c->out, "err unexpected arguments to %s\n", c->tok[0]);
    else if (c->cmd)
        c->cmd->run(c);
    else
        sb_add(c->out, "err unknown command: %s\n", c->tok[0]);
}

/* Executes one command line; writes the answer (with '\n') into out.
 * Returns 0, or 1 if nothing is to be answered. */
static int run_command(char *line, sbuf *out)
{
    char *tok[8];
    cmdline c = { tok, 0, 0, 0, NULL, out };

    c.ntok = split_words(line, tok, 8);
    if (c.ntok == 0 || tok[0][0] == '#')
        return 1;
    if (c.ntok > 8)
        sb_add(out, "err too many arguments\n");
    else if (pick_proxies(&c) == 0)
        dispatch(&c);
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
    const char *step;
    int cport;
    G.cfd = rlp_listen_loopback(port, 16, &cport, &step);
    return G.cfd < 0 ? -1 : cport;
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

/* ---- command-line options -------------------------------------------- */

#define GO_ON (-1)   /* an option handler's "carry on"; else the exit status */

typedef struct options {
    int listen_ports[MAX_PROXIES], target_ports[MAX_PROXIES];
    int n, pending_listen, control;
} options;

static int opt_help(options *o, const char *val)
{
    (void)o;
    (void)val;
    usage(stdout);
    return 0;
}

static int opt_exit_on_eof(options *o, const char *val)
{
    (void)o;
    (void)val;
    G.exit_on_eof = 1;
    return GO_ON;
}

static int opt_listen(options *o, const char *val)
{
    long v;
    if (o->pending_listen >= 0 || parse_int(val, 0, 65535, &v) < 0) {
        fprintf(stderr, "rlproxy: --listen needs a port (0-65535), each followed by --target\n");
        return 2;
    }
    o->pending_listen = (int)v;
    return GO_ON;
}

static int opt_target(options *o, const char *val)
{
    int n = o->n;
    if (n >= MAX_PROXIES || !val ||
        parse_hostport(val, G.host[n], sizeof G.host[n], &o->target_ports[n]) < 0) {
        fprintf(stderr, "rlproxy: bad --target (HOST:PORT) or too many proxies\n");
        return 2;
    }
    o->listen_ports[n] = o->pending_listen >= 0 ? o->pending_listen : 0;
    o->pending_listen = -1;
    o->n++;
    return GO_ON;
}

static int opt_map(options *o, const char *val)
{
    int n = o->n;
    const char *colon = val ? strchr(val, ':') : NULL;
    char lp[16];
    long v;
    if (n >= MAX_PROXIES || !colon || (size_t)(colon - val) >= sizeof lp) {
        fprintf(stderr, "rlproxy: bad --map (LISTEN:[HOST:]PORT) or too many proxies\n");
        return 2;
    }
    snprintf(lp, sizeof lp, "%.*s", (int)(colon - val), val);
    if (parse_int(lp, 0, 65535, &v) < 0 ||
        parse_hostport(colon + 1, G.host[n], sizeof G.host[n], &o->target_ports[n]) < 0) {
        fprintf(stderr, "rlproxy: bad --map %s\n", val);
        return 2;
    }
    o->listen_ports[n] = (int)v;
    o->n++;
    return GO_ON;
}

static int opt_control(options *o, const char *val)
{
    long v;
    if (parse_int(val, 0, 65535, &v) < 0) {
        fprintf(stderr, "rlproxy: --control needs a port (0-65535)\n");
        return 2;
    }
    o->control = (int)v;
    return GO_ON;
}

static const struct option_def {
    const char *name, *abbrev;
    int takes_value;
    int (*parse)(options *o, const char *val);
} option_defs[] = {
    { "--help", "-h", 0, opt_help },
    { "--exit-on-eof", NULL, 0, opt_exit_on_eof },
    { "--listen", "-l", 1, opt_listen },
    { "--target", "-t", 1, opt_target },
    { "--map", "-m", 1, opt_map },
    { "--control", "-c", 1, opt_control },
};

static const struct option_def *find_option(const char *a)
{
    for (size_t k = 0; k < sizeof option_defs / sizeof option_defs[0]; k++)
        if (!strcmp(a, option_defs[k].name) ||
            (option_defs[k].abbrev && !strcmp(a, option_defs[k].abbrev)))
            return &option_defs[k];
    return NULL;
}

/* GO_ON when the proxies are to be started, else the exit status. */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->pending_listen = o->control = -1;
    for (int i = 1; i < argc; i++) {
        const struct option_def *d = find_option(argv[i]);
        int rc;
        if (!d) {
            fprintf(stderr, "rlproxy: unknown argument %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
        rc = d->parse(o, i + 1 < argc ? argv[i + 1] : NULL);
        if (rc != GO_ON)
            return rc;
        i += d->takes_value;
    }
    if (o->pending_listen >= 0) {
        fprintf(stderr, "rlproxy: --listen %d has no --target\n", o->pending_listen);
        return 2;
    }
    if (o->n == 0) {
        usage(stderr);
        return 2;
    }
    return GO_ON;
}

/* ---- start-up ---------------------------------------------------------- */

static int start_proxies(const options *o)
{
    char err[512];
    for (int i = 0; i < o->n; i++) {
        G.px[i] = rlp_proxy_new(G.base, o->listen_ports[i], G.host[i], o->target_ports[i],
                                err, sizeof err);
        if (!G.px[i]) {
            fprintf(stderr, "rlproxy: proxy %d: %s\n", i, err);
            return -1;
        }
        G.nproxies = i + 1;
    }
    return 0;
}

/* The control port's number, or -1 after saying why. */
static int start_control(int port)
{
    int cport = control_listen(port);
    if (cport < 0) {
        fprintf(stderr, "rlproxy: control port %d: %s\n", port, strerror(errno));
        return -1;
    }
    G.ev_ctl = event_new(G.base, G.cfd, EV_READ | EV_PERSIST, on_ctl_accept, NULL);
    if (!G.ev_ctl || event_add(G.ev_ctl, NULL) < 0) {
        fprintf(stderr, "rlproxy: control event failed\n");
        return -1;
    }
    return cport;
}

static int watch_signals(void)
{
    G.ev_int = evsignal_new(G.base, SIGINT, on_signal, NULL);
    G.ev_term = evsignal_new(G.base, SIGTERM, on_signal, NULL);
    if (!G.ev_int || !G.ev_term || evsignal_add(G.ev_int, NULL) < 0 ||
        evsignal_add(G.ev_term, NULL) < 0) {
        fprintf(stderr, "rlproxy: signal events failed\n");
        return -1;
    }
    return 0;
}

static void announce(int cport)
{
    printf("listening");
    for (int i = 0; i < G.nproxies; i++)
        printf(" %d", rlp_proxy_port(G.px[i]));
    printf("\n");
    if (cport >= 0)
        printf("control %d\n", cport);
    fflush(stdout);
}

/* stdin: pipes, sockets and ttys go through the event loop; regular
 * files and /dev/null cannot be polled, so they are read right away. */
static void watch_stdin(void)
{
    struct stat sst;
    char buf[4096];
    ssize_t r;

    if (fstat(STDIN_FILENO, &sst) == 0 &&
        !(S_ISREG(sst.st_mode) || (S_ISCHR(sst.st_mode) && !isatty(STDIN_FILENO))))
        G.ev_stdin = event_new(G.base, STDIN_FILENO, EV_READ | EV_PERSIST, on_stdin, NULL);
    if (G.ev_stdin && event_add(G.ev_stdin, NULL) == 0)
        return;
    if (G.ev_stdin)
        event_free(G.ev_stdin);
    G.ev_stdin = NULL;
    while (!G.quitting && (r = read(STDIN_FILENO, buf, sizeof buf)) > 0)
        feed(&G.stdin_lb, buf, (size_t)r, STDOUT_FILENO);
    stdin_eof();
}

int main(int argc, char **argv)
{
    options o;
    int cport = -1, rc;

    memset(&G, 0, sizeof G);
    G.cfd = -1;
    rc = parse_options(argc, argv, &o);
    if (rc != GO_ON)
        return rc;
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
    if (start_proxies(&o) < 0 || (o.control >= 0 && (cport = start_control(o.control)) < 0) ||
        watch_signals() < 0) {
        cleanup();
        return 1;
    }
    announce(cport);
    watch_stdin();
    if (!G.quitting)
        event_base_dispatch(G.base);
    cleanup();
    return 0;
}
