/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* config.c -- the options every subcommand shares: the command line, then
 * the environment (REDLOCK_NODES, REDLOCK_CONFIG, REDLOCK_PASSWORD), then
 * the config file (`long-option = value` lines); the first that gives an
 * option wins.  A bad value is a usage error (64) on the command line and a
 * configuration error (78) in the environment or the file. */
#include "cmd/cmd.h"
#include "cmd/json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    O_NODES, O_CONFIG, O_PASSFILE, O_USER, O_PREFIX, O_TTL, O_WAIT, O_NONBLOCK, O_CONFLICT,
    O_FENCING, O_READ, O_WRITE, O_PERMITS, O_JSON, O_NODE_TIMEOUT, O_TLS_CA, O_TLS_CA_DIR, O_TLS_CERT,
    O_TLS_KEY, O_TLS_NAME, O_RESTART_GUARD, O_CLOCK_GUARD, O_STRICT, O_NO_WAKE, O_VALUE,
    O_METRICS, O_MAX_HOLD, O_KILL_AFTER, O_HELP, O_COUNT,
    O_PASSWORD = O_COUNT    /* the environment's REDLOCK_PASSWORD only */
};

/* Where a value came from (the first to give it wins). */
enum { SRC_NONE, SRC_FILE, SRC_ENV, SRC_ARGV };

static const struct opt {
    const char *name;
    char shrt;
    const char *arg;            /* NULL: a flag */
    const char *help;
} opts_table[O_COUNT] = {
    [O_NODES] = {"nodes", 0, "LIST",
        "masters, comma-separated (else $REDLOCK_NODES, else the config file)"},
    [O_CONFIG] = {"config", 0, "FILE",
        "config file of `option = value` lines (else $REDLOCK_CONFIG)"},
    [O_PASSFILE] = {"password-file", 0, "FILE",
        "the masters' password, read from FILE (else $REDLOCK_PASSWORD)"},
    [O_USER] = {"user", 0, "NAME", "ACL user for the masters (needs a password)"},
    [O_PREFIX] = {"prefix", 0, "P", "key prefix put before every resource (default: none)"},
    [O_TTL] = {"ttl", 0, "MS",
        "lock time to live in milliseconds (default 30000; at least 3 node timeouts)"},
    [O_WAIT] = {"wait", 'w', "SECS",
        "give up acquiring after SECS, masters down or not (default: wait until acquired)"},
    [O_NONBLOCK] = {"nonblock", 'n', NULL, "one try: fail at once if the lock is held"},
    [O_CONFLICT] = {"conflict-exit-code", 'E', "N",
        "exit code when the lock is held elsewhere (default 1; not for outages: 69)"},
    [O_FENCING] = {"fencing", 0, NULL, "also get a fencing token (REDLOCK_TOKEN for run)"},
    [O_READ] = {"read", 0, NULL, "the read side of the read/write lock (shared)"},
    [O_WRITE] = {"write", 0, NULL, "the write side of the read/write lock (exclusive)"},
    [O_PERMITS] = {"permits", 0, "P",
        "a counting semaphore: up to P (1 .. 1024) holders at once, each with a permit"},
    [O_JSON] = {"json", 0, NULL,
        "one JSON object on stdout (acquire, extend, release, status; not run)"},
    [O_NODE_TIMEOUT] = {"node-timeout", 0, "MS",
        "longest wait for one master's reply (default 200)"},
    [O_TLS_CA] = {"tls-ca", 0, "FILE", "CA certificates (PEM) for rediss:// masters"},
    [O_TLS_CA_DIR] = {"tls-ca-dir", 0, "DIR", "hashed directory of CA certificates"},
    [O_TLS_CERT] = {"tls-cert", 0, "FILE", "client certificate (mutual TLS)"},
    [O_TLS_KEY] = {"tls-key", 0, "FILE", "the client certificate's private key"},
    [O_TLS_NAME] = {"tls-server-name", 0, "NAME",
        "name to check the masters' certificates against (SNI)"},
    [O_RESTART_GUARD] = {"restart-guard", 0, "MS",
        "do not count a restarted master for MS (0: off; default: automatic)"},
    [O_CLOCK_GUARD] = {"clock-guard", 0, "MS",
        "do not count a master whose clock jumped for MS (0: off)"},
    [O_STRICT] = {"strict", 0, NULL, "do not count masters whose configuration is unsafe"},
    [O_NO_WAKE] = {"no-wake", 0, NULL, "poll only: no wake-up on release (no second connection)"},
    [O_VALUE] = {"value", 0, "V", "the lock's value, as acquire printed it (extend, release)"},
    [O_METRICS] = {"metrics", 0, NULL, "the client's counters as OpenMetrics text (status)"},
    [O_MAX_HOLD] = {"max-hold", 0, "SECS",
        "run: end the command after SECS holding the lock (exit 124)"},
    [O_KILL_AFTER] = {"kill-after", 0, "SECS",
        "run: SIGKILL this long after SIGTERM (default 5), before the validity ends"},
    [O_HELP] = {"help", 'h', NULL, "this help"},
};

