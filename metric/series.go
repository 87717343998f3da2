package metric

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Interval is the bucket size of a metric series.
type Interval string

// The intervals of a metric series. Buckets are aligned on UTC: days, weeks
// starting on Monday, calendar months.
const (
	IntervalDay   Interval = "day"
	IntervalWeek  Interval = "week"
	IntervalMonth Interval = "month"
)

// DefaultInterval is the interval of a series request that names none.
const DefaultInterval = IntervalWeek

// Valid reports whether iv is day, week or month.
func (iv Interval) Valid() bool {
	return iv == IntervalDay || iv == IntervalWeek || iv == IntervalMonth
}

// DefaultWindowMonths is how far before `to` the window starts when the
// request gives no `from`.
const DefaultWindowMonths = 6

// ParamError is an invalid series query parameter. Its message names the
// parameter and the rejected value and says what is accepted.
type ParamError struct {
	Param  string // from, to or interval
	Value  string // the value as received
	Detail string // the whole message
}

func (e *ParamError) Error() string { return e.Detail }

// Window is the effective time window and interval of a series request. From
// and To are inclusive, in UTC, whole seconds.
type Window struct {
	From, To time.Time
	Interval Interval
}

// ParseWindow turns the series query parameters into a Window. An empty
// string means the parameter was not given.
//
//   - from and to take an RFC 3339 date-time with any offset (converted to
//     UTC and truncated to whole seconds; `t` and `z` may be lower case) or a
//     date YYYY-MM-DD, which means 00:00:00Z of that day for from and
//     23:59:59Z for to.
//   - to defaults to now and is clamped to now (truncated to the second).
//   - from defaults to six months before the effective to, on the same day
//     of the month, or the month's last day when it is shorter (six months
//     before 31 August is 28 or 29 February).
//   - from after to is an error; from equal to to is a window of one second.
//   - interval is day, week or month, case-sensitive; the default is week.
//
// It returns every error found (as *ParamError, in the order from, to,
// interval), and a zero Window when there is any.
func ParseWindow(from, to, interval string, now time.Time) (Window, []error) {
	var errs []error
	now = now.UTC().Truncate(time.Second)

	var start time.Time
	if from != "" {
		t, err := parseBound("from", from, false)
		if err != nil {
			errs = append(errs, err)
		}
		start = t
	}

	end, clamped := now, true
	if to != "" {
		t, err := parseBound("to", to, true)
		switch {
		case err != nil:
			errs = append(errs, err)
		case t.After(now):
			// clamped to now
		default:
			end, clamped = t, false
		}
	}
	if from == "" {
		start = monthsBefore(end, DefaultWindowMonths)
	}

	iv, err := ParseInterval(interval)
	if err != nil {
		errs = append(errs, err)
	}

	if len(errs) > 0 {
		return Window{}, errs
	}
	if start.After(end) {
		toWhat := "to " + end.Format(time.RFC3339)
		if clamped {
			toWhat += " (the current time: to defaults to now and is never later)"
		}
		return Window{}, []error{&ParamError{
			Param: "from",
			Value: from,
			Detail: fmt.Sprintf("from %s is after %s; give a from on or before to",
				start.Format(time.RFC3339), toWhat),
		}}
	}
	return Window{From: start, To: end, Interval: iv}, nil
}

// ParseInterval parses the interval parameter: day, week or month
// (case-sensitive); the empty string gives DefaultInterval.
func ParseInterval(s string) (Interval, error) {
	if s == "" {
		return DefaultInterval, nil
	}
	if iv := Interval(s); iv.Valid() {
		return iv, nil
	}
	return "", &ParamError{
		Param:  "interval",
		Value:  s,
		Detail: fmt.Sprintf("interval %q is not valid; use day, week or month (the default is week)", s),
	}
}

// parseBound parses a from or to value. A date-only value is the start of its
// day, or its last second when endOfDay is set.
func parseBound(param, s string, endOfDay bool) (time.Time, error) {
	if len(s) == len(time.DateOnly) {
		if t, err := time.Parse(time.DateOnly, s); err == nil {
			if endOfDay {
				t = t.Add(24*time.Hour - time.Second)
			}
			return t, nil
		}
	} else if len(s) > len(time.DateOnly) {
		// RFC 3339 allows a lower-case T and Z.
		v := s
		if v[10] == 't' {
			v = v[:10] + "T" + v[11:]
		}
		if strings.HasSuffix(v, "z") {
			v = v[:len(v)-1] + "Z"
		}
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return t.UTC().Truncate(time.Second), nil
		}
	}
	detail := fmt.Sprintf("%s %q is not a valid date or date-time; use an RFC 3339 date such as 2026-03-01 or a date-time such as 2026-03-01T12:00:00Z or 2026-03-01T14:00:00+02:00", param, s)
	if strings.Contains(s, " ") {
		detail += " (a + in a query string must be sent as %2B)"
	}
	return time.Time{}, &ParamError{Param: param, Value: s, Detail: detail}
}

