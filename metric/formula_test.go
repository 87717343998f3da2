package metric_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/plumbhq/plumb/metric"
)

func TestRemediationMinutes(t *testing.T) {
	tests := []struct {
		level string
		want  int64
	}{
		{"high", 60}, {"medium", 30}, {"low", 15}, {"note", 5}, {"fmt", 2},
		{"", 0}, {"HIGH", 0}, {"critical", 0}, {"none", 0},
	}
	for _, tt := range tests {
		if got := metric.RemediationMinutes(tt.level); got != tt.want {
			t.Errorf("RemediationMinutes(%q) = %d, want %d", tt.level, got, tt.want)
		}
	}
}

func TestLevels(t *testing.T) {
	order := []metric.Level{metric.LevelNone, metric.LevelFmt, metric.LevelNote, metric.LevelLow, metric.LevelMedium, metric.LevelHigh}
	names := []string{"", "fmt", "note", "low", "medium", "high"}
	for i, l := range order {
		if l.String() != names[i] {
			t.Errorf("Level %d String() = %q, want %q", l, l.String(), names[i])
		}
		if i > 0 && order[i-1] >= l {
			t.Errorf("%v is not more severe than %v", l, order[i-1])
		}
		got, ok := metric.ParseLevel(names[i])
		if wantOK := i > 0; ok != wantOK || (ok && got != l) {
			t.Errorf("ParseLevel(%q) = %v, %v", names[i], got, ok)
		}
	}
	for _, s := range []string{"High", "info", "error", " low"} {
		if l, ok := metric.ParseLevel(s); ok || l != metric.LevelNone {
			t.Errorf("ParseLevel(%q) = %v, %v; want none, false", s, l, ok)
		}
	}
	if got := metric.Level(42).String(); got != "" {
		t.Errorf("Level(42).String() = %q", got)
	}
}

func TestIsSecurityCategory(t *testing.T) {
	security := map[string]bool{"vulnerability": true, "security_hotspot": true, "secret": true, "dependency_alert": true}
	all := []string{"bug", "vulnerability", "structure", "duplication", "security_hotspot", "performance",
		"documentation", "type_check", "style", "anti_pattern", "accessibility", "dead_code", "lint",
		"secret", "dependency_alert", "", "Vulnerability", "security"}
	for _, c := range all {
		if got := metric.IsSecurityCategory(c); got != security[c] {
			t.Errorf("IsSecurityCategory(%q) = %v", c, got)
		}
	}
}

func TestLevelCounts(t *testing.T) {
	var c metric.LevelCounts
	if c.Worst() != metric.LevelNone || c.Total() != 0 {
		t.Fatalf("zero counts: worst %v total %d", c.Worst(), c.Total())
	}
	c.Add(metric.LevelNote, 2)
	c.Add(metric.LevelNone, 7)   // ignored
	c.Add(metric.Level(9), 7)    // ignored
	c.Add(metric.LevelMedium, 1) // worst
	c.Add(metric.LevelFmt, 3)
	if c.Worst() != metric.LevelMedium || c.Total() != 6 || c.Count(metric.LevelNote) != 2 || c.Count(metric.LevelNone) != 0 || c.Count(metric.Level(9)) != 0 {
		t.Fatalf("counts %v: worst %v total %d", c, c.Worst(), c.Total())
	}
	c.Add(metric.LevelMedium, -1)
	if c.Worst() != metric.LevelNote {
		t.Errorf("after removing the medium issue, worst = %v, want note", c.Worst())
	}
}

func TestAddOpenIssue(t *testing.T) {
	var f metric.FileStats
	f.AddOpenIssue(metric.LevelHigh, "vulnerability")
	f.AddOpenIssue(metric.LevelLow, "style")
	f.AddOpenIssue(metric.LevelNote, "secret")
	f.AddOpenIssue(metric.LevelFmt, "lint")
	want := metric.FileStats{OpenIssues: 4, RemediationMinutes: 60 + 15 + 5 + 2}
	want.SecurityIssues.Add(metric.LevelHigh, 1)
	want.SecurityIssues.Add(metric.LevelNote, 1)
	if f != want {
		t.Fatalf("got %+v, want %+v", f, want)
	}
	if f.OpenSecurityIssues() != 2 || f.WorstSecurityLevel() != metric.LevelHigh {
		t.Errorf("security issues %d worst %v", f.OpenSecurityIssues(), f.WorstSecurityLevel())
	}
}

