package metric

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Level is the severity level of an issue. The zero value, LevelNone, means
// "no level" (for example: no open security issue). Levels are ordered by
// severity: LevelNone < LevelFmt < LevelNote < LevelLow < LevelMedium < LevelHigh.
type Level uint8

// The issue levels, from the least to the most severe.
const (
	LevelNone Level = iota
	LevelFmt
	LevelNote
	LevelLow
	LevelMedium
	LevelHigh
)

// numLevels is the number of real levels (LevelNone excluded).
const numLevels = int(LevelHigh)

var levelNames = [...]string{
	LevelNone:   "",
	LevelFmt:    "fmt",
	LevelNote:   "note",
	LevelLow:    "low",
	LevelMedium: "medium",
	LevelHigh:   "high",
}

// String returns the wire name of l ("high", "medium", "low", "note", "fmt"),
// or "" for LevelNone and unknown values.
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return ""
}

// ParseLevel converts a wire level name (case-sensitive) to a Level.
func ParseLevel(s string) (Level, bool) {
	for l := LevelFmt; l <= LevelHigh; l++ {
		if levelNames[l] == s {
			return l, true
		}
	}
	return LevelNone, false
}

// remediation is the effort, in minutes, to fix one open issue of each level.
var remediation = [...]int64{
	LevelNone:   0,
	LevelFmt:    2,
	LevelNote:   5,
	LevelLow:    15,
	LevelMedium: 30,
	LevelHigh:   60,
}

// RemediationMinutes returns the estimated effort, in minutes, to fix one open
// issue of the given level: high 60, medium 30, low 15, note 5, fmt 2. It
// returns 0 for any other string.
func RemediationMinutes(level string) int64 {
	l, _ := ParseLevel(level)
	return remediation[l]
}

// MinutesPerLineOfCode is the estimated effort to write one line of code, the
// denominator of the technical debt ratio.
const MinutesPerLineOfCode = 30

// IsSecurityCategory reports whether issues of the given category count as
// security issues (SECI, SEC): vulnerability, security_hotspot, secret and
// dependency_alert.
func IsSecurityCategory(category string) bool {
	switch category {
	case "vulnerability", "security_hotspot", "secret", "dependency_alert":
		return true
	}
	return false
}

// LevelCounts counts issues per level (element i is Level i+1; use Count and
// Add rather than indexing). Keeping counts rather than only the worst level
// makes aggregation exact in both directions: the worst level of a sum is
// still derivable after a subtraction.
type LevelCounts [numLevels]int64

// Count returns the count for level l (0 for LevelNone and unknown levels).
func (c LevelCounts) Count(l Level) int64 {
	if l == LevelNone || int(l) > numLevels {
		return 0
	}
	return c[l-1]
}

// Add adds n (which may be negative) to the count of level l. It ignores
// LevelNone and unknown levels.
func (c *LevelCounts) Add(l Level, n int64) {
	if l == LevelNone || int(l) > numLevels {
		return
	}
	c[l-1] += n
}

// Total returns the sum of the counts.
func (c LevelCounts) Total() int64 {
	var t int64
	for _, n := range c {
		t += n
	}
	return t
}

// Worst returns the most severe level with a positive count, or LevelNone.
func (c LevelCounts) Worst() Level {
	for i := numLevels - 1; i >= 0; i-- {
		if c[i] > 0 {
			return Level(i + 1)
		}
	}
	return LevelNone
}

// FileStats are the analysis figures of one file in one snapshot, and also
// their sums over many files. All fields are additive, so sums are exact in
// both directions (see Add and Sub).
type FileStats struct {
	Lines              int64 // physical lines
	LOC                int64 // lines of code: no blank or comment lines
	Complexity         int64 // cognitive complexity
	DuplicatedLines    int64
	OpenIssues         int64 // open issues located in the file
	RemediationMinutes int64 // sum of the remediation effort of the open issues
	// SecurityIssues counts, per level, the open issues in the security
	// categories (see IsSecurityCategory).
	SecurityIssues LevelCounts
}

