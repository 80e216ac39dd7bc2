/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-check-log.c -- reading the worker logs (format in rl-worker.c) and the
 * faults file into the checker's state (rl-check.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rl-check.h"
#include "rl-common.h"

const char *const rl_codes[NCODES] = {"OK", "EINVAL", "ENOQUORUM", "ETIMEDOUT",
                                      "ECANCELED", "ENOTOWNER", "ENOMEM", "ECONNECT",
                                      "EBUSY", "ESERVER", "ECLOSED", "ESYSTEM",
                                      "EFULL", "EUNKNOWN", "EUNCOUNTED", ""};

static int code_index(const char *s)
{
    for (int i = 0; i < 15; i++)
        if (!strcmp(rl_codes[i], s))
            return i;
    return 13;
}

#define NONE ((size_t)-1)

/* one log being read */
typedef struct logrd {
    check *ck;
    const char *path;
    long lineno;
    int worker;
    size_t last;          /* this worker's last acquisition, NONE */
    audit_sum u;          /* its last U line */
    int64_t i_start, i_t, i_vu;   /* the extend in flight (I line) */
    int ended;            /* an E line: the worker exited cleanly */
} logrd;

/* a line handler: 0, 1 when the line does not parse, -1 after printing
 * another error */
typedef int line_fn(logrd *rd, const char *line);

void seg_close(check *ck, size_t i, int64_t t)
{
    acq *a = &ck->acqs[i];
    if (!a->seg_start)
        return;
    int64_t end = a->seg_until < t ? a->seg_until : t;
    if (end > a->seg_start) {
        ck->segs = rl_grow(ck->segs, &ck->capseg, ck->nseg + 1, sizeof *ck->segs);
        ck->segs[ck->nseg++] = (ival){a->seg_start, end, i, NULL};
    }
    a->seg_start = 0;
}

/* the lock an H, D, T or R line names must be the last one acquired */
static int held_last(logrd *rd, const char *res, const char *val, const char *what)
{
    const acq *a = rd->last == NONE ? NULL : &rd->ck->acqs[rd->last];
    if (a && !strcmp(a->value, val) && !strcmp(a->res, res))
        return 0;
    fprintf(stderr, "rl-check: %s:%ld: %s of a lock not acquired last\n", rd->path, rd->lineno,
            what);
    return -1;
}

/* the holding segment of the last acquisition ends at t0 and a new one
 * runs from t1 until `until` (extends, nested holds, partial releases) */
static void seg_move(logrd *rd, int64_t t0, int64_t t1, int64_t until)
{
    seg_close(rd->ck, rd->last, t0);
    rd->ck->acqs[rd->last].seg_start = t1;
    rd->ck->acqs[rd->last].seg_until = until;
}

static int on_worker(logrd *rd, const char *line)
{
    check *ck = rd->ck;
    long long a, b, c;
    int n;
    char mode[16];
    if (sscanf(line, "W %lld %lld %d", &a, &b, &n) == 3) {
        rd->worker = (int)a;
        if (n > ck->max_nodes)
            ck->max_nodes = n;
    }
    if (sscanf(line, "W %*d %*d %*d %*d %15s %lld", mode, &c) == 2) {
        ck->async_workers += !strcmp(mode, "async");
        ck->small_pending += c > 0 && c <= 8;
    }
    return 0;
}

static int on_extend(logrd *rd, const char *line)
{
    check *ck = rd->ck;
    char res[64], val[72], word[32];
    long long a, b, c, d;
    int n, sh;
    if (sscanf(line, "T %63s %71s %lld %lld %31s %lld %d %lld %d", res, val, &a, &b, word, &c,
               &n, &d, &sh) != 9)
        return 1;
    if (held_last(rd, res, val, "extend") != 0)
        return -1;
    ck->watchdog_moves += a == b;   /* --watchdog: the validity the watchdog moved */
    seg_move(rd, a, b, c);
    ck->exts = rl_grow(ck->exts, &ck->capext, ck->next + 1, sizeof *ck->exts);
    ck->exts[ck->next++] = (ext){a, b, strcmp(word, "OK") != 0, sh};
    if (rd->i_start && rd->i_start == a) {
        ck->ext_inflight++;
        ck->ext_inflight_above += rd->i_vu > rd->i_t + d * 1000;
    }
    rd->i_start = 0;
    return 0;
}

