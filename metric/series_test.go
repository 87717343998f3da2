package metric_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/metric"
)

// ts parses an RFC 3339 time or fails the test.
func ts(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// m builds a measurement.
func m(tb testing.TB, at string, v float64) metric.Measurement {
	return metric.Measurement{At: ts(tb, at), Value: v}
}

// pt builds a point.
func pt(tb testing.TB, label string, v float64) metric.Point {
	return metric.Point{Timestamp: ts(tb, label), Value: v}
}

func window(tb testing.TB, from, to string, iv metric.Interval) metric.Window {
	return metric.Window{From: ts(tb, from), To: ts(tb, to), Interval: iv}
}

func TestBucket(t *testing.T) {
	tests := []struct {
		name string
		w    metric.Window
		ms   []metric.Measurement
		want []metric.Point
	}{
		{
			name: "day",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-05T12:00:00Z", metric.IntervalDay),
			ms: []metric.Measurement{
				m(t, "2026-02-27T10:00:00Z", 1), // before from: carried forward
				m(t, "2026-03-02T08:00:00Z", 2),
				m(t, "2026-03-02T20:00:00Z", 3), // latest of its day wins
				m(t, "2026-03-04T23:59:59Z", 4), // the day's last second belongs to the day
				m(t, "2026-03-05T12:00:00Z", 5), // at to: inside the window
				m(t, "2026-03-05T12:00:01Z", 6), // after to, inside the last bucket: ignored
			},
			want: []metric.Point{
				pt(t, "2026-03-01T23:59:59Z", 1),
				pt(t, "2026-03-02T23:59:59Z", 3),
				pt(t, "2026-03-03T23:59:59Z", 3),
				pt(t, "2026-03-04T23:59:59Z", 4),
				pt(t, "2026-03-05T23:59:59Z", 5), // labelled after to
			},
		},
		{
			name: "week with from in the middle of a week",
			// From is Wednesday 4 March; its week starts Monday 2 March.
			w: window(t, "2026-03-04T00:00:00Z", "2026-03-18T10:00:00Z", metric.IntervalWeek),
			ms: []metric.Measurement{
				m(t, "2026-03-03T09:00:00Z", 10), // in the first bucket, before from
				m(t, "2026-03-12T00:00:00Z", 20),
				m(t, "2026-03-18T10:00:00Z", 30), // at to
				m(t, "2026-03-19T00:00:00Z", 40), // after to, in the last bucket: ignored
			},
			want: []metric.Point{
				pt(t, "2026-03-08T23:59:59Z", 10), // Sunday
				pt(t, "2026-03-15T23:59:59Z", 20),
				pt(t, "2026-03-22T23:59:59Z", 30), // Sunday after to
			},
		},
		{
			name: "week boundaries: Sunday's last second and Monday's first",
			w:    window(t, "2026-03-02T00:00:00Z", "2026-03-15T23:59:59Z", metric.IntervalWeek),
			ms: []metric.Measurement{
				m(t, "2026-03-08T23:59:59Z", 1),
				m(t, "2026-03-09T00:00:00Z", 2),
			},
			want: []metric.Point{
				pt(t, "2026-03-08T23:59:59Z", 1),
				pt(t, "2026-03-15T23:59:59Z", 2),
			},
		},
		{
			name: "week crossing a year boundary",
			// Monday 29 December 2025 to Sunday 4 January 2026 is one week.
			w: window(t, "2025-12-24T00:00:00Z", "2026-01-07T00:00:00Z", metric.IntervalWeek),
			ms: []metric.Measurement{
				m(t, "2025-12-31T23:00:00Z", 7),
				m(t, "2026-01-01T01:00:00Z", 8),
			},
			want: []metric.Point{
				// the week ending 28 December has no measurement yet: omitted
				pt(t, "2026-01-04T23:59:59Z", 8),
				pt(t, "2026-01-11T23:59:59Z", 8),
			},
		},
		{
			name: "month across a leap February",
			w:    window(t, "2023-11-15T00:00:00Z", "2024-04-10T23:59:59Z", metric.IntervalMonth),
			ms: []metric.Measurement{
				m(t, "2023-10-01T00:00:00Z", 1),
				m(t, "2024-01-31T23:59:59Z", 2),
				m(t, "2024-02-01T00:00:00Z", 3),
				m(t, "2024-04-10T23:59:59Z", 4),
				m(t, "2024-04-11T00:00:00Z", 5), // after to
			},
			want: []metric.Point{
				pt(t, "2023-11-30T23:59:59Z", 1),
				pt(t, "2023-12-31T23:59:59Z", 1),
				pt(t, "2024-01-31T23:59:59Z", 2),
				pt(t, "2024-02-29T23:59:59Z", 3),
				pt(t, "2024-03-31T23:59:59Z", 3),
				pt(t, "2024-04-30T23:59:59Z", 4),
			},
		},
		{
			name: "month across a year change and a common February",
			w:    window(t, "2025-11-20T00:00:00Z", "2026-02-03T00:00:00Z", metric.IntervalMonth),
			ms:   []metric.Measurement{m(t, "2025-11-01T00:00:00Z", 9), m(t, "2026-01-01T00:00:00Z", 8)},
			want: []metric.Point{
				pt(t, "2025-11-30T23:59:59Z", 9),
				pt(t, "2025-12-31T23:59:59Z", 9),
				pt(t, "2026-01-31T23:59:59Z", 8),
				pt(t, "2026-02-28T23:59:59Z", 8),
			},
		},
		{
			name: "day across leap days of 2024 and a year change",
			w:    window(t, "2024-02-27T00:00:00Z", "2024-03-01T05:00:00Z", metric.IntervalDay),
			ms:   []metric.Measurement{m(t, "2024-02-29T12:00:00Z", 29)},
			want: []metric.Point{
				pt(t, "2024-02-29T23:59:59Z", 29),
				pt(t, "2024-03-01T23:59:59Z", 29),
			},
		},
		{
			name: "day on 29 February 2028",
			w:    window(t, "2028-02-28T00:00:00Z", "2028-03-01T00:00:00Z", metric.IntervalDay),
			ms:   []metric.Measurement{m(t, "2028-01-01T00:00:00Z", 1)},
			want: []metric.Point{
				pt(t, "2028-02-28T23:59:59Z", 1),
				pt(t, "2028-02-29T23:59:59Z", 1),
				pt(t, "2028-03-01T23:59:59Z", 1),
			},
		},
		{
			name: "day across New Year",
			w:    window(t, "2025-12-31T00:00:00Z", "2026-01-01T00:00:00Z", metric.IntervalDay),
			ms:   []metric.Measurement{m(t, "2025-12-31T23:59:59Z", 1), m(t, "2026-01-01T00:00:00Z", 2)},
			want: []metric.Point{
				pt(t, "2025-12-31T23:59:59Z", 1),
				pt(t, "2026-01-01T23:59:59Z", 2),
			},
		},
		{
			name: "no measurement at all",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-31T00:00:00Z", metric.IntervalDay),
			want: []metric.Point{},
		},
		{
			name: "only measurements after to",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-03T12:00:00Z", metric.IntervalDay),
			ms:   []metric.Measurement{m(t, "2026-03-03T12:00:01Z", 1), m(t, "2026-03-10T00:00:00Z", 2)},
			want: []metric.Point{},
		},
		{
			name: "only a measurement before from: every bucket carries it",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-20T00:00:00Z", metric.IntervalWeek),
			ms:   []metric.Measurement{m(t, "2025-06-01T00:00:00Z", 42)},
			want: []metric.Point{
				pt(t, "2026-03-01T23:59:59Z", 42), // the week of Sunday 1 March
				pt(t, "2026-03-08T23:59:59Z", 42),
				pt(t, "2026-03-15T23:59:59Z", 42),
				pt(t, "2026-03-22T23:59:59Z", 42),
			},
		},
		{
			name: "buckets before the first measurement are omitted",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-05T00:00:00Z", metric.IntervalDay),
			ms:   []metric.Measurement{m(t, "2026-03-03T15:00:00Z", 5)},
			want: []metric.Point{
				pt(t, "2026-03-03T23:59:59Z", 5),
				pt(t, "2026-03-04T23:59:59Z", 5),
				pt(t, "2026-03-05T23:59:59Z", 5),
			},
		},
		{
			name: "from equal to to",
			w:    window(t, "2026-03-04T12:00:00Z", "2026-03-04T12:00:00Z", metric.IntervalWeek),
			ms: []metric.Measurement{
				m(t, "2026-03-02T00:00:00Z", 1),
				m(t, "2026-03-04T12:00:00Z", 2),
				m(t, "2026-03-04T12:00:01Z", 3),
			},
			want: []metric.Point{pt(t, "2026-03-08T23:59:59Z", 2)},
		},
		{
			name: "equal times: the later element wins",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-01T23:59:59Z", metric.IntervalDay),
			ms:   []metric.Measurement{m(t, "2026-03-01T10:00:00Z", 1), m(t, "2026-03-01T10:00:00Z", 2)},
			want: []metric.Point{pt(t, "2026-03-01T23:59:59Z", 2)},
		},
		{
			name: "times are compared to the second",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-02T10:00:00Z", metric.IntervalDay),
			ms: []metric.Measurement{
				m(t, "2026-03-01T23:59:59.999Z", 1), // still 1 March
				m(t, "2026-03-02T10:00:00.5Z", 2),   // within to's second
				m(t, "2026-03-02T10:00:01Z", 3),
			},
			want: []metric.Point{
				pt(t, "2026-03-01T23:59:59Z", 1),
				pt(t, "2026-03-02T23:59:59Z", 2),
			},
		},
		{
			name: "measurement times in other zones",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-02T23:59:59Z", metric.IntervalDay),
			ms: []metric.Measurement{
				m(t, "2026-03-02T01:00:00+02:00", 1), // 1 March 23:00Z
				m(t, "2026-03-01T20:00:00-05:00", 2), // 2 March 01:00Z
			},
			want: []metric.Point{
				pt(t, "2026-03-01T23:59:59Z", 1),
				pt(t, "2026-03-02T23:59:59Z", 2),
			},
		},
		{
			name: "unknown interval",
			w:    window(t, "2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z", "hour"),
			ms:   []metric.Measurement{m(t, "2026-03-01T00:00:00Z", 1)},
			want: []metric.Point{},
		},
		{
			name: "from after to",
			w:    window(t, "2026-03-02T00:00:00Z", "2026-03-01T00:00:00Z", metric.IntervalDay),
			ms:   []metric.Measurement{m(t, "2026-03-01T00:00:00Z", 1)},
			want: []metric.Point{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := metric.Bucket(tt.w, tt.ms)
			if got == nil {
				t.Fatal("Bucket returned nil")
			}
			if !equalPoints(got, tt.want) {
				t.Errorf("got  %s\nwant %s", fmtPoints(got), fmtPoints(tt.want))
			}
			if ref := referenceBucket(tt.w, tt.ms); !equalPoints(got, ref) {
				t.Errorf("reference %s", fmtPoints(ref))
			}
		})
	}
}

func TestBucketMonthLabels(t *testing.T) {
	tests := []struct{ at, label string }{
		{"2026-01-10T00:00:00Z", "2026-01-31T23:59:59Z"},
		{"2026-02-10T00:00:00Z", "2026-02-28T23:59:59Z"},
		{"2024-02-10T00:00:00Z", "2024-02-29T23:59:59Z"},
		{"2028-02-01T00:00:00Z", "2028-02-29T23:59:59Z"},
		{"2100-02-10T00:00:00Z", "2100-02-28T23:59:59Z"}, // not a leap year
		{"2000-02-10T00:00:00Z", "2000-02-29T23:59:59Z"}, // a leap year
		{"2026-04-30T23:59:59Z", "2026-04-30T23:59:59Z"},
		{"2026-06-01T00:00:00Z", "2026-06-30T23:59:59Z"},
		{"2026-12-31T12:00:00Z", "2026-12-31T23:59:59Z"},
	}
	for _, tt := range tests {
		at := ts(t, tt.at)
		got := metric.Bucket(metric.Window{From: at, To: at, Interval: metric.IntervalMonth},
			[]metric.Measurement{{At: at, Value: 1}})
		if want := []metric.Point{pt(t, tt.label, 1)}; !equalPoints(got, want) {
			t.Errorf("month of %s: got %s, want %s", tt.at, fmtPoints(got), fmtPoints(want))
		}
	}
}

func TestBucketDoesNotModifyInput(t *testing.T) {
	ms := []metric.Measurement{
		m(t, "2026-03-03T00:00:00Z", 3),
		m(t, "2026-03-01T00:00:00Z", 1),
		m(t, "2026-03-02T00:00:00Z", 2),
	}
	orig := slices.Clone(ms)
	got := metric.Bucket(window(t, "2026-03-01T00:00:00Z", "2026-03-03T00:00:00Z", metric.IntervalDay), ms)
	want := []metric.Point{
		pt(t, "2026-03-01T23:59:59Z", 1),
		pt(t, "2026-03-02T23:59:59Z", 2),
		pt(t, "2026-03-03T23:59:59Z", 3),
	}
	if !equalPoints(got, want) {
		t.Errorf("unsorted input: got %s, want %s", fmtPoints(got), fmtPoints(want))
	}
	if !slices.Equal(ms, orig) {
		t.Error("Bucket reordered its input")
	}
}

// Random windows and measurements against a straightforward implementation.
func TestBucketAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := ts(t, "2023-12-20T00:00:00Z")
	span := int64(500 * 24 * 3600)
	for i := range 2000 {
		a := base.Add(time.Duration(rng.Int64N(span)) * time.Second)
		b := base.Add(time.Duration(rng.Int64N(span)) * time.Second)
		if a.After(b) {
			a, b = b, a
		}
		iv := []metric.Interval{metric.IntervalDay, metric.IntervalWeek, metric.IntervalMonth}[i%3]
		w := metric.Window{From: a, To: b, Interval: iv}
		ms := make([]metric.Measurement, rng.IntN(40))
		for j := range ms {
			ms[j] = metric.Measurement{At: base.Add(time.Duration(rng.Int64N(span)) * time.Second), Value: float64(j)}
		}
		slices.SortStableFunc(ms, func(x, y metric.Measurement) int { return x.At.Compare(y.At) })
		got, want := metric.Bucket(w, ms), referenceBucket(w, ms)
		if !equalPoints(got, want) {
			t.Fatalf("window %v %v %s, measurements %v:\n got %s\nwant %s", a, b, iv, ms, fmtPoints(got), fmtPoints(want))
		}
	}
}

