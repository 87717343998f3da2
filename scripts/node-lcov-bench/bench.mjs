// Times Node LCOV parsers on one file, for the comparison in
// docs/benchmarks.md (run by scripts/bench-ingest.sh):
//
//   lcov-parse                  lcovParse(file, cb): reads the whole file
//                               into a string, returns every record
//   lcov-parser                 @friedemannsommer/lcov-parser's documented
//                               async API, lcovParser({from: <Readable>}):
//                               streams the file, resolves to every record
//   lcov-parser-stream          the same package's LcovStreamParser (a
//                               Transform emitting one record at a time):
//                               the one that reads a file of any size in
//                               bounded memory, like Plumb's parser
//
// Each parser runs in a child process of its own, so that its peak RSS
// (process.resourceUsage().maxRSS) is its own. Prints, per parser, the
// median MB/s over the runs by the wall clock and by the process's CPU time
// (process.cpuUsage, GC included), the peak RSS, and the files and
// covered/missed lines it read (to check it against genlcov's totals).
//
// Usage: node bench.mjs [--modules DIR] [--runs N] [--parsers a,b] FILE
// DIR holds the node_modules the parsers were installed in (default: this
// script's folder; scripts/bench-ingest.sh installs them into a temp dir).
import { spawnSync } from "node:child_process";
import { createReadStream, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";

const all = ["lcov-parse", "lcov-parser", "lcov-parser-stream"];
const args = process.argv.slice(2);
const opt = { modules: dirname(fileURLToPath(import.meta.url)), runs: 3, parsers: all, child: "" };
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const val = () => {
    if (i + 1 >= args.length) usage(`${a} needs a value`);
    return args[++i];
  };
  if (a === "--modules") opt.modules = resolve(val());
  else if (a === "--runs") opt.runs = Math.max(1, Number.parseInt(val(), 10) || 1);
  else if (a === "--parsers") opt.parsers = val().split(",");
  else if (a === "--child") opt.child = val();
  else if (a.startsWith("-")) usage(`unknown flag ${a}`);
  else files.push(resolve(a));
}
if (files.length !== 1) usage("name one LCOV file");
for (const p of opt.parsers) if (!all.includes(p)) usage(`unknown parser ${p}; known: ${all.join(", ")}`);
const file = files[0];

function usage(msg) {
  console.error(`bench.mjs: ${msg}\nusage: node bench.mjs [--modules DIR] [--runs N] [--parsers ${all.join(",")}] FILE`);
  process.exit(2);
}

const require = createRequire(join(opt.modules, "noop.js"));

// count reads what a parser returned: files, and lines covered and missed.
function count(sections, acc) {
  for (const s of sections) {
    acc.files++;
    for (const d of s.lines.details) {
      if (d.hit > 0) acc.covered++;
      else acc.missed++;
    }
  }
  return acc;
}

const parsers = {
  "lcov-parse": async () => {
    const lcovParse = require("lcov-parse");
    const data = await new Promise((ok, fail) =>
      lcovParse(file, (err, data) => (err ? fail(new Error(String(err))) : ok(data))),
    );
    return count(data, { files: 0, covered: 0, missed: 0 });
  },
  "lcov-parser": async () => {
    const mod = require("@friedemannsommer/lcov-parser");
    const lcovParser = mod.lcovParser ?? mod.default;
    const sections = await lcovParser({ from: createReadStream(file) });
    return count(sections, { files: 0, covered: 0, missed: 0 });
  },
  "lcov-parser-stream": async () => {
    const { LcovStreamParser } = require("@friedemannsommer/lcov-parser/stream");
    const acc = { files: 0, covered: 0, missed: 0 };
    await pipeline(createReadStream(file), new LcovStreamParser(), async (sections) => {
      for await (const s of sections) count([s], acc);
    });
    return acc;
  },
};