struct raw {
    const char *val[O_COUNT + 1];
    int src[O_COUNT + 1];
    int line[O_COUNT + 1];      /* SRC_FILE: the value's line in `file` */
    const char *file;           /* the config file, once read */
};

static char last_error[4096];      /* for --json's "error" */

const char *redlock_cmd_last_error(void)
{
    return last_error;
}

void redlock_cmd_error(const redlock_cmd *c, const char *fmt, ...)
{
    char *msg = last_error;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof last_error, fmt, ap);
    va_end(ap);
    size_t sl = c && c->sub ? strlen(c->sub) : 0;
    /* the library's texts name the operation already ("acquire: ...") */
    if (sl && !(strncmp(msg, c->sub, sl) == 0 && msg[sl] == ':'))
        fprintf(stderr, "redlock: %s: %s\n", c->sub, msg);
    else
        fprintf(stderr, "redlock: %s\n", msg);
}

void redlock_cmd_usage(FILE *out)
{
    fputs("usage: redlock run     [options] RESOURCE... -- COMMAND [ARG...]\n"
          "       redlock acquire [options] RESOURCE...\n"
          "       redlock extend  [options] --value V RESOURCE...\n"
          "       redlock release [options] --value V RESOURCE...\n"
          "       redlock status  [options] RESOURCE\n"
          "       redlock --help | --version\n"
          "options:\n", out);
    for (int i = 0; i < O_COUNT; i++) {
        const struct opt *o = &opts_table[i];
        char left[64], shrt[8] = "    ";
        if (o->shrt)
            snprintf(shrt, sizeof shrt, "-%c, ", o->shrt);
        snprintf(left, sizeof left, "%s--%s%s%s", shrt, o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        fprintf(out, "  %-28s %s\n", left, o->help);
    }
    fputs("exit: the command's status (run), 0 done, 1 held elsewhere (-E; also when -w ran\n"
          "      out while it was held), 64 usage, 69 masters unreachable, hung or not\n"
          "      counted (also when -w ran out so; -E does not apply), 70 internal,\n"
          "      75 lock lost, 78 configuration (a password or ACL the masters refuse),\n"
          "      124 --max-hold reached, 126/127 command not executable/not found\n", out);
}

static char *keep(redlock_cmd *c, char *s)
{
    if (s && c->nowned < (int)(sizeof c->owned / sizeof c->owned[0]))
        c->owned[c->nowned++] = s;
    else if (s) {
        free(s);
        return NULL;
    }
    return s;
}

static int find_long(const char *name, size_t len)
{
    for (int i = 0; i < O_COUNT; i++)
        if (strlen(opts_table[i].name) == len && memcmp(opts_table[i].name, name, len) == 0)
            return i;
    return -1;
}

static int find_short(char ch)
{
    for (int i = 0; i < O_COUNT; i++)
        if (opts_table[i].shrt == ch)
            return i;
    return -1;
}

static void set_raw(struct raw *r, int id, const char *val, int src, int line)
{
    if (r->src[id] < src) {
        r->val[id] = val;
        r->src[id] = src;
        r->line[id] = line;
    }
}

/* One option of argv at *i (its value may be the next word). */
static int parse_one(redlock_cmd *c, struct raw *r, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *val = NULL;
    int id;
    if (a[1] == '-') {
        const char *eq = strchr(a + 2, '=');
        id = find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
        val = eq ? eq + 1 : NULL;
    } else {
        id = find_short(a[1]);
        if (id >= 0 && a[2] != '\0') {
            if (opts_table[id].arg)
                val = a + 2;
            else
                id = -1;
        }
    }
    if (id < 0) {
        redlock_cmd_error(c, "unknown option %s (redlock --help lists them)", a);
        return REDLOCK_EXIT_USAGE;
    }
    if (opts_table[id].arg && !val) {
        if (*i + 1 >= argc) {
            redlock_cmd_error(c, "option --%s needs a value (%s)", opts_table[id].name,
                              opts_table[id].arg);
            return REDLOCK_EXIT_USAGE;
        }
        val = argv[++*i];
    } else if (!opts_table[id].arg && val) {
        redlock_cmd_error(c, "option --%s takes no value", opts_table[id].name);
        return REDLOCK_EXIT_USAGE;
    }
    set_raw(r, id, opts_table[id].arg ? val : "1", SRC_ARGV, 0);
    return 0;
}

/* Options and operands of argv[1..]; after "--" everything is an operand. */
static int parse_argv(redlock_cmd *c, struct raw *r, int argc, char **argv)
{
    c->args = calloc((size_t)argc + 1, sizeof *c->args);
    if (!c->args)
        return REDLOCK_EXIT_SOFTWARE;
    c->dashdash = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            c->dashdash = c->nargs;
            while (++i < argc)
                c->args[c->nargs++] = argv[i];
            break;
        }
        if (a[0] == '-' && a[1] != '\0') {
            int rc = parse_one(c, r, argc, argv, &i);
            if (rc)
                return rc;
        } else {
            c->args[c->nargs++] = argv[i];
        }
    }
    return 0;
}

