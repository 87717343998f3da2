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
