/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* json.c -- the JSON writer of --json (json.h). */
#include "cmd/json.h"

#include <inttypes.h>
#include <string.h>

void redlock_json_string(FILE *out, const void *s, size_t len)
{
    const unsigned char *p = s;

    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = p[i];
        switch (ch) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (ch < 0x20 || ch >= 0x7f)
                fprintf(out, "\\u%04x", ch);
            else
                fputc(ch, out);
        }
    }
    fputc('"', out);
}

/* The separator and the key of the next member; 0: drop it (inside a
 * level too deep). */
static int member(redlock_json *j, const char *key)
{
    if (j->over)
        return 0;
    if (j->count[j->depth]++)
        fputc(',', j->out);
    if (key) {
        redlock_json_string(j->out, key, strlen(key));
        fputc(':', j->out);
    }
    return 1;
}

void redlock_json_start(redlock_json *j, FILE *out)
{
    memset(j, 0, sizeof *j);
    j->out = out;
    fputc('{', out);
}

void redlock_json_finish(redlock_json *j)
{
    while (j->over || j->depth > 0)
        redlock_json_end(j);
    fputs("}\n", j->out);
    fflush(j->out);
}

void redlock_json_str(redlock_json *j, const char *key, const void *s, size_t len)
{
    if (member(j, key))
        redlock_json_string(j->out, s, len);
}

void redlock_json_cstr(redlock_json *j, const char *key, const char *s)
{
    if (!s)
        redlock_json_null(j, key);
    else
        redlock_json_str(j, key, s, strlen(s));
}

void redlock_json_int(redlock_json *j, const char *key, int64_t v)
{
    if (member(j, key))
        fprintf(j->out, "%" PRId64, v);
}

void redlock_json_bool(redlock_json *j, const char *key, int v)
{
    if (member(j, key))
        fputs(v ? "true" : "false", j->out);
}

void redlock_json_null(redlock_json *j, const char *key)
{
    if (member(j, key))
        fputs("null", j->out);
}

/* Levels deeper than REDLOCK_JSON_DEPTH (none of the command's) are
 * written as null, their members dropped: the output stays well-formed. */
static void open_level(redlock_json *j, const char *key, char ch)
{
    if (j->over || j->depth + 1 >= REDLOCK_JSON_DEPTH) {
        if (!j->over)
            redlock_json_null(j, key);
        j->over++;
        return;
    }
    member(j, key);
    fputc(ch, j->out);
    j->count[++j->depth] = 0;
    j->kind[j->depth] = ch;
}

void redlock_json_object(redlock_json *j, const char *key)
{
    open_level(j, key, '{');
}

void redlock_json_array(redlock_json *j, const char *key)
{
    open_level(j, key, '[');
}

void redlock_json_end(redlock_json *j)
{
    if (j->over) {
        j->over--;
        return;
    }
    if (j->depth == 0)
        return;
    fputc(j->kind[j->depth] == '[' ? ']' : '}', j->out);
    j->depth--;
}
