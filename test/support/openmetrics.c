/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* openmetrics.c -- a strict OpenMetrics text parser (openmetrics.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "openmetrics.h"

#define MAXLABELS 16
#define NAMELEN 200

typedef struct label {
    char name[NAMELEN];
    const char *value;      /* escaped, as written */
    size_t vlen;
} label;

typedef struct family {
    char name[NAMELEN];
    char type[16];
    int has_type, has_help, has_unit, samples;
} family;

/* A histogram's series being read: its labels but le, the last bucket. */
typedef struct hseries {
    char key[1024];
    double last_le, last_count;
    int buckets, inf;
    double inf_count;
} hseries;

typedef struct parser {
    om_doc *d;
    size_t line;
    family fam;             /* the current family */
    char **seen;            /* families finished or current */
    size_t nseen;
    hseries h;
} parser;

__attribute__((format(printf, 2, 3)))
static int fail(parser *p, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(p->d->err, sizeof p->d->err, "line %zu: ", p->line);

    va_start(ap, fmt);
    vsnprintf(p->d->err + n, sizeof p->d->err - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int name_char(char c, int first, int colon)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (colon && c == ':') || (!first && c >= '0' && c <= '9');
}

/* A name at s (metric names may hold ':'); its length, 0: none. */
static size_t scan_name(const char *s, const char *end, int colon)
{
    size_t n = 0;

    while (s + n < end && name_char(s[n], n == 0, colon))
        n++;
    return n;
}

static int parse_number(const char *s, size_t len, double *out)
{
    char buf[64], *e;

    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (!strcmp(buf, "+Inf") || !strcmp(buf, "-Inf") || !strcmp(buf, "NaN")) {
        *out = buf[0] == 'N' ? NAN : buf[0] == '+' ? INFINITY : -INFINITY;
        return 0;
    }
    /* strtod also takes "inf", "nan", hex and spaces: the format does not */
    for (size_t i = 0; i < len; i++)
        if (!strchr("0123456789.eE+-", buf[i]))
            return -1;
    *out = strtod(buf, &e);
    return *e == '\0' ? 0 : -1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* The family `name` starts (a metadata line), or goes on. */
static int enter_family(parser *p, const char *name)
{
    if (!strcmp(p->fam.name, name))
        return 0;
    for (size_t i = 0; i < p->nseen; i++)
        if (!strcmp(p->seen[i], name))
            return fail(p, "family %s comes back after another", name);
    if (p->h.buckets && !p->h.inf)
        return fail(p, "histogram series %s has no le=\"+Inf\" bucket", p->h.key);
    memset(&p->fam, 0, sizeof p->fam);
    snprintf(p->fam.name, sizeof p->fam.name, "%s", name);
    memset(&p->h, 0, sizeof p->h);
    p->seen = realloc(p->seen, (p->nseen + 1) * sizeof *p->seen);
    p->seen[p->nseen++] = strdup(name);
    return 0;
}

static int metadata(parser *p, const char *s, const char *end)
{
    const char *kw = s + 2, *name, *rest;
    size_t kwlen, nlen;
    char nm[NAMELEN];
    int *flag;
    int known;

    if (end - s < 2 || s[1] != ' ')
        return fail(p, "a comment must be \"# TYPE|HELP|UNIT name ...\" or \"# EOF\"");
    for (kwlen = 0; kw + kwlen < end && kw[kwlen] != ' '; kwlen++)
        ;
    known = kwlen == 4 && (!memcmp(kw, "TYPE", 4) || !memcmp(kw, "HELP", 4) ||
                           !memcmp(kw, "UNIT", 4));
    if (!known)
        return fail(p, "unknown comment \"# %.*s\"", (int)kwlen, kw);
    name = kw + kwlen + 1;
    if (name > end || !(nlen = scan_name(name, end, 1)) || nlen >= NAMELEN)
        return fail(p, "a metric name must follow # %.4s", kw);
    rest = name + nlen;
    if (rest < end && *rest != ' ')
        return fail(p, "bad character after the name in # %.4s", kw);
    memcpy(nm, name, nlen);
    nm[nlen] = '\0';
    if (enter_family(p, nm) != 0)
        return -1;
    flag = kw[0] == 'T' ? &p->fam.has_type : kw[0] == 'H' ? &p->fam.has_help
                                                            : &p->fam.has_unit;
    if (*flag)
        return fail(p, "# %.4s given twice for %s", kw, nm);
    if (p->fam.samples)
        return fail(p, "# %.4s for %s after its samples", kw, nm);
    *flag = 1;
    rest = rest < end ? rest + 1 : end;
    if (kw[0] == 'T') {
        static const char *const types[] = { "counter", "gauge", "histogram", "gaugehistogram",
                                             "stateset", "info", "summary", "unknown" };
        size_t i, n = sizeof types / sizeof *types;
        for (i = 0; i < n; i++)
            if ((size_t)(end - rest) == strlen(types[i]) && !memcmp(rest, types[i], strlen(types[i])))
                break;
        if (i == n)
            return fail(p, "unknown type \"%.*s\"", (int)(end - rest), rest);
        snprintf(p->fam.type, sizeof p->fam.type, "%s", types[i]);
    } else if (kw[0] == 'U') {
        char want[NAMELEN + 2];
        snprintf(want, sizeof want, "_%.*s", (int)(end - rest), rest);
        if (rest == end || !ends_with(nm, want))
            return fail(p, "%s does not end with its unit \"%.*s\"", nm, (int)(end - rest),
                        rest);
    }
    return 0;
}

/* Labels {a="x",b="y"} at *s; *s moves past them. */
static int parse_labels(parser *p, const char **s, const char *end, label *lb, size_t *n)
{
    const char *c = *s + 1;

    *n = 0;
    if (c < end && *c == '}') {
        *s = c + 1;
        return 0;
    }
    for (;;) {
        size_t len = scan_name(c, end, 0);
        if (!len || len >= NAMELEN)
            return fail(p, "bad label name");
        if (*n == MAXLABELS)
            return fail(p, "too many labels");
        memcpy(lb[*n].name, c, len);
        lb[*n].name[len] = '\0';
        for (size_t i = 0; i < *n; i++)
            if (!strcmp(lb[i].name, lb[*n].name))
                return fail(p, "label %s twice", lb[i].name);
        c += len;
        if (c + 1 >= end || c[0] != '=' || c[1] != '"')
            return fail(p, "label %s: expected =\"", lb[*n].name);
        c += 2;
        lb[*n].value = c;
        while (c < end && *c != '"') {
            if (*c == '\\') {
                if (c + 1 >= end || !strchr("\\\"n", c[1]))
                    return fail(p, "label %s: bad escape", lb[*n].name);
                c++;
            }
            c++;
        }
        if (c >= end)
            return fail(p, "label %s: unterminated value", lb[*n].name);
        lb[*n].vlen = (size_t)(c - lb[*n].value);
        (*n)++;
        c++;
        if (c < end && *c == '}') {
            *s = c + 1;
            return 0;
        }
        if (c >= end || *c != ',')
            return fail(p, "expected , or } after a label");
        c++;
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const label *)a)->name, ((const label *)b)->name);
}

/* name{sorted labels}, leaving out label `skip` (NULL: none). */
static void make_key(char *out, size_t size, const char *name, label *lb, size_t n,
                     const char *skip)
{
    size_t len = (size_t)snprintf(out, size, "%s", name);
    int first = 1;

    qsort(lb, n, sizeof *lb, by_name);
    for (size_t i = 0; i < n && len < size; i++) {
        if (skip && !strcmp(lb[i].name, skip))
            continue;
        len += (size_t)snprintf(out + len, size - len, "%s%s=\"%.*s\"", first ? "{" : ",",
                                lb[i].name, (int)lb[i].vlen, lb[i].value);
        first = 0;
    }
    if (!first && len < size)
        snprintf(out + len, size - len, "}");
}

/* The suffix a sample's name has in its family, or NULL when its type has
 * no such sample. */
static const char *sample_suffix(const family *f, const char *name)
{
    static const char *const counter[] = { "_total", "_created", NULL };
    static const char *const histogram[] = { "_bucket", "_count", "_sum", "_created", NULL };
    static const char *const none[] = { "", NULL };
    const char *const *sfx = !strcmp(f->type, "counter") ? counter
                             : !strcmp(f->type, "histogram") ? histogram : none;
    size_t flen = strlen(f->name);

    if (strncmp(name, f->name, flen))
        return NULL;
    for (; *sfx; sfx++)
        if (!strcmp(name + flen, *sfx))
            return *sfx;
    return NULL;
}

static int histogram_sample(parser *p, const char *sfx, label *lb, size_t n, double v)
{
    char key[1024];
    const label *le = NULL;
    double lev;

    make_key(key, sizeof key, p->fam.name, lb, n, "le");
    if (strcmp(sfx, "_bucket")) {
        if (!strcmp(sfx, "_count")) {
            if (!p->h.inf || strcmp(key, p->h.key))
                return fail(p, "%s_count before the +Inf bucket of its series", p->fam.name);
            if (v != p->h.inf_count)
                return fail(p, "%s_count %g is not its +Inf bucket's %g", p->fam.name, v,
                            p->h.inf_count);
        }
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(lb[i].name, "le"))
            le = &lb[i];
    if (!le || parse_number(le->value, le->vlen, &lev) != 0 || isnan(lev))
        return fail(p, "bucket without a numeric le");
    if (p->h.buckets && !strcmp(key, p->h.key)) {
        if (p->h.inf)
            return fail(p, "bucket after le=\"+Inf\"");
        if (lev <= p->h.last_le)
            return fail(p, "buckets' le not rising (%g after %g)", lev, p->h.last_le);
        if (v < p->h.last_count)
            return fail(p, "buckets not cumulative (%g after %g)", v, p->h.last_count);
    } else {
        if (p->h.buckets && !p->h.inf)
            return fail(p, "histogram series %s has no le=\"+Inf\" bucket", p->h.key);
        memset(&p->h, 0, sizeof p->h);
        snprintf(p->h.key, sizeof p->h.key, "%s", key);
    }
    p->h.buckets++;
    p->h.last_le = lev;
    p->h.last_count = v;
    if (isinf(lev) && lev > 0) {
        p->h.inf = 1;
        p->h.inf_count = v;
    }
    return 0;
}

static int sample(parser *p, const char *s, const char *end)
{
    label lb[MAXLABELS];
    size_t nlen = scan_name(s, end, 1), n = 0, vlen;
    char name[NAMELEN], key[1024];
    const char *c = s + nlen, *sfx;
    double v;

    if (!nlen || nlen >= NAMELEN)
        return fail(p, "bad metric name");
    memcpy(name, s, nlen);
    name[nlen] = '\0';
    if (!p->fam.has_type)
        return fail(p, "sample %s before its family's TYPE", name);
    if (!(sfx = sample_suffix(&p->fam, name)))
        return fail(p, "sample %s is not one of family %s (%s)", name, p->fam.name, p->fam.type);
    if (c < end && *c == '{' && parse_labels(p, &c, end, lb, &n) != 0)
        return -1;
    if (c >= end || *c != ' ')
        return fail(p, "expected one space before the value");
    c++;
    for (vlen = 0; c + vlen < end && c[vlen] != ' '; vlen++)
        ;
    if (parse_number(c, vlen, &v) != 0)
        return fail(p, "bad value \"%.*s\"", (int)vlen, c);
    if (c + vlen < end) {
        double ts;
        const char *t = c + vlen + 1;
        if (parse_number(t, (size_t)(end - t), &ts) != 0)
            return fail(p, "bad timestamp");
    }
    if ((!strcmp(p->fam.type, "counter") || !strcmp(p->fam.type, "histogram")) &&
        (v < 0 || isnan(v)) && strcmp(sfx, "_sum"))
        return fail(p, "%s is negative", name);
    make_key(key, sizeof key, name, lb, n, NULL);
    if (om_get(p->d, key))
        return fail(p, "series %s twice", key);
    if (!strcmp(p->fam.type, "histogram") && histogram_sample(p, sfx, lb, n, v) != 0)
        return -1;
    p->fam.samples++;
    if (p->d->n == p->d->cap) {
        p->d->cap = p->d->cap ? 2 * p->d->cap : 64;
        p->d->s = realloc(p->d->s, p->d->cap * sizeof *p->d->s);
    }
    p->d->s[p->d->n].key = strdup(key);
    p->d->s[p->d->n++].value = v;
    return 0;
}

static int parse(parser *p, const char *text, size_t len)
{
    const char *s = text, *end = text + len;

    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        p->line++;
        if (!nl)
            return fail(p, "the line has no newline");
        if ((size_t)(nl - s) == 5 && !memcmp(s, "# EOF", 5)) {
            if (nl + 1 != end)
                return fail(p, "text after # EOF");
            if (p->h.buckets && !p->h.inf)
                return fail(p, "histogram series %s has no le=\"+Inf\" bucket", p->h.key);
            return 0;
        }
        if (nl == s)
            return fail(p, "empty line");
        if ((*s == '#' ? metadata(p, s, nl) : sample(p, s, nl)) != 0)
            return -1;
        s = nl + 1;
    }
    p->line++;
    return fail(p, "no # EOF at the end");
}

int om_parse(om_doc *d, const char *text, size_t len)
{
    parser p = { .d = d };
    int rc;

    memset(d, 0, sizeof *d);
    rc = parse(&p, text, len);
    for (size_t i = 0; i < p.nseen; i++)
        free(p.seen[i]);
    free(p.seen);
    return rc;
}

void om_free(om_doc *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->s[i].key);
    free(d->s);
    memset(d, 0, sizeof *d);
}

const om_sample *om_get(const om_doc *d, const char *key)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->s[i].key, key))
            return &d->s[i];
    return NULL;
}

double om_value(const om_doc *d, const char *key)
{
    const om_sample *s = om_get(d, key);
    return s ? s->value : -1;
}