static char *read_file(const char *path, size_t max, const char **why)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        *why = strerror(errno);
        return NULL;
    }
    char *buf = malloc(max + 1);
    size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
    int err = ferror(f);
    fclose(f);
    *why = !buf ? "out of memory" : err ? "read error" : n > max ? "too large" : NULL;
    if (*why) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* A flag's value in the file: yes/no, true/false, on/off, 1/0. */
static const char *flag_value(const char *v)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    for (int i = 0; i < 4; i++) {
        if (strcmp(v, yes[i]) == 0)
            return "1";
        if (strcmp(v, no[i]) == 0)
            return "0";
    }
    return NULL;
}

static int file_line(redlock_cmd *c, struct raw *r, const char *path, int lineno, char *line)
{
    char *eq = strchr(line, '=');
    if (!eq) {
        redlock_cmd_error(c, "%s:%d: expected `option = value`", path, lineno);
        return REDLOCK_EXIT_CONFIG;
    }
    *eq = '\0';
    char *key = trim(line), *val = trim(eq + 1);
    int id = find_long(key, strlen(key));
    if (id < 0 || id == O_CONFIG || id == O_HELP) {
        redlock_cmd_error(c, "%s:%d: unknown option '%s'", path, lineno, key);
        return REDLOCK_EXIT_CONFIG;
    }
    if (!opts_table[id].arg && !(val = (char *)flag_value(val))) {
        redlock_cmd_error(c, "%s:%d: %s wants yes or no", path, lineno, key);
        return REDLOCK_EXIT_CONFIG;
    }
    set_raw(r, id, val, SRC_FILE, lineno);
    return 0;
}

static int parse_file(redlock_cmd *c, struct raw *r, const char *path)
{
    const char *why;
    char *text = keep(c, read_file(path, 1 << 20, &why));
    if (!text) {
        redlock_cmd_error(c, "config file %s: %s", path, why ? why : "out of memory");
        return REDLOCK_EXIT_CONFIG;
    }
    int lineno = 0;
    r->file = path;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        if (*trim(line) == '\0')
            continue;
        int rc = file_line(c, r, path, lineno, line);
        if (rc)
            return rc;
    }
    return 0;
}

static int parse_env(redlock_cmd *c, struct raw *r)
{
    const char *v;
    if ((v = getenv("REDLOCK_NODES")) && *v)
        set_raw(r, O_NODES, v, SRC_ENV, 0);
    if ((v = getenv("REDLOCK_PASSWORD")) && *v)
        set_raw(r, O_PASSWORD, v, SRC_ENV, 0);
    if ((v = getenv("REDLOCK_CONFIG")) && *v)
        set_raw(r, O_CONFIG, v, SRC_ENV, 0);
    if (r->val[O_CONFIG])
        return parse_file(c, r, r->val[O_CONFIG]);
    return 0;
}

/* ---- values ---------------------------------------------------------------- */

/* A bad value, named where it was given: the command line's option, the
 * config file's line, the environment's variable. */
static int bad_value(redlock_cmd *c, const struct raw *r, int id, const char *why)
{
    if (r->src[id] == SRC_FILE)
        redlock_cmd_error(c, "%s:%d: %s = %s: %s", r->file, r->line[id], opts_table[id].name,
                          r->val[id], why);
    else if (r->src[id] == SRC_ENV)
        redlock_cmd_error(c, "$REDLOCK_%s %s: %s", id == O_NODES ? "NODES" : "CONFIG",
                          r->val[id], why);
    else
        redlock_cmd_error(c, "--%s %s: %s", opts_table[id].name, r->val[id], why);
    return r->src[id] == SRC_ARGV ? REDLOCK_EXIT_USAGE : REDLOCK_EXIT_CONFIG;
}