// AddOpenIssue records one open issue of the given level and category:
// it counts it, adds its remediation effort and, for a security category,
// counts it as a security issue of its level. It is the one way to fill the
// issue figures consistently.
func (f *FileStats) AddOpenIssue(level Level, category string) {
	f.OpenIssues++
	if int(level) < len(remediation) {
		f.RemediationMinutes += remediation[level]
	}
	if IsSecurityCategory(category) {
		f.SecurityIssues.Add(level, 1)
	}
}

// OpenSecurityIssues returns the number of open security issues.
func (f FileStats) OpenSecurityIssues() int64 { return f.SecurityIssues.Total() }

// WorstSecurityLevel returns the most severe level among the open security
// issues, or LevelNone when there is none.
func (f FileStats) WorstSecurityLevel() Level { return f.SecurityIssues.Worst() }

// Add adds o to f, field by field.
func (f *FileStats) Add(o FileStats) {
	f.Lines += o.Lines
	f.LOC += o.LOC
	f.Complexity += o.Complexity
	f.DuplicatedLines += o.DuplicatedLines
	f.OpenIssues += o.OpenIssues
	f.RemediationMinutes += o.RemediationMinutes
	for i := range f.SecurityIssues {
		f.SecurityIssues[i] += o.SecurityIssues[i]
	}
}

// Sub subtracts o from f, field by field: the exact inverse of Add.
func (f *FileStats) Sub(o FileStats) {
	f.Lines -= o.Lines
	f.LOC -= o.LOC
	f.Complexity -= o.Complexity
	f.DuplicatedLines -= o.DuplicatedLines
	f.OpenIssues -= o.OpenIssues
	f.RemediationMinutes -= o.RemediationMinutes
	for i := range f.SecurityIssues {
		f.SecurityIssues[i] -= o.SecurityIssues[i]
	}
}

// Coverage is a count of coverable lines: covered (hit at least once) and
// missed (hit zero times). Lines that are not coverable are not counted.
type Coverage struct{ Covered, Missed int64 }

// Add adds o to c.
func (c *Coverage) Add(o Coverage) { c.Covered += o.Covered; c.Missed += o.Missed }

// Sub subtracts o from c: the exact inverse of Add.
func (c *Coverage) Sub(o Coverage) { c.Covered -= o.Covered; c.Missed -= o.Missed }

// Totals are the inputs of the metrics for a set of files (one file, a
// component's files, the whole project): the number of files, the sums of
// their analysis figures, and the sums of their coverage.
//
// Totals can be kept incrementally: Add a file's stats when it enters the set,
// Sub them when it leaves, Sub the old and Add the new stats when it changes.
// Coverage comes from coverage uploads and is kept with t.Coverage.Add/Sub.
type Totals struct {
	Files    int64
	Stats    FileStats
	Coverage Coverage
}

// Add counts one more file with the given stats.
func (t *Totals) Add(f FileStats) {
	t.Files++
	t.Stats.Add(f)
}

// Sub removes one file with the given stats: the exact inverse of Add, given
// the same stats that were added.
func (t *Totals) Sub(f FileStats) {
	t.Files--
	t.Stats.Sub(f)
}

// Rating letters.
const (
	RatingA = "A"
	RatingB = "B"
	RatingC = "C"
	RatingD = "D"
	RatingF = "F"
)

// ratings maps a rating number (1..5) to its letter.
var ratings = [...]string{1: RatingA, 2: RatingB, 3: RatingC, 4: RatingD, 5: RatingF}

// RatingNumber returns the series value of a rating letter: A=1, B=2, C=3,
// D=4, F=5; 0 for anything else.
func RatingNumber(letter string) int { return classNumber(ratings[:], letter) }

// classNumber returns the position (1..5) of name in a table of grades or
// size classes, or 0.
func classNumber(table []string, name string) int {
	if name == "" {
		return 0
	}
	return max(slices.Index(table, name), 0)
}

// hundredths is a percentage expressed in hundredths of a percent: 1250 is
// 12.5%. Percentages are computed and rounded in integers so that the rounding
// is exact and the published number has at most two decimals.
type hundredths int64

