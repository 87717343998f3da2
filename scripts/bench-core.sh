#!/usr/bin/env bash
# Load figures for the core API on a generated 1,000,000-issue project:
# latency of filtered 100-row pages at offsets 0 and 900,000, requests per
# second at 64 connections, the full NDJSON export's rows/s and the server's
# peak RSS, and a hello-world net/http handler as the ceiling.
# Needs hey: go install github.com/rakyll/hey@v0.1.5
# Usage: scripts/bench-core.sh [workdir]   (figures go to docs/benchmarks.md by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d)}
hey=${HEY:-$(go env GOPATH)/bin/hey}
[ -x "$hey" ] || go install github.com/rakyll/hey@v0.1.5
go build -o "$work/plumb" ./cmd/plumb
go build -o "$work/benchdata" ./bench/cmd/benchdata
go build -o "$work/ceiling" ./bench/cmd/ceiling
if [ ! -s "$work/token" ]; then
  echo "generating 1,000,000 issues in $work/issues.db ..."
  "$work/benchdata" -db "$work/issues.db" > "$work/token"
fi
token=$(cat "$work/token")
addr=127.0.0.1:18098
PLUMB_LOG_LEVEL=error "$work/plumb" serve --addr $addr --database "sqlite:$work/issues.db" --rate-limit 100000000 &
pid=$!
"$work/ceiling" &
hpid=$!
trap 'kill $pid $hpid 2>/dev/null' EXIT
sleep 2
base="http://$addr/gh/bench/projects/big/issues?status=open&level=high,medium,low,note&page%5Blimit%5D=100"
curl -sf -H "Authorization: Bearer $token" "$base" >/dev/null   # builds the issue index
for offset in 0 900000; do
  echo "== one connection, offset $offset"
  "$hey" -n 2000 -c 1 -H "Authorization: Bearer $token" "$base&page%5Boffset%5D=$offset" | grep -E "Requests/sec|50%|90%|99%"
  echo "== 64 connections, offset $offset"
  "$hey" -n 20000 -c 64 -H "Authorization: Bearer $token" "$base&page%5Boffset%5D=$offset" | grep -E "Requests/sec|50%|90%|99%"
done
echo "== hello-world net/http, 64 connections"
"$hey" -n 100000 -c 64 http://127.0.0.1:18099/ | grep -E "Requests/sec|50%|90%|99%"
echo "== NDJSON export of every open issue (fresh server)"
kill $pid; wait $pid 2>/dev/null || true
PLUMB_LOG_LEVEL=error "$work/plumb" serve --addr $addr --database "sqlite:$work/issues.db" --rate-limit 100000000 &
pid=$!
sleep 2
start=$(date +%s.%N)
rows=$(curl -sf -H "Authorization: Bearer $token" -H "Accept: application/x-ndjson" "http://$addr/gh/bench/projects/big/issues" | wc -l)
end=$(date +%s.%N)
echo "rows: $rows  seconds: $(echo "$end - $start" | bc)  rows/s: $(echo "$rows / ($end - $start)" | bc)"
echo "server peak RSS: $(grep VmHWM /proc/$pid/status)"
