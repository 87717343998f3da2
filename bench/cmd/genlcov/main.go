// Command genlcov writes a generated coverage report of a given size for the
// ingestion benchmarks (scripts/bench-ingest.sh), and parses a report file
// with Plumb's parsers to time them on exactly the bytes other parsers read.
//
//	genlcov -o lcov.info -size 50MiB                      # LCOV tracefile
//	genlcov -o cobertura.xml -size 50MiB -format cobertura # Cobertura XML (gcovr style)
//	genlcov -parse lcov.info [-format lcov] [-runs 3]      # time coverage.Parse on a file
//
// The output is deterministic: the same -seed and -size give the same bytes,
// and a smaller -size gives a prefix of the files of a larger one. The report
// ends on a record boundary at the first one at or past -size (so it is a few
// KB larger), and stays valid. It is shaped like lcov's geninfo output for a C
// project: per file TN, SF, FN/FNDA/FNF/FNH, BRDA/BRF/BRH, DA/LF/LH and
// end_of_record; files of 20 to ~3,000 lines (about 400 on average), about two
// thirds of them coverable, functions of 8 to 60 lines of which about one in
// seven never ran, about a quarter of the coverable lines missed, hit counts
// from 1 to 100,000, and a two-way branch on about one coverable line in eight.
// LF and LH agree with the DA records, so what Plumb answers for an upload
// (covered and missed lines) can be checked against the totals genlcov
// prints.
//
// The Cobertura report has the same files, grouped by directory into
// <package>s with one <class> per file and a <line> per coverable line.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/plumbhq/plumb/ingest/coverage"
)

func main() {
	out := flag.String("o", "", "write the generated report to this path")
	sizeArg := flag.String("size", "50MiB", "size of the generated report: bytes, or with a KB/MB/GB/KiB/MiB/GiB suffix")
	format := flag.String("format", "lcov", "lcov or cobertura")
	seed := flag.Uint64("seed", 1, "seed of the generator")
	parse := flag.String("parse", "", "parse this report file with Plumb's parser instead of generating")
	runs := flag.Int("runs", 3, "with -parse: how many times to parse the file")
	strip := flag.String("strip-prefix", prefix, "with -parse: prefix removed from report paths")
	flag.Parse()
	var err error
	switch {
	case *parse != "":
		err = parseFile(*parse, coverage.Format(*format), *runs, *strip)
	case *out != "":
		var size int64
		if size, err = parseSize(*sizeArg); err == nil {
			err = generate(*out, *format, size, *seed)
		}
	default:
		err = errors.New("usage: genlcov -o PATH [-size 50MiB] [-format lcov|cobertura] [-seed N] | genlcov -parse PATH [-format lcov|cobertura] [-runs N]")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genlcov:", err)
		os.Exit(1)
	}
}

// prefix is the build directory the generated paths are under (the CI
// checkout): uploads give it as stripPrefix.
const prefix = "/home/ci/build/project"

func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("-size must be a positive size such as 50MiB or 1GiB, got %q", s)
	}
	return int64(n * float64(mult)), nil
}

// totals are what a report holds, as Plumb counts it.
type totals struct {
	files, found, hit int64
}

func (t totals) String() string {
	return fmt.Sprintf("%d files, %d coverable lines: %d covered, %d missed", t.files, t.found, t.hit, t.found-t.hit)
}

func generate(path, format string, size int64, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := &countWriter{w: bufio.NewWriterSize(f, 1<<20)}
	start := time.Now()
	var t totals
	switch format {
	case "lcov":
		t = writeLCOV(w, size, seed)
	case "cobertura":
		t = writeCobertura(w, size, seed)
	default:
		return fmt.Errorf("-format must be lcov or cobertura, got %q", format)
	}
	if w.err != nil {
		return w.err
	}
	if err := w.w.(*bufio.Writer).Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	d := time.Since(start)
	fmt.Printf("wrote %s: %s, %d bytes (%.1f MB), %s, in %.1fs\n", path, format, w.n, float64(w.n)/1e6, t, d.Seconds())
	return nil
}

