#!/usr/bin/env bash
# Peak server RSS for one upload (docs/benchmarks.md, "Peak RSS per upload
# format"): starts `plumb serve` on a fresh SQLite database, uploads FILE to
# the ingestion endpoint of KIND (coverage, sarif, analyses) with curl, and
# prints the answer, the wall time and the server's VmHWM after the upload.
#   scripts/upload-rss.sh PLUMB_BINARY KIND FILE
set -euo pipefail
bin=$1 kind=$2 file=$3
dir=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
db="sqlite:$dir/plumb.db"
"$bin" workspace create bench --database "$db" >/dev/null
"$bin" project create bench/repo --database "$db" >/dev/null
tok=$("$bin" project upload-token create --name bench bench/repo --database "$db" | grep -o 'plbu_[A-Za-z0-9_-]*' | head -1)
port=$((20000 + RANDOM % 20000))
"$bin" serve --database "$db" --addr 127.0.0.1:$port --max-upload-bytes 8589934592 --request-timeout 0 2>"$dir/log" &
pid=$!
for _ in $(seq 50); do curl -fs http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
q="commitSha=abcdef0123456789abcdef0123456789abcdef01&branch=main"
ct=application/octet-stream
[ "$kind" = analyses ] && ct=application/json
start=$(date +%s.%N)
curl -s -X POST -H "Authorization: Bearer $tok" -H "Content-Type: $ct" -T "$file" \
  "http://127.0.0.1:$port/ingest/gh/bench/projects/repo/$kind?$q" | head -c 300; echo
end=$(date +%s.%N)
echo "wall $(echo "$end - $start" | bc) s; server $(grep VmHWM /proc/$pid/status)"