// monthsBefore returns t moved n calendar months back, keeping the time of
// day and the day of the month, or the target month's last day when it is
// shorter.
func monthsBefore(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m-time.Month(n), 1, 0, 0, 0, 0, time.UTC)
	if last := daysIn(first.Year(), first.Month()); d > last {
		d = last
	}
	return time.Date(first.Year(), first.Month(), d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// Measurement is one value of one metric at one time: a default-branch
// snapshot or coverage upload.
type Measurement struct {
	At    time.Time
	Value float64
}

// Point is one point of a series: the value of a bucket, labelled with the
// bucket's last second. In JSON: {"timestamp":"2026-03-01T23:59:59Z","value":12.5}.
type Point struct {
	Timestamp time.Time
	Value     float64
}

type pointJSON struct {
	Timestamp string  `json:"timestamp"`
	Value     float64 `json:"value"`
}

// MarshalJSON writes the timestamp as RFC 3339 in UTC with Z, whole seconds,
// and the value as encoding/json writes a float64. It appends to one buffer
// rather than going through reflection: a long series has many points.
func (p Point) MarshalJSON() ([]byte, error) {
	if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
		return nil, fmt.Errorf("point value %v is not a JSON number", p.Value)
	}
	b := make([]byte, 0, 64)
	b = append(b, `{"timestamp":"`...)
	b = p.Timestamp.UTC().Truncate(time.Second).AppendFormat(b, time.RFC3339)
	b = append(b, `","value":`...)
	b = appendJSONFloat(b, p.Value)
	return append(b, '}'), nil
}

// appendJSONFloat formats a finite f exactly as encoding/json does: the
// shortest decimal that reads back as f, in exponent form only for very small
// or very large magnitudes (with a one-digit negative exponent, e-7 not e-07).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (p *Point) UnmarshalJSON(b []byte) error {
	var v pointJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339, v.Timestamp)
	if err != nil {
		return fmt.Errorf("point timestamp: %w", err)
	}
	p.Timestamp, p.Value = t.UTC(), v.Value
	return nil
}

// Bucket builds the points of one metric's series over the window w from its
// measurements ms, which should be sorted by At ascending (an unsorted slice
// is sorted on a copy; among equal times the later element wins).
//
// There is one bucket per interval from the one containing w.From to the one
// containing w.To. A bucket's point is labelled with the bucket's last second,
// which may be after w.To (even in the future), and its value is that of the
// latest measurement at or before the bucket's end and at or before w.To,
// times compared to the second; a measurement from before w.From is carried
// forward. Buckets before the first measurement are omitted. The result is
// never nil: a series without points is an empty slice.
//
// It runs in O(buckets + measurements) time, and buckets before the first
// measurement cost nothing, however early w.From is. It returns an empty
// slice for an invalid window (unknown interval, From after To).
func Bucket(w Window, ms []Measurement) []Point {
	from, to := w.From.UTC(), w.To.UTC().Truncate(time.Second)
	if !w.Interval.Valid() || from.After(to) || len(ms) == 0 {
		return []Point{}
	}
	cmp := func(a, b Measurement) int { return a.At.Compare(b.At) }
	if !slices.IsSortedFunc(ms, cmp) {
		ms = slices.Clone(ms)
		slices.SortStableFunc(ms, cmp)
	}
	limit := to.Add(time.Second) // exclusive upper bound of the window
	first := ms[0].At.UTC().Truncate(time.Second)
	if !first.Before(limit) {
		return []Point{}
	}

	start := bucketStart(from, w.Interval)
	if s := bucketStart(first, w.Interval); s.After(start) {
		start = s // earlier buckets would have no value: skip them
	}
	last := bucketStart(to, w.Interval)

	points := make([]Point, 0, bucketsBetween(start, last, w.Interval))
	i, value := 0, 0.0
	for s := start; !s.After(last); {
		next := nextBucket(s, w.Interval)
		end := next
		if limit.Before(end) {
			end = limit
		}
		for i < len(ms) && ms[i].At.Before(end) {
			value = ms[i].Value
			i++
		}
		// i > 0 always holds here: start is at or after the bucket of ms[0].
		points = append(points, Point{Timestamp: next.Add(-time.Second), Value: value})
		s = next
	}
	return points
}

// bucketStart returns the first instant of the bucket containing t (UTC).
func bucketStart(t time.Time, iv Interval) time.Time {
	y, m, d := t.Date()
	switch iv {
	case IntervalMonth:
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case IntervalWeek:
		sinceMonday := (int(t.Weekday()) + 6) % 7
		return time.Date(y, m, d-sinceMonday, 0, 0, 0, 0, time.UTC)
	default:
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
}

// nextBucket returns the first instant of the bucket after the one starting
// at s. UTC days are all 24 hours long.
func nextBucket(s time.Time, iv Interval) time.Time {
	switch iv {
	case IntervalMonth:
		y, m, _ := s.Date()
		return time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)
	case IntervalWeek:
		return s.Add(7 * 24 * time.Hour)
	default:
		return s.Add(24 * time.Hour)
	}
}

// bucketsBetween returns the number of buckets from the one starting at a to
// the one starting at b, both included.
func bucketsBetween(a, b time.Time, iv Interval) int {
	switch iv {
	case IntervalMonth:
		return (b.Year()-a.Year())*12 + int(b.Month()-a.Month()) + 1
	case IntervalWeek:
		return int(b.Sub(a)/(7*24*time.Hour)) + 1
	default:
		return int(b.Sub(a)/(24*time.Hour)) + 1
	}
}