/* An integer (or, with scale, a decimal number of seconds) in [lo, hi]. */
static int num_value(redlock_cmd *c, const struct raw *r, int id, int64_t scale, int64_t lo,
                     int64_t hi, int64_t *out)
{
    const char *s = r->val[id];
    if (!s)
        return 0;
    char *end;
    errno = 0;
    double d = scale ? strtod(s, &end) * (double)scale : (double)strtoll(s, &end, 10);
    if (errno || end == s || *end || d != d || d < (double)lo || d > (double)hi) {
        char why[96];
        snprintf(why, sizeof why, "not a number from %lld to %lld", (long long)lo, (long long)hi);
        if (scale)
            snprintf(why, sizeof why, "not a number of seconds from %g to %g",
                     (double)lo / (double)scale, (double)hi / (double)scale);
        return bad_value(c, r, id, why);
    }
    *out = (int64_t)d;
    return 0;
}

static int split_nodes(redlock_cmd *c, const struct raw *r)
{
    if (!r->val[O_NODES]) {
        redlock_cmd_error(c, "no masters: give --nodes, $REDLOCK_NODES or `nodes` in a "
                             "config file");
        return REDLOCK_EXIT_CONFIG;
    }
    char *list = keep(c, strdup(r->val[O_NODES]));
    /* ';' between nodes when there is one: a cluster's address lists its
     * seeds with ',' */
    const char *sep = list && strchr(list, ';') ? ";" : ",";
    size_t n = 1;
    for (const char *p = list; p && *p; p++)
        n += *p == *sep;
    c->nodes = list ? calloc(n, sizeof *c->nodes) : NULL;
    if (!c->nodes)
        return REDLOCK_EXIT_SOFTWARE;
    for (char *save = NULL, *t = strtok_r(list, sep, &save); t; t = strtok_r(NULL, sep, &save))
        if (*(t = trim(t)))
            c->nodes[c->nnodes++] = t;
    if (c->nnodes == 0)
        return bad_value(c, r, O_NODES, "no address in the list");
    return 0;
}

static int read_password(redlock_cmd *c, const struct raw *r)
{
    const char *why;
    if (r->val[O_PASSFILE] && r->src[O_PASSFILE] >= r->src[O_PASSWORD]) {
        char *pw = keep(c, read_file(r->val[O_PASSFILE], 4096, &why));
        size_t n = pw ? strlen(pw) : 0;
        while (n && (pw[n - 1] == '\n' || pw[n - 1] == '\r'))
            pw[--n] = '\0';
        if (n == 0) {       /* a file that cannot be read: always EX_CONFIG */
            redlock_cmd_error(c, "--password-file %s: %s", r->val[O_PASSFILE],
                              !pw ? (why ? why : "out of memory") : "the file is empty");
            return REDLOCK_EXIT_CONFIG;
        }
        c->opts.password = pw;
        c->wipe_password = 1;
    } else if (r->val[O_PASSWORD]) {
        c->opts.password = r->val[O_PASSWORD];
    }
    return 0;
}

static int flag(const struct raw *r, int id)
{
    return r->val[id] && strcmp(r->val[id], "1") == 0;
}

/* A ttl too short to hold a lock is refused, not lost at once: an acquire
 * may take a node timeout of it, an extend another (the watchdog's comes
 * at ttl/3), and one more is kept to stop the command before the validity
 * ends (run.c). */
static int ttl_holds(redlock_cmd *c, const struct raw *r)
{
    int64_t min = 3 * c->opts.node_timeout_ms;
    char why[160];
    if (c->ttl_ms >= min)
        return 0;
    snprintf(why, sizeof why, "too short to hold a lock: at least %lld ms (3 node timeouts "
             "of %lld ms, --node-timeout)", (long long)min, (long long)c->opts.node_timeout_ms);
    if (r->val[O_TTL])
        return bad_value(c, r, O_TTL, why);
    redlock_cmd_error(c, "the default --ttl %lld: %s", (long long)c->ttl_ms, why);
    return r->src[O_NODE_TIMEOUT] == SRC_ARGV ? REDLOCK_EXIT_USAGE : REDLOCK_EXIT_CONFIG;
}