static int on_kind(logrd *rd, const char *line)
{
    char *seen = rd->ck->kinds_seen, word[32];
    size_t len = strlen(seen);
    int permits;
    if (sscanf(line, "K %31s", word) != 1)
        return 1;
    if (sscanf(line, "K semaphore %d", &permits) == 1) {   /* the permits follow */
        if (permits < 1 || (rd->ck->permits && rd->ck->permits != permits))
            return 1;
        rd->ck->permits = permits;
    }
    if (!strstr(seen, word) && len + strlen(word) + 2 < sizeof rd->ck->kinds_seen)
        snprintf(seen + len, sizeof rd->ck->kinds_seen - len, "%s%s", seen[0] ? "," : "", word);
    return 0;
}

/* H: reentrant, a nested acquire (like an extend); D: a release that
 * kept the lock */
static int on_hold_change(logrd *rd, const char *line)
{
    char res[64], val[72], word[32];
    long long a, b, c, d;
    if (sscanf(line, "%*c %63s %71s %lld %lld %31s %lld %lld", res, val, &a, &b, word, &c,
               &d) != 7)
        return 1;
    if (held_last(rd, res, val, "hold change") != 0)
        return -1;
    rd->ck->nested_holds += line[0] == 'H' && !strcmp(word, "OK");
    rd->ck->partial_releases += line[0] == 'D';
    seg_move(rd, a, b, c);
    return 0;
}

/* "C res value n0 n1 n2" (I and P lines): 1 when it parses */
static int scan_lock3(const char *line, char *val, long long *n)
{
    char res[64];
    return sscanf(line, "%*c %63s %71s %lld %lld %lld", res, val, &n[0], &n[1], &n[2]) == 5;
}

static int on_inflight(logrd *rd, const char *line)
{
    char val[72];
    long long n[3];
    if (!scan_lock3(line, val, n))
        return 1;
    rd->i_start = n[0];
    rd->i_t = n[1];
    rd->i_vu = n[2];
    return 0;
}

static int on_violation(logrd *rd, const char *line)
{
    check *ck = rd->ck;
    size_t len = strcspn(line, "\r\n");
    int in_extend = len >= 7 && !memcmp(line + len - 7, " extend", 7);
    if (ck->viol_lines < 3)
        snprintf(ck->first_viol[ck->viol_lines], sizeof ck->first_viol[0], "worker %d: %s",
                 rd->worker, line);
    ck->viol_lines++;
    if (in_extend && ck->iviol_lines < 3)
        snprintf(ck->first_iviol[ck->iviol_lines], sizeof ck->first_iviol[0], "worker %d: %s",
                 rd->worker, line);
    ck->iviol_lines += in_extend;
    return 0;
}

static int on_audit_counters(logrd *rd, const char *line)
{
    long long a, b, c, d, e, g, h, ij = 0, iv = 0, is = INT64_MAX;
    int nu = sscanf(line, "U %*d %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", &a, &b, &c,
                    &d, &e, &g, &h, &ij, &iv, &is);
    if (nu != 7 && nu != 10)
        return 1;
    rd->u = (audit_sum){a, b, c, d, h, ij, iv, e, g, is};
    return 0;
}

static int on_loop_block(logrd *rd, const char *line)
{
    long long a, b, c;
    char word[32];
    if (sscanf(line, "B %lld %lld %lld %31s", &a, &b, &c, word) != 4)
        return 1;
    rd->ck->loop_blocks++;
    rd->ck->loop_blocks_inflight += strcmp(word, "none") != 0;
    return 0;
}

static acq *new_acq(check *ck)
{
    ck->acqs = rl_grow(ck->acqs, &ck->capacq, ck->nacq + 1, sizeof *ck->acqs);
    acq *x = &ck->acqs[ck->nacq];
    memset(x, 0, sizeof *x);
    return x;
}

