#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# scripts/check-layers.sh -- the library's layers call only downwards
# (docs/design.md, "The house").  Run by `make check-layers` after a build.
#
# Layers, top first; a root file stands on the floor named after it:
#   redlock.c  client/  kinds/  lock/  fanout/  cluster/  master/  conn/  floor/  quorum.c clock.c
# A file may
#   - include redlock.h (and floor/mutant.h), the headers of its own folder, and the one header of
#     each folder below it (FOLDER/FOLDER.h): nothing of a folder above;
#   - call (nm: an undefined symbol) only what its own layer or one below
#     defines.
# Prints every breach and exits 1 when there is one.
#
#   sh scripts/check-layers.sh [DIR]     check DIR (default: this tree)
#   sh scripts/check-layers.sh --self-test
#         the check must pass on a copy of this tree and fail on copies with
#         one breach each: an include of a layer above, a lower layer's
#         inner header, a call up (CC compiles the changed file)
set -u
here=$(cd "$(dirname "$0")/.." && pwd) || exit 2

if [ "${1:-}" = --self-test ]; then
    tmp=$(mktemp -d) || exit 2
    trap 'rm -rf "$tmp"' EXIT
    fails=0
    copy() {
        rm -rf "$tmp/t" && mkdir "$tmp/t" && (cd "$here" && tar cf - \
            redlock.[cho] quorum.[cho] clock.[cho] client kinds lock fanout cluster master conn floor) |
            (cd "$tmp/t" && tar xf -)
    }
    expect() {   # expect pass|fail WHAT
        sh "$here/scripts/check-layers.sh" "$tmp/t" > "$tmp/out" 2>&1
        case $? in 0) got=pass ;; 1) got=fail ;; *) got=error ;; esac
        if [ "$got" = "$1" ]; then
            echo "self-test: $2: the check says $1 ($(tail -n 1 "$tmp/out"))"
        else
            echo "self-test: $2: expected the check to $1, it did not:"; cat "$tmp/out"; fails=1
        fi
    }
    copy; expect pass "the tree as it is"
    copy; printf '#include "lock/lock.h"\n' >> "$tmp/t/floor/errors.c"
    expect fail "floor/errors.c includes lock/lock.h"
    copy; printf '#include "floor/resp.h"\n' >> "$tmp/t/conn/dial.c"
    expect fail "conn/dial.c includes floor/resp.h, not floor/floor.h"
    copy; printf 'void redlock__probe_arm(void *);\nvoid redlock__up(void);\nvoid redlock__up(void) { redlock__probe_arm(0); }\n' >> "$tmp/t/floor/errors.c"
    (cd "$tmp/t" && ${CC:-cc} -std=c11 -I. -c -o floor/errors.o floor/errors.c) || exit 2
    expect fail "floor/errors.c calls redlock__probe_arm of client/probe.c"
    exit $fails
fi
cd "${1:-$here}" || exit 2

layers="client kinds lock fanout cluster master conn floor"

rank() {   # rank FILE: 8 for redlock.c ... 1 for the floor
    case "$1" in
    redlock.c | redlock.o) echo 8; return ;;
    quorum.[cho] | clock.[cho]) echo 0; return ;;
    esac
    r=7
    for l in $layers; do
        case "$1" in "$l"/*) echo $r; return ;; esac
        r=$((r - 1))
    done
    echo 0
}

srcs=$(ls redlock.c quorum.c clock.c */*.c 2>/dev/null | while read -r f; do
    d=${f%%/*}
    case " $layers " in *" $d "*) echo "$f" ;; *) [ "$d" = "$f" ] && echo "$f" ;; esac
done)

bad=0
for f in $srcs quorum.h clock.h $(ls */*.h | grep -E "^($(echo $layers | tr ' ' '|'))/"); do
    me=$(rank "$f")
    dir=$(dirname "$f")
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        [ "$inc" = redlock.h ] && continue
        # the mutants' switch (docs/mutants.md): a constant 0 outside their build
        [ "$inc" = floor/mutant.h ] && continue
        idir=$(dirname "$inc")
        if [ "$idir" = . ] && [ ! -f "$inc" ]; then
            idir=$dir       # a bare name: a header of the file's own folder
        fi
        [ "$idir" = "$dir" ] && continue
        them=$(rank "$inc")
        if [ "$them" -gt "$me" ]; then
            echo "$f includes $inc, a layer above it"; bad=1
        elif [ "$idir" != . ] && [ "$(basename "$inc")" != "$idir.h" ]; then
            echo "$f includes $inc: a layer below is reached through $idir/$idir.h alone"; bad=1
        fi
    done
done

# Calls: who defines each global symbol, then each object's undefined ones.
objs=$(echo "$srcs" | sed 's/\.c$/.o/')
for o in $objs; do
    [ -f "$o" ] || { echo "$o is missing: run make first"; exit 2; }
done
defs=$(mktemp) || exit 2
trap 'rm -f "$defs"' EXIT
for o in $objs; do
    nm --defined-only "$o" | awk -v o="$o" '$2 ~ /^[TDBRVW]$/ { print $3, o }'
done | sort > "$defs"
for o in $objs; do
    me=$(rank "$o")
    for hit in $(nm -u "$o" | awk '{ print $NF }' | sort -u | join - "$defs" | awk '{ print $1 ":" $2 }'); do
        sym=${hit%%:*}
        def=${hit#*:}
        if [ "$(rank "$def")" -gt "$me" ]; then
            echo "${o%.o}.c calls $sym of ${def%.o}.c, a layer above it"; bad=1
        fi
    done
done
[ $bad = 0 ] && echo "layers: every include and call goes down"
exit $bad
