/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* lua.c -- EVAL, EVALSHA and SCRIPT in an embedded Lua 5.1, as Redis 7.0
 * runs them: the body is compiled as the chunk "@user_script", globals
 * are read-only (an unknown one is an error), KEYS and ARGV are fresh
 * tables each call, and redis.call / redis.pcall run a command of the
 * simulated key space.  Replies cross as Redis converts them: integer ->
 * number, bulk -> string, nil -> false, status -> {ok=...}, error ->
 * {err=...}, array -> table; back: number -> integer (truncated), true
 * -> 1, false and nil -> nil, {err=...} -> error, {ok=...} -> status,
 * table -> array up to its first nil.  A script's error reply reads
 * "<err> script: <sha>, on @user_script:<line>.", as 7.0's does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <openssl/evp.h>
#include "sim/master/internal.h"

void sim_sha1_hex(const void *p, size_t len, char out[41])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(p, len, md, &n, EVP_sha1(), NULL) || n != 20)
        n = 0;
    for (unsigned i = 0; i < 20; i++) {
        out[2 * i] = hex[i < n ? md[i] >> 4 : 0];
        out[2 * i + 1] = hex[i < n ? md[i] & 15 : 0];
    }
    out[40] = '\0';
}

/* The library sends the same few bodies again and again (SCRIPT LOAD on
 * every connection, EVAL after NOSCRIPT): their digests, computed once a
 * process (a body compared costs far less than a SHA-1 by EVP). */
static void sha_of(const char *p, size_t len, char out[41])
{
    static struct { char *body; size_t len; char sha[41]; } known[64];
    static size_t nknown;

    for (size_t i = 0; i < nknown; i++)
        if (known[i].len == len && memcmp(known[i].body, p, len) == 0) {
            memcpy(out, known[i].sha, 41);
            return;
        }
    sim_sha1_hex(p, len, out);
    if (nknown < sizeof known / sizeof *known && (known[nknown].body = malloc(len ? len : 1))) {
        memcpy(known[nknown].body, p, len);
        known[nknown].len = len;
        memcpy(known[nknown].sha, out, 41);
        nknown++;
    }
}

/* A Lua state outlives its master: a freed master's goes here, and the
 * next master takes it, with the scripts compiled in it (the simulator
 * makes five masters a run, each loading the same scripts).  What a state
 * keeps is invisible to scripts: its globals are read-only, and the
 * compiled functions are found only through a master's own scripts. */
static lua_State *spare_states[32];
static size_t nspare_states;

/* the registry's name of a compiled body: "f_" and its SHA-1 */
static void fn_name(char name[43], const char *sha)
{
    memcpy(name, "f_", 2);
    memcpy(name + 2, sha, 41);
}

static sim_master *master_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

/* ---- RESP (a command's reply) -> Lua ---- */

static const char *line_end(const char *p)
{
    return strstr(p, "\r\n");
}

/* pushes the reply at *p (well formed: the simulator wrote it) */
static void push_reply(lua_State *L, const char **pp)
{
    const char *p = *pp, *e = line_end(p);
    long long n = strtoll(p + 1, NULL, 10);
    lua_checkstack(L, 4);
    switch (*p) {
    case ':':
        lua_pushnumber(L, (lua_Number)n);
        break;
    case '$':
        if (n < 0) {
            lua_pushboolean(L, 0);
        } else {
            lua_pushlstring(L, e + 2, (size_t)n);
            e += n + 2;
        }
        break;
    case '+':
    case '-':
        lua_newtable(L);
        lua_pushstring(L, *p == '+' ? "ok" : "err");
        lua_pushlstring(L, p + 1, (size_t)(e - p - 1));
        lua_rawset(L, -3);
        break;
    case '*':
        if (n < 0) {
            lua_pushboolean(L, 0);
            break;
        }
        lua_createtable(L, (int)n, 0);
        *pp = e + 2;
        for (long long i = 1; i <= n; i++) {
            push_reply(L, pp);
            lua_rawseti(L, -2, (int)i);
        }
        return;
    }
    *pp = e + 2;
}

/* ---- redis.call / redis.pcall ---- */

static int raise_err(lua_State *L, const char *msg)
{
    lua_newtable(L);
    lua_pushstring(L, "err");
    lua_pushstring(L, msg);
    lua_rawset(L, -3);
    return lua_error(L);
}

