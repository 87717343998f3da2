#!/usr/bin/env bash
# plumb analyze's speed (docs/analyze.md, "Speed").
#
# Default: the whole Go standard library, duplication on, beside cloc and jscpd on the same
# tree, timed with hyperfine. The tree is a copy of $(go env GOROOT)/src with a .plumb.yml
# that keeps vendored and generated files and lifts the size limit, so that plumb reads
# every file cloc and jscpd read. plumb runs twice: on that copy, and on GOROOT/src itself
# with its defaults. jscpd runs with the settings of the duplication comparison
# (analyze/jscpd_test.go).
#
# --languages: plumb against cloc by language (issue 23): /usr/include (C and C++
# headers), g++'s libstdc++ headers (/usr/include/c++/12), the C sources of Linux 6.1
# (kernel/ mm/ fs/ net/ lib/ of Debian's linux-source-6.1), Boost 1.74's headers (from
# the libboost1.74-dev package, downloaded and unpacked here, not installed), java.base
# of OpenJDK 17's src.zip, Go's src, and the three of Go's src, /usr/lib/python3.11 and
# /usr/include copied into one mixed tree. Each pair runs plumb then cloc as whole
# processes under /usr/bin/time and prints both CPU times (user + system), both wall
# times and their ratios; pairs in turn keep the ratios meaningful on a busy machine.
#
# Needs hyperfine and cloc (apt-get install -y hyperfine cloc); jscpd from $PLUMB_JSCPD or
# PATH when installed (npm install jscpd@5.3.3). --languages needs cloc, unzip, Linux's
# and OpenJDK 17's sources instead (apt-get install -y cloc unzip linux-source-6.1
# openjdk-17-source) and apt-get download for Boost.
# Usage: scripts/bench-analyze.sh [--languages [PAIRS]] [workdir]   (figures go to docs/benchmarks.md by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
languages=
pairs=3
if [ "${1:-}" = --languages ]; then
  languages=1
  shift
  if [[ ${1:-} =~ ^[0-9]+$ ]]; then pairs=$1; shift; fi
fi
tools="hyperfine cloc"
[ -z "$languages" ] || tools="cloc unzip"
for tool in $tools; do
  command -v "$tool" >/dev/null || { echo "bench-analyze: $tool is needed (apt-get install -y $tool)" >&2; exit 1; }
done
work=${1:-$(mktemp -d)}
go build -o "$work/plumb" ./cmd/plumb
goroot=$(go env GOROOT)
config='analyze:\n  vendored: true\n  generated: true\n  maxFileSize: 1073741824\n'
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/^Mem:/ {print $2}') GiB; $(go version)"

if [ -n "$languages" ]; then
  srczip=$(ls /usr/lib/jvm/*17*/lib/src.zip 2>/dev/null | head -1)
  [ -n "$srczip" ] || { echo "bench-analyze: no OpenJDK 17 src.zip under /usr/lib/jvm" >&2; exit 1; }
  linux=/usr/src/linux-source-6.1.tar.xz
  [ -f "$linux" ] || { echo "bench-analyze: no $linux (apt-get install -y linux-source-6.1)" >&2; exit 1; }
  trees="include cxx linux boost java go mixed"
  for t in $trees; do rm -rf "${work:?}/$t"; mkdir -p "$work/$t"; done
  cp -a /usr/include "$work/include/include"
  cp -a /usr/include/c++/12 "$work/cxx/12"
  tar -xJf "$linux" -C "$work/linux" --strip-components 1 \
    linux-source-6.1/kernel linux-source-6.1/mm linux-source-6.1/fs linux-source-6.1/net linux-source-6.1/lib
  (cd "$work" && rm -rf deb && mkdir deb && cd deb && apt-get download libboost1.74-dev >/dev/null 2>&1 && dpkg-deb -x libboost1.74-dev_*.deb . && mv usr/include/boost "$work/boost/boost")
  (cd "$work/java" && unzip -q "$srczip" 'java.base/*')
  cp -a "$goroot/src" "$work/go/gosrc"
  cp -a "$goroot/src" "$work/mixed/gosrc"; cp -a /usr/lib/python3.11 "$work/mixed/python3.11"; cp -a /usr/include "$work/mixed/include"
  for t in $trees; do
    printf "$config" >"$work/$t/.plumb.yml"
    echo "tree $t: $(find "$work/$t" -type f | wc -l) files, $(du -sh "$work/$t" | cut -f1)"
  done
  run() { # run COMMAND...: the command's user + system seconds, its wall seconds, its peak RSS in KiB
    /usr/bin/time -f '%U %S %e %M' -o "$work/time" "$@" >/dev/null 2>&1
    awk '{printf "%.2f %.2f %d\n", $1 + $2, $3, $4}' "$work/time"
  }
  for t in $trees; do
    echo "load before $t: $(cut -d' ' -f1-3 /proc/loadavg)"
    for i in $(seq 0 "$pairs"); do # pair 0 warms the caches and is not printed
      read -r p pw prss < <(run "$work/plumb" analyze "$work/$t" --format table)
      read -r c cw _ < <(run cloc --quiet "$work/$t")
      [ "$i" = 0 ] || echo "$t pair $i: plumb ${p} s CPU ${pw} s wall (${prss} KiB peak), cloc ${c} s CPU ${cw} s wall, plumb/cloc CPU $(awk "BEGIN {printf \"%.3f\", $p / $c}"), plumb $(awk "BEGIN {printf \"%.1f\", $cw / $pw}")x faster"
    done
  done
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

tree="$work/gosrc"
rm -rf "$tree"
cp -a "$goroot/src" "$tree"
printf "$config" >"$tree/.plumb.yml"
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
