// Package metric holds the metric catalogue of Plumb and the pure domain logic
// around it: the formulas that turn per-file analysis figures and coverage into
// the twelve published metrics (with their grades and size classes), component path globs, and the bucketing of
// measurements into time series. It does no I/O.
//
// The rules implemented here are documented for users in docs/metrics.md.
package metric

// Metric keys, as they appear on the wire.
const (
	KeyComplexity      = "CMPLX"
	KeyDuplication     = "DUP"
	KeyMaintainability = "MNT"
	KeySecurity        = "SEC"
	KeySize            = "SIZE"
	KeyIssues          = "ISS"
	KeySecurityIssues  = "SECI"
	KeyDebtRatio       = "TDR"
	KeyFiles           = "FILES"
	KeyLinesOfCode     = "LOC"
	KeyCoverage        = "COV"
	KeyCoveredLines    = "LCOV"
)

// Metric categories, as they appear on the wire.
const (
	CategoryMaintainability = "maintainability"
	CategoryReliability     = "reliability" // a valid filter value; no metric has it today
	CategorySecurity        = "security"
	CategorySize            = "size"
	CategoryCoverage        = "coverage"
	CategoryQuality         = "quality"
)

// ValueType tells how a metric's value is expressed. The names are those of
// the original service, whose clients format values by them.
type ValueType string

// The value types of the catalogue.
const (
	// ValueNumber is a count, published as a JSON integer.
	ValueNumber ValueType = "number"
	// ValuePercent is a percentage (0 to 100 for consistent inputs), published
	// as a JSON number with at most two decimals.
	ValuePercent ValueType = "percentage"
	// ValueGrade is a letter grade A, B, C, D or F in metric values and the
	// number 1 to 5 in series.
	ValueGrade ValueType = "grade"
	// ValueSize is a size class XS, S, M, L or XL in metric values and the
	// number 1 to 5 in series.
	ValueSize ValueType = "size"
)

// Scope is the set of files a metric value describes: one file, a
// component's files, or the whole project. It changes the SIZE metric (its
// name and its thresholds) and nothing else.
type Scope uint8

// The scopes of metric values.
const (
	ScopeFile Scope = iota
	ScopeComponent
	ScopeProject
)

// Definition is the fixed description of one metric.
type Definition struct {
	Key         string
	Name        string // display name
	Description string // one sentence: what it measures and how
	Category    string
	Inverted    bool // a lower value is better
	ValueType   ValueType
}

// Descriptor is the JSON form of a metric definition used in metric series
// entries. Its field order is the wire order.
type Descriptor struct {
	Key         string    `json:"key"`
	Name        string    `json:"name"`
	Category    string    `json:"category"`
	Inverted    bool      `json:"inverted"`
	ValueType   ValueType `json:"valueType"`
	Description string    `json:"description"`
}

// sizeNames are the names of SIZE in each scope, as the original service
// names them.
var sizeNames = [...]string{ScopeFile: "File Size", ScopeComponent: "Component Size", ScopeProject: "Project Size"}

// In returns d as it is published for the given scope: SIZE is named after
// the scope ("File Size", "Component Size", "Project Size") and its
// description gives that scope's thresholds.
func (d Definition) In(scope Scope) Definition {
	if d.Key == KeySize && int(scope) < len(sizeNames) {
		d.Name = sizeNames[scope]
		d.Description = sizeDescription(scope)
	}
	return d
}

// Descriptor returns the series descriptor of d.
func (d Definition) Descriptor() Descriptor {
	return Descriptor{
		Key:         d.Key,
		Name:        d.Name,
		Category:    d.Category,
		Inverted:    d.Inverted,
		ValueType:   d.ValueType,
		Description: d.Description,
	}
}