static int call(lua_State *L, int raise)
{
    sim_master *m = master_of(L);
    int argc = lua_gettop(L);
    if (argc == 0)
        return raise_err(L, "ERR Please specify at least one argument for this redis lib call");
    if ((size_t)argc > m->sargcap) {
        size_t cap = (size_t)argc * 2;
        sim_arg *a = realloc(m->sargv, cap * sizeof *a);
        size_t *o = a ? realloc(m->sargoff, cap * sizeof *o) : NULL;
        if (a)
            m->sargv = a;
        if (!o)
            return raise_err(L, "ERR out of memory");
        m->sargoff = o;
        m->sargcap = cap;
    }
    m->argbuf.len = 0;
    for (int i = 1; i <= argc; i++) {
        int t = lua_type(L, i);
        if (t == LUA_TNUMBER) {
            char num[64];
            int n = snprintf(num, sizeof num, "%.17g", (double)lua_tonumber(L, i));
            m->sargoff[i - 1] = m->argbuf.len;
            m->sargv[i - 1].len = (size_t)n;
            if (sim_buf_put(&m->argbuf, num, (size_t)n))
                return raise_err(L, "ERR out of memory");
        } else if (t == LUA_TSTRING) {
            m->sargv[i - 1].p = lua_tolstring(L, i, &m->sargv[i - 1].len);
            m->sargoff[i - 1] = (size_t)-1;
        } else {
            return raise_err(L, "ERR Lua redis lib command arguments must be strings or integers");
        }
    }
    for (int i = 0; i < argc; i++)
        if (m->sargoff[i] != (size_t)-1)
            m->sargv[i].p = m->argbuf.p + m->sargoff[i];
    if (!sim_cmd_find(m->sargv[0].p, m->sargv[0].len)) {
        sim_exec(m, argc, m->sargv, &m->scratch);      /* sets the run's error */
        return luaL_error(L, "sim: %s", m->error);
    }
    m->scratch.len = 0;
    if (sim_exec(m, argc, m->sargv, &m->scratch) != 0 || m->fatal || sim_buf_put(&m->scratch, "", 1))
        return luaL_error(L, "sim: %s", m->fatal ? m->error : "out of memory");
    const char *p = m->scratch.p;
    lua_settop(L, 0);
    if (raise && *p == '-') {
        const char *e = line_end(p);
        lua_newtable(L);
        lua_pushstring(L, "err");
        lua_pushlstring(L, p + 1, (size_t)(e - p - 1));
        lua_rawset(L, -3);
        return lua_error(L);
    }
    push_reply(L, &p);
    return 1;
}

static int redis_call(lua_State *L)
{
    return call(L, 1);
}

static int redis_pcall(lua_State *L)
{
    return call(L, 0);
}

static int reply_table(lua_State *L, const char *field)
{
    luaL_checkstring(L, 1);
    lua_newtable(L);
    lua_pushstring(L, field);
    lua_pushvalue(L, 1);
    lua_rawset(L, -3);
    return 1;
}

static int redis_error_reply(lua_State *L)
{
    return reply_table(L, "err");
}

static int redis_status_reply(lua_State *L)
{
    return reply_table(L, "ok");
}

static int redis_sha1hex(lua_State *L)
{
    size_t len;
    char hex[41];
    const char *s;
    if (lua_gettop(L) != 1)
        return luaL_error(L, "wrong number of arguments");
    s = lua_tolstring(L, 1, &len);
    sim_sha1_hex(s ? s : "", s ? len : 0, hex);
    lua_pushstring(L, hex);
    return 1;
}

static int redis_noop(lua_State *L)
{
    (void)L;
    return 0;
}

/* reading an unknown global is an error, as Redis's protected globals */
static int global_index(lua_State *L)
{
    return luaL_error(L, "Script attempted to access nonexistent global variable '%s'",
                      lua_tostring(L, 2) ? lua_tostring(L, 2) : "?");
}

static int global_newindex(lua_State *L)
{
    return luaL_error(L, "Attempt to modify a readonly table");
}

/* The error handler: any error becomes {err=..., source=..., line=...}
 * (a string "ERR <message>"), the place where it was raised: a Lua
 * function, or the caller of the C function (error, redis.call) that
 * raised it. */
