package analysis

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// collect records what a Handler receives, one string per call.
func collect(got *[]string) Handler {
	add := func(format string, args ...any) error { *got = append(*got, fmt.Sprintf(format, args...)); return nil }
	return Handler{
		List:    func(name string) error { return add("list %s", name) },
		File:    func(i int, f File) error { return add("file %d %+v", i, f) },
		Removed: func(i int, p string) error { return add("removed %d %s", i, p) },
		Clone:   func(i int, c Clone) error { return add("clone %d %+v", i, c) },
		SARIF:   func(i int, start, end int64) error { return add("sarif %d %d-%d", i, start, end) },
		End:     func(name string) error { return add("end %s", name) },
	}
}

// An upload's members in any order; each embedded log's place is where it
// is in the input, separators before it included.
func TestRead(t *testing.T) {
	doc := `{"files":[{"path":"a.go","lines":10,"loc":8,"complexity":2,"duplicatedLines":1}],"commitSha":"abc","branch":null,` +
		`"sarif":[{"runs":[]}, {"version":"2.1.0"}],"removed":["old.go"],"fullTree":false,"analyzedAt":"2026-01-01T00:00:00Z"}`
	var got []string
	head, err := Read(strings.NewReader(doc), collect(&got))
	if err != nil {
		t.Fatal(err)
	}
	if head.CommitSHA != "abc" || head.Branch != "" || head.AnalyzedAt != "2026-01-01T00:00:00Z" || head.FullTree == nil || *head.FullTree {
		t.Errorf("head %+v", head)
	}
	first := strings.Index(doc, `"sarif":[`) + len(`"sarif":[`)
	second := strings.Index(doc, `}, {"version"`) + 1
	want := []string{"list files", "file 0 {Path:a.go Lines:10 LOC:8 Complexity:2 DuplicatedLines:1}", "end files",
		"list sarif", fmt.Sprintf("sarif 0 %d-%d", first, second), fmt.Sprintf("sarif 1 %d-%d", second, second+len(`, {"version":"2.1.0"}`)), "end sarif",
		"list removed", "removed 0 old.go", "end removed"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if _, err := Read(strings.NewReader(`{"files":null}`), collect(&got)); err != nil {
		t.Errorf("a null list: %v", err)
	}
}

func TestReadStats(t *testing.T) {
	for doc, want := range map[string]string{
		`[{"path":"a.go","lines":3}]`:  `[list files file 0 {Path:a.go Lines:3 LOC:0 Complexity:0 DuplicatedLines:0} end files]`,
		`{"removed":["x"],"files":[]}`: `[list removed removed 0 x end removed list files end files]`,
		`{"removed":null}`:             `[]`,
	} {
		var got []string
		if err := ReadStats(strings.NewReader(doc), collect(&got)); err != nil || fmt.Sprint(got) != want {
			t.Errorf("%s: %q, %v; want %s", doc, got, err, want)
		}
	}
}

// The clones list: each duplicated block's two places and its length.
func TestReadClones(t *testing.T) {
	doc := `{"clones":[{"a":{"path":"a.go","startLine":3,"endLine":9},"b":{"path":"b.go","startLine":10,"endLine":16},"lines":7}]}`
	var got []string
	if _, err := Read(strings.NewReader(doc), collect(&got)); err != nil {
		t.Fatal(err)
	}
	want := "[list clones clone 0 {A:{Path:a.go StartLine:3 EndLine:9} B:{Path:b.go StartLine:10 EndLine:16} Lines:7} end clones]"
	if fmt.Sprint(got) != want {
		t.Errorf("got  %q\nwant %s", got, want)
	}
	for doc, want := range map[string]string{
		`{"clones":[{"a":{"path":"a.go","line":3}}]}`: `clones[0]: json: unknown field "line"`,
		`{"clones":[{"lines":"7"}]}`:                  "clones[0]: json: cannot unmarshal",
		`{"clones":{}}`:                               "field clones must be an array",
	} {
		if _, err := Read(strings.NewReader(doc), Handler{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", doc, err, want)
		}
	}
}

// Shape problems are *ShapeError saying where; data after the document is
// ErrTrailingData; a handler's error comes back as it is.
func TestErrors(t *testing.T) {
	shape := func(err error) string {
		if se, ok := errors.AsType[*ShapeError](err); ok {
			return se.Error()
		}
		return fmt.Sprintf("not a shape error: %v", err)
	}
	for doc, want := range map[string]string{
		`[]`:                             `the analysis must start with "{"`,
		`{"files":{}}`:                   "field files must be an array",
		`{"files":[{"path":"a","x":1}]}`: `files[0]: json: unknown field "x"`,
		`{"files":[{"path":"a","lines":"many"}]}`: "files[0]: json: cannot unmarshal",
		`{"removed":[1]}`:                         "removed[0]: json: cannot unmarshal",
		`{"sarif":[{"a":]}`:                       "sarif[0]: invalid character",
		`{"other":1}`:                             `json: unknown field "other"`,
		`{"commitSha":3}`:                         "field commitSha: json: cannot unmarshal",
		`{"files":[`:                              "EOF",
	} {
		if _, err := Read(strings.NewReader(doc), Handler{}); !strings.Contains(shape(err), want) {
			t.Errorf("%s: %v, want %q", doc, err, want)
		}
	}
	for doc, want := range map[string]string{
		`"x"`:                             "the stats must be a JSON object",
		`{"files":[],"files":[]}`:         `field "files" appears twice`,
		`{"commitSha":"abc"}`:             `unknown field "commitSha"`,
		`[{"path":" "}]`:                  "files[0]: path is required",
		`{"removed":[""]}`:                "removed[0]: empty path",
		`[{"path":"a","complexity":1.5}]`: "files[0]: json: cannot unmarshal",
	} {
		if err := ReadStats(strings.NewReader(doc), Handler{}); !strings.Contains(shape(err), want) {
			t.Errorf("stats %s: %v, want %q", doc, err, want)
		}
	}
	if _, err := Read(strings.NewReader(`{} {}`), Handler{}); err != ErrTrailingData {
		t.Errorf("two objects: %v", err)
	}
	if err := ReadStats(strings.NewReader(`[] 1`), Handler{}); err != ErrTrailingData {
		t.Errorf("stats and more: %v", err)
	}
	stop := errors.New("stop")
	if _, err := Read(strings.NewReader(`{"removed":["a","b"]}`), Handler{Removed: func(int, string) error { return stop }}); err != stop {
		t.Errorf("a handler's error: %v", err)
	}
}