function version(pkg) {
  try {
    return require(`${pkg}/package.json`).version;
  } catch {
    // @friedemannsommer/lcov-parser's exports map hides package.json.
    const main = require.resolve(pkg);
    let dir = dirname(main);
    while (dir !== dirname(dir)) {
      try {
        const p = createRequire(join(dir, "noop.js"))(join(dir, "package.json"));
        if (p.name === pkg) return p.version;
      } catch {}
      dir = dirname(dir);
    }
    return "?";
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

if (opt.child) {
  // One parser, in this process: prints one JSON line.
  const mb = statSync(file).size / 1e6;
  const startRSS = process.resourceUsage().maxRSS / 1024;
  const walls = [];
  const cpus = [];
  let got;
  try {
    for (let r = 0; r < opt.runs; r++) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      got = await parsers[opt.child]();
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      const c = process.cpuUsage(c0);
      walls.push(wall);
      cpus.push((c.user + c.system) / 1e6);
      got = { ...got }; // drop the parse result before the next run
      if (globalThis.gc) globalThis.gc();
    }
  } catch (err) {
    console.log(JSON.stringify({ parser: opt.child, error: String(err?.message ?? err).split("\n")[0], peakRSS: process.resourceUsage().maxRSS / 1024 }));
    process.exit(0);
  }
  console.log(
    JSON.stringify({
      parser: opt.child,
      mb,
      runs: walls,
      cpu: cpus,
      mbps: mb / median(walls),
      mbpcpu: mb / median(cpus),
      peakRSS: process.resourceUsage().maxRSS / 1024,
      startRSS,
      ...got,
    }),
  );
  process.exit(0);
}

const mb = statSync(file).size / 1e6;
const pkgs = { "lcov-parse": "lcov-parse", "lcov-parser": "@friedemannsommer/lcov-parser", "lcov-parser-stream": "@friedemannsommer/lcov-parser" };
console.log(`node ${process.version}; ${file} (${mb.toFixed(1)} MB); ${opt.runs} run(s) per parser, each parser in its own process`);
console.log("| parser | API | MB/s (wall, median) | MB/cpu-s | peak RSS | files | covered / missed lines |");
console.log("|---|---|---|---|---|---|---|");
const api = {
  "lcov-parse": "`lcovParse(file, cb)`",
  "lcov-parser": "`await lcovParser({from: createReadStream(file)})`",
  "lcov-parser-stream": "`LcovStreamParser` (Transform, one record at a time)",
};
let failed = false;
for (const p of opt.parsers) {
  const t0 = Date.now();
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, "--expose-gc", fileURLToPath(import.meta.url), "--modules", opt.modules, "--runs", String(opt.runs), "--child", p, file],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  const line = (child.stdout ?? "").trim().split("\n").pop();
  let r;
  try {
    r = JSON.parse(line);
  } catch {
    // The child died: name the error it printed (a JavaScript error, or V8's
    // "FATAL ERROR: … JavaScript heap out of memory") and when.
    const lines = (child.stderr || "").split("\n").map((l) => l.trim());
    const why =
      lines.find((l) => /^(FATAL ERROR|[A-Za-z]*Error)\b/.test(l)) ||
      child.error?.message ||
      `exit ${child.status ?? ""} ${child.signal ?? ""}`.trim();
    r = { parser: p, error: `${why} (after ${((Date.now() - t0) / 1000).toFixed(0)} s)` };
  }
  const name = `${pkgs[p]} ${version(pkgs[p])}`;
  if (r.error) {
    failed = true;
    console.log(`| ${name} | ${api[p]} | failed: ${r.error} | | ${r.peakRSS ? `${r.peakRSS.toFixed(0)} MiB` : ""} | | |`);
    continue;
  }
  console.log(
    `| ${name} | ${api[p]} | ${r.mbps.toFixed(1)} (runs: ${r.runs.map((s) => `${s.toFixed(2)}s`).join(", ")}) | ${r.mbpcpu.toFixed(1)} | ${r.peakRSS.toFixed(0)} MiB | ${r.files} | ${r.covered} / ${r.missed} |`,
  );
}
process.exit(failed ? 1 : 0);
