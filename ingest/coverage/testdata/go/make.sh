#!/bin/sh
# Regenerates the Go coverprofile fixtures with the Go toolchain. Run from
# anywhere:  sh ingest/coverage/testdata/go/make.sh
#
#   mod/               a throwaway module (example.com/plumbfixture) written
#                      for these tests: two packages, fully, partly and not
#                      covered functions, a closure, an empty function
#   coverpkg.out       go test -coverpkg=./... -coverprofile (mode: set); each
#                      test binary reports every package, so blocks repeat
#   coverpkg.func.txt  go tool cover -func of it
#   count.out          go test -covermode=count -coverprofile
#   count.func.txt     go tool cover -func of it
#   metric.out         go test -coverprofile of Plumb's own metric package
#   metric.func.txt    go tool cover -func of it
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/mod"
go test -count=1 -coverpkg=./... -coverprofile="$here/coverpkg.out" ./... >/dev/null
go tool cover -func="$here/coverpkg.out" >"$here/coverpkg.func.txt"
go test -count=1 -covermode=count -coverprofile="$here/count.out" ./... >/dev/null
go tool cover -func="$here/count.out" >"$here/count.func.txt"
cd "$here/../../../.."
go test -count=1 -coverprofile="$here/metric.out" ./metric/ >/dev/null
go tool cover -func="$here/metric.out" >"$here/metric.func.txt"
go version >"$here/tools.txt"
