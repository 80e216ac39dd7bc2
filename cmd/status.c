/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* status.c -- `redlock status RESOURCE`: what every master holds for it
 * (redlock_inspect: kind, holders, time left, each master's result) and
 * the quorum's view, read without touching the lock.  --metrics: the
 * client's metrics (redlock_client_metrics) once that is done, as
 * OpenMetrics text, and the resource's view as gauges (RESOURCE then
 * optional). */
#include "cmd/cmd.h"
#include "cmd/json.h"

#include <stdlib.h>
#include <string.h>

/* The client's OpenMetrics text (malloc'd), or NULL. */
static char *metrics_text(redlock_client *cl, size_t *len)
{
    int64_t n = redlock_client_metrics(cl, NULL, 0);
    char *buf;

    for (int tries = 0; n >= 0 && tries < 4; tries++) {
        if (!(buf = malloc((size_t)n + 1)))
            return NULL;
        int64_t got = redlock_client_metrics(cl, buf, (size_t)n + 1);
        if (got >= 0 && got <= n) {
            *len = (size_t)got;
            return buf;
        }
        free(buf);
        n = got;            /* it grew meanwhile */
    }
    return NULL;
}

/* An OpenMetrics label value: bytes outside printable ASCII, and '\', as
 * the text \xNN (as the view shows them), written with its backslash
 * escaped (the format knows no other escapes than \\, \" and \n); '"'
 * escaped. */
static void om_label(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"')
            fputs("\\\"", out);
        else if (ch >= 0x20 && ch < 0x7f && ch != '\\')
            fputc(ch, out);
        else
            fprintf(out, "\\\\x%02x", ch);
    }
}

static void om_sample(FILE *out, const char *name, const char *res, const char *node, double v)
{
    fprintf(out, "%s{resource=\"", name);
    om_label(out, res);
    fprintf(out, "\",node=\"");
    om_label(out, node);
    fprintf(out, "\"} %.9g\n", v);
}

/* The resource's view as gauges, per master that answered and for the
 * quorum (node "quorum"): its holders, its time left. */
static void om_resource(FILE *out, redlock_client *cl, const redlock_inspection *in,
                        const char *res)
{
    static const char *const fam[2][3] = {
        {"redlock_resource_holders", NULL, "Holders of the resource on each master that "
         "answered, and in the quorum's view (node quorum)."},
        {"redlock_resource_ttl_seconds", "seconds", "Time left of the resource's lock on each "
         "master that answered (0: free; -1: a key without a ttl), and the time a quorum "
         "grants."}};
    for (int f = 0; f < 2; f++) {
        fprintf(out, "# TYPE %s gauge\n", fam[f][0]);
        if (fam[f][1])
            fprintf(out, "# UNIT %s %s\n", fam[f][0], fam[f][1]);
        fprintf(out, "# HELP %s %s\n", fam[f][0], fam[f][2]);
        for (size_t i = 0; i <= redlock_inspection_nodes(in); i++) {
            size_t node = i < redlock_inspection_nodes(in) ? i : REDLOCK_INSPECT_QUORUM;
            redlock_inspect_node v;
            redlock_node_stats st;
            char addr[300] = "quorum";
            if (redlock_inspection_node(in, node, &v) != 0 || v.result != REDLOCK_VOTE_OK)
                continue;
            if (node != REDLOCK_INSPECT_QUORUM && redlock_client_node_stats(cl, i, &st) == 0)
                snprintf(addr, sizeof addr, "%s", st.address);
            om_sample(out, fam[f][0], res, addr,
                      f == 0 ? (double)v.holders
                             : v.ttl_ms < 0 ? -1.0 : (double)v.ttl_ms / 1000.0);
        }
    }
}

/* The metrics' text with, when in, the resource's gauges before its
 * "# EOF" (malloc'd), or NULL. */
static char *metrics_with(redlock_client *cl, const redlock_inspection *in, const char *res,
                          size_t *len)
{
    size_t n = 0;
    char *text = metrics_text(cl, &n), *all = NULL;
    static const char eof[] = "# EOF\n";
    if (!text || !in) {
        *len = n;
        return text;
    }
    FILE *out = open_memstream(&all, len);
    if (out) {
        size_t body = n >= sizeof eof - 1 && memcmp(text + n - (sizeof eof - 1), eof,
                                                    sizeof eof - 1) == 0 ? n - (sizeof eof - 1) : n;
        fwrite(text, 1, body, out);
        om_resource(out, cl, in, res);
        fputs(eof, out);
        if (fclose(out) != 0) {
            free(all);
            all = NULL;
        }
    }
    free(text);
    return all;
}

/* --metrics: the text alone (with the resource's gauges when a RESOURCE
 * was inspected), or with --json the "metrics" member. */
