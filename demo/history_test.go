package demo

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
	"github.com/plumbhq/plumb/sqlstore"
)

// A cliff in a numeric metric's monthly series is a step of more than half
// its range over the year that is also more than a quarter of its level (its
// largest value) and more than a few units (3 for counts, one percentage
// point for percentages; twice that for a component, whose few dozen files
// make one file a large share): what was a flat line at 0 and a jump in the
// last month, or a quarter of a project arriving at once. Smaller steps are
// the ordinary life of a project (a component's first security issue, a file
// of duplicated code landing in a small component).
const (
	cliffRange = 0.5
	cliffLevel = 0.25
)

// The demo's history looks like a real project's: imported into a store, the
// monthly series of every metric of every project and component over the
// year change gradually (no month-to-month step over maxStep of the series'
// range), grades and size classes move at most one class a month, and
// issues, security issues and technical debt are there all year (issue 19
// item 7: they were 0 for eleven months and jumped in the last one).
func TestHistoryHasNoCliff(t *testing.T) {
	if testing.Short() {
		t.Skip("imports the demo")
	}
	for _, now := range testNows {
		t.Run(now.Format("2006-01-02"), func(t *testing.T) { checkHistory(t, now) })
	}
}

func checkHistory(t *testing.T, now time.Time) {
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "demo.db"), sqlstore.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	doc := Generate(now, testToken)
	if err := db.ImportDocument(ctx, &doc); err != nil {
		t.Fatal(err)
	}
	win, errs := metric.ParseWindow(now.AddDate(-1, 0, 0).Format(time.RFC3339), "", "month", now)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, p := range doc.Projects {
		analysis, coverage, err := db.ProjectHistory(ctx, p.ID, win.To)
		if err != nil {
			t.Fatal(err)
		}
		checkSeries(t, p.Key, metric.ScopeProject, win, analysis, coverage, true)
		comps, err := db.ListComponents(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range comps {
			analysis, coverage, err := db.ComponentHistory(ctx, c, win.To)
			if err != nil {
				t.Fatal(err)
			}
			checkSeries(t, p.Key+"/"+c.Name, metric.ScopeComponent, win, analysis, coverage, false)
		}
	}
}

func checkSeries(t *testing.T, name string, scope metric.Scope, win metric.Window, analysis, coverage []plumb.TotalsAt, project bool) {
	t.Helper()
	for _, d := range metric.Catalogue(scope) {
		source := analysis
		if d.Category == "coverage" {
			source = coverage
		}
		ms := make([]metric.Measurement, len(source))
		for i, h := range source {
			ms[i] = metric.Measurement{At: h.At, Value: metric.SeriesValue(d.Key, h.Totals, scope)}
		}
		points := metric.Bucket(win, ms)
		vals := make([]float64, len(points))
		for i, p := range points {
			vals[i] = p.Value
		}
		where := fmt.Sprintf("%s %s %v", name, d.Key, vals)
		if project && len(points) > 0 {
			t.Logf("%s", where)
		}
		switch d.ValueType {
		case "grade", "size":
			// A project's grades and size class move a class at a time;
			// a component's may leap (its first security issue).
			for i := 1; project && i < len(vals); i++ {
				if math.Abs(vals[i]-vals[i-1]) > 1 {
					t.Errorf("%s: jumps %v classes in a month", where, vals[i]-vals[i-1])
				}
			}
			continue
		}
		lo, hi, level := math.Inf(1), math.Inf(-1), 0.0
		for _, v := range vals {
			lo, hi, level = min(lo, v), max(hi, v), max(level, math.Abs(v))
		}
		units := 3.0
		if d.ValueType == "percentage" {
			units = 1
		}
		if !project {
			// A component is a few dozen files: one file with duplicated
			// code or a few findings is a large share of it.
			units *= 2
		}
		for i := 1; i < len(vals); i++ {
			if step := math.Abs(vals[i] - vals[i-1]); step > cliffRange*(hi-lo) && step > cliffLevel*level && step > units {
				t.Errorf("%s: a step of %v in a month (range %v)", where, vals[i]-vals[i-1], hi-lo)
			}
		}
		if project && (d.Key == "ISS" || d.Key == "SECI" || d.Key == "TDR") {
			for i, v := range vals {
				if v <= 0 {
					t.Errorf("%s: %s is %v at %s", where, d.Key, v, points[i].Timestamp.Format("2006-01"))
				}
			}
		}
	}
}
