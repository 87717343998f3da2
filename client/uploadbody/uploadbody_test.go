package uploadbody

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/plumbhq/plumb/analyze"
)

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func body(t *testing.T, b Body) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := b(&buf, func(r io.Reader) io.Reader { return r }); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	return v
}

// A SARIF file must be one JSON object (a BOM allowed), nothing after it.
func TestCheckSARIF(t *testing.T) {
	for text, ok := range map[string]bool{
		`{"version":"2.1.0","runs":[{}]}`: true,
		"\xef\xbb\xbf{\"runs\":[]}":       true,
		`[1]`:                             false,
		`{"runs":[`:                       false,
		`{"runs":[]} {}`:                  false,
		`not json`:                        false,
	} {
		if err := CheckSARIF(bytes.NewReader([]byte(text))); (err == nil) != ok {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// Analysis streams the head, the stats file's lists and the SARIF files
// (their BOM dropped) as one JSON object.
func TestAnalysis(t *testing.T) {
	stats := write(t, "stats.json", `{"files":[{"path":"a.go","lines":3,"loc":2,"complexity":1,"duplicatedLines":0}],"removed":["old.go"]}`)
	s1 := write(t, "a.sarif", "\xef\xbb\xbf{\"runs\":[]}")
	v := body(t, Analysis(Head{CommitSHA: "abc", Branch: "main", FullTree: true}, stats, []string{s1, s1}))
	files, _ := v["files"].([]any)
	removed, _ := v["removed"].([]any)
	sarif, _ := v["sarif"].([]any)
	if v["commitSha"] != "abc" || v["fullTree"] != true || len(files) != 1 || len(removed) != 1 || removed[0] != "old.go" || len(sarif) != 2 {
		t.Errorf("body %v", v)
	}
}

// Document appends the SARIF files to the analyzer's own list.
func TestDocument(t *testing.T) {
	s1 := write(t, "a.sarif", `{"runs":[{"tool":{}}]}`)
	doc := analyze.Document{CommitSHA: "abc", Branch: "main", Files: []analyze.DocumentFile{{Path: "a.go", Lines: 1}},
		Removed: []string{}, SARIF: []json.RawMessage{json.RawMessage(`{"runs":[]}`)}}
	v := body(t, Document(doc, []string{s1}))
	if sarif, _ := v["sarif"].([]any); len(sarif) != 2 || v["commitSha"] != "abc" {
		t.Errorf("body %v", v)
	}
	doc.SARIF = []json.RawMessage{}
	v = body(t, Document(doc, []string{s1}))
	if sarif, _ := v["sarif"].([]any); len(sarif) != 1 {
		t.Errorf("without the analyzer's SARIF: %v", v)
	}
}
