package web

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb/metric"
)

// Charts are SVG written on the server: no script, no network, readable by
// screen readers through their title and a data table beside them.

// sparkline draws a series as a small line, 120×28, with no axes.
func sparkline(points []metric.Point, label string) template.HTML {
	const w, h, pad = 120.0, 28.0, 2.0
	if len(points) < 2 {
		return template.HTML(`<svg class="spark empty" viewBox="0 0 120 28" width="120" height="28" role="img" aria-label="` +
			template.HTMLEscapeString(label+": not enough measurements for a trend") + `"><line x1="2" y1="14" x2="118" y2="14"/></svg>`)
	}
	lo, hi := bounds(points)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="spark" viewBox="0 0 %g %g" width="%g" height="%g" role="img" aria-label="%s"><polyline points="`,
		w, h, w, h, template.HTMLEscapeString(label+": trend over the last six months"))
	for i, p := range points {
		x := pad + (w-2*pad)*float64(i)/float64(len(points)-1)
		y := h - pad - (h-2*pad)*scale(p.Value, lo, hi)
		fmt.Fprintf(&b, "%.1f,%.1f ", x, y)
	}
	b.WriteString(`"/></svg>`)
	return template.HTML(b.String())
}

func bounds(points []metric.Point) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range points {
		lo, hi = math.Min(lo, p.Value), math.Max(hi, p.Value)
	}
	return lo, hi
}

func scale(v, lo, hi float64) float64 {
	if hi == lo {
		return 0.5
	}
	return (v - lo) / (hi - lo)
}

// lineChart draws a series with a value axis (ticks at round numbers, or the
// grades A…F for ratings) and a time axis with the first, middle and last
// bucket dates.
func lineChart(d metric.Definition, points []metric.Point, interval metric.Interval) template.HTML {
	const w, h = 640.0, 220.0
	const left, right, top, bottom = 48.0, 12.0, 12.0, 28.0
	pw, ph := w-left-right, h-top-bottom
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s">`, w, h,
		template.HTMLEscapeString(fmt.Sprintf("%s per %s, %d points", d.Name, interval, len(points))))
	if len(points) == 0 {
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle" class="muted">No measurement in this window</text></svg>`, w/2, h/2)
		return template.HTML(b.String())
	}
	lo, hi := bounds(points)
	var ticks []float64
	var tickLabel func(float64) string
	if d.ValueType == metric.ValueGrade || d.ValueType == metric.ValueSize {
		lo, hi = 1, 5
		ticks = []float64{1, 2, 3, 4, 5}
		tickLabel = func(v float64) string { return seriesLabel(d, v) }
	} else {
		if lo > 0 {
			lo = 0
		}
		if d.ValueType == metric.ValuePercent && hi < 100 && hi > 50 {
			hi = 100
		}
		if hi == lo {
			hi = lo + 1
		}
		step := niceStep((hi - lo) / 4)
		hi = math.Ceil(hi/step) * step
		for v := lo; v <= hi+step/2; v += step {
			ticks = append(ticks, v)
		}
		tickLabel = func(v float64) string { return compact(v) }
	}
	y := func(v float64) float64 { return top + ph - ph*scale(v, lo, hi) }
	x := func(i int) float64 {
		if len(points) == 1 {
			return left + pw/2
		}
		return left + pw*float64(i)/float64(len(points)-1)
	}
	for _, t := range ticks {
		fmt.Fprintf(&b, `<line class="grid" x1="%g" x2="%g" y1="%.1f" y2="%.1f"/><text class="axis" x="%g" y="%.1f" text-anchor="end">%s</text>`,
			left, w-right, y(t), y(t), left-6, y(t)+4, template.HTMLEscapeString(tickLabel(t)))
	}
	for _, i := range []int{0, len(points) / 2, len(points) - 1} {
		anchor := "middle"
		if i == 0 {
			anchor = "start"
		} else if i == len(points)-1 {
			anchor = "end"
		}
		fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%g" text-anchor="%s">%s</text>`, x(i), h-8, anchor, points[i].Timestamp.Format("2006-01-02"))
	}
	b.WriteString(`<polyline class="line" points="`)
	for i, p := range points {
		fmt.Fprintf(&b, "%.1f,%.1f ", x(i), y(p.Value))
	}
	b.WriteString(`"/>`)
	for i, p := range points {
		fmt.Fprintf(&b, `<circle class="dot" cx="%.1f" cy="%.1f" r="2.5"><title>%s: %s</title></circle>`, x(i), y(p.Value),
			p.Timestamp.Format("2006-01-02"), template.HTMLEscapeString(seriesLabel(d, p.Value)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

func compact(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

func gradeLetter(v float64) string {
	letters := []string{"", "A", "B", "C", "D", "F"}
	if n := int(math.Round(v)); n >= 1 && n <= 5 {
		return letters[n]
	}
	return "–"
}

// seriesLabel writes a series value as people read it.
func seriesLabel(d metric.Definition, v float64) string {
	switch d.ValueType {
	case metric.ValueGrade:
		return gradeLetter(v)
	case metric.ValueSize:
		if n := int(math.Round(v)); n >= 1 && n <= 5 {
			return []string{"XS", "S", "M", "L", "XL"}[n-1]
		}
		return "–"
	case metric.ValuePercent:
		return strconv.FormatFloat(v, 'f', -1, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
