package compare

import (
	"reflect"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// A hand-computed example. The change:
//   - a.go modified: lines 2-4 and 9 added; a.go's hits (head) are
//     [1:-1, 2:3, 3:0, 4:0, 5:1, 6:-1, 7:0, 8:1, 9:-1]:
//     line 2 covered, 3-4 missed, 9 not coverable → 1 of 3, uncovered 3-4.
//   - new.go renamed from old.go with lines 1 and 5-6 changed; hits
//     [1:0, 2:1, 3:1, 4:-1, 5:2, 6:0]: 1 missed, 5 covered, 6 missed → 1 of 3,
//     uncovered 1 and 6 (two ranges: not adjacent).
//   - gone.go deleted: no line.
//   - docs.md added, lines 1-10, no coverage at all: counted nowhere.
//   - short.go added lines 1-5 but its report has 2 lines: 3-5 beyond the
//     report are not coverable; hits [1:1, 2:0] → 1 of 2, uncovered 2.
//
// Total: covered 1+1+1 = 3, coverable 3+3+2 = 8 → 37.5 %. Changed lines:
// 4 + 3 + 10 + 5 = 22.
func TestPatchCoverageHandComputed(t *testing.T) {
	files := []FileChange{
		{Path: "a.go", Status: "modified", AddedLines: []LineRange{{2, 4}, {9, 9}}},
		{Path: "new.go", PreviousPath: "old.go", Status: "renamed", AddedLines: []LineRange{{1, 1}, {5, 6}}},
		{Path: "gone.go", Status: "deleted"},
		{Path: "docs.md", Status: "added", AddedLines: []LineRange{{1, 10}}},
		{Path: "short.go", Status: "added", AddedLines: []LineRange{{1, 5}}},
	}
	hits := map[string][]int64{
		"a.go":     {-1, 3, 0, 0, 1, -1, 0, 1, -1},
		"new.go":   {0, 1, 1, -1, 2, 0},
		"old.go":   {1, 1, 1, 1, 1, 1}, // the base path: never read for the head
		"short.go": {1, 0},
	}
	p := PatchCoverage(files, func(path string) []int64 { return hits[path] })
	want := Patch{
		Coverage:     Coverage{Covered: 3, Coverable: 8},
		ChangedLines: 22,
		Files: []PatchFile{
			{Path: "a.go", Status: "modified", HasCoverage: true, Coverage: Coverage{1, 3}, Uncovered: []LineRange{{3, 4}}},
			{Path: "docs.md", Status: "added"},
			{Path: "new.go", PreviousPath: "old.go", Status: "renamed", HasCoverage: true, Coverage: Coverage{1, 3}, Uncovered: []LineRange{{1, 1}, {6, 6}}},
			{Path: "short.go", Status: "added", HasCoverage: true, Coverage: Coverage{1, 2}, Uncovered: []LineRange{{2, 2}}},
		},
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("patch coverage:\n got %+v\nwant %+v", p, want)
	}
	if got := *p.Coverage.Percent(); got != 37.5 {
		t.Errorf("percent = %v, want 37.5", got)
	}
	if (Coverage{}).Percent() != nil {
		t.Errorf("nothing coverable has no percent")
	}
}

func TestMergeRangesAndValidate(t *testing.T) {
	got := MergeRanges([]LineRange{{7, 9}, {1, 2}, {3, 3}, {8, 12}, {20, 20}})
	want := []LineRange{{1, 3}, {7, 12}, {20, 20}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("merge = %v, want %v", got, want)
	}
	c := Change{Files: []FileChange{
		{Path: "a", Status: "modified", AddedLines: []LineRange{{0, 1}}},
		{Path: "b", Status: "renamed"},
		{Path: "c", Status: "moved"},
		{Path: "a", Status: "deleted", AddedLines: []LineRange{{1, 1}}},
	}}
	if p := c.Validate(); len(p) != 5 {
		t.Fatalf("problems = %q, want 5", p)
	}
}

func TestClassifyIssues(t *testing.T) {
	is := func(fp string) plumb.Issue { return plumb.Issue{Fingerprint: fp} }
	s := ClassifyIssues([]plumb.Issue{is("a"), is("b")}, []plumb.Issue{is("b"), is("c")})
	if len(s.New) != 1 || s.New[0].Fingerprint != "c" || len(s.Fixed) != 1 || s.Fixed[0].Fingerprint != "a" ||
		len(s.Unchanged) != 1 || s.Unchanged[0].Fingerprint != "b" {
		t.Fatalf("classes = %+v", s)
	}
}

// NewOpenIssues is ClassifyIssues' New over the open issues of each side.
func TestNewOpenIssues(t *testing.T) {
	is := func(fp, status string) plumb.Issue { return plumb.Issue{Fingerprint: fp, Status: status} }
	base := []plumb.Issue{is("a", "open"), is("b", "ignored"), is("c", "open")}
	head := []plumb.Issue{is("a", "open"), is("b", "open"), is("d", "open"), is("e", "ignored")}
	var got []string
	for _, x := range NewOpenIssues(base, head) {
		got = append(got, x.Fingerprint)
	}
	// b was ignored in the base, so it is new among the open ones
	if strings.Join(got, ",") != "b,d" {
		t.Errorf("new open issues %v, want b,d", got)
	}
}