static int on_acquired(logrd *rd, const char *line)
{
    check *ck = rd->ck;
    char res[64], val[72], owner[32] = "", md = 'x';
    long long a, b, c, tok = 0;   /* (workers without --fencing log no token) */
    int n;
    int na = sscanf(line, "A %63s %71s %lld %lld %lld %d %lld %31s %c", res, val, &a, &b, &c,
                    &n, &tok, owner, &md);
    if (na < 6 || na == 8 || (na == 9 && !strchr("xrws", md)))
        return 1;
    acq *x = new_acq(ck);
    snprintf(x->res, sizeof x->res, "%s", res);
    snprintf(x->value, sizeof x->value, "%s", val);
    snprintf(x->owner, sizeof x->owner, "%s", strcmp(owner, "-") ? owner : "");
    x->worker = rd->worker;
    x->before = a;
    x->after = x->seg_start = b;
    x->valid_until = x->seg_until = c;
    x->nodes_ok = n;
    x->token = tok;
    x->mode = md;
    ck->reads += md == 'r';
    ck->writes += md == 'w';
    ck->multi_acqs += strchr(res, '+') != NULL;
    if (rd->last != NONE)
        seg_close(ck, rd->last, INT64_MAX);   /* never released (killed?) */
    rd->last = ck->nacq++;
    return 0;
}

/* the library's lost-lock notice: the holder stops here */
static int on_lost(logrd *rd, const char *line)
{
    char res[64], val[72];
    long long a;
    int n;
    if (sscanf(line, "L %63s %71s %lld %d", res, val, &a, &n) != 4)
        return 1;
    rd->ck->lost_notices++;
    if (rd->last != NONE && !strcmp(rd->ck->acqs[rd->last].value, val))
        seg_close(rd->ck, rd->last, a);
    return 0;
}

static int on_released(logrd *rd, const char *line)
{
    char res[64], val[72];
    long long a, b;
    if (sscanf(line, "R %63s %71s %lld %lld", res, val, &a, &b) != 4)
        return 1;
    if (held_last(rd, res, val, "release") != 0)
        return -1;
    rd->ck->acqs[rd->last].release = a;
    seg_close(rd->ck, rd->last, a);
    return 0;
}

static int on_resumed(logrd *rd, const char *line)
{
    char val[72];
    long long n[3];
    if (!scan_lock3(line, val, n))
        return 1;
    acq *x = rd->last == NONE ? NULL : &rd->ck->acqs[rd->last];
    if (x && !strcmp(x->value, val)) {
        x->paused = 1;
        x->left_ms = n[1];
        x->stopped_ms = n[2];
    }
    return 0;
}

static int on_failed(logrd *rd, const char *line)
{
    check *ck = rd->ck;
    char res[64], word[32];
    long long a, b;
    if (sscanf(line, "F %63s %lld %lld %31s", res, &a, &b, word) != 4)
        return 1;
    ck->fails = rl_grow(ck->fails, &ck->capfail, ck->nfail + 1, sizeof *ck->fails);
    ck->fails[ck->nfail++] = (fail){rd->worker, a, b, code_index(word)};
    return 0;
}

static int on_node(logrd *rd, const char *line)
{
    check *ck = rd->ck;
    long long a, b;
    char word[32];
    if (sscanf(line, "N %lld %lld %31s", &a, &b, word) != 3)
        return 1;
    if (strcmp(word, "up")) {
        ck->node_down++;
        return 0;
    }
    ck->node_up++;
    ck->ups = rl_grow(ck->ups, &ck->capups, ck->nups + 1, sizeof *ck->ups);
    ck->ups[ck->nups++] = a;
    return 0;
}

static int on_end(logrd *rd, const char *line)
{
    (void)line;
    rd->ended = 1;
    return 0;
}

static int on_ignored(logrd *rd, const char *line)
{
    (void)rd;
    (void)line;
    return 0;
}