static int put_metrics(const redlock_cmd *c, redlock_client *cl, const redlock_inspection *in,
                       const char *res, redlock_json *j)
{
    size_t len = 0;
    char *text = metrics_with(cl, in, res, &len);

    if (!text) {
        redlock_cmd_error(c, "metrics: %s", redlock_client_errstr(cl));
        return REDLOCK_EXIT_SOFTWARE;
    }
    if (j)
        redlock_json_str(j, "metrics", text, len);
    else
        fwrite(text, 1, len, stdout);
    free(text);
    return 0;
}

/* A value for the text output: printable ASCII as it is, other bytes as
 * \xNN. */
static void put_bytes(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x20 && ch < 0x7f && ch != '\\')
            putchar(ch);
        else
            printf("\\x%02x", ch);
    }
}

static void text_view(const redlock_inspection *in, size_t node, const char *label)
{
    redlock_inspect_node v;
    redlock_inspect_holder h;

    if (redlock_inspection_node(in, node, &v) != 0)
        return;
    printf("%s", label);
    if (v.result != REDLOCK_VOTE_OK) {
        printf("  %s%s%s\n", redlock_vote_name(v.result), v.detail[0] ? ": " : "", v.detail);
        return;
    }
    printf("  %s", redlock_held_name(v.kind));
    if (v.kind != REDLOCK_HELD_NONE)
        printf("  holders %zu  ttl %lld ms", v.holders, (long long)v.ttl_ms);
    if (v.kind == REDLOCK_HELD_SEMAPHORE)
        printf("  permits %lld", (long long)v.permits);
    if (v.owner) {
        printf("  owner ");
        put_bytes(v.owner, v.ownerlen);
    }
    if (v.writer_waiting)
        printf("  writer waiting");
    putchar('\n');
    for (size_t i = 0; i < v.listed && redlock_inspection_holder(in, node, i, &h) == 0; i++) {
        printf("    ");
        put_bytes(h.value, h.len);
        printf("  ttl %lld ms", (long long)h.ttl_ms);
        if (h.holds != 1)
            printf("  holds %lld", (long long)h.holds);
        putchar('\n');
    }
}

/* The masters the resource's operations need: a semaphore's quorum where
 * the quorum's view is a semaphore with an agreed count (the library's
 * rule, from a handle that sends nothing), else the client's majority. */
static size_t view_quorum(redlock_client *cl, const redlock_inspection *in, const char *res)
{
    redlock_inspect_node v;
    redlock_lock *l;
    int q;

    if (redlock_inspection_node(in, REDLOCK_INSPECT_QUORUM, &v) != 0 ||
        v.kind != REDLOCK_HELD_SEMAPHORE || v.permits < 1 || v.permits > 1024 ||
        redlock_lock_new_semaphore(&l, cl, res, strlen(res), (unsigned)v.permits) != 0)
        return redlock_client_quorum(cl);
    q = redlock_lock_quorum(l);
    redlock_lock_free(l);
    return q > 0 ? (size_t)q : redlock_client_quorum(cl);
}

static void text_out(redlock_client *cl, const redlock_inspection *in, const char *res)
{
    char label[320];

    printf("resource ");
    put_bytes(res, strlen(res));
    printf("  masters %zu  quorum %zu\n", redlock_client_nodes(cl), view_quorum(cl, in, res));
    for (size_t i = 0; i < redlock_inspection_nodes(in); i++) {
        redlock_node_stats st;
        if (redlock_client_node_stats(cl, i, &st) != 0)
            continue;
        snprintf(label, sizeof label, "node %zu %s", i, st.address);
        text_view(in, i, label);
    }
    text_view(in, REDLOCK_INSPECT_QUORUM, "quorum");
}

static void json_view(redlock_json *j, const redlock_inspection *in, size_t node)
{
    redlock_inspect_node v;
    redlock_inspect_holder h;

    if (redlock_inspection_node(in, node, &v) != 0)
        return;
    redlock_json_cstr(j, "result", redlock_vote_name(v.result));
    if (node != REDLOCK_INSPECT_QUORUM) {
        redlock_json_int(j, "rtt_us", v.rtt_us);
        redlock_json_cstr(j, "detail", v.detail);
    }
    redlock_json_cstr(j, "kind", redlock_held_name(v.kind));
    redlock_json_int(j, "holders", (int64_t)v.holders);
    redlock_json_int(j, "ttl_ms", v.ttl_ms);
    if (v.owner)
        redlock_json_str(j, "owner", v.owner, v.ownerlen);
    else
        redlock_json_null(j, "owner");
    redlock_json_bool(j, "writer_waiting", v.writer_waiting);
    if (v.kind == REDLOCK_HELD_SEMAPHORE)
        redlock_json_int(j, "permits", v.permits);
    redlock_json_array(j, "values");
    for (size_t i = 0; i < v.listed && redlock_inspection_holder(in, node, i, &h) == 0; i++) {
        redlock_json_object(j, NULL);
        redlock_json_str(j, "value", h.value, h.len);
        redlock_json_int(j, "ttl_ms", h.ttl_ms);
        redlock_json_int(j, "holds", h.holds);
        if (node == REDLOCK_INSPECT_QUORUM)
            redlock_json_int(j, "masters", (int64_t)h.masters);
        redlock_json_end(j);
    }
    redlock_json_end(j);
}

