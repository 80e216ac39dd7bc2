/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* json_check.h -- a strict JSON reader for the tests of --json
 * (json_check.c): whether a text is exactly one JSON value, and the value
 * at a path in it. */
#ifndef JSON_CHECK_H
#define JSON_CHECK_H

#include <stddef.h>

/* 0 when s (len bytes) is one JSON value (RFC 8259) with only whitespace
 * around it: no trailing commas, no raw control characters in strings,
 * only the escapes the RFC has (a \u surrogate pair whole), numbers
 * without leading zeros, valid UTF-8, nesting at most 64 deep.  Else -1
 * and err says why and at which byte. */
int json_valid(const char *s, size_t len, char *err, size_t errlen);

/* The value at `path` in the valid JSON s: members by name and array
 * elements by index, joined with '.' ("masters.2.result").  A string is
 * decoded, a \u escape below 0x100 as that one byte (how the command
 * writes bytes: docs/command.md), others as UTF-8; any other value is its
 * text ("true", "42", "{...}").  Its length (NUL-terminated in out, cut to
 * n - 1), or -1 when the path is not there. */
long json_get(const char *s, const char *path, char *out, size_t n);

#endif