// Two files of the worked example in docs/metrics.md.
func exampleFiles() (metric.FileStats, metric.FileStats) {
	a := metric.FileStats{Lines: 200, LOC: 150, Complexity: 12, DuplicatedLines: 20}
	a.AddOpenIssue(metric.LevelHigh, "vulnerability")
	a.AddOpenIssue(metric.LevelLow, "style")
	b := metric.FileStats{Lines: 100, LOC: 50, Complexity: 3, DuplicatedLines: 5}
	b.AddOpenIssue(metric.LevelNote, "secret")
	b.AddOpenIssue(metric.LevelFmt, "style")
	b.AddOpenIssue(metric.LevelFmt, "style")
	return a, b
}

func TestTotalsAddSubAreExact(t *testing.T) {
	a, b := exampleFiles()
	var both metric.Totals
	both.Add(a)
	both.Add(b)
	wantStats := metric.FileStats{Lines: 300, LOC: 200, Complexity: 15, DuplicatedLines: 25, OpenIssues: 5, RemediationMinutes: 84}
	wantStats.SecurityIssues.Add(metric.LevelHigh, 1)
	wantStats.SecurityIssues.Add(metric.LevelNote, 1)
	if both.Files != 2 || both.Stats != wantStats {
		t.Fatalf("a+b = %+v", both)
	}
	if both.Stats.WorstSecurityLevel() != metric.LevelHigh {
		t.Errorf("worst of a+b = %v", both.Stats.WorstSecurityLevel())
	}

	// Removing a (the file with the high issue) gives exactly the totals of b:
	// the worst level goes back down to note.
	both.Sub(a)
	var onlyB metric.Totals
	onlyB.Add(b)
	if both != onlyB {
		t.Fatalf("a+b-a = %+v, want %+v", both, onlyB)
	}
	if both.Stats.WorstSecurityLevel() != metric.LevelNote {
		t.Errorf("worst after Sub = %v, want note", both.Stats.WorstSecurityLevel())
	}

	// A file that changes: Sub the old stats, Add the new ones.
	changed := b
	changed.Lines += 10
	changed.AddOpenIssue(metric.LevelMedium, "dependency_alert")
	both.Sub(b)
	both.Add(changed)
	var direct metric.Totals
	direct.Add(changed)
	if both != direct {
		t.Errorf("incremental = %+v, direct = %+v", both, direct)
	}
	both.Sub(changed)
	if both != (metric.Totals{}) {
		t.Errorf("after removing every file: %+v", both)
	}

	var c metric.Coverage
	c.Add(metric.Coverage{Covered: 3, Missed: 4})
	c.Add(metric.Coverage{Covered: 10, Missed: 1})
	c.Sub(metric.Coverage{Covered: 3, Missed: 4})
	if c != (metric.Coverage{Covered: 10, Missed: 1}) {
		t.Errorf("coverage = %+v", c)
	}
}

// valueOf returns the published value of key.
func valueOf(t *testing.T, key string, tot metric.Totals) any {
	t.Helper()
	for _, v := range metric.Values(tot, metric.ScopeComponent) {
		if v.Key == key {
			return v.Value
		}
	}
	t.Fatalf("no value for %s", key)
	return nil
}

