package api_test

// Component metric series over HTTP, against series computed by hand:
// buckets, labels, carry-forward, the window and its defaults, filters,
// formats; and the consistency of a component created after its history
// (backfill) with one created before it (kept up incrementally).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// mNow is the server's clock in the series tests: a Wednesday.
var mNow = time.Date(2026, 3, 25, 12, 0, 0, 0, time.UTC)

func mAt(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// mSeriesFixture stores, for src/a.go (the only file of component "src"),
// LOC measurements 3, 5, 10, 20, 30, 40 (complexity a tenth of it), a high
// vulnerability only in the analysis of 12 March, and two coverage uploads.
func mSeriesFixture(t *testing.T, w *mCast) {
	t.Helper()
	w.mCreate(t, mCore, w.Carol, "src", "src/*")
	for _, m := range []struct {
		at  string
		loc int64
	}{
		{"2025-12-30T12:00:00Z", 3}, {"2026-01-20T08:00:00Z", 5}, {"2026-03-03T09:00:00Z", 10},
		{"2026-03-12T00:00:00Z", 20}, {"2026-03-18T10:00:00Z", 30}, {"2026-03-19T00:00:00Z", 40},
	} {
		in := plumb.SnapshotInput{Files: []plumb.FileFigures{mFile("src/a.go", 100, m.loc, m.loc/10, 0), mFile("lib/x.go", m.loc, 1, 1, 0)}}
		if m.loc == 20 {
			in.Issues = []plumb.Issue{mIssue("v", "src/a.go", "vulnerability", "high")}
		}
		w.mSnapshot(t, w.Core, mAt(m.at), in)
	}
	// A feature-branch analysis never enters the series.
	w.mSnapshot(t, w.Core, mAt("2026-03-13T00:00:00Z"), plumb.SnapshotInput{Branch: "feature", Files: []plumb.FileFigures{mFile("src/a.go", 100, 99, 9, 0)}})
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: "aaaaaaaaaaaa", Branch: "main", UploadedAt: mAt("2026-03-05T00:00:00Z"),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{1, 0, 0, 0, -1}}}})
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: "bbbbbbbbbbbb", Branch: "main", UploadedAt: mAt("2026-03-13T12:00:00Z"),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{1, 2, 3, 0}}}})
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: "cccccccccccc", Branch: "feature", UploadedAt: mAt("2026-03-14T12:00:00Z"),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{0, 0, 0, 0}}}})
	w.Clock.Set(mNow)
}

type mPt struct {
	ts string
	v  float64
}

// mSeriesBody builds an expected series response: one entry per key (in the
// order given) with its points, and the meta.
func mSeriesBody(series []mSeriesWant, from, to, interval string) string {
	return mustJSON(map[string]any{"data": mSeriesData(series), "meta": map[string]any{"from": from, "to": to, "interval": interval}})
}

type mSeriesWant struct {
	key    string
	points []mPt
}

func mSeriesData(series []mSeriesWant) []map[string]any {
	data := []map[string]any{}
	for _, s := range series {
		d, ok := metric.Lookup(s.key, metric.ScopeComponent)
		if !ok {
			panic(s.key)
		}
		pts := []map[string]any{}
		for _, p := range s.points {
			pts = append(pts, map[string]any{"timestamp": p.ts, "value": p.v})
		}
		data = append(data, map[string]any{"metric": d.Descriptor(), "dimensions": map[string]string{}, "points": pts})
	}
	return data
}

const mSeries = mCore + "/components/src/metrics/series"

