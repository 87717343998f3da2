package api_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
)

// Issue 21 item 3: the analysis upload's clones are stored per snapshot,
// paths mapped like the files'; a clone whose place is not within a file
// of the upload is refused with the error body, and nothing is stored.
func TestIngestAnalysisClones(t *testing.T) {
	w := newIngWorld(t)
	post := func(clones string) *resp {
		t.Helper()
		body := `{"commitSha":"` + ingSha + `","branch":"main","files":[
			{"path":"/ci/a.go","lines":40,"loc":30,"duplicatedLines":10},{"path":"b.go","lines":20,"loc":15,"duplicatedLines":6}],
			"clones":[` + clones + `]}`
		return w.do(t, http.MethodPost, ingWeb+"/analyses?stripPrefix=/ci", w.Upload, jsonBody, body)
	}
	for clones, want := range map[string]string{
		`{"a":{"path":"a.go","startLine":1,"endLine":5},"b":{"path":"c.go","startLine":1,"endLine":5},"lines":5}`:    "clones[0].b: c.go is not a file of this upload's files list",
		`{"a":{"path":"a.go","startLine":38,"endLine":44},"b":{"path":"b.go","startLine":1,"endLine":7},"lines":7}`:  "clones[0].a (a.go): lines 38-44 are past the file's end (40 lines)",
		`{"a":{"path":"a.go","startLine":5,"endLine":4},"b":{"path":"b.go","startLine":1,"endLine":2},"lines":2}`:    "clones[0].a (a.go): lines 5-4 are not a range of lines",
		`{"a":{"path":"a.go","startLine":1,"endLine":2},"b":{"path":"../b.go","startLine":1,"endLine":2},"lines":2}`: `clones[0].b.path is "../b.go", which is not a file path inside the repository`,
		`{"a":{"path":"a.go","startLine":1,"endLine":2},"b":{"path":"b.go","startLine":1,"endLine":2},"lines":0}`:    "clones[0]: lines must be at least 1",
		`{"a":{"path":"a.go","startLine":1,"endLine":2},"b":{"path":"b.go","startLine":1,"endLine":2},"tokens":9}`:   `clones[0]: json: unknown field "tokens"`,
	} {
		post(clones).wantError(t, http.StatusBadRequest, want)
	}
	// Nothing stored: the project has no analysis.
	w.get(t, "/gh/acme/projects/web/files?path=a.go", w.Alice).wantStatus(t, http.StatusNotFound)

	// Two clones: a.go 3-12 copied in b.go 5-14, and within a.go.
	r := post(`{"a":{"path":"/ci/a.go","startLine":3,"endLine":12},"b":{"path":"b.go","startLine":5,"endLine":14},"lines":10},
		{"a":{"path":"a.go","startLine":20,"endLine":25},"b":{"path":"a.go","startLine":30,"endLine":35},"lines":6}`).wantStatus(t, http.StatusCreated)
	var snap map[string]any
	mustUnmarshal(t, r.Body, &snap)
	id, _ := snap["id"].(string)
	got := func(path string) string {
		t.Helper()
		cs, err := w.DB.FileClones(context.Background(), w.Web.ID, id, path)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(cs)
	}
	if g, want := got("a.go"), "[{{a.go 3 12} {b.go 5 14} 10} {{a.go 20 25} {a.go 30 35} 6} {{a.go 30 35} {a.go 20 25} 6}]"; g != want {
		t.Errorf("a.go's clones %s, want %s", g, want)
	}
	if g, want := got("b.go"), "[{{b.go 5 14} {a.go 3 12} 10}]"; g != want {
		t.Errorf("b.go's clones %s, want %s", g, want)
	}

	// A SARIF upload for the commit makes a snapshot that keeps them.
	r = w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", ingSha, "branch", "main"), w.Upload, nil, readSARIF(t, "staticcheck.sarif")).
		wantStatus(t, http.StatusCreated)
	mustUnmarshal(t, r.Body, &snap)
	if snap["id"] == id {
		t.Fatalf("the SARIF upload made no snapshot: %v", snap)
	}
	cs, err := w.DB.FileClones(context.Background(), w.Web.ID, snap["id"].(string), "b.go")
	if err != nil || len(cs) != 1 || cs[0].Other.Path != "a.go" {
		t.Errorf("the SARIF snapshot's clones of b.go: %v, %v", cs, err)
	}
}