static int apply_times(redlock_cmd *c, const struct raw *r)
{
    const int64_t day = 86400000, big = (int64_t)1 << 40;
    int64_t conflict = c->conflict_exit;
    int rc;
    if ((rc = num_value(c, r, O_TTL, 0, 4, big, &c->ttl_ms)) ||
        (rc = num_value(c, r, O_WAIT, 1000, 0, big, &c->wait_ms)) ||
        (rc = num_value(c, r, O_CONFLICT, 0, 0, 255, &conflict)) ||
        (rc = num_value(c, r, O_NODE_TIMEOUT, 0, 1, 3600000, &c->opts.node_timeout_ms)) ||
        (rc = num_value(c, r, O_RESTART_GUARD, 0, 0, big, &c->opts.restart_guard_ms)) ||
        (rc = num_value(c, r, O_CLOCK_GUARD, 0, 0, big, &c->opts.clock_guard_ms)) ||
        (rc = num_value(c, r, O_MAX_HOLD, 1000, 1, 365 * day, &c->max_hold_ms)) ||
        (rc = num_value(c, r, O_KILL_AFTER, 1000, 0, day, &c->kill_after_ms)) ||
        (rc = num_value(c, r, O_PERMITS, 0, 1, 1024, &c->permits)) || (rc = ttl_holds(c, r)))
        return rc;
    c->conflict_exit = (int)conflict;
    return 0;
}

static int apply(redlock_cmd *c, const struct raw *r)
{
    int rc = apply_times(c, r);
    if (rc || (rc = split_nodes(c, r)) || (rc = read_password(c, r)))
        return rc;
    c->opts.user = r->val[O_USER];
    c->opts.key_prefix = r->val[O_PREFIX] ? r->val[O_PREFIX] : "";
    c->opts.tls_ca_file = r->val[O_TLS_CA];
    c->opts.tls_ca_dir = r->val[O_TLS_CA_DIR];
    c->opts.tls_cert_file = r->val[O_TLS_CERT];
    c->opts.tls_key_file = r->val[O_TLS_KEY];
    c->opts.tls_server_name = r->val[O_TLS_NAME];
    c->opts.strict = flag(r, O_STRICT);
    c->opts.wake = !flag(r, O_NO_WAKE);
    c->nonblock = flag(r, O_NONBLOCK);
    c->fencing = flag(r, O_FENCING);
    c->read = flag(r, O_READ);
    c->write = flag(r, O_WRITE);
    c->json = flag(r, O_JSON);
    c->metrics = flag(r, O_METRICS);
    c->value = r->val[O_VALUE];
    if (c->read && c->write) {
        redlock_cmd_error(c, "--read and --write exclude each other");
        return REDLOCK_EXIT_USAGE;
    }
    if (c->permits && (c->read || c->write)) {
        redlock_cmd_error(c, "--permits excludes --read and --write");
        return REDLOCK_EXIT_USAGE;
    }
    /* -w: the acquire's own deadline (redlock_acquire_for); no -w: none,
     * until acquired; -n (or -w 0): one try */
    if (c->wait_ms == 0)
        c->nonblock = 1;
    c->acquire_wait_ms = c->nonblock ? 0 : c->wait_ms > 0 ? c->wait_ms : INT64_MAX;
    return 0;
}

static void defaults(redlock_cmd *c, const char *sub)
{
    c->sub = sub;
    redlock_options_init(&c->opts);
    c->ttl_ms = 30000;
    c->wait_ms = -1;
    c->conflict_exit = REDLOCK_EXIT_CONFLICT;
    c->kill_after_ms = 5000;
    c->dashdash = -1;
}

/* --json among the options (before "--"), however the others parse. */
static int asks_json(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--json") == 0)
            return 1;
    return 0;
}

int redlock_cmd_parse(redlock_cmd *c, const char *sub, int argc, char **argv)
{
    struct raw r;
    memset(&r, 0, sizeof r);
    memset(c, 0, sizeof *c);
    defaults(c, sub);
    c->json = asks_json(argc, argv);    /* an error below still gets its object */
    int rc = parse_argv(c, &r, argc, argv);
    if (rc)
        return rc;
    if (flag(&r, O_HELP)) {
        redlock_cmd_usage(stdout);
        return -1;
    }
    rc = parse_env(c, &r);
    c->json = c->json || flag(&r, O_JSON);
    return rc ? rc : apply(c, &r);
}

void redlock_cmd_free(redlock_cmd *c)
{
    if (c->wipe_password)
        memset((char *)c->opts.password, 0, strlen(c->opts.password));
    for (int i = 0; i < c->nowned; i++)
        free(c->owned[i]);
    free(c->nodes);
    free(c->args);
    memset(c, 0, sizeof *c);
}
