#!/bin/sh
# Regenerates the SARIF fixtures made by real tools: staticcheck.sarif,
# golangci-lint.sarif and eslint.sarif. Run it from anywhere:
#
#   sh ingest/sarif/testdata/make.sh
#
# The Go tools install into GOPATH/bin and do not touch Plumb's go.mod:
#
#   go install honnef.co/go/tools/cmd/staticcheck@v0.8.2          # prints "staticcheck 2026.2.2 (0.8.2)"
#   go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
#
# ESLint is installed from the npm registry into the scratch directory.
# The fixtures were last made with go1.26.8, node v20.20.2 and the versions
# pinned here. The analysed sources are copied to fixed scratch directories
# first, so the absolute paths inside the reports are the same on every
# machine: the tests pass them as Options.RepoRoot.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
PATH="$(go env GOPATH)/bin:$PATH"

go_work=/tmp/plumb-sarif-demo
rm -rf "$go_work"
cp -R "$here/src" "$go_work"
# format.go is badly formatted on purpose (for golangci-lint's gofmt); it is
# kept as .txt so that the repository's gofmt check passes.
mv "$go_work/store/format.go.txt" "$go_work/store/format.go"
cd "$go_work"
staticcheck -version
golangci-lint --version
# Both exit non-zero when they find something, which they are meant to.
staticcheck -checks all -f sarif ./... >"$here/staticcheck.sarif" || true
golangci-lint run --output.text.path=stderr --output.sarif.path="$here/golangci-lint.sarif" ./... || true

js_work=/tmp/plumb-sarif-eslint
rm -rf "$js_work"
cp -R "$here/eslint-src" "$js_work"
cd "$js_work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent eslint@9.39.5 @eslint/js@9.39.5 \
	@microsoft/eslint-formatter-sarif@3.1.0 eslint-plugin-jsx-a11y@6.10.2
npx eslint --version
npx eslint -f @microsoft/eslint-formatter-sarif -o "$here/eslint.sarif" src || true