static int error_handler(lua_State *L)
{
    lua_Debug ar;
    int level = 1, have = 0;
    if (lua_getstack(L, level, &ar) && lua_getinfo(L, "Sl", &ar)) {
        have = 1;
        if (strcmp(ar.what, "C") == 0)
            have = lua_getstack(L, ++level, &ar) && lua_getinfo(L, "Sl", &ar);
    }
    if (!lua_istable(L, 1)) {
        const char *s = lua_tostring(L, 1);
        lua_newtable(L);
        lua_pushstring(L, "err");
        lua_pushfstring(L, "ERR %s", s ? s : "(error object is not a string)");
        lua_rawset(L, -3);
        lua_replace(L, 1);
        lua_settop(L, 1);
    }
    if (have) {
        lua_pushstring(L, "source");
        lua_pushstring(L, ar.source);
        lua_rawset(L, 1);
        lua_pushstring(L, "line");
        lua_pushinteger(L, ar.currentline);
        lua_rawset(L, 1);
    }
    return 1;
}

int sim_lua_init(sim_master *m)
{
    static const luaL_Reg libs[] = { { "", luaopen_base }, { LUA_TABLIBNAME, luaopen_table },
                                     { LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math },
                                     { NULL, NULL } };
    static const struct { const char *name; lua_CFunction fn; } fns[] = {
        { "call", redis_call }, { "pcall", redis_pcall }, { "error_reply", redis_error_reply },
        { "status_reply", redis_status_reply }, { "sha1hex", redis_sha1hex }, { "log", redis_noop },
        { "set_repl", redis_noop }, { "replicate_commands", redis_noop },
    };
    lua_State *L;
    if (nspare_states) {
        /* redis.* are closures over their master: this one now */
        L = spare_states[--nspare_states];
        lua_settop(L, 0);
        lua_pushstring(L, "redis");
        lua_rawget(L, LUA_GLOBALSINDEX);
        for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
            lua_getfield(L, -1, fns[i].name);
            lua_pushlightuserdata(L, m);
            lua_setupvalue(L, -2, 1);
            lua_pop(L, 1);
        }
        lua_settop(L, 0);
        m->L = L;
        return 0;
    }
    if (!(L = luaL_newstate()))
        return -1;
    for (const luaL_Reg *l = libs; l->func; l++) {
        lua_pushcfunction(L, l->func);
        lua_pushstring(L, l->name);
        lua_call(L, 1, 0);
    }
    /* what Redis takes away from scripts */
    static const char *const gone[] = { "loadfile", "dofile", "print" };
    for (size_t i = 0; i < sizeof gone / sizeof *gone; i++) {
        lua_pushnil(L);
        lua_setglobal(L, gone[i]);
    }
    lua_newtable(L);
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        lua_pushstring(L, fns[i].name);
        lua_pushlightuserdata(L, m);
        lua_pushcclosure(L, fns[i].fn, 1);
        lua_rawset(L, -3);
    }
    static const char *const levels[] = { "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING" };
    for (int i = 0; i < 4; i++) {
        lua_pushstring(L, levels[i]);
        lua_pushinteger(L, i);
        lua_rawset(L, -3);
    }
    lua_setglobal(L, "redis");
    lua_pushcfunction(L, error_handler);
    lua_setfield(L, LUA_REGISTRYINDEX, "sim_err_handler");
    /* globals read-only from here on */
    lua_pushvalue(L, LUA_GLOBALSINDEX);
    lua_newtable(L);
    lua_pushcfunction(L, global_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, global_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
    m->L = L;
    return 0;
}

void sim_lua_free(sim_master *m)
{
    if (m->L && nspare_states < sizeof spare_states / sizeof *spare_states)
        spare_states[nspare_states++] = m->L;
    else if (m->L)
        lua_close(m->L);
    m->L = NULL;
    sim_scripts_flush(m);
    free(m->scripts);
    m->scripts = NULL;
    m->capscripts = 0;
    free(m->sargv);
    free(m->sargoff);
    m->sargv = NULL;
    m->sargoff = NULL;
    m->sargcap = 0;
}

/* The master forgets its scripts (EVALSHA: NOSCRIPT); the state keeps
 * them compiled, for whichever master loads them again. */
