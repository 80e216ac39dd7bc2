/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* scripts.c -- the lock machine's Lua scripts (the mutex's and the
 * registries' of waiters; each kind's are in its own file).
 *
 * Release and extend must compare the value and act in one step, or a
 * client whose lock expired could delete or extend the next holder's key;
 * Redis runs a script atomically, so the compare-and-act is a script.
 * Commands are sent as EVALSHA <sha> (the script body travels once per
 * connection at most); a NOSCRIPT reply makes the caller resend as EVAL,
 * which also loads the script into that server's cache.  The client lists
 * every script (redlock.c) and computes their SHA-1 at creation.
 */
#include "lock/lock.h"

/* The pick (REDLOCK__LUA_PICK_FN, lock.h), where the registry q exists:
 * the entry with the lowest score (the one that waited longest) is told
 * on its own channel ("<window>:<count>:<rank>[:<role>]": rank "1"
 * retries at once, "2" at random in the window) unless ARGV[3] is "0"
 * (another master picks), and goes to the back of the queue; an entry
 * whose channel nobody listens to (PUBLISH reached no one: its client is
 * gone) is removed and the next one told, four at most.  The registry
 * lives ARGV[5] ms after its last write.  1 + its count, 1 without it.
 * The registry is not among the script's KEYS (it is in KEYS[1]'s slot):
 * an ACL without it, these commands or the channel refuses the registry's
 * work (pcall), never the release. */
#define LUA_REGISTRY REDLOCK__LUA_REGISTRY REDLOCK__LUA_PICK_FN

/* The plain compare-and-delete: all a release costs while nobody waits
 * (docs/performance.md, "What a plain lock pays"). */
const char redlock__lua_release[] =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
    "else return 0 end";

/* The release of a resource waited for.  Its registry of waiters
 * (announce.c) is a queue: see the pick, above.  The releaser's own entry
 * ARGV[4] (kept while it held) goes first, whatever the value.  1 + the
 * registry's count, 1 without one, 0: not our value. */
const char redlock__lua_release_wq[] =
    LUA_REGISTRY
    "if ARGV[4] ~= '' then redis.pcall('zrem', q, ARGV[4]) end "
    "if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end "
    "redis.call('del', KEYS[1]) return pick(q, '')";

/* A holder told of a waiter after its plain release had gone (a notice
 * that crossed the release, announce.c): the pick, unless the key is
 * there (held still, or again: that holder's release picks).  0: the
 * key is there. */
const char redlock__lua_tell[] =
    LUA_REGISTRY
    "if redis.call('type', KEYS[1]).ok ~= 'none' then return 0 end return pick(q, '')";

/* A waiter (ARGV[1]) joins the back of the queue KEYS[1] unless it is
 * in it (its place is kept), scored by the master's time plus the
 * registry's life ARGV[2] ms (an older releaser drops entries whose
 * score has passed: they come back at the next renewal); the registry
 * lives as long.  With ARGV[3] (a channel prefix, or ""), the holder of
 * the lock KEYS[2] hears that someone waits (the notice, announce.c)
 * on "<ARGV[3]><its client id>": the value, then the registry's name;
 * only for a value of this library's ("<12 hex of the id><32 hex>", or
 * at the end of a re-entrant lock's "<owner>=<value>"; a re-entrant lock
 * held by several handles or holds, "<len>:<owner>": each of its handles
 * in {KEYS[2]}:h is told; a semaphore's hash: each of its holders; a
 * read/write lock held by readers, K their set: each reader whose own key
 * {KEYS[2]}:rd:<value> is there, 16 at most, so that the last one's
 * release wakes a writer), and
 * only from the waiter at the front of the queue unless ARGV[4] is
 * "a" (always).  The count; negative when such a notice reached no
 * one (the holder's client does not listen there, or not yet). */
const char redlock__lua_wait[] =
    "local t = redis.call('time') "
    "redis.call('zadd', KEYS[1], 'NX', t[1] * 1000 + math.floor(t[2] / 1000) + tonumber(ARGV[2]), ARGV[1]) "
    "redis.call('pexpire', KEYS[1], ARGV[2]) "
    "local heard = 1 "
    "if ARGV[3] ~= '' and (ARGV[4] == 'a' or redis.call('zrank', KEYS[1], ARGV[1]) == 0) then "
    "local v, vs = redis.pcall('get', KEYS[2]), {} "
    "local function fields(h) local hs = redis.pcall('hkeys', h) "
    "if type(hs) == 'table' and not hs.err then for i = 1, #hs do "
    "if #hs[i] == 44 then vs[#vs + 1] = hs[i] end end end end "
    "if type(v) == 'string' and #v == 44 then vs[1] = v "
    "elseif type(v) == 'string' and #v > 44 and string.sub(v, -45, -45) == '=' then "
    "vs[1] = string.sub(v, -44) "
    "elseif type(v) == 'string' and string.find(v, '^%d+:') then fields('{' .. KEYS[2] .. '}:h') "
    "elseif type(v) == 'table' and redis.pcall('type', KEYS[2]).ok == 'set' then "
    "local ms = redis.pcall('srandmember', KEYS[2], 16) "
    "if type(ms) == 'table' and not ms.err then for i = 1, #ms do "
    "if #ms[i] == 44 and redis.pcall('exists', '{' .. KEYS[2] .. '}:rd:' .. ms[i]) == 1 then "
    "vs[#vs + 1] = ms[i] end end end "
    "elseif type(v) == 'table' then fields(KEYS[2]) end "
    "if #vs > 0 then heard = 0 end "
    "for i = 1, #vs do local r = redis.pcall('publish', ARGV[3] .. string.sub(vs[i], 1, 12), "
    "vs[i] .. KEYS[1]) if type(r) ~= 'number' then r = 1 end heard = heard + r end end "
    "local n = redis.call('zcard', KEYS[1]) if heard == 0 then return -n end return n";

const char redlock__lua_extend[] =
    "if redis.call('get', KEYS[1]) == ARGV[1] then "
    "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/* extend, and re-grow the key where it is gone (a restarted master):
 * 1 extended, 2 re-grown, 0 someone else's */
const char redlock__lua_regrow[] =
    "local v = redis.call('get', KEYS[1]) "
    "if v == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end "
    "if not v and redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then "
    "return 2 end return 0";

/* while we hold the key: raise the counter to the token (ARGV[2]) */
const char redlock__lua_fence_raise[] =
    "if redis.call('get', KEYS[1]) == ARGV[1] then "
    "local t = tonumber(ARGV[2]) "
    "if (tonumber(redis.call('get', KEYS[2])) or 0) < t then "
    "redis.call('set', KEYS[2], ARGV[2]) end return 1 end return 0";
