package analyze

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb/analyze/dup"
	"github.com/plumbhq/plumb/internal/par"
)

// Rules of the issues the analysis reports.
const (
	RuleComplexity   = "cognitive-complexity"
	RuleParameters   = "too-many-parameters"
	RuleFunctionLen  = "long-function"
	RuleFileLen      = "long-file"
	RuleNesting      = "deep-nesting"
	RuleDuplication  = "duplicated-block"
	ToolName         = "plumb"
	structureTag     = "complexity"
	duplicationTag   = "duplication"
	fingerprintKey   = "plumb/v1"
	fingerprintScope = "plumb-analyze-1"
)

// Issue is one finding of the analysis.
type Issue struct {
	Rule        string `json:"rule"`
	Level       string `json:"level"` // SARIF level: warning (medium) or note (low)
	Path        string `json:"path"`
	Line        int    `json:"line"`
	EndLine     int    `json:"endLine"`
	Message     string `json:"message"`
	Fingerprint string `json:"fingerprint"`
}

// fingerprint identifies a finding without its line numbers or figures, so
// it survives edits elsewhere in the file and changes of the measure: the
// rule, the path and what is measured (a function's name, a clone's tokens
// and the other copy's path), and the occurrence among equal ones.
func fingerprint(parts ...string) string {
	n := len(fingerprintScope)
	for _, p := range parts {
		n += len(p) + 21
	}
	b := make([]byte, 0, n)
	b = append(b, fingerprintScope...)
	for _, p := range parts {
		b = strconv.AppendInt(b, int64(len(p)), 10)
		b = append(b, ':')
		b = append(b, p...)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// findIssues finds the issues of an analysis, on up to workers
// goroutines (each file's own, then each clone's), in path and line order.
func findIssues(res *Result, cfg Config, workers int) []Issue {
	perFile := make([][]Issue, len(res.Files))
	par.For(len(res.Files), workers, func(i int) { perFile[i] = fileIssues(&res.Files[i], cfg.Thresholds) })
	var out []Issue
	for _, is := range perFile {
		out = append(out, is...)
	}
	out = append(out, cloneIssues(res.Clones, workers)...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// fileIssues finds the issues of one file's functions and of its length.
func fileIssues(f *File, t Thresholds) []Issue {
	var out []Issue
	// seen counts the functions of each name before the k-th, for the
	// fingerprints: made at the file's first finding (most files have
	// none), from the functions before it, then kept up as they come
	var seen map[string]int
	counted := 0
	for k, fn := range f.Functions {
		add := func(rule, level, msg string) {
			if seen == nil {
				seen = map[string]int{}
			}
			for ; counted < k; counted++ {
				seen[f.Functions[counted].Name]++
			}
			occ := strconv.Itoa(seen[fn.Name])
			out = append(out, Issue{Rule: rule, Level: level, Path: f.Path, Line: fn.Line, EndLine: fn.EndLine,
				Message: msg, Fingerprint: fingerprint(rule, f.Path, fn.Name, occ)})
		}
		if t.CognitiveComplexity > 0 && fn.Complexity > t.CognitiveComplexity {
			add(RuleComplexity, "warning", fmt.Sprintf("Function %s has a cognitive complexity of %d (more than %d).", fn.Name, fn.Complexity, t.CognitiveComplexity))
		}
		if t.Parameters > 0 && fn.Params > t.Parameters {
			add(RuleParameters, "note", fmt.Sprintf("Function %s takes %d parameters (more than %d).", fn.Name, fn.Params, t.Parameters))
		}
		if n := fn.EndLine - fn.Line + 1; t.FunctionLines > 0 && n > t.FunctionLines {
			add(RuleFunctionLen, "note", fmt.Sprintf("Function %s is %d lines long (more than %d).", fn.Name, n, t.FunctionLines))
		}
		if t.Nesting > 0 && fn.Nesting > t.Nesting {
			add(RuleNesting, "note", fmt.Sprintf("Function %s nests control flow %d deep (more than %d).", fn.Name, fn.Nesting, t.Nesting))
		}
	}
	if t.FileLines > 0 && f.Code > t.FileLines {
		out = append(out, Issue{Rule: RuleFileLen, Level: "note", Path: f.Path, Line: 1, EndLine: f.Lines,
			Message:     fmt.Sprintf("File has %d lines of code (more than %d).", f.Code, t.FileLines),
			Fingerprint: fingerprint(RuleFileLen, f.Path)})
	}
	return out
}

// cloneIssues makes the issue of each clone, on its later copy, in the
// clones' order.
func cloneIssues(clones []dup.Clone, workers int) []Issue {
	// the places of each block (clones of the same tokens), for the
	// messages: each place once, in path and line order
	type place struct {
		hash uint64
		loc  dup.Location
	}
	known := map[place]bool{}
	places := map[uint64][]dup.Location{}
	for _, c := range clones {
		for _, l := range []dup.Location{c.A, c.B} {
			if p := (place{c.Hash, l}); !known[p] {
				known[p] = true
				places[c.Hash] = append(places[c.Hash], l)
			}
		}
	}
	for _, ls := range places {
		slices.SortFunc(ls, func(a, b dup.Location) int {
			if c := strings.Compare(a.Path, b.Path); c != 0 {
				return c
			}
			if a.StartLine != b.StartLine {
				return a.StartLine - b.StartLine
			}
			return a.EndLine - b.EndLine
		})
	}
	// the occurrence of each clone among equal ones (same copies, same
	// tokens), in order; then the issues, side by side
	seen := map[string]int{}
	occ := make([]int, len(clones))
	for k, c := range clones {
		key := c.B.Path + "\x00" + c.A.Path + "\x00" + strconv.FormatUint(c.Hash, 16)
		occ[k] = seen[key]
		seen[key]++
	}
	out := make([]Issue, len(clones))
	par.For(len(clones), workers, func(k int) {
		c := clones[k]
		n := c.B.EndLine - c.B.StartLine + 1
		out[k] = Issue{Rule: RuleDuplication, Level: "warning", Path: c.B.Path, Line: c.B.StartLine, EndLine: c.B.EndLine,
			Message:     fmt.Sprintf("%d duplicated lines (%d tokens), also at %s.", n, c.Tokens, otherPlaces(places[c.Hash], c.B)),
			Fingerprint: fingerprint(RuleDuplication, c.B.Path, c.A.Path, strconv.FormatUint(c.Hash, 16), strconv.Itoa(occ[k]))}
	})
	return out
}

// otherPlaces lists a block's places (sorted) but this one, the first
// eight and how many more.
func otherPlaces(all []dup.Location, this dup.Location) string {
	var b strings.Builder
	i := 0
	for k, l := range all {
		if l == this {
			continue
		}
		if i == 8 {
			rest := len(all) - k
			if slices.Contains(all[k:], this) {
				rest--
			}
			fmt.Fprintf(&b, " and %d more places", rest)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Path)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(l.StartLine))
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(l.EndLine))
		i++
	}
	return b.String()
}

// SARIF returns the issues as a SARIF 2.1.0 log of one run of the tool
// "plumb"; each result carries its fingerprint as a partial fingerprint,
// and the rules' tags give Plumb's categories (structure, duplication).
func (r *Result) SARIF() json.RawMessage {
	type rule struct {
		ID               string         `json:"id"`
		ShortDescription map[string]any `json:"shortDescription"`
		Properties       map[string]any `json:"properties"`
	}
	rules := []rule{}
	for _, x := range []struct{ id, desc, tag string }{
		{RuleComplexity, "Function with a high cognitive complexity", structureTag},
		{RuleParameters, "Function with too many parameters", structureTag},
		{RuleFunctionLen, "Function that is too long", structureTag},
		{RuleFileLen, "File that is too long", structureTag},
		{RuleNesting, "Control flow nested too deeply", structureTag},
		{RuleDuplication, "Duplicated block of code", duplicationTag},
	} {
		rules = append(rules, rule{ID: x.id, ShortDescription: map[string]any{"text": x.desc}, Properties: map[string]any{"tags": []string{x.tag}}})
	}
	results := make([]map[string]any, 0, len(r.Issues))
	for _, is := range r.Issues {
		results = append(results, map[string]any{
			"ruleId":  is.Rule,
			"level":   is.Level,
			"message": map[string]any{"text": is.Message},
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": is.Path},
				"region":           map[string]any{"startLine": is.Line, "endLine": max(is.Line, is.EndLine)},
			}}},
			"partialFingerprints": map[string]string{fingerprintKey: is.Fingerprint},
		})
	}
	log := map[string]any{
		"version": "2.1.0",
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"runs": []any{map[string]any{
			"tool":    map[string]any{"driver": map[string]any{"name": ToolName, "informationUri": "https://github.com/plumbhq/plumb/blob/main/docs/analyze.md", "rules": rules}},
			"results": results,
		}},
	}
	b, _ := json.Marshal(log)
	return b
}