void sim_scripts_flush(sim_master *m)
{
    for (size_t i = 0; i < m->nscripts; i++)
        sim_str_free(&m->scripts[i].body);
    m->nscripts = 0;
}

static sim_script *find_script(sim_master *m, const char *sha, size_t len)
{
    if (len != 40)
        return NULL;
    for (size_t i = 0; i < m->nscripts; i++) {
        size_t j = 0;
        for (; j < 40; j++) {
            char c = sha[j] >= 'A' && sha[j] <= 'Z' ? (char)(sha[j] + 32) : sha[j];
            if (c != m->scripts[i].sha[j])
                break;
        }
        if (j == 40)
            return &m->scripts[i];
    }
    return NULL;
}

/* compiles body into the cache (kept there); NULL with the error reply
 * written to out */
static sim_script *load(sim_master *m, const sim_arg *body, sim_buf *out)
{
    char sha[41], name[43];
    sha_of(body->p, body->len, sha);
    sim_script *s = find_script(m, sha, 40);
    if (s)
        return s;
    if (body->len >= 2 && body->p[0] == '#' && body->p[1] == '!') {
        sim_fail(m, "a script with a shebang (flags) is not simulated");
        return NULL;
    }
    fn_name(name, sha);
    lua_getfield(m->L, LUA_REGISTRYINDEX, name);
    if (lua_isnil(m->L, -1)) {          /* not compiled in this state yet */
        lua_pop(m->L, 1);
        if (luaL_loadbuffer(m->L, body->p, body->len, "@user_script") != 0) {
            sim_put_errorf(out, "ERR Error compiling script (new function): %s", lua_tostring(m->L, -1));
            lua_pop(m->L, 1);
            return NULL;
        }
        lua_setfield(m->L, LUA_REGISTRYINDEX, name);
    } else {
        lua_pop(m->L, 1);
    }
    if (m->nscripts == m->capscripts) {
        size_t cap = m->capscripts ? 2 * m->capscripts : 32;
        sim_script *n = realloc(m->scripts, cap * sizeof *n);
        if (!n)
            return NULL;
        m->scripts = n;
        m->capscripts = cap;
    }
    s = &m->scripts[m->nscripts];
    memcpy(s->sha, sha, 41);
    s->body.p = NULL;
    if (sim_str_set(&s->body, body->p, body->len))
        return NULL;
    m->nscripts++;
    return s;
}

static void set_array(lua_State *L, const char *name, sim_arg *a, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushlstring(L, a[i].p, a[i].len);
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushstring(L, name);
    lua_insert(L, -2);
    lua_rawset(L, LUA_GLOBALSINDEX);
}

static int put_error_text(sim_buf *out, const char *p, size_t len)
{
    if (sim_buf_put(out, "-", 1))
        return -1;
    for (size_t i = 0; i < len; i++) {
        char c = p[i] == '\r' || p[i] == '\n' ? ' ' : p[i];
        if (sim_buf_put(out, &c, 1))
            return -1;
    }
    return sim_buf_put(out, "\r\n", 2);
}

/* the value at the top of the stack, as Redis turns it into a reply */
static int put_lua(lua_State *L, sim_buf *out)
{
    int rc = 0;
    lua_checkstack(L, 4);
    switch (lua_type(L, -1)) {
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        return sim_put_bulk(out, s, len);
    }
    case LUA_TBOOLEAN:
        return lua_toboolean(L, -1) ? sim_put_int(out, 1) : sim_put_nil(out);
    case LUA_TNUMBER: {
        /* truncated toward zero; out of range or NaN: what x86's
         * conversion gives a real server, the lowest integer */
        double d = (double)lua_tonumber(L, -1);
        return sim_put_int(out, d == d && d > -9223372036854775808.0 && d < 9223372036854775808.0
                                    ? (long long)d : (-9223372036854775807LL - 1));
    }
    case LUA_TTABLE:
        lua_pushstring(L, "err");
        lua_rawget(L, -2);
        if (lua_type(L, -1) == LUA_TSTRING) {
            size_t len;
            const char *s = lua_tolstring(L, -1, &len);
            rc = put_error_text(out, s, len);
            lua_pop(L, 1);
            return rc;
        }
        lua_pop(L, 1);
        lua_pushstring(L, "ok");
        lua_rawget(L, -2);
        if (lua_type(L, -1) == LUA_TSTRING) {
            rc = sim_put_status(out, lua_tostring(L, -1));
            lua_pop(L, 1);
            return rc;
        }
        lua_pop(L, 1);
        {
            int n = 0;
            for (;; n++) {
                lua_rawgeti(L, -1, n + 1);
                int nil = lua_isnil(L, -1);
                lua_pop(L, 1);
                if (nil)
                    break;
            }
            rc = sim_put_array(out, n);
            for (int i = 1; i <= n && rc == 0; i++) {
                lua_rawgeti(L, -1, i);
                rc = put_lua(L, out);
                lua_pop(L, 1);
            }
            return rc;
        }
    default:
        return sim_put_nil(out);
    }
}