// catalogue is the single definition of the twelve metrics, in the order of
// the specification. Everything else (Values, Lookup, the docs) follows it.
var catalogue = [...]Definition{
	{
		Key:         KeyComplexity,
		Name:        "Cognitive Complexity",
		Description: "Total cognitive complexity of the files: the sum of the cognitive complexity score the analysis reports for each file.",
		Category:    CategoryMaintainability,
		Inverted:    true,
		ValueType:   ValueNumber,
	},
	{
		Key:         KeyDuplication,
		Name:        "Duplication",
		Description: "Share of the physical lines that are duplicated, as 100 × duplicated lines ÷ physical lines, in percent with two decimals.",
		Category:    CategoryMaintainability,
		Inverted:    true,
		ValueType:   ValuePercent,
	},
	{
		Key:         KeyMaintainability,
		Name:        "Maintainability Rating",
		Description: "Letter grade from the technical debt ratio (TDR): A up to 5%, B up to 10%, C up to 20%, D up to 50%, F above 50%.",
		Category:    CategoryMaintainability,
		Inverted:    true,
		ValueType:   ValueGrade,
	},
	{
		Key:         KeySecurity,
		Name:        "Security Rating",
		Description: "Letter grade from the most severe open security issue: A when there is none, B when it is note or fmt, C low, D medium, F high.",
		Category:    CategorySecurity,
		Inverted:    true,
		ValueType:   ValueGrade,
	},
	{
		Key:       KeySize,
		Name:      "Size", // named per scope, see Definition.In
		Category:  CategorySize,
		Inverted:  false,
		ValueType: ValueSize,
	},
	{
		Key:         KeyIssues,
		Name:        "Issues",
		Description: "Number of open issues located in the files.",
		Category:    CategoryQuality,
		Inverted:    true,
		ValueType:   ValueNumber,
	},
	{
		Key:         KeySecurityIssues,
		Name:        "Security Issues",
		Description: "Number of open issues located in the files whose category is vulnerability, security_hotspot, secret or dependency_alert.",
		Category:    CategorySecurity,
		Inverted:    true,
		ValueType:   ValueNumber,
	},
	{
		Key:         KeyDebtRatio,
		Name:        "Technical Debt Ratio",
		Description: "Effort to fix the open issues relative to the effort to write the code, as 100 × remediation minutes ÷ (lines of code × 30 minutes), in percent with two decimals.",
		Category:    CategoryMaintainability,
		Inverted:    true,
		ValueType:   ValuePercent,
	},
	{
		Key:         KeyFiles,
		Name:        "Files",
		Description: "Number of files analysed.",
		Category:    CategorySize,
		Inverted:    false,
		ValueType:   ValueNumber,
	},
	{
		Key:         KeyLinesOfCode,
		Name:        "Lines of Code",
		Description: "Number of lines that contain code, blank and comment lines excluded.",
		Category:    CategorySize,
		Inverted:    false,
		ValueType:   ValueNumber,
	},
	{
		Key:         KeyCoverage,
		Name:        "Coverage Rating",
		Description: "Letter grade from the line coverage (LCOV): A from 90%, B from 75%, C from 60%, D from 40%, F below 40% or without coverable lines.",
		Category:    CategoryCoverage,
		Inverted:    true,
		ValueType:   ValueGrade,
	},
	{
		Key:         KeyCoveredLines,
		Name:        "Line Coverage",
		Description: "Share of the coverable lines that the tests executed, as 100 × covered ÷ (covered + missed) lines, in percent with two decimals.",
		Category:    CategoryCoverage,
		Inverted:    false,
		ValueType:   ValuePercent,
	},
}

var categories = [...]string{
	CategoryMaintainability,
	CategoryReliability,
	CategorySecurity,
	CategorySize,
	CategoryCoverage,
	CategoryQuality,
}

// Catalogue returns the twelve metric definitions in catalogue order (the
// specification's order: CMPLX, DUP, MNT, SEC, SIZE, ISS, SECI, TDR, FILES,
// LOC, COV, LCOV), as published for the scope. The slice is a fresh copy.
func Catalogue(scope Scope) []Definition {
	out := make([]Definition, len(catalogue))
	for i, d := range catalogue {
		out[i] = d.In(scope)
	}
	return out
}

// Keys returns the twelve metric keys in catalogue order, e.g. to list the
// accepted values in an error message.
func Keys() []string {
	out := make([]string, len(catalogue))
	for i, d := range catalogue {
		out[i] = d.Key
	}
	return out
}

// Lookup returns the definition of the metric with the given key, as
// published for the scope. Keys are case-sensitive.
func Lookup(key string, scope Scope) (Definition, bool) {
	if i := index(key); i >= 0 {
		return catalogue[i].In(scope), true
	}
	return Definition{}, false
}

// IsKey reports whether key is one of the twelve metric keys (case-sensitive).
func IsKey(key string) bool { return index(key) >= 0 }

// Categories returns the six metric categories accepted as filter values, in
// the specification's order. The slice is a fresh copy.
func Categories() []string {
	out := make([]string, len(categories))
	copy(out, categories[:])
	return out
}

// IsCategory reports whether c is one of the six categories (case-sensitive).
func IsCategory(c string) bool {
	for _, v := range categories {
		if v == c {
			return true
		}
	}
	return false
}

// index returns the catalogue position of key, or -1.
func index(key string) int {
	for i := range catalogue {
		if catalogue[i].Key == key {
			return i
		}
	}
	return -1
}