// percent returns 100 × num ÷ den in hundredths of a percent, rounded half
// away from zero. It returns 0 when num or den is not positive (no lines, or
// inconsistent figures) and saturates at math.MaxInt64.
func percent(num, den int64) hundredths {
	if num <= 0 || den <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(num), 100*100)
	d := uint64(den)
	if hi >= d {
		return math.MaxInt64
	}
	q, r := bits.Div64(hi, lo, d)
	if r >= d-r { // 2r ≥ d: half or more, round away from zero
		q++
	}
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return hundredths(q)
}

// float returns the percentage as a float64 with at most two decimals. The
// division by 100 is correctly rounded, so the float is the one nearest to the
// decimal value and encoding/json prints exactly that decimal (12.5, 40, 33.33).
func (h hundredths) float() float64 { return float64(h) / 100 }

// Duplication: 100 × duplicated lines ÷ physical lines.
func duplication(t *Totals) hundredths {
	return percent(t.Stats.DuplicatedLines, t.Stats.Lines)
}

// debtRatio: 100 × remediation minutes ÷ (LOC × 30 minutes).
func debtRatio(t *Totals) hundredths {
	loc := t.Stats.LOC
	if loc <= 0 {
		return 0
	}
	if loc > math.MaxInt64/MinutesPerLineOfCode {
		return percent(t.Stats.RemediationMinutes/MinutesPerLineOfCode, loc)
	}
	return percent(t.Stats.RemediationMinutes, loc*MinutesPerLineOfCode)
}

// coverage: 100 × covered ÷ (covered + missed).
func coverage(t *Totals) hundredths {
	return percent(t.Coverage.Covered, t.Coverage.Covered+t.Coverage.Missed)
}

// maintainabilityRating grades the rounded technical debt ratio, so that the
// published TDR and the grade always agree: A ≤ 5.00, B ≤ 10.00, C ≤ 20.00,
// D ≤ 50.00, F above.
func maintainabilityRating(tdr hundredths) int {
	switch {
	case tdr <= 500:
		return 1
	case tdr <= 1000:
		return 2
	case tdr <= 2000:
		return 3
	case tdr <= 5000:
		return 4
	default:
		return 5
	}
}

// coverageRating grades the rounded line coverage, so that the published
// LCOV and the grade always agree: A ≥ 90.00, B ≥ 75.00, C ≥ 60.00,
// D ≥ 40.00, F below (and without coverable lines, whose LCOV is 0).
func coverageRating(lcov hundredths) int {
	switch {
	case lcov >= 9000:
		return 1
	case lcov >= 7500:
		return 2
	case lcov >= 6000:
		return 3
	case lcov >= 4000:
		return 4
	default:
		return 5
	}
}

// sizes maps a size class number (1..5) to its name.
var sizes = [...]string{1: "XS", 2: "S", 3: "M", 4: "L", 5: "XL"}

// SizeNumber returns the series value of a size class: XS=1, S=2, M=3, L=4,
// XL=5; 0 for anything else.
func SizeNumber(class string) int { return classNumber(sizes[:], class) }

// sizeLimits are, per scope, the lines of code below which a set of files is
// XS, S, M and L; from the last limit on it is XL.
var sizeLimits = [...][4]int64{
	ScopeFile:      {100, 250, 500, 1000},
	ScopeComponent: {1_000, 10_000, 100_000, 500_000},
	ScopeProject:   {1_000, 10_000, 100_000, 500_000},
}

// SizeLimits returns the lines-of-code limits of the scope: a set of files
// with fewer lines of code than limits[0] is XS, than limits[1] S, than
// limits[2] M, than limits[3] L, and XL from limits[3] on.
func SizeLimits(scope Scope) [4]int64 {
	if int(scope) >= len(sizeLimits) {
		scope = ScopeProject
	}
	return sizeLimits[scope]
}

// sizeClass classifies lines of code in a scope: 1 (XS) to 5 (XL).
func sizeClass(loc int64, scope Scope) int {
	for i, limit := range SizeLimits(scope) {
		if loc < limit {
			return i + 1
		}
	}
	return 5
}

