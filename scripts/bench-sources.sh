#!/usr/bin/env bash
# Sources storage across commits (docs/benchmarks.md, "Sources: storage
# across commits"; docs/sources.md): 52 first-parent commits of a
# repository's main analysed one after the other, with their sources, into a
# fresh local server (SQLite), against one checkout (the last commit alone,
# into a second project of the same server).
#
# Usage: scripts/bench-sources.sh spread|last [repository] [workdir]
#   spread: 52 commits evenly spread over the whole first-parent history
#   last:   the last 52 first-parent commits
#   repository: a git repository (default: this one)
#   REF (environment): the commit the history ends at (default: main), so that
#   runs made while main moves measure the same commits
# Prints the kept size of the 52 commits, of one checkout and the ratio.
set -euo pipefail
sample=${1:?usage: scripts/bench-sources.sh spread|last [repository] [workdir]}
cd "$(dirname "$0")/.."
repo=$(cd "${2:-.}" && git rev-parse --show-toplevel)
work=${3:-$(mktemp -d)}
mkdir -p "$work"
go build -o "$work/plumb" ./cmd/plumb
plumb="$work/plumb"

all=$(git -C "$repo" log --first-parent --reverse --format=%H "${REF:-main}")
n=$(echo "$all" | wc -l)
[ "$n" -ge 52 ] || { echo "${REF:-main} has fewer than 52 first-parent commits" >&2; exit 1; }
case $sample in
spread) commits=$(echo "$all" | awk -v n="$n" 'BEGIN { for (i = 0; i < 52; i++) pick[int(i * (n - 1) / 51) + 1] = 1 } pick[NR]') ;;
last) commits=$(echo "$all" | tail -n 52) ;;
*) echo "sample: spread or last" >&2; exit 2 ;;
esac
last=$(echo "$commits" | tail -n 1)

db="$work/sources.db"
rm -f "$db"*
"$plumb" user create bench --database "sqlite:$db" >/dev/null
"$plumb" workspace create bench --database "sqlite:$db" >/dev/null
"$plumb" project create bench/plumb --default-branch main --database "sqlite:$db" >/dev/null
"$plumb" project create bench/one --default-branch main --database "sqlite:$db" >/dev/null
token=$("$plumb" project upload-token create bench/plumb --name bench --database "sqlite:$db" | tail -n 1)
token1=$("$plumb" project upload-token create bench/one --name bench --database "sqlite:$db" | tail -n 1)
addr=127.0.0.1:18098
PLUMB_LOG_LEVEL=error "$plumb" serve --addr $addr --database "sqlite:$db" --rate-limit 100000000 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf "http://$addr/healthz" >/dev/null && break; sleep 0.1; done

analyze() { # commit token project
  rm -rf "$work/tree" && mkdir "$work/tree"
  git -C "$repo" archive "$1" | tar -x -C "$work/tree"
  (cd "$work/tree" && PLUMB_URL=http://$addr PLUMB_TOKEN=$2 PLUMB_PROJECT=$3 \
    "$plumb" analyze --commit "$1" --branch main . >/dev/null 2>"$work/analyze.err") ||
    { cat "$work/analyze.err" >&2; exit 1; }
}
i=0
for c in $commits; do
  analyze "$c" "$token" bench/plumb
  i=$((i + 1))
  printf '\r%d/52' $i >&2
done
echo >&2
cpu=$(ps -o times= -p $pid | tr -d ' ')
analyze "$last" "$token1" bench/one

q() { sqlite3 "$db" "$1"; }
p=$(q "SELECT id FROM projects WHERE key = 'plumb'")
o=$(q "SELECT id FROM projects WHERE key = 'one'")
kept=$(q "SELECT sum(length(compressed)) FROM source_blobs WHERE project_id = '$p'")
one=$(q "SELECT sum(length(compressed)) FROM source_blobs WHERE project_id = '$o'")
echo "sample $sample: $(echo "$commits" | wc -l) commits, $(git -C "$repo" rev-parse --short "$(echo "$commits" | head -n 1)")..$(git -C "$repo" rev-parse --short "$last")"
echo "contents kept: $(q "SELECT count(*) || ' (' || sum(size) || ' bytes of text), ' || sum(base_id IS NOT NULL) || ' of them deltas' FROM source_blobs WHERE project_id = '$p'" 2>/dev/null ||
  q "SELECT count(*) || ' (' || sum(size) || ' bytes of text)' FROM source_blobs WHERE project_id = '$p'")"
echo "one checkout: $(q "SELECT count(*) || ' files, ' || sum(size) || ' bytes of text' FROM source_files WHERE project_id = '$o' AND state = 'ok'")"
echo "plumb serve's CPU time (user and system) over the 52 uploads: ${cpu} s"
echo "kept, zstd: $kept bytes; one checkout, zstd: $one bytes; ratio $(awk -v a="$kept" -v b="$one" 'BEGIN { printf "%.2f", a / b }')x"
