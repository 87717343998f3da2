package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/plumbhq/plumb/client"
)

// Files at least this large get a progress bar (on a terminal only).
const progressMinBytes = 1 << 20

// progressBars draws a progress bar on w for each upload attempt of at
// least progressMinBytes, fed by the client's progress reports.
func progressBars(w io.Writer) func(client.Progress) {
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
		case p.Sent == 0 && p.Total >= progressMinBytes:
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
