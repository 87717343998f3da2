package coverage

// Throughput and memory goals (issue: LCOV and Cobertura parse above 100 MB/s;
// a 1 GB LCOV read end to end under 200 MB of peak RSS). Run:
//
//	go test -run='^$' -bench='ParseLCOV|ParseCobertura' -benchmem ./ingest/coverage/
//	go test -run='^$' -bench=IngestLCOV1GB ./ingest/coverage/    # alone: it reports the process's peak RSS
//	go test -run='^$' -bench='Parse(JaCoCo|Clover|SimpleCov|Istanbul)' -benchmem ./ingest/coverage/
//
// Fuzz targets (one per parser, plus Detect and the XML scanner); a short
// minimize time keeps short runs fuzzing rather than shrinking:
//
//	go test -run='^$' -fuzz='^FuzzJaCoCo$' -fuzztime=60s -fuzzminimizetime=5s ./ingest/coverage/
//
// The reports are generated, shaped like real ones (lcov of a C project:
// TN/SF/FN/FNDA/DA/BRDA/LF/LH records; gcovr's Cobertura: one class per file
// with its lines, a branch line in ten).

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lcovGenReader streams a generated LCOV report of about size bytes.
type lcovGenReader struct {
	size, done int64
	file       int
	buf        bytes.Buffer
}

func (g *lcovGenReader) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) && g.done < g.size {
		before := g.buf.Len()
		lcovGenRecord(&g.buf, g.file)
		g.done += int64(g.buf.Len() - before)
		g.file++
	}
	if g.buf.Len() == 0 {
		return 0, io.EOF
	}
	return g.buf.Read(p)
}

// lcovGenRecord writes one file's record: 400 source lines, 300 of them
// coverable, a function every 40 lines, a branch every 10.
func lcovGenRecord(w *bytes.Buffer, i int) {
	fmt.Fprintf(w, "TN:\nSF:/home/ci/build/project/src/module%03d/file%06d.c\n", i%500, i)
	for l := 1; l <= 400; l += 40 {
		fmt.Fprintf(w, "FN:%d,function_%d_%d\n", l, i, l)
	}
	for l := 1; l <= 400; l += 40 {
		fmt.Fprintf(w, "FNDA:%d,function_%d_%d\n", (i+l)%7, i, l)
	}
	fmt.Fprintf(w, "FNF:10\nFNH:8\n")
	var b []byte
	hit := 0
	for l := 1; l <= 400; l++ {
		c, ok := benchHits(i, l)
		if !ok {
			continue
		}
		if c > 0 {
			hit++
		}
		b = append(b[:0], "DA:"...)
		b = strconv.AppendInt(b, int64(l), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c*(1000+l)), 10)
		b = append(b, '\n')
		w.Write(b)
		if l%10 == 0 {
			fmt.Fprintf(w, "BRDA:%d,0,0,%d\nBRDA:%d,0,1,-\n", l, c, l)
		}
	}
	fmt.Fprintf(w, "BRF:80\nBRH:40\nLF:300\nLH:%d\nend_of_record\n", hit)
}

// benchHits is what the generated reports say of line l of file i: not
// coverable (false) for every fourth line, else a hit count, 0 for about a
// third of the lines.
func benchHits(i, l int) (int, bool) {
	if l%4 == 0 {
		return 0, false
	}
	c := (i*31 + l*17) % 13
	if c < 4 {
		c = 0
	}
	return c, true
}

func cobGenReport(size int) []byte {
	var w bytes.Buffer
	w.WriteString(`<?xml version="1.0" ?>
<!DOCTYPE coverage SYSTEM 'http://cobertura.sourceforge.net/xml/coverage-04.dtd'>
<coverage line-rate="0.7" branch-rate="0.5" lines-covered="0" lines-valid="0" branches-covered="0" branches-valid="0" complexity="0.0" timestamp="1700000000" version="gcovr 5.2">
	<sources>
		<source>/home/ci/build/project</source>
	</sources>
	<packages>
`)
	for i := 0; w.Len() < size; i++ {
		fmt.Fprintf(&w, "\t\t<package name=\"src.module%03d\" line-rate=\"0.7\" branch-rate=\"0.5\" complexity=\"0.0\">\n\t\t\t<classes>\n", i)
		fmt.Fprintf(&w, "\t\t\t\t<class name=\"file%06d_c\" filename=\"src/module%03d/file%06d.c\" line-rate=\"0.7\" branch-rate=\"0.5\" complexity=\"0.0\">\n\t\t\t\t\t<methods/>\n\t\t\t\t\t<lines>\n", i, i%500, i)
		for l := 1; l <= 400; l++ {
			c, ok := benchHits(i, l)
			if !ok {
				continue
			}
			if l%10 == 0 {
				fmt.Fprintf(&w, "\t\t\t\t\t\t<line number=\"%d\" hits=\"%d\" branch=\"true\" condition-coverage=\"50%% (1/2)\"/>\n", l, c)
			} else {
				fmt.Fprintf(&w, "\t\t\t\t\t\t<line number=\"%d\" hits=\"%d\" branch=\"false\"/>\n", l, c)
			}
		}
		w.WriteString("\t\t\t\t\t</lines>\n\t\t\t\t</class>\n\t\t\t</classes>\n\t\t</package>\n")
	}
	w.WriteString("\t</packages>\n</coverage>\n")
	return w.Bytes()
}

const benchReportSize = 50 << 20

var (
	benchLCOVOnce, benchCobOnce sync.Once
	benchLCOV, benchCob         []byte
)

func benchParse(b *testing.B, f Format, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := benchCPU()
	n := 0
	for b.Loop() {
		files := 0
		err := Parse(bytes.NewReader(data), f, Options{}, func(File) error { files++; return nil })
		if err != nil || files == 0 {
			b.Fatalf("files %d, err %v", files, err)
		}
		n++
	}
	// The machine is shared: MB/s per second of this process's CPU time
	// (GC included) is steadier than the wall-clock MB/s.
	if cpu := benchCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(n)*float64(len(data))/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}

// benchCPU is the process's user+system CPU time.
func benchCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkParseLCOV(b *testing.B) {
	benchLCOVOnce.Do(func() {
		benchLCOV, _ = io.ReadAll(&lcovGenReader{size: benchReportSize})
	})
	benchParse(b, LCOV, benchLCOV)
}

func BenchmarkParseCobertura(b *testing.B) {
	benchCobOnce.Do(func() { benchCob = cobGenReport(benchReportSize) })
	benchParse(b, Cobertura, benchCob)
}

// BenchmarkIngestLCOV1GB reads a 1 GiB LCOV report streamed from a generator
// (never held in memory), keeping what a store would need per file, and
// reports the process's peak RSS.
func BenchmarkIngestLCOV1GB(b *testing.B) {
	const size = 1 << 30
	b.SetBytes(size)
	for b.Loop() {
		var files, lines int64
		err := Parse(&lcovGenReader{size: size}, LCOV, Options{StripPrefix: "/home/ci/build/project"}, func(f File) error {
			files++
			lines += int64(f.Coverable())
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(files), "files")
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // Linux: KiB
	}
}
