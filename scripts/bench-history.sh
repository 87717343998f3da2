#!/usr/bin/env bash
# History backfill speed (docs/analyze.md, "History backfill"): one year of
# weekly history, 52 commits, of a repository the size of Plumb, analysed
# from git and uploaded to a fresh local server (SQLite).
#
# The repository: a clone of this one whose main branch is replaced by 52
# commits, one a week ending this week, whose trees are the trees of the
# last 52 first-parent commits of this repository's main, in order: Plumb's
# own edits replayed a week apart, ending at Plumb's current size.
# Usage: scripts/bench-history.sh [workdir]   (figures go to docs/benchmarks.md by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
work=${1:-$(mktemp -d)}
go build -o "$work/plumb" ./cmd/plumb
plumb="$work/plumb"

repo="$work/repo"
rm -rf "$repo"
git clone -q --branch main "$src" "$repo"
trees=$(git -C "$repo" log --first-parent --reverse --format=%T origin/main | tail -n 52)
[ "$(echo "$trees" | wc -l)" -eq 52 ] || { echo "main has fewer than 52 first-parent commits" >&2; exit 1; }
now=$(date -u +%s)
parent=()
i=0
for tree in $trees; do
  at=$((now - (51 - i) * 7 * 86400 - 3600))
  commit=$(GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com \
    GIT_AUTHOR_DATE="@$at +0000" GIT_COMMITTER_DATE="@$at +0000" git -C "$repo" commit-tree "$tree" "${parent[@]}" -m "week $i")
  parent=(-p "$commit")
  i=$((i + 1))
done
git -C "$repo" update-ref refs/heads/main "$commit"
git -C "$repo" checkout -q -f main
echo "repository: $(git -C "$repo" ls-files | wc -l) files, $(git -C "$repo" ls-files -z | xargs -0 cat | wc -l) lines at the newest commit; $(git -C "$repo" rev-list --count main) commits on main"

db="$work/history.db"
rm -f "$db"*
"$plumb" user create bench --database "sqlite:$db" >/dev/null
"$plumb" workspace create bench --database "sqlite:$db" >/dev/null
"$plumb" project create bench/plumb --default-branch main --database "sqlite:$db" >/dev/null
token=$("$plumb" project upload-token create bench/plumb --name bench --database "sqlite:$db" | tail -n 1)
addr=127.0.0.1:18097
PLUMB_LOG_LEVEL=error "$plumb" serve --addr $addr --database "sqlite:$db" --rate-limit 100000000 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf "http://$addr/healthz" >/dev/null && break; sleep 0.1; done

export PLUMB_URL=http://$addr PLUMB_TOKEN=$token PLUMB_PROJECT=bench/plumb
cd "$repo"
echo "== without a server: plumb analyze --history 1y --every week --branch main --format table"
/usr/bin/time -f "%e s wall, %U s user, %M KiB peak RSS" "$plumb" analyze --history 1y --every week --branch main --format table > "$work/table.txt" 2> "$work/table.err"
tail -n 1 "$work/table.err"
tail -n 2 "$work/table.txt"
echo "== uploading: plumb analyze --history 1y --every week"
/usr/bin/time -f "%e s wall, %U s user, %M KiB peak RSS" "$plumb" analyze --history 1y --every week 2> "$work/upload.err"
tail -n 1 "$work/upload.err"
echo "== again: everything already analysed"
/usr/bin/time -f "%e s wall" "$plumb" analyze --history 1y --every week 2> "$work/again.err"
tail -n 1 "$work/again.err"
