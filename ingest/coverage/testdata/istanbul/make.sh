#!/bin/sh
# Regenerates the Istanbul coverage-final.json fixtures (and, from the same
# runs, the Clover XML fixtures in ../clover) with the real tools from the npm
# registry: nyc 18.0.0 (babel instrumentation through istanbul-lib-instrument)
# and c8 12.0.0 (V8's own coverage through v8-to-istanbul). Both report through
# istanbul-lib-coverage 3.2.2 / istanbul-reports 3.2.0.
#
# The tools are installed outside the repository (PLUMB_JS_TOOLS, default
# /tmp/plumbcov-tools/js), and project/ is copied to the fixed directory
# /tmp/plumb-fixture/js before running, so the absolute paths in the reports
# are always /tmp/plumb-fixture/js/src/... whoever regenerates them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tools=${PLUMB_JS_TOOLS:-/tmp/plumbcov-tools/js}
if [ ! -x "$tools/node_modules/.bin/nyc" ] || [ ! -x "$tools/node_modules/.bin/c8" ]; then
	mkdir -p "$tools"
	[ -f "$tools/package.json" ] || echo '{"private":true}' >"$tools/package.json"
	npm install --prefix "$tools" --no-audit --no-fund nyc@18.0.0 c8@12.0.0
fi
work=/tmp/plumb-fixture/js
rm -rf "$work"
mkdir -p "$work"
cp -R "$here/project/." "$work/"
cd "$work"

"$tools/node_modules/.bin/nyc" --all --include 'src/**' --temp-dir .nyc_output \
	--report-dir out/nyc \
	--reporter=json --reporter=json-summary --reporter=clover --reporter=text-summary \
	node test/run.js | tee out-nyc.txt
"$tools/node_modules/.bin/c8" --all --include 'src/**' --temp-directory .c8_output \
	--reports-dir out/c8 \
	--reporter=json --reporter=json-summary --reporter=clover --reporter=text-summary \
	node test/run.js | tee out-c8.txt

for tool in nyc c8; do
	mkdir -p "$here/$tool" "$here/../clover/$tool"
	cp "out/$tool/coverage-final.json" "out/$tool/coverage-summary.json" "$here/$tool/"
	cp "out/$tool/clover.xml" "out/$tool/coverage-summary.json" "$here/../clover/$tool/"
	# The text-summary lines, as the tool printed them.
	sed -n '/Coverage summary/,/^=*$/p' "out-$tool.txt" | sed -n '/Coverage summary/,$p' >"$here/$tool/text-summary.txt"
	cp "$here/$tool/text-summary.txt" "$here/../clover/$tool/"
done
{
	echo "node $(node --version)"
	for m in nyc c8 istanbul-lib-coverage istanbul-lib-instrument istanbul-reports v8-to-istanbul; do
		echo "$m $(node -p "require('$tools/node_modules/$m/package.json').version")"
	done
} >"$here/versions.txt"
cp "$here/versions.txt" "$here/../clover/versions.txt"
