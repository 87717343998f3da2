package analyze

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/plumbhq/plumb/analyze/cognitive"
	"github.com/plumbhq/plumb/analyze/dup"
)

// Fingerprints are stored by the server to follow a finding across
// analyses: their bytes must not change (scope, then each part as
// "len:part").
func TestFingerprintBytes(t *testing.T) {
	sum := sha256.Sum256([]byte("plumb-analyze-1" + "16:duplicated-block" + "6:a/b.go" + "0:" + "13:héllo wörld"))
	if got, want := fingerprint("duplicated-block", "a/b.go", "", "héllo wörld"), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("fingerprint %s, want %s", got, want)
	}
}

// A clone's message names the block's other places in path and line
// order, eight of them and how many more, never the clone's own place.
func TestDuplicationMessagePlaces(t *testing.T) {
	res := &Result{}
	var locs []dup.Location
	for i := 11; i >= 0; i-- { // added in reverse order
		locs = append(locs, dup.Location{Path: fmt.Sprintf("f%02d.go", i/2), StartLine: 10 * (i % 2), EndLine: 10*(i%2) + 6})
	}
	for i := 1; i < len(locs); i++ {
		res.Clones = append(res.Clones, dup.Clone{A: locs[0], B: locs[i], Tokens: 60, Hash: 7})
	}
	issues := findIssues(res, Config{}.withDefaults(), 2)
	got := ""
	for _, is := range issues {
		if is.Path == "f00.go" && is.Line == 0 {
			got = is.Message
		}
	}
	want := "7 duplicated lines (60 tokens), also at f00.go:10-16, f01.go:0-6, f01.go:10-16, f02.go:0-6, f02.go:10-16, f03.go:0-6, f03.go:10-16, f04.go:0-6 and 3 more places."
	if got != want {
		t.Errorf("message\n%s\nwant\n%s", got, want)
	}
}

// A function's finding is told from that of another function of the same
// name in the file by its occurrence among all the file's functions of
// that name, those without findings counted too.
func TestFunctionFingerprintOccurrence(t *testing.T) {
	res := &Result{Files: []File{{Path: "a.py", Functions: []cognitive.Function{
		{Name: "f", Line: 1, EndLine: 2, Params: 8},
		{Name: "g", Line: 3, EndLine: 4, Params: 8},
		{Name: "f", Line: 5, EndLine: 6},
		{Name: "f", Line: 7, EndLine: 8, Params: 9},
	}}}}
	issues := findIssues(res, Config{}.withDefaults(), 2)
	want := map[int]string{
		1: fingerprint(RuleParameters, "a.py", "f", "0"),
		3: fingerprint(RuleParameters, "a.py", "g", "0"),
		7: fingerprint(RuleParameters, "a.py", "f", "2"),
	}
	if len(issues) != len(want) {
		t.Fatalf("%d issues, want %d: %+v", len(issues), len(want), issues)
	}
	for _, is := range issues {
		if is.Rule != RuleParameters || is.Fingerprint != want[is.Line] {
			t.Errorf("line %d: %s %s, want %s %s", is.Line, is.Rule, is.Fingerprint, RuleParameters, want[is.Line])
		}
	}
}

// TestIssuesWorkers: the findings made on several goroutines are those
// made on one, in the same order: files with many functions over the
// thresholds, files over the length limit, and clones repeated between
// the same copies (whose fingerprints count their occurrence).
func TestIssuesWorkers(t *testing.T) {
	res := &Result{}
	for i := range 40 {
		f := File{Path: fmt.Sprintf("d%d/f%02d.js", i%3, i), Code: 200 * i, Lines: 200 * i}
		for k := range i {
			f.Functions = append(f.Functions, cognitive.Function{Name: fmt.Sprint("fn", k%4), Line: 10 * k, EndLine: 10*k + 5*i, Complexity: i + k, Params: k % 9, Nesting: k % 7})
		}
		res.Files = append(res.Files, f)
	}
	for i := range 300 {
		a := dup.Location{Path: fmt.Sprintf("d0/f%02d.js", i%7), StartLine: i % 50, EndLine: i%50 + 6}
		b := dup.Location{Path: fmt.Sprintf("d1/f%02d.js", i%11), StartLine: i % 13, EndLine: i%13 + 6}
		res.Clones = append(res.Clones, dup.Clone{A: a, B: b, Tokens: 50 + i%5, Hash: uint64(i % 17)})
	}
	one := findIssues(res, Config{}.withDefaults(), 1)
	if len(one) < 500 {
		t.Fatalf("only %d issues: the fixture is meant to hold many", len(one))
	}
	for _, workers := range []int{2, 5} {
		if got := findIssues(res, Config{}.withDefaults(), workers); fmt.Sprint(got) != fmt.Sprint(one) {
			t.Errorf("%d workers: the issues differ from one worker's", workers)
		}
	}
}
