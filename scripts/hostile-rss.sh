#!/usr/bin/env bash
# Peak server RSS for the small hostile requests of issue 19 item 18
# (docs/benchmarks.md, "Small hostile requests"): starts `plumb serve` on a
# fresh SQLite database, then sends a 131-byte gzip LCOV report of 25 files
# each naming line 4,194,304, and an issues query with 8,000 unknown level
# values, printing each answer's status and size and the server's VmHWM.
#   scripts/hostile-rss.sh PLUMB_BINARY
set -euo pipefail
bin=$1
dir=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
db="sqlite:$dir/plumb.db"
"$bin" user create alice --database "$db" >/dev/null
tok=$("$bin" token create alice --name bench --database "$db" | tail -1)
"$bin" workspace create bench --database "$db" >/dev/null
"$bin" member add bench alice --role admin --database "$db" >/dev/null
"$bin" project create bench/repo --database "$db" >/dev/null
port=$((20000 + RANDOM % 20000))
"$bin" serve --database "$db" --addr 127.0.0.1:$port 2>"$dir/log" &
pid=$!
for _ in $(seq 50); do curl -fs http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
echo "idle: server $(grep VmHWM /proc/$pid/status)"
for i in $(seq 0 24); do printf 'SF:src/f%d.c\nDA:4194304,1\nend_of_record\n' "$i"; done | gzip -9 >"$dir/lcov.gz"
echo "lcov: $(stat -c %s "$dir/lcov.gz") bytes gzip, answer $(curl -s -o /dev/null -w '%{http_code}, %{size_download} bytes' \
  -H "Authorization: Bearer $tok" -H "Content-Encoding: gzip" --data-binary @"$dir/lcov.gz" \
  "http://127.0.0.1:$port/ingest/gh/bench/projects/repo/coverage?commitSha=abcdef0123456789abcdef0123456789abcdef01&branch=main"); server $(grep VmHWM /proc/$pid/status)"
levels=$(printf 'x,%.0s' $(seq 8000)); levels=${levels%,}
echo "issues: answer $(curl -s -o /dev/null -w '%{http_code}, %{size_download} bytes' -H "Authorization: Bearer $tok" \
  "http://127.0.0.1:$port/gh/bench/projects/repo/issues?level=$levels"); server $(grep VmHWM /proc/$pid/status)"
