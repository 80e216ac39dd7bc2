/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* keyspace.c -- the keys: a chained hash table (FNV-1a), doubled when it
 * holds as many keys as buckets.  An expired key is deleted when looked
 * up (Redis's lazy expiry; its active expiry only frees memory, which no
 * reply shows, so the checkers' purge stands for it). */
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

static uint64_t hash_of(const char *p, size_t len)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

int sim_ks_init(sim_keyspace *ks)
{
    ks->nbucket = 64;
    ks->count = 0;
    ks->bucket = calloc(ks->nbucket, sizeof *ks->bucket);
    return ks->bucket ? 0 : -1;
}

int sim_str_set(sim_str *s, const char *p, size_t len)
{
    char *np = malloc(len + 1);
    if (!np)
        return -1;
    memcpy(np, p, len);
    np[len] = '\0';
    free(s->p);
    s->p = np;
    s->len = len;
    return 0;
}

void sim_str_free(sim_str *s)
{
    free(s->p);
    s->p = NULL;
    s->len = 0;
}

static void free_value(sim_key *k)
{
    sim_str_free(&k->s);
    if (k->type == SIM_HASH || k->type == SIM_SET) {
        sim_str *it = k->items;
        size_t n = k->type == SIM_HASH ? 2 * k->n : k->n;
        for (size_t i = 0; i < n; i++)
            free(it[i].p);
    } else if (k->type == SIM_ZSET) {
        sim_zent *z = k->items;
        for (size_t i = 0; i < k->n; i++)
            free(z[i].m.p);
    }
    free(k->items);
    k->items = NULL;
    k->n = k->cap = 0;
}

void sim_key_reset(sim_key *k, int type)
{
    free_value(k);
    k->type = type;
}

int sim_key_reserve(sim_key *k, size_t size)
{
    if (k->n < k->cap)
        return 0;
    size_t cap = k->cap ? k->cap * 2 : 4;
    void *p = realloc(k->items, cap * size);
    if (!p)
        return -1;
    k->items = p;
    k->cap = cap;
    return 0;
}

void sim_key_remove(sim_key *k, size_t i)
{
    size_t w = k->type == SIM_HASH ? 2 : 1;
    sim_str *it = (sim_str *)k->items + w * i;
    for (size_t j = 0; j < w; j++)
        free(it[j].p);
    memmove(it, it + w, (k->n - i - 1) * w * sizeof *it);
    k->n--;
}

static void free_key(sim_key *k)
{
    free_value(k);
    free(k->name.p);
    free(k);
}

void sim_ks_clear(sim_keyspace *ks)
{
    for (size_t i = 0; i < ks->nbucket; i++) {
        sim_key *k = ks->bucket[i], *next;
        for (; k; k = next) {
            next = k->next;
            free_key(k);
        }
        ks->bucket[i] = NULL;
    }
    ks->count = 0;
}

void sim_ks_free(sim_keyspace *ks)
{
    if (!ks->bucket)
        return;
    sim_ks_clear(ks);
    free(ks->bucket);
    ks->bucket = NULL;
}

static sim_key **slot_of(sim_keyspace *ks, const char *name, size_t len, uint64_t h)
{
    sim_key **pk = &ks->bucket[h & (ks->nbucket - 1)];
    for (; *pk; pk = &(*pk)->next)
        if ((*pk)->hash == h && (*pk)->name.len == len && memcmp((*pk)->name.p, name, len) == 0)
            return pk;
    return pk;
}

sim_key *sim_ks_find(sim_keyspace *ks, const char *name, size_t len, int64_t now)
{
    sim_key **pk = slot_of(ks, name, len, hash_of(name, len)), *k = *pk;
    if (k && k->expire_at >= 0 && k->expire_at <= now) {
        *pk = k->next;
        free_key(k);
        ks->count--;
        return NULL;
    }
    return k;
}

static void grow(sim_keyspace *ks)
{
    size_t n = ks->nbucket * 2;
    sim_key **b = calloc(n, sizeof *b);
    if (!b)
        return;             /* longer chains, still correct */
    for (size_t i = 0; i < ks->nbucket; i++) {
        sim_key *k = ks->bucket[i], *next;
        for (; k; k = next) {
            next = k->next;
            k->next = b[k->hash & (n - 1)];
            b[k->hash & (n - 1)] = k;
        }
    }
    free(ks->bucket);
    ks->bucket = b;
    ks->nbucket = n;
}

sim_key *sim_ks_add(sim_keyspace *ks, const char *name, size_t len, int type)
{
    sim_key *k = calloc(1, sizeof *k);
    if (!k || sim_str_set(&k->name, name, len)) {
        free(k);
        return NULL;
    }
    if (ks->count >= ks->nbucket)
        grow(ks);
    k->hash = hash_of(name, len);
    k->type = type;
    k->expire_at = -1;
    sim_key **pk = &ks->bucket[k->hash & (ks->nbucket - 1)];
    k->next = *pk;
    *pk = k;
    ks->count++;
    return k;
}

void sim_ks_del(sim_keyspace *ks, sim_key *k)
{
    sim_key **pk = slot_of(ks, k->name.p, k->name.len, k->hash);
    if (*pk != k)
        return;
    *pk = k->next;
    free_key(k);
    ks->count--;
}

size_t sim_ks_purge(sim_keyspace *ks, int64_t now)
{
    for (size_t i = 0; i < ks->nbucket; i++) {
        sim_key **pk = &ks->bucket[i];
        while (*pk) {
            sim_key *k = *pk;
            if (k->expire_at >= 0 && k->expire_at <= now) {
                *pk = k->next;
                free_key(k);
                ks->count--;
            } else {
                pk = &k->next;
            }
        }
    }
    return ks->count;
}