func TestPercentages(t *testing.T) {
	tests := []struct {
		name     string
		num, den int64 // covered and covered+missed; duplicated and physical lines
		want     float64
		json     string
	}{
		{"none", 0, 0, 0, "0"},
		{"zero of some", 0, 7, 0, "0"},
		{"all", 7, 7, 100, "100"},
		{"whole", 2, 5, 40, "40"},
		{"one decimal", 1, 8, 12.5, "12.5"},
		{"third rounds down", 1, 3, 33.33, "33.33"},
		{"two thirds rounds up", 2, 3, 66.67, "66.67"},
		{"one seventh", 1, 7, 14.29, "14.29"},
		{"exact half up: 0.005", 1, 20000, 0.01, "0.01"},
		{"just below half: 0.00499…", 1, 20001, 0, "0"},
		{"exact half: 12.345", 2469, 20000, 12.35, "12.35"},
		{"exact half: 1.005", 201, 20000, 1.01, "1.01"},
		{"99.9925 rounds down", 39997, 40000, 99.99, "99.99"},
		{"99.995 rounds up to 100", 19999, 20000, 100, "100"},
		{"large", 3_000_000_001, 4_000_000_000, 75, "75"},
		{"inconsistent negative", -5, 10, 0, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov := metric.Totals{Coverage: metric.Coverage{Covered: tt.num, Missed: tt.den - tt.num}}
			dup := metric.Totals{Stats: metric.FileStats{DuplicatedLines: tt.num, Lines: tt.den}}
			for _, c := range []struct {
				key string
				tot metric.Totals
			}{{"LCOV", cov}, {"DUP", dup}} {
				v := valueOf(t, c.key, c.tot)
				f, ok := v.(float64)
				if !ok || f != tt.want {
					t.Errorf("%s = %#v, want float64 %v", c.key, v, tt.want)
				}
				if b, _ := json.Marshal(v); string(b) != tt.json {
					t.Errorf("%s marshals as %s, want %s", c.key, b, tt.json)
				}
				if s := metric.SeriesValue(c.key, c.tot, metric.ScopeComponent); s != tt.want {
					t.Errorf("SeriesValue(%s) = %v, want %v", c.key, s, tt.want)
				}
			}
		})
	}
}

// Every percentage from 0.00 to 100.00 marshals as its exact two-decimal form.
func TestPercentJSONIsExactDecimal(t *testing.T) {
	for h := int64(0); h <= 10000; h++ {
		tot := metric.Totals{Coverage: metric.Coverage{Covered: h, Missed: 10000 - h}}
		b, err := json.Marshal(valueOf(t, "LCOV", tot))
		if err != nil {
			t.Fatal(err)
		}
		want := strconv.FormatInt(h/100, 10)
		if frac := h % 100; frac != 0 {
			want += "." + fmt.Sprintf("%02d", frac)
			for want[len(want)-1] == '0' {
				want = want[:len(want)-1]
			}
		}
		if string(b) != want {
			t.Fatalf("coverage %d/10000 marshals as %s, want %s", h, b, want)
		}
	}
}

func TestDebtRatioAndMaintainabilityRating(t *testing.T) {
	// With 2000 lines of code, the denominator is 60,000 minutes, so
	// TDR = remediation minutes ÷ 600 (in percent).
	tests := []struct {
		name    string
		loc     int64
		minutes int64
		tdr     float64
		mnt     string
	}{
		{"no code, no issues", 0, 0, 0, "A"},
		{"no code but issues", 0, 600, 0, "A"},
		{"no issues", 2000, 0, 0, "A"},
		{"A at 5.00", 2000, 3000, 5, "A"},
		{"A at 5.0033 published as 5.00", 2000, 3002, 5, "A"},
		{"B at 5.005 published as 5.01", 2000, 3003, 5.01, "B"},
		{"B at 10.00", 2000, 6000, 10, "B"},
		{"B at 10.0033", 2000, 6002, 10, "B"},
		{"C at 10.005", 2000, 6003, 10.01, "C"},
		{"C at 20.00", 2000, 12000, 20, "C"},
		{"C at 20.0033", 2000, 12002, 20, "C"},
		{"D at 20.005", 2000, 12003, 20.01, "D"},
		{"D at 50.00", 2000, 30000, 50, "D"},
		{"D at 50.0033", 2000, 30002, 50, "D"},
		{"F at 50.005", 2000, 30003, 50.01, "F"},
		{"F above 100", 10, 600, 200, "F"},
		{"one line, one fmt issue", 1, 2, 6.67, "B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tot := metric.Totals{Stats: metric.FileStats{LOC: tt.loc, RemediationMinutes: tt.minutes}}
			if got := valueOf(t, "TDR", tot); got != tt.tdr {
				t.Errorf("TDR = %#v, want %v", got, tt.tdr)
			}
			if got := valueOf(t, "MNT", tot); got != tt.mnt {
				t.Errorf("MNT = %#v, want %q", got, tt.mnt)
			}
			if got := metric.SeriesValue("TDR", tot, metric.ScopeFile); got != tt.tdr {
				t.Errorf("SeriesValue(TDR) = %v, want %v", got, tt.tdr)
			}
			if got, want := metric.SeriesValue("MNT", tot, metric.ScopeFile), float64(metric.RatingNumber(tt.mnt)); got != want {
				t.Errorf("SeriesValue(MNT) = %v, want %v", got, want)
			}
		})
	}
}