// countWriter counts the bytes written and keeps the first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

// rng is splitmix64: small, fast, and the same on every platform and Go
// version (math/rand's sequences are not promised to stay the same).
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn is in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// chance is true with probability p.
func (r *rng) chance(p float64) bool { return float64(r.next()>>11)/(1<<53) < p }

// count is a hit count of a line or function that ran: mostly small, with a
// long tail (1 to 100,000).
func (r *rng) count() int64 {
	digits := []int{1, 1, 1, 2, 2, 2, 3, 3, 4, 5}[r.intn(10)]
	n := int64(1)
	for range digits {
		n *= 10
	}
	return 1 + int64(r.intn(int(n)))
}

var words = []string{"alloc", "buffer", "cache", "codec", "config", "crypto", "db", "event", "format", "hash",
	"http", "index", "io", "json", "lexer", "log", "map", "net", "parser", "pool", "queue", "render",
	"sched", "sort", "stream", "string", "sync", "table", "timer", "tree", "util", "vector"}

// genFile is one generated source file's coverage.
type genFile struct {
	dir, name string
	lines     int
	funcs     []genFunc
	da        []genLine // coverable lines, in order
}

type genFunc struct {
	line  int
	name  string
	count int64
}

type genLine struct {
	line   int
	count  int64
	branch bool // a two-way branch on this line
	taken  [2]int64
}

// makeFile generates file i of the report; it depends only on the seed and i.
func makeFile(seed uint64, i int) genFile {
	r := rng(seed*0x2545f4914f6cdd1d + uint64(i)*0x9e3779b97f4a7c15)
	r.next()
	f := genFile{}
	// ~20 files per directory, directories two levels deep.
	d := i / 20
	f.dir = fmt.Sprintf("src/%s/%s%d", words[d%len(words)], words[(d/len(words)+d)%len(words)], d)
	f.name = fmt.Sprintf("%s_%s_%d.c", words[r.intn(len(words))], words[r.intn(len(words))], i)
	f.lines = 20 + r.intn(600)
	if r.chance(0.05) {
		f.lines += r.intn(2400) // a few long files
	}
	coverable := 0.55 + 0.25*float64(r.intn(100))/100
	missedInFunc := 0.05 + 0.2*float64(r.intn(100))/100
	base := strings.TrimSuffix(f.name, ".c")
	for l := 1 + r.intn(20); l <= f.lines; {
		fn := genFunc{line: l, name: fmt.Sprintf("%s_fn%d", base, l)}
		if !r.chance(1.0 / 7) {
			fn.count = r.count()
		}
		f.funcs = append(f.funcs, fn)
		end := min(l+8+r.intn(53), f.lines+1)
		for ln := l; ln < end; ln++ {
			if ln != l && !r.chance(coverable) {
				continue
			}
			dl := genLine{line: ln}
			if fn.count > 0 && (ln == l || !r.chance(missedInFunc)) {
				dl.count = fn.count
				if r.chance(0.1) {
					dl.count *= int64(2 + r.intn(50)) // a loop body
				}
			}
			if ln != l && r.chance(1.0/8) {
				dl.branch = true
				if dl.count > 0 {
					a := int64(r.intn(int(min(dl.count, 1<<30)) + 1))
					dl.taken = [2]int64{a, dl.count - a}
				}
			}
			f.da = append(f.da, dl)
		}
		l = end + r.intn(4)
	}
	return f
}

func (f *genFile) totals() totals {
	t := totals{files: 1, found: int64(len(f.da))}
	for _, d := range f.da {
		if d.count > 0 {
			t.hit++
		}
	}
	return t
}

func (t *totals) add(u totals) { t.files += u.files; t.found += u.found; t.hit += u.hit }

func writeLCOV(w *countWriter, size int64, seed uint64) totals {
	var t totals
	var b []byte
	for i := 0; w.n < size && w.err == nil; i++ {
		f := makeFile(seed, i)
		b = appendLCOV(b[:0], &f)
		w.Write(b)
		t.add(f.totals())
	}
	return t
}

