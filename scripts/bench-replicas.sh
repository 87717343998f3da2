#!/usr/bin/env bash
# Requests per second at 64 connections with one and with two `plumb serve`
# replicas on PostgreSQL (and Redis for the shared rate limit), on the
# 1,000,000-issue dataset the Go benchmarks generate:
#   PLUMB_BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable \
#     go test -run='^$' -bench=Issues -benchtime=1x ./bench     # once, creates plumb_bench_issues_1000000
# With two replicas the 64 connections are split 32/32 (two hey processes at
# once); the figure is the sum.
# Usage: scripts/bench-replicas.sh [postgres-base-url] [token-file]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-postgres://postgres@127.0.0.1:5432/plumb_bench_issues_1000000?sslmode=disable}
tokfile=${2:-${TMPDIR:-/tmp}/plumb-bench-postgres-issues-1000000.json}
token=$(cat "$tokfile")
work=$(mktemp -d)
hey=${HEY:-$(go env GOPATH)/bin/hey}
[ -x "$hey" ] || go install github.com/rakyll/hey@v0.1.5
go build -o "$work/plumb" ./cmd/plumb
pids=()
start() {
  PLUMB_LOG_LEVEL=error "$work/plumb" serve --addr "127.0.0.1:$1" --database "$base" \
    --redis-url redis://127.0.0.1:6379/0 --rate-limit 100000000 &
  pids+=($!)
}
trap 'kill ${pids[@]} 2>/dev/null' EXIT
path="/gh/bench/projects/big/issues?status=open&level=high,medium,low,note&page%5Blimit%5D=100"
start 18201
start 18202
sleep 3
for port in 18201 18202; do curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port$path" >/dev/null; done
echo "== one replica, 64 connections"
"$hey" -n 20000 -c 64 -H "Authorization: Bearer $token" "http://127.0.0.1:18201$path" | grep -E "Requests/sec|50%|99%"
echo "== two replicas, 32 + 32 connections"
"$hey" -n 10000 -c 32 -H "Authorization: Bearer $token" "http://127.0.0.1:18201$path" > "$work/a" &
first=$!
"$hey" -n 10000 -c 32 -H "Authorization: Bearer $token" "http://127.0.0.1:18202$path" > "$work/b"
wait $first
grep -E "Requests/sec|50%|99%" "$work/a" "$work/b"
echo "total requests/s: $(grep -h Requests/sec "$work/a" "$work/b" | awk '{s+=$2} END {print s}')"