func sizeDescription(scope Scope) string {
	l := SizeLimits(scope)
	return fmt.Sprintf("Size class from the lines of code: XS below %d, S below %d, M below %d, L below %d, XL from %d on.",
		l[0], l[1], l[2], l[3], l[3])
}

// securityRating grades the worst level of the open security issues.
func securityRating(worst Level) int {
	switch worst {
	case LevelNone:
		return 1
	case LevelFmt, LevelNote:
		return 2
	case LevelLow:
		return 3
	case LevelMedium:
		return 4
	default:
		return 5
	}
}

// Value is one metric value in the JSON form of the API: the fields key, name,
// description, category, value, inverted and valueType, in that order. Value
// is an int64 for counts, a float64 with at most two decimals for
// percentages, a letter string (A, B, C, D, F) for grades and a size class
// string (XS, S, M, L, XL) for sizes.
type Value struct {
	Key         string    `json:"key"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Category    string    `json:"category"`
	Value       any       `json:"value"`
	Inverted    bool      `json:"inverted"`
	ValueType   ValueType `json:"valueType"`
}

// Values computes all twelve metrics from t for a set of files of the given
// scope, in catalogue order.
func Values(t Totals, scope Scope) []Value {
	out := make([]Value, len(catalogue))
	for i, d := range catalogue {
		d = d.In(scope)
		out[i] = Value{
			Key:         d.Key,
			Name:        d.Name,
			Description: d.Description,
			Category:    d.Category,
			Value:       compute(d.Key, &t, scope).published(),
			Inverted:    d.Inverted,
			ValueType:   d.ValueType,
		}
	}
	return out
}

// SeriesValue returns the numeric value of the metric key for t in the given
// scope, as used in series points: counts as numbers, percentages with two
// decimals, grades as A=1, B=2, C=3, D=4, F=5 and size classes as XS=1, S=2,
// M=3, L=4, XL=5. It returns 0 for an unknown key.
func SeriesValue(key string, t Totals, scope Scope) float64 {
	return compute(key, &t, scope).number()
}

// result is one computed metric value before it is given its wire form.
type result struct {
	kind  ValueType
	count int64      // ValueNumber
	pct   hundredths // ValuePercent
	grade int        // ValueGrade and ValueSize: 1..5
}

func (r result) published() any {
	switch r.kind {
	case ValuePercent:
		return r.pct.float()
	case ValueGrade:
		return ratings[r.grade]
	case ValueSize:
		return sizes[r.grade]
	default:
		return r.count
	}
}

func (r result) number() float64 {
	switch r.kind {
	case ValuePercent:
		return r.pct.float()
	case ValueGrade, ValueSize:
		return float64(r.grade)
	default:
		return float64(r.count)
	}
}

// compute evaluates one metric. These are the formulas of docs/metrics.md.
func compute(key string, t *Totals, scope Scope) result {
	switch key {
	case KeyComplexity:
		return result{kind: ValueNumber, count: t.Stats.Complexity}
	case KeyDuplication:
		return result{kind: ValuePercent, pct: duplication(t)}
	case KeyMaintainability:
		return result{kind: ValueGrade, grade: maintainabilityRating(debtRatio(t))}
	case KeySecurity:
		return result{kind: ValueGrade, grade: securityRating(t.Stats.WorstSecurityLevel())}
	case KeySize:
		return result{kind: ValueSize, grade: sizeClass(t.Stats.LOC, scope)}
	case KeyIssues:
		return result{kind: ValueNumber, count: t.Stats.OpenIssues}
	case KeySecurityIssues:
		return result{kind: ValueNumber, count: t.Stats.OpenSecurityIssues()}
	case KeyDebtRatio:
		return result{kind: ValuePercent, pct: debtRatio(t)}
	case KeyFiles:
		return result{kind: ValueNumber, count: t.Files}
	case KeyLinesOfCode:
		return result{kind: ValueNumber, count: t.Stats.LOC}
	case KeyCoverage:
		return result{kind: ValueGrade, grade: coverageRating(coverage(t))}
	case KeyCoveredLines:
		return result{kind: ValuePercent, pct: coverage(t)}
	}
	return result{kind: ValueNumber}
}