// referenceBucket is the rule written the slow, obvious way: walk the days
// one by one, find each bucket's start and end, and scan every measurement.
func referenceBucket(w metric.Window, ms []metric.Measurement) []metric.Point {
	out := []metric.Point{}
	if w.From.After(w.To) {
		return out
	}
	startOf := func(t time.Time) time.Time {
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		switch w.Interval {
		case metric.IntervalWeek:
			for d.Weekday() != time.Monday {
				d = d.AddDate(0, 0, -1)
			}
		case metric.IntervalMonth:
			d = d.AddDate(0, 0, 1-d.Day())
		case metric.IntervalDay:
		default:
			return time.Time{}
		}
		return d
	}
	if startOf(w.From).IsZero() {
		return out
	}
	for s := startOf(w.From.UTC()); !s.After(w.To); {
		e := s
		for startOf(e) == s {
			e = e.AddDate(0, 0, 1)
		}
		last := e.Add(-time.Second) // the bucket's last second
		lim := last
		if w.To.Before(lim) {
			lim = w.To
		}
		found, v := false, 0.0
		for _, x := range ms {
			if !x.At.Truncate(time.Second).After(lim) {
				found, v = true, x.Value
			}
		}
		if found {
			out = append(out, metric.Point{Timestamp: last, Value: v})
		}
		s = e
	}
	return out
}