func appendLCOV(b []byte, f *genFile) []byte {
	num := func(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }
	b = append(b, "TN:\nSF:"+prefix+"/"...)
	b = append(b, f.dir...)
	b = append(b, '/')
	b = append(b, f.name...)
	b = append(b, '\n')
	fnh := 0
	for _, fn := range f.funcs {
		b = append(b, "FN:"...)
		b = num(b, int64(fn.line))
		b = append(b, ',')
		b = append(b, fn.name...)
		b = append(b, '\n')
	}
	for _, fn := range f.funcs {
		b = append(b, "FNDA:"...)
		b = num(b, fn.count)
		b = append(b, ',')
		b = append(b, fn.name...)
		b = append(b, '\n')
		if fn.count > 0 {
			fnh++
		}
	}
	b = append(b, "FNF:"...)
	b = num(b, int64(len(f.funcs)))
	b = append(b, "\nFNH:"...)
	b = num(b, int64(fnh))
	b = append(b, '\n')
	brf, brh := 0, 0
	for _, d := range f.da {
		if !d.branch {
			continue
		}
		for k, taken := range d.taken {
			b = append(b, "BRDA:"...)
			b = num(b, int64(d.line))
			b = append(b, ",0,"...)
			b = num(b, int64(k))
			b = append(b, ',')
			if d.count == 0 {
				b = append(b, '-')
			} else {
				b = num(b, taken)
			}
			b = append(b, '\n')
			brf++
			if taken > 0 {
				brh++
			}
		}
	}
	b = append(b, "BRF:"...)
	b = num(b, int64(brf))
	b = append(b, "\nBRH:"...)
	b = num(b, int64(brh))
	b = append(b, '\n')
	for _, d := range f.da {
		b = append(b, "DA:"...)
		b = num(b, int64(d.line))
		b = append(b, ',')
		b = num(b, d.count)
		b = append(b, '\n')
	}
	t := f.totals()
	b = append(b, "LF:"...)
	b = num(b, t.found)
	b = append(b, "\nLH:"...)
	b = num(b, t.hit)
	b = append(b, "\nend_of_record\n"...)
	return b
}

// writeCobertura writes gcovr's shape: <sources> with the build directory,
// one <package> per directory, one <class> per file with its <lines>. The
// root's totals are those of the whole report, so the packages are generated
// twice: once to count, once to write.
func writeCobertura(w *countWriter, size int64, seed uint64) totals {
	// First pass: how many files reach size, and the totals.
	var t totals
	var br, brh int64
	n := int64(len(coberturaHead(totals{}, 0, 0)) + len(coberturaTail))
	files := 0
	var b []byte
	for n < size {
		var pt totals
		var pbr, pbrh int64
		b, files, pt, pbr, pbrh = coberturaPackage(b[:0], seed, files)
		n += int64(len(b))
		t.add(pt)
		br, brh = br+pbr, brh+pbrh
	}
	w.Write([]byte(coberturaHead(t, br, brh)))
	for i := 0; i < files && w.err == nil; {
		b, i, _, _, _ = coberturaPackage(b[:0], seed, i)
		w.Write(b)
	}
	w.Write([]byte(coberturaTail))
	return t
}

func rate(hit, all int64) string {
	if all == 0 {
		return "1.0"
	}
	return strconv.FormatFloat(float64(hit)/float64(all), 'f', 4, 64)
}

func coberturaHead(t totals, branches, branchesHit int64) string {
	return fmt.Sprintf(`<?xml version='1.0' encoding='UTF-8'?>
<!DOCTYPE coverage SYSTEM 'http://cobertura.sourceforge.net/xml/coverage-04.dtd'>
<coverage line-rate="%s" branch-rate="%s" lines-covered="%d" lines-valid="%d" branches-covered="%d" branches-valid="%d" complexity="0.0" timestamp="1700000000" version="gcovr 5.2">
  <sources>
    <source>%s</source>
  </sources>
  <packages>
`, rate(t.hit, t.found), rate(branchesHit, branches), t.hit, t.found, branchesHit, branches, prefix)
}

const coberturaTail = "  </packages>\n</coverage>\n"