static int run(sim_master *m, sim_script *s, int argc, sim_arg *argv, sim_buf *out)
{
    lua_State *L = m->L;
    long long nkeys;
    if (sim_arg_ll(&argv[2], &nkeys) != 0)
        return sim_put_notint(out);
    if (nkeys < 0)
        return sim_put_error(out, "ERR Number of keys can't be negative");
    if (nkeys > argc - 3)
        return sim_put_error(out, "ERR Number of keys can't be greater than number of args");
    lua_settop(L, 0);
    lua_getfield(L, LUA_REGISTRYINDEX, "sim_err_handler");
    char name[43];
    fn_name(name, s->sha);
    lua_getfield(L, LUA_REGISTRYINDEX, name);
    set_array(L, "KEYS", argv + 3, (int)nkeys);
    set_array(L, "ARGV", argv + 3 + nkeys, argc - 3 - (int)nkeys);
    m->in_script = 1;
    int err = lua_pcall(L, 0, 1, 1);
    m->in_script = 0;
    if (m->fatal) {
        lua_settop(L, 0);
        return -1;
    }
    int rc;
    if (err) {
        /* {err=, source=, line=} from the handler (or a bare message
         * when the handler itself failed) */
        const char *e = NULL, *src = NULL;
        long line = 0;
        if (lua_istable(L, -1)) {
            lua_getfield(L, -1, "err");
            e = lua_tostring(L, -1);
            lua_getfield(L, -2, "source");
            src = lua_tostring(L, -1);
            lua_getfield(L, -3, "line");
            line = (long)lua_tointeger(L, -1);
        } else {
            e = lua_tostring(L, -1);
        }
        char t[1024];
        int n = src ? snprintf(t, sizeof t, "%s script: %s, on %s:%ld.", e ? e : "ERR", s->sha, src, line)
                    : snprintf(t, sizeof t, "%s script: %s", e ? e : "ERR", s->sha);
        rc = put_error_text(out, t, n < 0 ? 0 : (size_t)n < sizeof t ? (size_t)n : sizeof t - 1);
    } else {
        rc = put_lua(L, out);
    }
    lua_settop(L, 0);
    return rc;
}

int sim_cmd_eval(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    size_t before = out->len;
    sim_script *s = load(m, &argv[1], out);
    if (!s)
        return m->fatal ? -1 : out->len > before ? 0 : -1;
    return run(m, s, argc, argv, out);
}

int sim_cmd_evalsha(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    sim_script *s = find_script(m, argv[1].p, argv[1].len);
    if (!s)
        return sim_put_error(out, "NOSCRIPT No matching script. Please use EVAL.");
    return run(m, s, argc, argv, out);
}

int sim_cmd_script(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    if (sim_eq(&argv[1], "load") && argc == 3) {
        size_t before = out->len;
        sim_script *s = load(m, &argv[2], out);
        if (!s)
            return m->fatal ? -1 : out->len > before ? 0 : -1;
        return sim_put_bulk(out, s->sha, 40);
    }
    if (sim_eq(&argv[1], "exists") && argc >= 3) {
        int rc = sim_put_array(out, argc - 2);
        for (int i = 2; i < argc && rc == 0; i++)
            rc = sim_put_int(out, find_script(m, argv[i].p, argv[i].len) != NULL);
        return rc;
    }
    if (sim_eq(&argv[1], "flush") && argc <= 3) {
        sim_scripts_flush(m);
        return sim_put_status(out, "OK");
    }
    sim_fail(m, "SCRIPT %.*s is not simulated", (int)argv[1].len, argv[1].p);
    return -1;
}
