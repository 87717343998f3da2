// Package progress draws the CLI's progress bars on a terminal: one per
// upload attempt of a large file (fed by the client's progress reports) and
// one for the analysis of a large tree. The caller decides whether stderr
// is a terminal.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/plumbhq/plumb/client"
)

// Files at least this large get a progress bar (on a terminal only).
const MinBytes = 1 << 20

// Uploads draws a progress bar on w for each upload attempt of at least
// MinBytes, fed by the client's progress reports (client.WithProgress).
func Uploads(w io.Writer) func(client.Progress) {
	var bar *progressBar
	return func(p client.Progress) {
		switch {
		case p.Done:
			if bar != nil {
				bar.finish()
				bar = nil
			}
		case bar != nil:
			bar.set(p.Sent)
		case p.Sent == 0 && p.Total >= MinBytes:
			bar = newProgressBar(w, p.Name, p.Total)
		}
	}
}

// progressBar draws "label [=====     ] 42%  4.2 MiB / 10.0 MiB  1.3 MiB/s"
// on one terminal line.
type progressBar struct {
	w            io.Writer
	label        string
	total, sent  int64
	start, drawn time.Time
	width        int
}

func newProgressBar(w io.Writer, label string, total int64) *progressBar {
	now := time.Now()
	p := &progressBar{w: w, label: label, total: total, start: now}
	p.draw(now)
	return p
}

func (p *progressBar) set(sent int64) {
	p.sent = sent
	if now := time.Now(); now.Sub(p.drawn) >= 150*time.Millisecond || p.sent >= p.total {
		p.draw(now)
	}
}

func (p *progressBar) finish() {
	p.draw(time.Now())
	fmt.Fprintln(p.w)
}

func (p *progressBar) draw(now time.Time) {
	p.drawn = now
	frac := 1.0
	if p.total > 0 {
		frac = min(1, float64(p.sent)/float64(p.total))
	}
	const width = 30
	fill := int(frac * width)
	rate := float64(p.sent) / max(now.Sub(p.start).Seconds(), 1e-3)
	line := fmt.Sprintf("%s [%s%s] %3.0f%%  %s / %s  %s/s", p.label, strings.Repeat("=", fill), strings.Repeat(" ", width-fill),
		frac*100, humanBytes(float64(p.sent)), humanBytes(float64(p.total)), humanBytes(rate))
	pad := ""
	if len(line) < p.width {
		pad = strings.Repeat(" ", p.width-len(line))
	}
	p.width = len(line)
	fmt.Fprint(p.w, "\r"+line+pad)
}

func humanBytes(n float64) string {
	if n < 1024 {
		return fmt.Sprintf("%.0f B", n)
	}
	const units = "KMGTP"
	i := -1
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", n, units[i])
}

// MinFiles is the size of a tree that gets a progress bar:
// smaller ones are done before a bar would say anything.
var MinFiles = 500

// Files draws "analysing [=====     ]  42%  1200/2857 files" on
// a terminal, at most ten times a second, for trees of at least
// MinFiles files, and clears it when done.
type Files struct {
	W     io.Writer // the terminal
	mu    sync.Mutex
	last  time.Time
	drawn bool
}

// Update reports n of m files analysed.
func (p *Files) Update(n, m int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m < MinFiles {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || n == m {
		p.last = now
		const width = 30
		fill := width * n / m
		fmt.Fprintf(p.W, "\ranalysing [%s%s] %3d%%  %d/%d files", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), 100*n/m, n, m)
		p.drawn = true
	}
}

// Done clears the bar, if one was drawn.
func (p *Files) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.W, "\r\033[K")
	}
}