// coberturaPackage appends the package of file i's directory (files i up to
// the next directory) and returns the index of the next package's first file,
// the package's totals and its branches (all and taken).
func coberturaPackage(b []byte, seed uint64, i int) ([]byte, int, totals, int64, int64) {
	first := makeFile(seed, i)
	var fs []genFile
	var t totals
	var br, brh int64
	for j := i; ; j++ {
		f := first
		if j > i {
			f = makeFile(seed, j)
			if f.dir != first.dir {
				break
			}
		}
		fs = append(fs, f)
		t.add(f.totals())
		for _, d := range f.da {
			if d.branch {
				br += 2
				brh += min(d.taken[0], 1) + min(d.taken[1], 1)
			}
		}
	}
	b = fmt.Appendf(b, "    <package name=\"%s\" line-rate=\"%s\" branch-rate=\"%s\" complexity=\"0.0\">\n      <classes>\n",
		strings.ReplaceAll(first.dir, "/", "."), rate(t.hit, t.found), rate(brh, br))
	for _, f := range fs {
		ft := f.totals()
		var fbr, fbrh int64
		for _, d := range f.da {
			if d.branch {
				fbr += 2
				fbrh += min(d.taken[0], 1) + min(d.taken[1], 1)
			}
		}
		b = fmt.Appendf(b, "        <class name=\"%s\" filename=\"%s/%s\" line-rate=\"%s\" branch-rate=\"%s\" complexity=\"0.0\">\n          <methods/>\n          <lines>\n",
			strings.ReplaceAll(f.name, ".", "_"), f.dir, f.name, rate(ft.hit, ft.found), rate(fbrh, fbr))
		for _, d := range f.da {
			b = append(b, "            <line number=\""...)
			b = strconv.AppendInt(b, int64(d.line), 10)
			b = append(b, "\" hits=\""...)
			b = strconv.AppendInt(b, d.count, 10)
			if d.branch {
				taken := min(d.taken[0], 1) + min(d.taken[1], 1)
				b = fmt.Appendf(b, "\" branch=\"true\" condition-coverage=\"%d%% (%d/2)\"/>\n", taken*50, taken)
			} else {
				b = append(b, "\" branch=\"false\"/>\n"...)
			}
		}
		b = append(b, "          </lines>\n        </class>\n"...)
	}
	b = append(b, "      </classes>\n    </package>\n"...)
	return b, i + len(fs), t, br, brh
}

// parseFile parses a report file runs times with coverage.Parse, streaming
// it from disk as the server streams an upload, and prints the throughput
// (by the wall clock and by this process's CPU time), the peak RSS and what
// the report holds.
func parseFile(path string, format coverage.Format, runs int, strip string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	mb := float64(st.Size()) / 1e6
	var walls, cpus []float64
	var t totals
	for run := 0; run < max(runs, 1); run++ {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		t = totals{}
		cpu0, start := cpuTime(), time.Now()
		err = coverage.Parse(bufio.NewReaderSize(f, 256<<10), format, coverage.Options{StripPrefix: strip}, func(cf coverage.File) error {
			t.files++
			count := func(h int64) {
				if h >= 0 {
					t.found++
				}
				if h > 0 {
					t.hit++
				}
			}
			for _, h := range cf.Hits {
				count(h)
			}
			for _, l := range cf.Lines {
				count(l.Hits)
			}
			return nil
		})
		wall, cpu := time.Since(start).Seconds(), (cpuTime() - cpu0).Seconds()
		f.Close()
		if err != nil {
			return err
		}
		walls, cpus = append(walls, wall), append(cpus, cpu)
		fmt.Printf("  run %d: %.2fs wall, %.2fs CPU: %.0f MB/s, %.0f MB/cpu-s\n", run+1, wall, cpu, mb/wall, mb/cpu)
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Printf("go coverage.Parse %s %s (%.1f MB): median %.0f MB/s wall, %.0f MB/cpu-s; peak RSS %.1f MiB; %s\n",
		format, path, mb, mb/median(walls), mb/median(cpus), float64(ru.Maxrss)/1024, t)
	return nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
