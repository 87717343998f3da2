#!/usr/bin/env bash
# duplicates-code.sh: the `duplicates` tool's count of copy-paste in this tree,
# without the pairs made of Go import blocks alone.
#
# `duplicates` passes over import lines, but not the lines inside Go's
# parenthesised `import ( … )` block (each is a quoted path), so two files that
# import the same seven packages make a pair. This script copies the files git
# tracks (and the untracked ones it does not ignore) into a temporary folder,
# blanks every Go import block there (the line numbers stay, so each row points
# at the same lines of the real file) and runs `duplicates` on the copy.
#
#   scripts/duplicates-code.sh                       # the count and the first rows
#   scripts/duplicates-code.sh --most 40             # any option of duplicates
#   scripts/duplicates-code.sh --without-migrations  # also leave sqlstore/migrations out
#
# --without-migrations leaves out the SQL migrations, whose pairs are the two
# dialects' mirrors and table rebuilds that repeat an earlier migration's
# definition (history, which is never edited). docs/architecture.md, Copy-paste,
# gives the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v duplicates >/dev/null || { echo "duplicates-code.sh: the duplicates command is not on PATH" >&2; exit 1; }

migrations=true
args=()
for a in "$@"; do
  case $a in
  --without-migrations) migrations=false ;;
  *) args+=("$a") ;;
  esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  if [ "$migrations" = false ] && [[ $f == sqlstore/migrations/* ]]; then continue; fi
  mkdir -p "$tmp/$(dirname "$f")"
  if [[ $f == *.go ]]; then
    # An import block becomes as many empty lines.
    awk '/^import \($/ { inblock = 1 } { print (inblock ? "" : $0) } inblock && /^\)$/ { inblock = 0 }' "$f" >"$tmp/$f"
  else
    cp "$f" "$tmp/$f"
  fi
done
cd "$tmp"
duplicates --repo . "${args[@]}"