// Document is the analysis upload of docs/ingest.md.
type Document struct {
	CommitSHA  string            `json:"commitSha"`
	Branch     string            `json:"branch"`
	AnalyzedAt string            `json:"analyzedAt,omitempty"`
	FullTree   bool              `json:"fullTree"`
	Files      []DocumentFile    `json:"files"`
	Removed    []string          `json:"removed"`
	Clones     []DocumentClone   `json:"clones,omitempty"`
	SARIF      []json.RawMessage `json:"sarif"`
}

// DocumentFile is one file of the upload.
type DocumentFile struct {
	Path            string `json:"path"`
	Lines           int    `json:"lines"`
	LOC             int    `json:"loc"`
	Complexity      int    `json:"complexity"`
	DuplicatedLines int    `json:"duplicatedLines"`
}

// DocumentClone is one duplicated block of the upload: its two places and
// its length in lines.
type DocumentClone struct {
	A     dup.Location `json:"a"`
	B     dup.Location `json:"b"`
	Lines int          `json:"lines"`
}

// Document makes the upload of the analysis, with its issues as the first
// SARIF log and any others after it.
func (r *Result) Document(commit, branch, analyzedAt string, extraSARIF ...json.RawMessage) Document {
	d := Document{CommitSHA: commit, Branch: branch, AnalyzedAt: analyzedAt, FullTree: true,
		Files: make([]DocumentFile, 0, len(r.Files)), Removed: []string{}}
	for _, f := range r.Files {
		d.Files = append(d.Files, DocumentFile{Path: f.Path, Lines: f.Lines, LOC: f.Code, Complexity: f.Complexity, DuplicatedLines: min(f.DuplicatedLines, f.Lines)})
	}
	for _, c := range r.Clones {
		d.Clones = append(d.Clones, DocumentClone{A: c.A, B: c.B, Lines: c.A.EndLine - c.A.StartLine + 1})
	}
	d.SARIF = append([]json.RawMessage{r.SARIF()}, extraSARIF...)
	return d
}
