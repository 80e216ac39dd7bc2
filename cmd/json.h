/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* json.h -- a small JSON writer for --json (json.c): one object, nested
 * objects and arrays, strings of any bytes.  Output is ASCII: '"', '\\'
 * and every control character are escaped (\n, \t ... or \u00XX), and
 * every byte >= 0x80 is written \u00XX, the code point of its value, so
 * that a binary resource name comes back byte for byte (docs/command.md). */
#ifndef REDLOCK_CMD_JSON_H
#define REDLOCK_CMD_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REDLOCK_JSON_DEPTH 8

typedef struct redlock_json {
    FILE *out;
    int depth;
    int count[REDLOCK_JSON_DEPTH];      /* members written at each level */
    char kind[REDLOCK_JSON_DEPTH];      /* '{' or '[' */
    int over;                           /* levels opened past the depth */
} redlock_json;

/* Start the top object ("{"); redlock_json_finish closes it and every
 * level still open, then a newline. */
void redlock_json_start(redlock_json *j, FILE *out);
void redlock_json_finish(redlock_json *j);
/* Members: `key` is the member's name in an object, NULL in an array. */
void redlock_json_str(redlock_json *j, const char *key, const void *s, size_t len);
void redlock_json_cstr(redlock_json *j, const char *key, const char *s);   /* NULL: null */
void redlock_json_int(redlock_json *j, const char *key, int64_t v);
void redlock_json_bool(redlock_json *j, const char *key, int v);
void redlock_json_null(redlock_json *j, const char *key);
void redlock_json_object(redlock_json *j, const char *key);
void redlock_json_array(redlock_json *j, const char *key);
void redlock_json_end(redlock_json *j);      /* the innermost object or array */
/* s (len bytes) as a JSON string, quotes included. */
void redlock_json_string(FILE *out, const void *s, size_t len);

/* The last line redlock_cmd_error wrote (config.c), for {"error": ...}. */
const char *redlock_cmd_last_error(void);

#endif