func TestSeriesBuckets(t *testing.T) {
	w := mNewCast(t)
	mSeriesFixture(t, w)
	cases := []struct {
		name, query string
		want        string
	}{
		{
			// The worked example of docs/metrics.md: Wednesday to Wednesday;
			// the value before from is carried forward; the last bucket is
			// labelled after to and ignores the measurement after to.
			"week", "interval=week&from=2026-03-04&to=2026-03-18T10:00:00Z&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-03-08T23:59:59Z", 10}, {"2026-03-15T23:59:59Z", 20}, {"2026-03-22T23:59:59Z", 30}}}},
				"2026-03-04T00:00:00Z", "2026-03-18T10:00:00Z", "week"),
		},
		{
			"week one second before a measurement", "interval=week&from=2026-03-04&to=2026-03-18T09:59:59Z&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-03-08T23:59:59Z", 10}, {"2026-03-15T23:59:59Z", 20}, {"2026-03-22T23:59:59Z", 20}}}},
				"2026-03-04T00:00:00Z", "2026-03-18T09:59:59Z", "week"),
		},
		{
			// A week across New Year is one bucket, labelled on its Sunday.
			"week across new year", "interval=week&from=2025-12-29&to=2026-01-05&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-01-04T23:59:59Z", 3}, {"2026-01-11T23:59:59Z", 3}}}},
				"2025-12-29T00:00:00Z", "2026-01-05T23:59:59Z", "week"),
		},
		{
			"day", "interval=day&from=2026-03-10T15:00:00Z&to=2026-03-13T01:00:00Z&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-03-10T23:59:59Z", 10}, {"2026-03-11T23:59:59Z", 10}, {"2026-03-12T23:59:59Z", 20}, {"2026-03-13T23:59:59Z", 20}}}},
				"2026-03-10T15:00:00Z", "2026-03-13T01:00:00Z", "day"),
		},
		{
			"day to exactly a measurement", "interval=day&from=2026-03-17&to=2026-03-19T00:00:00Z&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-03-17T23:59:59Z", 20}, {"2026-03-18T23:59:59Z", 30}, {"2026-03-19T23:59:59Z", 40}}}},
				"2026-03-17T00:00:00Z", "2026-03-19T00:00:00Z", "day"),
		},
		{
			// Buckets before the first measurement (November) are omitted;
			// months end on their last day.
			"month", "interval=month&from=2025-11-15&to=2026-03-18T10:00:00Z&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2025-12-31T23:59:59Z", 3}, {"2026-01-31T23:59:59Z", 5}, {"2026-02-28T23:59:59Z", 5}, {"2026-03-31T23:59:59Z", 30}}}},
				"2025-11-15T00:00:00Z", "2026-03-18T10:00:00Z", "month"),
		},
		{
			// Date-only bounds: from is 00:00:00, to is 23:59:59.
			"date-only", "interval=day&from=2026-03-18&to=2026-03-18&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-03-18T23:59:59Z", 30}}}}, "2026-03-18T00:00:00Z", "2026-03-18T23:59:59Z", "day"),
		},
		{
			"from equals to", "from=2026-03-18T10:00:00Z&to=2026-03-18T10:00:00Z&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-03-22T23:59:59Z", 30}}}}, "2026-03-18T10:00:00Z", "2026-03-18T10:00:00Z", "week"),
		},
		{
			// Offsets are converted to UTC; fractions dropped; lower-case t and z.
			"offsets", "interval=day&from=" + url.QueryEscape("2026-03-18T01:30:00+02:00") + "&to=2026-03-18t10:00:00.9z&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-03-17T23:59:59Z", 20}, {"2026-03-18T23:59:59Z", 30}}}},
				"2026-03-17T23:30:00Z", "2026-03-18T10:00:00Z", "day"),
		},
		{
			// Ratings are numbers: the high vulnerability of 12 March gives
			// SEC F = 5 and a TDR of 60 ÷ (20 × 30) = 10 % (MNT B = 2).
			"ratings", "interval=day&from=2026-03-11&to=2026-03-18&metric=SEC,MNT,TDR",
			mSeriesBody([]mSeriesWant{
				{"MNT", []mPt{{"2026-03-11T23:59:59Z", 1}, {"2026-03-12T23:59:59Z", 2}, {"2026-03-13T23:59:59Z", 2}, {"2026-03-14T23:59:59Z", 2},
					{"2026-03-15T23:59:59Z", 2}, {"2026-03-16T23:59:59Z", 2}, {"2026-03-17T23:59:59Z", 2}, {"2026-03-18T23:59:59Z", 1}}},
				{"SEC", []mPt{{"2026-03-11T23:59:59Z", 1}, {"2026-03-12T23:59:59Z", 5}, {"2026-03-13T23:59:59Z", 5}, {"2026-03-14T23:59:59Z", 5},
					{"2026-03-15T23:59:59Z", 5}, {"2026-03-16T23:59:59Z", 5}, {"2026-03-17T23:59:59Z", 5}, {"2026-03-18T23:59:59Z", 1}}},
				{"TDR", []mPt{{"2026-03-11T23:59:59Z", 0}, {"2026-03-12T23:59:59Z", 10}, {"2026-03-13T23:59:59Z", 10}, {"2026-03-14T23:59:59Z", 10},
					{"2026-03-15T23:59:59Z", 10}, {"2026-03-16T23:59:59Z", 10}, {"2026-03-17T23:59:59Z", 10}, {"2026-03-18T23:59:59Z", 0}}},
			}, "2026-03-11T00:00:00Z", "2026-03-18T23:59:59Z", "day"),
		},
		{
			// Coverage metrics come from the default branch's coverage
			// uploads (1 of 4, then 3 of 4), not from the analyses; weeks
			// before the first upload are omitted. COV is the grade as a
			// number: 25 % is F (5), 75 % is B (2).
			"coverage", "interval=week&from=2026-02-20&to=2026-03-18T10:00:00Z&category=coverage",
			mSeriesBody([]mSeriesWant{
				{"COV", []mPt{{"2026-03-08T23:59:59Z", 5}, {"2026-03-15T23:59:59Z", 2}, {"2026-03-22T23:59:59Z", 2}}},
				{"LCOV", []mPt{{"2026-03-08T23:59:59Z", 25}, {"2026-03-15T23:59:59Z", 75}, {"2026-03-22T23:59:59Z", 75}}},
			}, "2026-02-20T00:00:00Z", "2026-03-18T10:00:00Z", "week"),
		},
		{
			// Defaults: to = now, from = six months before, interval = week.
			"defaults", "metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{
				{"2026-01-04T23:59:59Z", 3}, {"2026-01-11T23:59:59Z", 3}, {"2026-01-18T23:59:59Z", 3}, {"2026-01-25T23:59:59Z", 5},
				{"2026-02-01T23:59:59Z", 5}, {"2026-02-08T23:59:59Z", 5}, {"2026-02-15T23:59:59Z", 5}, {"2026-02-22T23:59:59Z", 5},
				{"2026-03-01T23:59:59Z", 5}, {"2026-03-08T23:59:59Z", 10}, {"2026-03-15T23:59:59Z", 20}, {"2026-03-22T23:59:59Z", 40},
				{"2026-03-29T23:59:59Z", 40},
			}}}, "2025-09-25T12:00:00Z", "2026-03-25T12:00:00Z", "week"),
		},
		{
			// to later than now is clamped to now; from defaults to six months before it.
			"to clamped", "to=2027-01-01&interval=month&metric=FILES",
			mSeriesBody([]mSeriesWant{{"FILES", []mPt{{"2025-12-31T23:59:59Z", 1}, {"2026-01-31T23:59:59Z", 1}, {"2026-02-28T23:59:59Z", 1}, {"2026-03-31T23:59:59Z", 1}}}},
				"2025-09-25T12:00:00Z", "2026-03-25T12:00:00Z", "month"),
		},
		{
			"date-only to of today is now", "from=2026-03-25&to=2026-03-25&interval=day&metric=LOC",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2026-03-25T23:59:59Z", 40}}}}, "2026-03-25T00:00:00Z", "2026-03-25T12:00:00Z", "day"),
		},
		{
			"default from keeps the day and time", "to=2026-03-18T10:00:00Z&metric=LOC&interval=month",
			mSeriesBody([]mSeriesWant{{"LOC", []mPt{{"2025-12-31T23:59:59Z", 3}, {"2026-01-31T23:59:59Z", 5}, {"2026-02-28T23:59:59Z", 5}, {"2026-03-31T23:59:59Z", 30}}}},
				"2025-09-18T10:00:00Z", "2026-03-18T10:00:00Z", "month"),
		},
		{
			// Six months before 31 August is the last day of February; no
			// measurement yet: every series is present, without points.
			"month end and no points", "to=2025-08-31T23:59:59Z",
			mSeriesBody(mAllSeriesEmpty(), "2025-02-28T23:59:59Z", "2025-08-31T23:59:59Z", "week"),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.get(t, mSeries+"?"+c.query, w.Alice).wantJSON(t, http.StatusOK, c.want)
		})
	}
}

