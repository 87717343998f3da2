// Command genupload writes a report of about -mb megabytes for the memory
// benchmark of uploads (docs/benchmarks.md, "Peak RSS per upload format"):
// an analysis JSON (-format analysis: file figures plus one SARIF log), a
// SARIF log (-format sarif) or a Go coverprofile (-format gocover).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	format := flag.String("format", "sarif", "analysis, sarif or gocover")
	mb := flag.Int("mb", 256, "approximate size in megabytes")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	cw := &counter{w: w}
	limit := int64(*mb) << 20
	switch *format {
	case "sarif":
		sarifLog(cw, limit, 0)
	case "analysis":
		fmt.Fprint(cw, `{"commitSha":"abcdef0123456789abcdef0123456789abcdef01","branch":"main","files":[`)
		for i := 0; cw.n < limit/2; i++ {
			if i > 0 {
				fmt.Fprint(cw, ",")
			}
			fmt.Fprintf(cw, `{"path":"src/pkg%d/file%d.go","lines":%d,"loc":%d,"complexity":%d,"duplicatedLines":%d}`, i/50, i, 1000+i%900, 80+i%700, i%40, i%13)
		}
		fmt.Fprint(cw, `],"sarif":[`)
		sarifLog(cw, limit, cw.n)
		fmt.Fprint(cw, `]}`)
	case "gocover":
		fmt.Fprintln(cw, "mode: count")
		for i := 0; cw.n < limit; i++ {
			f := i / 400
			l := (i % 400) * 3
			fmt.Fprintf(cw, "example.com/m/pkg%d/file%d.go:%d.2,%d.16 %d %d\n", f/20, f, l+1, l+3, 1+i%4, i%3)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown format", *format)
		os.Exit(2)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// sarifLog writes one run whose results fill the writer up to limit.
func sarifLog(w *counter, limit, start int64) {
	fmt.Fprint(w, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"bench","rules":[{"id":"R1"},{"id":"R2"}]}},"results":[`)
	for i := 0; w.n < limit; i++ {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprintf(w, `{"ruleId":"R%d","level":"warning","message":{"text":"finding %d in a generated file"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/pkg%d/file%d.go"},"region":{"startLine":%d}}}]}`,
			1+i%2, i, i/2000, i/100, 1+i%500)
	}
	fmt.Fprint(w, `]}]}`)
}

type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