func TestSecurityRating(t *testing.T) {
	tests := []struct {
		worst metric.Level
		sec   string
		num   float64
	}{
		{metric.LevelNone, "A", 1},
		{metric.LevelFmt, "B", 2},
		{metric.LevelNote, "B", 2},
		{metric.LevelLow, "C", 3},
		{metric.LevelMedium, "D", 4},
		{metric.LevelHigh, "F", 5},
	}
	for _, tt := range tests {
		var f metric.FileStats
		// Lower-level security issues and non-security issues do not change the grade.
		f.AddOpenIssue(metric.LevelHigh, "bug")
		if tt.worst != metric.LevelNone {
			f.AddOpenIssue(tt.worst, "vulnerability")
			for l := metric.LevelFmt; l < tt.worst; l++ {
				f.AddOpenIssue(l, "secret")
			}
		}
		var tot metric.Totals
		tot.Add(f)
		if got := valueOf(t, "SEC", tot); got != tt.sec {
			t.Errorf("worst %v: SEC = %#v, want %q", tt.worst, got, tt.sec)
		}
		if got := metric.SeriesValue("SEC", tot, metric.ScopeFile); got != tt.num {
			t.Errorf("worst %v: SeriesValue(SEC) = %v, want %v", tt.worst, got, tt.num)
		}
	}
}

func TestRatingNumber(t *testing.T) {
	for letter, want := range map[string]int{"A": 1, "B": 2, "C": 3, "D": 4, "F": 5, "E": 0, "": 0, "a": 0} {
		if got := metric.RatingNumber(letter); got != want {
			t.Errorf("RatingNumber(%q) = %d, want %d", letter, got, want)
		}
	}
}