func mAllSeriesEmpty() []mSeriesWant {
	var out []mSeriesWant
	for _, k := range metric.Keys() {
		out = append(out, mSeriesWant{key: k})
	}
	return out
}

// mSeriesKeys returns the metric keys of a series response, in order.
func mSeriesKeys(t testing.TB, r *resp) []string {
	t.Helper()
	var body struct {
		Data []struct {
			Metric     map[string]any    `json:"metric"`
			Dimensions map[string]string `json:"dimensions"`
			Points     []any             `json:"points"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("series body: %v: %s", err, r)
	}
	keys := []string{}
	for _, e := range body.Data {
		keys = append(keys, e.Metric["key"].(string))
	}
	return keys
}

func TestSeriesFilters(t *testing.T) {
	w := mNewCast(t)
	mSeriesFixture(t, w)
	base := mSeries + "?from=2026-03-01&to=2026-03-20&"
	cases := []struct {
		query string
		want  []string
	}{
		{"", metric.Keys()},
		{"metric=LOC", []string{"LOC"}},
		// Catalogue order whatever the order asked; every array encoding, combined.
		{"metric=LOC,FILES", []string{"FILES", "LOC"}},
		{"metric=LOC&metric=FILES", []string{"FILES", "LOC"}},
		{"metric[]=LOC&metric[]=FILES", []string{"FILES", "LOC"}},
		{"metric[0]=LOC&metric[1]=FILES", []string{"FILES", "LOC"}},
		{"metric=LOC&metric[]=FILES,COV&metric[0]=LOC", []string{"FILES", "LOC", "COV"}},
		{"metric=LOC,,FILES,", []string{"FILES", "LOC"}},
		{"category=size", []string{"SIZE", "FILES", "LOC"}},
		{"category=coverage,size", []string{"SIZE", "FILES", "LOC", "COV", "LCOV"}},
		{"category[]=security", []string{"SEC", "SECI"}},
		{"category=maintainability", []string{"CMPLX", "DUP", "MNT", "TDR"}},
		{"category=quality", []string{"ISS"}},
		// AND across parameters, OR within one.
		{"category=size&metric=LOC,COV", []string{"LOC"}},
		{"category=size,coverage&metric=COV&metric=ISS", []string{"COV"}},
		{"category=coverage&metric=LOC", []string{}},
		// No metric is in reliability today: no series, not an error.
		{"category=reliability", []string{}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			r := w.get(t, base+c.query, w.Alice).wantStatus(t, http.StatusOK)
			if got := mSeriesKeys(t, r); !reflect.DeepEqual(got, c.want) {
				t.Errorf("series %v, want %v", got, c.want)
			}
		})
	}
	// Every series is present, with the catalogue's descriptor and empty
	// dimensions, even without points (nothing is measured before 30
	// December).
	r := w.get(t, mSeries+"?from=2025-12-01&to=2025-12-29", w.Alice).wantStatus(t, http.StatusOK)
	r.wantJSON(t, http.StatusOK, mSeriesBody(mAllSeriesEmpty(), "2025-12-01T00:00:00Z", "2025-12-29T23:59:59Z", "week"))
	var body struct {
		Data []struct {
			Metric map[string]any `json:"metric"`
		} `json:"data"`
	}
	check(t, json.Unmarshal(r.Body, &body))
	for i, c := range mContractMetrics {
		m := body.Data[i].Metric
		if m["key"] != c.key || m["category"] != c.category || m["inverted"] != c.inverted || m["valueType"] != c.valueType || len(m) != 6 {
			t.Errorf("descriptor %d is %v, want %s %s inverted=%v valueType=%s", i, m, c.key, c.category, c.inverted, c.valueType)
		}
	}
}

func TestSeriesInvalid(t *testing.T) {
	w := mNewCast(t)
	mSeriesFixture(t, w)
	cases := []struct {
		query   string
		details []string
	}{
		{"interval=hour", []string{`interval "hour"`}},
		{"interval=Week", []string{`interval "Week"`}},
		{"metric=XYZ", []string{"metric", `"XYZ"`}},
		{"metric=loc", []string{"metric", `"loc"`}},
		{"metric[]=LOC&metric[]=NOPE", []string{`"NOPE"`}},
		{"category=foo", []string{"category", `"foo"`}},
		{"category=Size", []string{"category", `"Size"`}},
		{"from=yesterday", []string{`from "yesterday"`}},
		{"to=2026-13-01", []string{`to "2026-13-01"`}},
		{"from=2026-03-01T10:00:00", []string{"from"}},
		{"from=2026-03-01T10:00:00+02:00", []string{"from", "%2B"}},
		{"from=2026-03-19&to=2026-03-18", []string{"from 2026-03-19T00:00:00Z is after to 2026-03-18T23:59:59Z"}},
		{"from=2026-03-18T10:00:01Z&to=2026-03-18T10:00:00Z", []string{"from", "after"}},
		{"from=2026-04-01", []string{"from", "current time"}},
		{"from=2026-03-01&from=2026-03-02", []string{"from"}},
		// Several errors at once, one per parameter.
		{"interval=hour&metric=XYZ&category=foo&from=x&to=y", []string{`"XYZ"`, `"foo"`, `from "x"`, `to "y"`, `interval "hour"`}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			r := w.get(t, mSeries+"?"+c.query, w.Alice)
			r.wantStatus(t, http.StatusBadRequest)
			d := r.details(t)
			want := 1
			if len(c.details) == 5 {
				want = 5
			}
			if len(d) != want {
				t.Fatalf("%d errors, want %d: %q", len(d), want, d)
			}
			all := strings.Join(d, " | ")
			for _, s := range c.details {
				if !strings.Contains(all, s) {
					t.Errorf("details %q do not contain %q", all, s)
				}
			}
		})
	}
	// Errors are JSON whatever the Accept.
	r := w.get(t, mSeries+"?interval=hour", w.Alice, hdr("Accept", "text/csv"))
	r.wantStatus(t, http.StatusBadRequest)
}

func TestSeriesFormats(t *testing.T) {
	w := mNewCast(t)
	mSeriesFixture(t, w)
	q := mSeries + "?interval=week&from=2026-03-04&to=2026-03-18T10:00:00Z&metric=LOC,COV,ISS"
	jr := w.get(t, q, w.Alice).wantStatus(t, http.StatusOK)
	var body struct {
		Data []json.RawMessage `json:"data"`
	}
	check(t, json.Unmarshal(jr.Body, &body))
	if len(body.Data) != 3 {
		t.Fatalf("%d series: %s", len(body.Data), jr)
	}

	// NDJSON: one series entry per line, each exactly as in data; no meta.
	for _, accept := range []string{"application/x-ndjson", "application/x-ndjson, application/json;q=0.5"} {
		r := w.get(t, q, w.Alice, hdr("Accept", accept)).wantStatus(t, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); ct != "application/x-ndjson" {
			t.Errorf("Content-Type %q", ct)
		}
		lines := ndjsonLines(t, r.Body)
		if len(lines) != len(body.Data) {
			t.Fatalf("%d NDJSON lines, want %d: %s", len(lines), len(body.Data), r)
		}
		for i, l := range lines {
			b, _ := json.Marshal(l)
			assertJSON(t, b, string(body.Data[i]))
		}
	}
	// No series: an empty NDJSON body.
	r := w.get(t, mSeries+"?category=reliability", w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
	if len(bytes.TrimSpace(r.Body)) != 0 {
		t.Errorf("NDJSON without series: %q", r.Body)
	}

	// CSV: metric,timestamp,value, one row per point, in series order.
	r = w.get(t, q, w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("Content-Type %q", ct)
	}
	want := [][]string{
		{"metric", "timestamp", "value"},
		{"ISS", "2026-03-08T23:59:59Z", "0"},
		{"ISS", "2026-03-15T23:59:59Z", "1"},
		{"ISS", "2026-03-22T23:59:59Z", "0"},
		{"LOC", "2026-03-08T23:59:59Z", "10"},
		{"LOC", "2026-03-15T23:59:59Z", "20"},
		{"LOC", "2026-03-22T23:59:59Z", "30"},
		{"COV", "2026-03-08T23:59:59Z", "5"},
		{"COV", "2026-03-15T23:59:59Z", "2"},
		{"COV", "2026-03-22T23:59:59Z", "2"},
	}
	if got := csvRecords(t, r.Body); !reflect.DeepEqual(got, want) {
		t.Errorf("CSV\n got: %q\nwant: %q", got, want)
	}
	r = w.get(t, mSeries+"?category=reliability", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
	if got := csvRecords(t, r.Body); !reflect.DeepEqual(got, [][]string{{"metric", "timestamp", "value"}}) {
		t.Errorf("CSV without series: %q", got)
	}
	// Percentages keep two decimals in CSV too: 1 of 3 lines.
	w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: "dddddddddddd", Branch: "main", UploadedAt: mAt("2026-03-20T00:00:00Z"),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{1, 0, 0}}}})
	r = w.get(t, mSeries+"?metric=LCOV&interval=day&from=2026-03-20&to=2026-03-20", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
	if got := csvRecords(t, r.Body); !reflect.DeepEqual(got, [][]string{{"metric", "timestamp", "value"}, {"LCOV", "2026-03-20T23:59:59Z", "33.33"}}) {
		t.Errorf("CSV LCOV: %q", got)
	}
	w.get(t, q, w.Alice, hdr("Accept", "image/png")).wantStatus(t, http.StatusNotAcceptable)
}

// mAllSeries reads every series of a component for each interval, over the
// whole history, as raw bodies.
func mAllSeries(t *testing.T, w *mCast, comp string) []string {
	t.Helper()
	var out []string
	for _, iv := range []string{"day", "week", "month"} {
		r := w.get(t, mCore+"/components/"+comp+"/metrics/series?from=2025-12-01&interval="+iv, w.Alice).wantStatus(t, http.StatusOK)
		out = append(out, string(r.Body))
	}
	r := w.get(t, mCore+"/components/"+comp+"/metrics", w.Alice).wantStatus(t, http.StatusOK)
	return append(out, string(r.Body))
}

// A component created after the history exists (backfill) answers exactly
// what one created before the analyses arrived (kept up incrementally)
// answers; replacing the globs recomputes the history.
func TestSeriesBackfillMatchesIncremental(t *testing.T) {
	w := mNewCast(t)
	globs := []string{"src/*", "*.md"}
	other := []string{"lib/*", "src/b/*"}
	w.mCreate(t, mCore, w.Carol, "before", globs...)
	w.mCreate(t, mCore, w.Carol, "other-before", other...)
	day := func(n int) time.Time { return mAt("2026-01-05T10:00:00Z").AddDate(0, 0, n) }
	steps := []plumb.SnapshotInput{
		{Files: []plumb.FileFigures{mFile("src/a.go", 100, 80, 5, 10), mFile("src/b/c.go", 50, 40, 3, 0), mFile("lib/x.go", 30, 20, 1, 0), mFile("README.md", 10, 0, 0, 0)},
			Issues: []plumb.Issue{mIssue("1", "src/a.go", "bug", "high"), mIssue("2", "lib/x.go", "secret", "low")}},
		{Files: []plumb.FileFigures{mFile("src/a.go", 120, 90, 6, 10)}, // a change
			Issues: []plumb.Issue{mIssue("1", "src/a.go", "bug", "high"), mIssue("3", "src/b/c.go", "vulnerability", "medium")}},
		{Files: []plumb.FileFigures{mFile("src/new.go", 10, 10, 1, 0), mFile("docs/guide.md", 40, 0, 0, 0)}, // additions
			Removed: []string{"lib/x.go"}, Issues: []plumb.Issue{mIssue("3", "src/b/c.go", "vulnerability", "medium")}},
		{Removed: []string{"src/b/c.go", "README.md"}}, // removals
		{FullTree: true, Files: []plumb.FileFigures{mFile("src/a.go", 120, 90, 6, 10), mFile("lib/x.go", 35, 25, 2, 0), mFile("src/b/z.md", 5, 0, 0, 0)},
			Issues: []plumb.Issue{mIssue("4", "src/b/z.md", "style", "fmt")}},
		{Files: []plumb.FileFigures{mFile("src/b/c.go", 60, 50, 4, 2)}},
	}
	for i, in := range steps {
		w.mSnapshot(t, w.Core, day(7*i), in)
		w.mCoverage(t, plumb.CoverageInput{ProjectID: w.Core.ID, CommitSHA: fmt.Sprintf("%040x", day(7*i).Unix()), Branch: "main", CoverageTag: "unit",
			UploadedAt: day(7*i + 1), Files: []plumb.CoverageFile{
				{Path: "src/a.go", Hits: []int64{int64(i), 0, -1, 1}}, {Path: "lib/x.go", Hits: []int64{0, 0, int64(i % 2)}},
			}})
	}
	// Out-of-order and feature-branch data, which neither may count.
	w.mSnapshot(t, w.Core, day(-30), plumb.SnapshotInput{FullTree: true, Files: []plumb.FileFigures{mFile("src/a.go", 1, 1, 1, 1)}})
	w.mSnapshot(t, w.Core, day(50), plumb.SnapshotInput{Branch: "feature", Files: []plumb.FileFigures{mFile("src/a.go", 1, 1, 1, 1)}})
	w.Clock.Set(day(60))

	w.mCreate(t, mCore, w.Carol, "after", globs...)
	w.mCreate(t, mCore, w.Carol, "other-after", other...)
	before, after := mAllSeries(t, w, "before"), mAllSeries(t, w, "after")
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("created before and after differ (%d)\nbefore: %s\n after: %s", i, before[i], after[i])
		}
	}
	if !strings.Contains(before[1], `"value":`) {
		t.Fatalf("the series have no points: %s", before[1])
	}
	// A few values by hand (week of the third snapshot, 19 January): src/a.go
	// 120, src/b/c.go 50, src/new.go 10, README.md 10, docs/guide.md 40.
	var week struct {
		Data []struct {
			Metric struct{ Key string }
			Points []struct {
				Timestamp string
				Value     float64
			}
		}
	}
	check(t, json.Unmarshal([]byte(before[1]), &week))
	want := map[string]float64{"SIZE": 1, "FILES": 5, "LOC": 140, "ISS": 1, "SECI": 1, "SEC": 4, "CMPLX": 10}
	for _, s := range week.Data {
		for _, p := range s.Points {
			if v, ok := want[s.Metric.Key]; ok && p.Timestamp == "2026-01-25T23:59:59Z" && p.Value != v {
				t.Errorf("%s on 25 January: %v, want %v", s.Metric.Key, p.Value, v)
			}
		}
	}
	o1, o2 := mAllSeries(t, w, "other-before"), mAllSeries(t, w, "other-after")
	if !reflect.DeepEqual(o1, o2) {
		t.Errorf("other globs: created before and after differ")
	}
	// PUT with other globs: the history is recomputed.
	w.mSend(t, http.MethodPut, mCore+"/components/before", w.Carol, mustJSON(map[string]any{"name": "before", "pathGlobs": other})).wantStatus(t, http.StatusOK)
	if got := mAllSeries(t, w, "before"); !reflect.DeepEqual(got, o2) {
		t.Errorf("after PUT, the series differ from a component created with those globs\n got: %v\nwant: %v", got, o2)
	}
	// And back.
	w.mSend(t, http.MethodPut, mCore+"/components/before", w.Carol, mustJSON(map[string]any{"name": "before", "pathGlobs": globs})).wantStatus(t, http.StatusOK)
	if got := mAllSeries(t, w, "before"); !reflect.DeepEqual(got, after) {
		t.Errorf("after PUT back, the series differ")
	}
	// New history keeps them equal.
	w.mSnapshot(t, w.Core, day(55), plumb.SnapshotInput{Files: []plumb.FileFigures{mFile("src/late.go", 7, 7, 7, 0), mFile("lib/late.go", 3, 3, 3, 0)}, Removed: []string{"src/a.go"}})
	if b, a := mAllSeries(t, w, "before"), mAllSeries(t, w, "after"); !reflect.DeepEqual(b, a) {
		t.Errorf("after a new analysis, before and after differ")
	}
	if b, a := mAllSeries(t, w, "other-before"), mAllSeries(t, w, "other-after"); !reflect.DeepEqual(b, a) {
		t.Errorf("after a new analysis, other-before and other-after differ")
	}
}