func equalPoints(a, b []metric.Point) bool {
	return slices.EqualFunc(a, b, func(x, y metric.Point) bool {
		return x.Timestamp.Equal(y.Timestamp) && x.Value == y.Value
	})
}

func fmtPoints(ps []metric.Point) string {
	var sb strings.Builder
	sb.WriteString("[")
	for i, p := range ps {
		if i > 0 {
			sb.WriteString(" ")
		}
		fmt.Fprintf(&sb, "%s=%v", p.Timestamp.UTC().Format(time.RFC3339), p.Value)
	}
	sb.WriteString("]")
	return sb.String()
}

func TestPointJSON(t *testing.T) {
	p := metric.Point{Timestamp: ts(t, "2026-03-02T01:59:59.75+02:00"), Value: 12.5}
	b, err := json.Marshal([]metric.Point{p, {Timestamp: ts(t, "2026-03-31T23:59:59Z"), Value: 40}})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"timestamp":"2026-03-01T23:59:59Z","value":12.5},{"timestamp":"2026-03-31T23:59:59Z","value":40}]`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	var back []metric.Point
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || !back[0].Timestamp.Equal(ts(t, "2026-03-01T23:59:59Z")) || back[0].Value != 12.5 || back[1].Value != 40 {
		t.Errorf("round trip: %v", back)
	}
	var bad metric.Point
	if err := json.Unmarshal([]byte(`{"timestamp":"yesterday","value":1}`), &bad); err == nil {
		t.Error("a bad timestamp was accepted")
	}
	empty, _ := json.Marshal(metric.Bucket(metric.Window{}, nil))
	if string(empty) != "[]" {
		t.Errorf("a series without points marshals as %s, want []", empty)
	}
}

func TestParseWindow(t *testing.T) {
	now := ts(t, "2026-05-20T10:30:45.9Z") // a Wednesday
	tests := []struct {
		name             string
		from, to, iv     string
		wantFrom, wantTo string
		wantIv           metric.Interval
	}{
		{"defaults", "", "", "", "2025-11-20T10:30:45Z", "2026-05-20T10:30:45Z", metric.IntervalWeek},
		{"day", "", "", "day", "2025-11-20T10:30:45Z", "2026-05-20T10:30:45Z", metric.IntervalDay},
		{"month", "", "", "month", "2025-11-20T10:30:45Z", "2026-05-20T10:30:45Z", metric.IntervalMonth},
		{"date-only from is the day's start", "2026-01-15", "", "", "2026-01-15T00:00:00Z", "2026-05-20T10:30:45Z", metric.IntervalWeek},
		{"date-only to is the day's last second", "2026-01-15", "2026-02-01", "", "2026-01-15T00:00:00Z", "2026-02-01T23:59:59Z", metric.IntervalWeek},
		{"from defaults to six months before to", "", "2026-03-15T08:00:00Z", "", "2025-09-15T08:00:00Z", "2026-03-15T08:00:00Z", metric.IntervalWeek},
		{"six months before 31 March is 30 September", "", "2026-03-31", "", "2025-09-30T23:59:59Z", "2026-03-31T23:59:59Z", metric.IntervalWeek},
		{"six months before 31 August is 28 February", "", "2025-08-31", "", "2025-02-28T23:59:59Z", "2025-08-31T23:59:59Z", metric.IntervalWeek},
		{"six months before 31 August 2024 is 29 February", "", "2024-08-31T06:00:00Z", "", "2024-02-29T06:00:00Z", "2024-08-31T06:00:00Z", metric.IntervalWeek},
		{"a to clamped to now: from is six months before now", "", "2026-06-30", "", "2025-11-20T10:30:45Z", "2026-05-20T10:30:45Z", metric.IntervalWeek},
		{"six months before 28 February", "", "2026-02-28", "", "2025-08-28T23:59:59Z", "2026-02-28T23:59:59Z", metric.IntervalWeek},
		{"to in the future is clamped to now", "2026-05-01", "2030-01-01T00:00:00Z", "", "2026-05-01T00:00:00Z", "2026-05-20T10:30:45Z", metric.IntervalWeek},
		{"today's date as to is clamped to now", "", "2026-05-20", "day", "2025-11-20T10:30:45Z", "2026-05-20T10:30:45Z", metric.IntervalDay},
		{"to exactly now", "", "2026-05-20T10:30:45Z", "", "2025-11-20T10:30:45Z", "2026-05-20T10:30:45Z", metric.IntervalWeek},
		{"offsets are converted to UTC", "2026-03-01T01:30:00+02:00", "2026-03-10T20:00:00-05:00", "", "2026-02-28T23:30:00Z", "2026-03-11T01:00:00Z", metric.IntervalWeek},
		{"fractions of a second are dropped", "2026-03-01T12:00:00.999Z", "2026-03-02T12:00:00.5Z", "", "2026-03-01T12:00:00Z", "2026-03-02T12:00:00Z", metric.IntervalWeek},
		{"lower-case t and z", "2026-03-01t12:00:00z", "", "", "2026-03-01T12:00:00Z", "2026-05-20T10:30:45Z", metric.IntervalWeek},
		{"from equal to to", "2026-03-01T12:00:00Z", "2026-03-01T12:00:00Z", "day", "2026-03-01T12:00:00Z", "2026-03-01T12:00:00Z", metric.IntervalDay},
		{"same date for from and to", "2026-03-01", "2026-03-01", "", "2026-03-01T00:00:00Z", "2026-03-01T23:59:59Z", metric.IntervalWeek},
		{"from equal to now", "2026-05-20T10:30:45Z", "", "", "2026-05-20T10:30:45Z", "2026-05-20T10:30:45Z", metric.IntervalWeek},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, errs := metric.ParseWindow(tt.from, tt.to, tt.iv, now)
			if errs != nil {
				t.Fatalf("errors: %v", errs)
			}
			want := metric.Window{From: ts(t, tt.wantFrom), To: ts(t, tt.wantTo), Interval: tt.wantIv}
			if w != want {
				t.Errorf("got  %v %v %s\nwant %v %v %s", w.From, w.To, w.Interval, want.From, want.To, want.Interval)
			}
			if w.From.Location() != time.UTC || w.To.Location() != time.UTC {
				t.Errorf("window not in UTC: %v %v", w.From, w.To)
			}
		})
	}
}

func TestParseWindowErrors(t *testing.T) {
	now := ts(t, "2026-05-20T10:30:45Z")
	type wantErr struct {
		param, value string
		contains     []string
	}
	accepted := []string{"RFC 3339 date such as 2026-03-01", "date-time such as 2026-03-01T12:00:00Z"}
	tests := []struct {
		name         string
		from, to, iv string
		want         []wantErr
	}{
		{"bad interval", "", "", "hour", []wantErr{{"interval", "hour", []string{`interval "hour" is not valid`, "use day, week or month"}}}},
		{"interval is case-sensitive", "", "", "Week", []wantErr{{"interval", "Week", []string{`"Week"`}}}},
		{"from after to", "2026-03-02", "2026-03-01", "", []wantErr{{"from", "2026-03-02", []string{
			"from 2026-03-02T00:00:00Z is after to 2026-03-01T23:59:59Z", "on or before to"}}}},
		{"from after to by one second", "2026-03-01T12:00:01Z", "2026-03-01T12:00:00Z", "", []wantErr{{"from", "2026-03-01T12:00:01Z", []string{"is after to"}}}},
		{"from in the future", "2026-06-01", "", "", []wantErr{{"from", "2026-06-01", []string{
			"from 2026-06-01T00:00:00Z is after to 2026-05-20T10:30:45Z (the current time"}}}},
		{"from after a to clamped to now", "2026-05-21", "2026-06-30", "", []wantErr{{"from", "2026-05-21", []string{"the current time"}}}},
		{"day out of range", "2026-02-30", "", "", []wantErr{{"from", "2026-02-30", append([]string{`from "2026-02-30" is not a valid date or date-time`}, accepted...)}}},
		{"hour out of range", "", "2026-03-01T25:00:00Z", "", []wantErr{{"to", "2026-03-01T25:00:00Z", append([]string{`to "2026-03-01T25:00:00Z"`}, accepted...)}}},
		{"no seconds", "2026-03-01T12:00Z", "", "", []wantErr{{"from", "2026-03-01T12:00Z", accepted}}},
		{"no offset", "2026-03-01T12:00:00", "", "", []wantErr{{"from", "2026-03-01T12:00:00", accepted}}},
		{"offset without colon", "2026-03-01T12:00:00+0200", "", "", []wantErr{{"from", "2026-03-01T12:00:00+0200", accepted}}},
		{"compact date", "20260301", "", "", []wantErr{{"from", "20260301", accepted}}},
		{"Unix time", "1772323200", "", "", []wantErr{{"from", "1772323200", accepted}}},
		{"a + decoded as a space", "2026-03-01T12:00:00 02:00", "", "", []wantErr{{"from", "2026-03-01T12:00:00 02:00", []string{"%2B"}}}},
		{"several errors at once", "yesterday", "2026-13-01", "year", []wantErr{
			{"from", "yesterday", []string{`from "yesterday"`}},
			{"to", "2026-13-01", []string{`to "2026-13-01"`}},
			{"interval", "year", []string{`interval "year"`}},
		}},
		{"a bad to and a bad interval", "2026-01-01", "soon", "weekly", []wantErr{
			{"to", "soon", []string{`to "soon"`}},
			{"interval", "weekly", []string{`interval "weekly"`}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, errs := metric.ParseWindow(tt.from, tt.to, tt.iv, now)
			if w != (metric.Window{}) {
				t.Errorf("window %v returned with errors", w)
			}
			if len(errs) != len(tt.want) {
				t.Fatalf("errors %q, want %d", errs, len(tt.want))
			}
			for i, want := range tt.want {
				var pe *metric.ParamError
				if !errors.As(errs[i], &pe) || pe.Param != want.param || pe.Value != want.value {
					t.Errorf("error %d = %#v, want parameter %s value %q", i, errs[i], want.param, want.value)
				}
				for _, s := range want.contains {
					if !strings.Contains(errs[i].Error(), s) {
						t.Errorf("error %q does not contain %q", errs[i], s)
					}
				}
			}
		})
	}
}

func TestParseInterval(t *testing.T) {
	for in, want := range map[string]metric.Interval{"": "week", "day": "day", "week": "week", "month": "month"} {
		if got, err := metric.ParseInterval(in); err != nil || got != want {
			t.Errorf("ParseInterval(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"DAY", "days", " week", "quarter"} {
		if _, err := metric.ParseInterval(in); err == nil {
			t.Errorf("ParseInterval(%q) accepted", in)
		}
	}
}

// A three-year daily window with 1,100 measurements: the budget is well under
// a millisecond.
func BenchmarkBucketThreeYearsDaily(b *testing.B) {
	w := metric.Window{From: ts(b, "2023-05-21T00:00:00Z"), To: ts(b, "2026-05-20T10:00:00Z"), Interval: metric.IntervalDay}
	ms := make([]metric.Measurement, 1100)
	for i := range ms {
		ms[i] = metric.Measurement{At: w.From.Add(time.Duration(i) * 23 * time.Hour), Value: float64(i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		metric.Bucket(w, ms)
	}
}

func BenchmarkBucketThreeYearsMonthly(b *testing.B) {
	w := metric.Window{From: ts(b, "2023-05-21T00:00:00Z"), To: ts(b, "2026-05-20T10:00:00Z"), Interval: metric.IntervalMonth}
	ms := make([]metric.Measurement, 1100)
	for i := range ms {
		ms[i] = metric.Measurement{At: w.From.Add(time.Duration(i) * 23 * time.Hour), Value: float64(i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		metric.Bucket(w, ms)
	}
}

// A window reaching back to year 0 costs nothing before the first measurement.
func BenchmarkBucketAncientFrom(b *testing.B) {
	w := metric.Window{From: ts(b, "0000-01-01T00:00:00Z"), To: ts(b, "2026-05-20T10:00:00Z"), Interval: metric.IntervalDay}
	ms := []metric.Measurement{{At: ts(b, "2026-01-01T00:00:00Z"), Value: 1}}
	for b.Loop() {
		metric.Bucket(w, ms)
	}
}

// Point values are written exactly as encoding/json writes a float64.
func TestPointJSONValueFormat(t *testing.T) {
	values := []float64{0, math.Copysign(0, -1), 1, -1, 12.5, 40, 33.33, 0.1, 1e-6, 9.99e-7, 1e-7, 1.5e-10,
		123456789, 1e20, 1e21, 1.7976931348623157e308, 5e-324, -2.5e-8, 2, 3, 4, 5, 99.99, 100}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		values = append(values, math.Float64frombits(rng.Uint64()), float64(rng.IntN(10001))/100, rng.NormFloat64()*1e5)
	}
	at := ts(t, "2026-03-01T23:59:59Z")
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		got, err := json.Marshal(metric.Point{Timestamp: at, Value: v})
		if err != nil {
			t.Fatal(err)
		}
		num, _ := json.Marshal(v)
		if want := `{"timestamp":"2026-03-01T23:59:59Z","value":` + string(num) + `}`; string(got) != want {
			t.Fatalf("value %v: got %s, want %s", v, got, want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := json.Marshal(metric.Point{Timestamp: at, Value: v}); err == nil {
			t.Errorf("value %v marshalled without error", v)
		}
	}
}

func BenchmarkPointsJSON(b *testing.B) {
	ps := make([]metric.Point, 1000)
	for i := range ps {
		ps[i] = metric.Point{Timestamp: ts(b, "2026-01-01T23:59:59Z").AddDate(0, 0, i), Value: float64(i) / 7}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(ps); err != nil {
			b.Fatal(err)
		}
	}
}