/* by a line's first character (S, E and empty lines carry nothing to check) */
static line_fn *const on_line[128] = {
    ['W'] = on_worker,   ['T'] = on_extend,      ['K'] = on_kind,
    ['H'] = on_hold_change, ['D'] = on_hold_change, ['I'] = on_inflight,
    ['V'] = on_violation, ['U'] = on_audit_counters, ['B'] = on_loop_block,
    ['A'] = on_acquired, ['L'] = on_lost,        ['R'] = on_released,
    ['P'] = on_resumed,  ['F'] = on_failed,      ['N'] = on_node,
    ['S'] = on_ignored,  ['E'] = on_end,     ['\n'] = on_ignored};

static int read_lines(logrd *rd, FILE *f)
{
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        rd->lineno++;
        unsigned char c = (unsigned char)line[0];
        int rc = c < 128 && on_line[c] ? on_line[c](rd, line) : 1;
        if (rc > 0)
            fprintf(stderr, "rl-check: %s:%ld: cannot parse: %s", rd->path, rd->lineno, line);
        if (rc)
            return -1;
    }
    return 0;
}

/* a log's last U line, added to the run's */
static void add_audit(audit_sum *sum, const audit_sum *u)
{
    sum->checks += u->checks;
    sum->judged += u->judged;
    sum->skipped += u->skipped;
    sum->viol += u->viol;
    sum->unknown += u->unknown;
    sum->ijudged += u->ijudged;
    sum->iviol += u->iviol;
    sum->min_slack = min64(sum->min_slack, u->min_slack);
    sum->imin_slack = min64(sum->imin_slack, u->imin_slack);
    sum->max_rtt = max64(sum->max_rtt, u->max_rtt);
}

int read_log(check *ck, const char *path, int file_index)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "rl-check: %s: %s\n", path, strerror(errno));
        return -1;
    }
    logrd rd = {ck, path, 0, file_index, NONE, {0}, 0, 0, 0, 0};
    rd.u.min_slack = rd.u.imin_slack = INT64_MAX;
    int rc = read_lines(&rd, f);
    fclose(f);
    if (rc)
        return -1;
    if (rd.last != NONE) {
        ck->acqs[rd.last].crashed = !rd.ended && !ck->acqs[rd.last].release;
        seg_close(ck, rd.last, INT64_MAX);
    }
    add_audit(&ck->audit, &rd.u);
    return 0;
}

/* one X line: X start_us end_us back_us kind free text... */
static void add_fault(check *ck, const char *line)
{
    long long a, b, c;
    char kind[32];
    int off = 0;
    if (sscanf(line, "X %lld %lld %lld %31s %n", &a, &b, &c, kind, &off) < 4)
        return;
    ck->faults = rl_grow(ck->faults, &ck->capfault, ck->nfault + 1, sizeof *ck->faults);
    fault *x = &ck->faults[ck->nfault++];
    x->start = a;
    x->end = b;
    x->back = c;
    snprintf(x->kind, sizeof x->kind, "%s", kind);
    snprintf(x->text, sizeof x->text, "%s", off ? line + off : "");
    size_t l = strlen(x->text);
    while (l && (x->text[l - 1] == '\n' || x->text[l - 1] == ' '))
        x->text[--l] = '\0';
}

/* a C line's "key=value ..." (without its newline), after those before */
static void add_figures(check *ck, const char *text)
{
    size_t have = strlen(ck->c_figures), len = strcspn(text, "\n");
    if (have + 1 + len < sizeof ck->c_figures)
        snprintf(ck->c_figures + have, sizeof ck->c_figures - have, "%s%.*s", have ? " " : "",
                 (int)len, text);
}

int read_faults(check *ck, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;   /* no fault injected */
        fprintf(stderr, "rl-check: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == 'Z')
            sscanf(line, "Z leftover_keys=%lld masters=%lld", &ck->leftover_keys,
                   &ck->leftover_scanned);
        else if (line[0] == 'Y')
            sscanf(line, "Y setresets=%lld hostile_conns=%lld", &ck->y_setresets,
                   &ck->y_hostile);
        else if (line[0] == 'X')
            add_fault(ck, line);
        else if (!strncmp(line, "C ", 2))
            add_figures(ck, line + 2);
    }
    fclose(f);
    return 0;
}
