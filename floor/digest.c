/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* digest.c -- the SHA-1 that names a script for EVALSHA, by libcrypto
 * (linked for TLS anyway). */
#include <openssl/evp.h>
#include "floor/floor.h"

void redlock__sha1_hex(const void *data, size_t len, char out[41])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;

    if (!EVP_Digest(data, len, md, &n, EVP_sha1(), NULL) || n != 20) {
        out[0] = '\0';      /* no EVALSHA matches: EVAL loads the script */
        return;
    }
    for (unsigned i = 0; i < 20; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
    out[40] = '\0';
}