func TestValuesWorkedExample(t *testing.T) {
	a, b := exampleFiles()
	var tot metric.Totals
	tot.Add(a)
	tot.Add(b)
	tot.Coverage = metric.Coverage{Covered: 120, Missed: 40}

	want := []struct {
		key    string
		value  any
		series float64
	}{
		{"CMPLX", int64(15), 15},
		{"DUP", 8.33, 8.33}, // 100 × 25 ÷ 300 = 8.333…
		{"MNT", "A", 1},     // TDR 1.4 ≤ 5
		{"SEC", "F", 5},     // worst open security issue is high
		{"SIZE", "XS", 1},   // 200 lines of code in a component: below 1000
		{"ISS", int64(5), 5},
		{"SECI", int64(2), 2}, // the vulnerability and the secret
		{"TDR", 1.4, 1.4},     // 100 × 84 ÷ (200 × 30)
		{"FILES", int64(2), 2},
		{"LOC", int64(200), 200},
		{"COV", "B", 2},    // LCOV 75 ≥ 75
		{"LCOV", 75.0, 75}, // 100 × 120 ÷ 160
	}
	got := metric.Values(tot, metric.ScopeComponent)
	if len(got) != len(want) {
		t.Fatalf("Values returned %d values", len(got))
	}
	cat := metric.Catalogue(metric.ScopeComponent)
	for i, w := range want {
		v := got[i]
		d := cat[i]
		if v.Key != w.key || v.Value != w.value {
			t.Errorf("Values()[%d] = %s %#v, want %s %#v", i, v.Key, v.Value, w.key, w.value)
		}
		if v.Name != d.Name || v.Description != d.Description || v.Category != d.Category || v.Inverted != d.Inverted || v.ValueType != d.ValueType {
			t.Errorf("Values()[%d] = %+v does not carry the catalogue's attributes %+v", i, v, d)
		}
		if s := metric.SeriesValue(w.key, tot, metric.ScopeComponent); s != w.series {
			t.Errorf("SeriesValue(%s) = %v, want %v", w.key, s, w.series)
		}
	}

	b2, err := json.Marshal(got[:4])
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `[` +
		`{"key":"CMPLX","name":"Cognitive Complexity","description":"Total cognitive complexity of the files: the sum of the cognitive complexity score the analysis reports for each file.","category":"maintainability","value":15,"inverted":true,"valueType":"number"},` +
		`{"key":"DUP","name":"Duplication","description":"Share of the physical lines that are duplicated, as 100 × duplicated lines ÷ physical lines, in percent with two decimals.","category":"maintainability","value":8.33,"inverted":true,"valueType":"percentage"},` +
		`{"key":"MNT","name":"Maintainability Rating","description":"Letter grade from the technical debt ratio (TDR): A up to 5%, B up to 10%, C up to 20%, D up to 50%, F above 50%.","category":"maintainability","value":"A","inverted":true,"valueType":"grade"},` +
		`{"key":"SEC","name":"Security Rating","description":"Letter grade from the most severe open security issue: A when there is none, B when it is note or fmt, C low, D medium, F high.","category":"security","value":"F","inverted":true,"valueType":"grade"}` +
		`]`
	if string(b2) != wantJSON {
		t.Errorf("JSON:\n got %s\nwant %s", b2, wantJSON)
	}

	// Removing the file with the high vulnerability.
	tot.Sub(a)
	after := map[string]any{"FILES": int64(1), "SIZE": "XS", "LOC": int64(50), "CMPLX": int64(3),
		"DUP": 5.0, "ISS": int64(3), "SECI": int64(1), "SEC": "B", "TDR": 0.6, "MNT": "A"}
	for key, w := range after {
		if g := valueOf(t, key, tot); g != w {
			t.Errorf("after Sub: %s = %#v, want %#v", key, g, w)
		}
	}
}

func TestValuesOfNothing(t *testing.T) {
	b, err := json.Marshal(metric.Values(metric.Totals{}, metric.ScopeProject))
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"CMPLX": 0.0, "DUP": 0.0, "MNT": "A", "SEC": "A", "SIZE": "XS", "ISS": 0.0,
		"SECI": 0.0, "TDR": 0.0, "FILES": 0.0, "LOC": 0.0, "COV": "F", "LCOV": 0.0}
	for _, v := range got {
		if len(v) != 7 {
			t.Errorf("%v has %d fields, want 7", v, len(v))
		}
		if v["value"] != want[v["key"].(string)] {
			t.Errorf("%s = %#v, want %#v", v["key"], v["value"], want[v["key"].(string)])
		}
	}
	if metric.SeriesValue("NOPE", metric.Totals{Files: 3}, metric.ScopeFile) != 0 {
		t.Error("SeriesValue of an unknown key is not 0")
	}
}

func TestValueTypesMatchCatalogue(t *testing.T) {
	tot := metric.Totals{Files: 1, Stats: metric.FileStats{Lines: 10, LOC: 8, DuplicatedLines: 1, RemediationMinutes: 5}}
	for i, v := range metric.Values(tot, metric.ScopeFile) {
		d := metric.Catalogue(metric.ScopeFile)[i]
		if v.ValueType != d.ValueType {
			t.Errorf("%s: valueType %q, catalogue says %q", d.Key, v.ValueType, d.ValueType)
		}
		switch d.ValueType {
		case metric.ValueNumber:
			if _, ok := v.Value.(int64); !ok {
				t.Errorf("%s: value %#v is not an int64", d.Key, v.Value)
			}
		case metric.ValuePercent:
			f, ok := v.Value.(float64)
			if !ok || math.Round(f*100)/100 != f {
				t.Errorf("%s: value %#v is not a float64 with two decimals", d.Key, v.Value)
			}
		case metric.ValueGrade:
			if s, ok := v.Value.(string); !ok || metric.RatingNumber(s) == 0 {
				t.Errorf("%s: value %#v is not a letter grade", d.Key, v.Value)
			}
		case metric.ValueSize:
			if s, ok := v.Value.(string); !ok || metric.SizeNumber(s) == 0 {
				t.Errorf("%s: value %#v is not a size class", d.Key, v.Value)
			}
		default:
			t.Errorf("%s: unknown value type %q", d.Key, d.ValueType)
		}
	}
}

