#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# scripts/check-layers.sh -- the library's layers call only downwards
# (docs/design.md, "The house").  Run by `make check-layers` after a build.
#
# Layers, top first; a root file stands on the floor named after it:
#   redlock.c  client/  kinds/  lock/  fanout/  master/  conn/  floor/  quorum.c clock.c
# A file may
#   - include redlock.h, the headers of its own folder, and the one header of
#     each folder below it (FOLDER/FOLDER.h): nothing of a folder above;
#   - call (nm: an undefined symbol) only what its own layer or one below
#     defines.
# Prints every breach and exits 1 when there is one.
set -u
cd "$(dirname "$0")/.." || exit 2

layers="client kinds lock fanout master conn floor"

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
