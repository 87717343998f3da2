#!/usr/bin/env bash
# plumb analyze's speed (docs/analyze.md, "Speed"): the whole Go standard library,
# duplication on, beside cloc and jscpd on the same tree, timed with hyperfine.
#
# The tree is a copy of $(go env GOROOT)/src with a .plumb.yml that keeps vendored and
# generated files and lifts the size limit, so that plumb reads every file cloc and jscpd
# read. plumb runs twice: on that copy, and on GOROOT/src itself with its defaults.
# jscpd runs with the settings of the duplication comparison (analyze/jscpd_test.go).
# Needs hyperfine and cloc (apt-get install -y hyperfine cloc); jscpd from $PLUMB_JSCPD or
# PATH when installed (npm install jscpd@5.3.3).
# Usage: scripts/bench-analyze.sh [workdir]   (figures go to docs/benchmarks.md by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in hyperfine cloc; do
  command -v "$tool" >/dev/null || { echo "bench-analyze: $tool is needed (apt-get install -y $tool)" >&2; exit 1; }
done
work=${1:-$(mktemp -d)}
go build -o "$work/plumb" ./cmd/plumb
goroot=$(go env GOROOT)
tree="$work/gosrc"
rm -rf "$tree"
cp -a "$goroot/src" "$tree"
printf 'analyze:\n  vendored: true\n  generated: true\n  maxFileSize: 1073741824\n' >"$tree/.plumb.yml"
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/^Mem:/ {print $2}') GiB; $(go version)"
echo "tree: $(find "$tree" -type f | wc -l) files, $(du -sh "$tree" | cut -f1); $(cloc --version | head -1 | sed 's/^/cloc /')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
jscpd=${PLUMB_JSCPD:-$(command -v jscpd || true)}
cmds=(-n "plumb analyze (same tree as cloc)" "$work/plumb analyze $tree --format table"
  -n "plumb analyze (GOROOT/src, defaults)" "$work/plumb analyze $goroot/src --format table")
hyperfine --style basic --warmup 1 --runs 5 --export-markdown "$work/plumb.md" "${cmds[@]}"
hyperfine --style basic --runs 2 --export-markdown "$work/cloc.md" -n "cloc" "cloc --quiet $tree"
if [ -n "$jscpd" ]; then
  hyperfine --style basic --runs 2 --export-markdown "$work/jscpd.md" -n "jscpd $("$jscpd" --version | sed 's/^jscpd //')" \
    "$jscpd --min-tokens 50 --min-lines 5 --mode weak --max-size 1000mb --ignore-identifiers --ignore-literals --reporters json --output $work/jscpd $tree"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "plumb analyze, same tree: %e s wall, %U s user, %S s system, %M KiB max RSS" "$work/plumb" analyze "$tree" --format table >/dev/null
cat "$work"/*.md