// The coverage rating at every boundary: the grade is taken from LCOV as
// published (two decimals), so 89.995 % (published 90) is an A and 89.99 % a B.
func TestCoverageRatingBoundaries(t *testing.T) {
	tests := []struct {
		covered, total int64 // lines covered of total coverable lines
		lcov           float64
		grade          string
	}{
		{0, 0, 0, "F"}, // no coverable lines
		{0, 100, 0, "F"},
		{3999, 10000, 39.99, "F"},
		{4000, 10000, 40, "D"},
		{5999, 10000, 59.99, "D"},
		{6000, 10000, 60, "C"},
		{7499, 10000, 74.99, "C"},
		{7500, 10000, 75, "B"},
		{8999, 10000, 89.99, "B"},
		{17999, 20000, 90, "A"}, // 89.995 rounds to 90.00
		{9000, 10000, 90, "A"},
		{100, 100, 100, "A"},
	}
	for _, tt := range tests {
		tot := metric.Totals{Coverage: metric.Coverage{Covered: tt.covered, Missed: tt.total - tt.covered}}
		if got := valueOf(t, "LCOV", tot); got != tt.lcov {
			t.Errorf("%d/%d: LCOV = %#v, want %v", tt.covered, tt.total, got, tt.lcov)
		}
		if got := valueOf(t, "COV", tot); got != tt.grade {
			t.Errorf("%d/%d: COV = %#v, want %s", tt.covered, tt.total, got, tt.grade)
		}
		if got, want := metric.SeriesValue("COV", tot, metric.ScopeProject), float64(metric.RatingNumber(tt.grade)); got != want {
			t.Errorf("%d/%d: SeriesValue(COV) = %v, want %v", tt.covered, tt.total, got, want)
		}
	}
}

// The size classes at every boundary of every scope.
func TestSizeClassBoundaries(t *testing.T) {
	type point struct {
		loc   int64
		class string
	}
	file := []point{{0, "XS"}, {99, "XS"}, {100, "S"}, {249, "S"}, {250, "M"}, {499, "M"}, {500, "L"}, {999, "L"}, {1000, "XL"}, {1 << 40, "XL"}}
	set := []point{{0, "XS"}, {999, "XS"}, {1000, "S"}, {9999, "S"}, {10000, "M"}, {99999, "M"}, {100000, "L"}, {499999, "L"}, {500000, "XL"}, {1 << 40, "XL"}}
	for _, c := range []struct {
		scope  metric.Scope
		points []point
	}{{metric.ScopeFile, file}, {metric.ScopeComponent, set}, {metric.ScopeProject, set}} {
		for _, p := range c.points {
			tot := metric.Totals{Files: 1, Stats: metric.FileStats{LOC: p.loc, Lines: p.loc * 2}}
			var got any
			for _, v := range metric.Values(tot, c.scope) {
				if v.Key == "SIZE" {
					got = v.Value
				}
			}
			if got != p.class {
				t.Errorf("scope %d, %d lines of code: SIZE = %#v, want %s", c.scope, p.loc, got, p.class)
			}
			if s, want := metric.SeriesValue("SIZE", tot, c.scope), float64(metric.SizeNumber(p.class)); s != want {
				t.Errorf("scope %d, %d lines of code: SeriesValue(SIZE) = %v, want %v", c.scope, p.loc, s, want)
			}
		}
	}
}

func TestSizeNumber(t *testing.T) {
	for class, want := range map[string]int{"XS": 1, "S": 2, "M": 3, "L": 4, "XL": 5, "XXL": 0, "": 0, "s": 0} {
		if got := metric.SizeNumber(class); got != want {
			t.Errorf("SizeNumber(%q) = %d, want %d", class, got, want)
		}
	}
}