static void json_inspection(redlock_json *j, redlock_client *cl, const redlock_inspection *in,
                            const char *res)
{
    redlock_json_cstr(j, "resource", res);
    redlock_json_int(j, "quorum", (int64_t)view_quorum(cl, in, res));
    redlock_json_array(j, "masters");
    for (size_t i = 0; i < redlock_inspection_nodes(in); i++) {
        redlock_node_stats st;
        redlock_json_object(j, NULL);
        redlock_json_int(j, "node", (int64_t)i);
        if (redlock_client_node_stats(cl, i, &st) == 0)
            redlock_json_cstr(j, "address", st.address);
        json_view(j, in, i);
        redlock_json_end(j);
    }
    redlock_json_end(j);
    redlock_json_object(j, "quorum_view");
    json_view(j, in, REDLOCK_INSPECT_QUORUM);
    redlock_json_end(j);
}

/* The whole output once the client is there: the inspection (when a
 * RESOURCE was given) and the metrics (--metrics); the exit code. */
static int output(const redlock_cmd *c, redlock_client *cl, const redlock_inspection *in,
                  const char *res, int exit)
{
    redlock_json j;

    if (c->json) {
        redlock_json_start(&j, stdout);
        redlock_json_cstr(&j, "command", "status");
        if (in)
            json_inspection(&j, cl, in, res);
    } else if (in && !c->metrics) {
        text_out(cl, in, res);
    }
    if (c->metrics && put_metrics(c, cl, in, res, c->json ? &j : NULL) != 0 && exit == 0)
        exit = REDLOCK_EXIT_SOFTWARE;
    if (c->json) {
        redlock_json_bool(&j, "ok", exit == 0);
        redlock_json_int(&j, "exit", exit);
        if (exit != 0)
            redlock_json_cstr(&j, "error", redlock_cmd_last_error());
        redlock_json_finish(&j);
    }
    return exit;
}

static int failed(const redlock_cmd *c, int exit)
{
    if (c->json)
        redlock_cmd_json_failed(c, exit);
    return exit;
}

static int check_usage(redlock_cmd *c)
{
    if (c->nargs > 1 || (c->nargs == 0 && !c->metrics) || c->dashdash >= 0)
        redlock_cmd_error(c, "status takes one RESOURCE (optional with --metrics)");
    else if (c->value || c->fencing || c->nonblock || c->read || c->write)
        redlock_cmd_error(c, "status takes no --value, --fencing, -n, --read or --write");
    else
        return 0;
    return REDLOCK_EXIT_USAGE;
}

int redlock_cmd_status(redlock_cmd *c, int argc, char **argv)
{
    redlock_inspection *in = NULL;
    redlock_client *cl;
    int exit = check_usage(c), rc;
    const char *res = c->nargs ? c->args[0] : "";
    (void)argc;
    (void)argv;

    if (exit)
        return failed(c, exit);
    if (!(cl = redlock_cmd_client(c, NULL, 0, 1, &exit)))
        return failed(c, exit);
    /* a master still connecting would read as down */
    (void)redlock_client_wait_connected(cl, redlock_client_nodes(cl), c->opts.connect_timeout_ms);
    if (c->nargs) {
        rc = redlock_inspect(cl, res, strlen(res), &in);
        if (!in) {
            redlock_cmd_error(c, "%s", redlock_client_errstr(cl));
            redlock_client_free(cl);
            return failed(c, rc == REDLOCK_EINVAL ? REDLOCK_EXIT_USAGE : REDLOCK_EXIT_SOFTWARE);
        }
        exit = rc == 0 ? REDLOCK_EXIT_OK : REDLOCK_EXIT_UNAVAIL;
        /* an ACL that refuses the inspection's script: waiting will not
         * change it (78), as for the lock's commands */
        if (rc != 0 && redlock_cmd_refused_inspection(c, cl, in))
            exit = REDLOCK_EXIT_CONFIG;
        else if (rc != 0)
            redlock_cmd_error(c, "%s", redlock_inspection_errstr(in));
    }
    exit = output(c, cl, in, res, exit);
    redlock_inspection_free(in);
    redlock_client_free(cl);
    return exit;
}
