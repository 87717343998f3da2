package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// CompareOptions size the pull request project; zero values take the
// defaults of issue 13's benchmark.
type CompareOptions struct {
	Files      int // files in the project (100,000)
	Changed    int // files the pull request touches (2,000)
	Issues     int // issues of the base (20,000)
	Components int // components (20)
}

// CompareFixture describes a generated pull request project.
type CompareFixture struct {
	Token       string
	Workspace   string
	Project     string
	PullRequest int
	Base, Head  string // commit SHAs
	Files       int
	Changed     int
	Issues      int
}

// GenerateCompare creates workspace "bench", project "pulls" and one pull
// request, all through the HTTP API as CI would send them (h serves the
// API on db): a default-branch analysis of o.Files files with o.Issues
// issues and its coverage (about 27 coverable lines a file); the head, on
// another branch, with coverage that differs in the o.Changed files it
// touches, an analysis that fixes 2.5% of the issues and adds as many, and
// the change (two added ranges per touched file, a few files added, renamed
// and deleted) as `plumb upload` sends it.
func GenerateCompare(ctx context.Context, db *sqlstore.DB, h http.Handler, o CompareOptions) (CompareFixture, error) {
	if o.Files == 0 {
		o.Files = 100_000
	}
	if o.Changed == 0 {
		o.Changed = 2_000
	}
	if o.Issues == 0 {
		o.Issues = 20_000
	}
	if o.Components == 0 {
		o.Components = 20
	}
	f := CompareFixture{Workspace: "bench", Project: "pulls", PullRequest: 42, Base: sha(1), Head: sha(2),
		Files: o.Files, Changed: o.Changed, Issues: o.Issues}
	token, u, p, err := benchProject(ctx, db, f.Workspace, f.Project)
	if err != nil {
		return f, err
	}
	f.Token = token
	for c := 0; c < o.Components; c++ {
		if _, err := db.CreateComponent(ctx, plumb.Component{ProjectID: p.ID, Name: fmt.Sprintf("component-%02d", c),
			PathGlobs: []string{fmt.Sprintf("svc%02d/*", c)}, CreatorID: u.ID}); err != nil {
			return f, err
		}
	}
	path := func(i int) string {
		return fmt.Sprintf("svc%02d/pkg%03d/file%06d.go", i%o.Components, (i/o.Components)%200, i)
	}
	// the touched files: every (Files/Changed)th file
	step := o.Files / o.Changed
	touched := func(i int) bool { return i%step == 0 && i/step < o.Changed }
	post := func(endpoint, contentType string, body []byte) error {
		r := httptest.NewRequest(http.MethodPost, "/ingest/gh/bench/projects/pulls"+endpoint, bytes.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+token)
		r.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r.WithContext(ctx))
		if rec.Code != http.StatusCreated {
			return fmt.Errorf("POST %s: %d %.300s", endpoint, rec.Code, rec.Body.String())
		}
		return nil
	}

	// coverage: line l of a 40-line file is coverable unless l%3 == 0; the
	// head's touched files miss a different set of lines.
	coverage := func(head bool) []byte {
		var b bytes.Buffer
		for i := 0; i < o.Files; i++ {
			fmt.Fprintf(&b, "SF:%s\n", path(i))
			for l := 1; l <= 40; l++ {
				if l%3 == 0 {
					continue
				}
				hits := (i + l) % 5 // one line in five missed
				if head && touched(i) {
					hits = (i + l) % 4
				}
				fmt.Fprintf(&b, "DA:%d,%d\n", l, hits)
			}
			b.WriteString("end_of_record\n")
		}
		return b.Bytes()
	}
	rng := rand.New(rand.NewPCG(13, 42))
	type finding struct {
		tool, rule, level, path string
		line                    int
	}
	levels := []string{"error", "warning", "note"}
	issues := make([]finding, o.Issues)
	for k := range issues {
		t := benchTools[rng.IntN(len(benchTools))].name
		issues[k] = finding{t, fmt.Sprintf("R%03d", rng.IntN(300)), levels[rng.IntN(3)], path(rng.IntN(o.Files)), 1 + rng.IntN(40)}
	}
	sarif := func(fs []finding) json.RawMessage {
		byTool := map[string][]map[string]any{}
		for _, x := range fs {
			byTool[x.tool] = append(byTool[x.tool], map[string]any{
				"ruleId": x.rule, "level": x.level,
				"message": map[string]any{"text": fmt.Sprintf("%s at %s:%d", x.rule, x.path, x.line)},
				"locations": []any{map[string]any{"physicalLocation": map[string]any{
					"artifactLocation": map[string]any{"uri": x.path},
					"region":           map[string]any{"startLine": x.line}}}},
			})
		}
		var runs []any
		for _, t := range benchTools {
			runs = append(runs, map[string]any{"tool": map[string]any{"driver": map[string]any{"name": t.name}}, "results": append([]map[string]any{}, byTool[t.name]...)})
		}
		b, _ := json.Marshal(map[string]any{"version": "2.1.0", "runs": runs})
		return b
	}
	analysis := func(commit, branch string, at time.Time, fs []finding) ([]byte, error) {
		files := make([]map[string]any, o.Files)
		for i := range files {
			files[i] = map[string]any{"path": path(i), "lines": 40, "loc": 30, "complexity": i % 17, "duplicatedLines": i % 7}
		}
		return json.Marshal(map[string]any{"commitSha": commit, "branch": branch, "analyzedAt": at.Format(time.RFC3339),
			"fullTree": true, "files": files, "sarif": []json.RawMessage{sarif(fs)}})
	}
	at := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	body, err := analysis(f.Base, "main", at, issues)
	if err != nil {
		return f, err
	}
	if err := post("/analyses", "application/json", body); err != nil {
		return f, err
	}
	if err := post("/coverage?commitSha="+f.Base+"&branch=main&coverageTag=unit", "text/plain", coverage(false)); err != nil {
		return f, err
	}
	// the head fixes the first 2.5% of the issues and adds as many new ones
	moved := o.Issues / 40
	head := append([]finding{}, issues[moved:]...)
	for k := 0; k < moved; k++ {
		head = append(head, finding{"semgrep", fmt.Sprintf("NEW%03d", k%50), levels[k%3], path(k * step % o.Files), 1 + k%40})
	}
	if body, err = analysis(f.Head, "feature/x", at.Add(30*time.Minute), head); err != nil {
		return f, err
	}
	if err := post("/analyses", "application/json", body); err != nil {
		return f, err
	}
	if err := post(fmt.Sprintf("/coverage?commitSha=%s&branch=feature/x&coverageTag=unit&pullRequestNumber=%d", f.Head, f.PullRequest), "text/plain", coverage(true)); err != nil {
		return f, err
	}
	var changed []map[string]any
	for i := 0; i < o.Files; i++ {
		if !touched(i) {
			continue
		}
		fc := map[string]any{"path": path(i), "status": "modified", "addedLines": [][2]int{{3, 9}, {20, 31}}}
		switch (i / step) % 100 {
		case 1:
			fc["status"] = "added"
			fc["addedLines"] = [][2]int{{1, 40}}
		case 2:
			fc["status"], fc["previousPath"] = "renamed", strings.TrimSuffix(path(i), ".go")+"_old.go"
		case 3:
			fc["status"], fc["addedLines"] = "deleted", [][2]int{}
		}
		changed = append(changed, fc)
	}
	body, err = json.Marshal(map[string]any{"commitSha": f.Head, "branch": "feature/x", "baseCommitSha": f.Base,
		"baseBranch": "main", "pullRequestNumber": f.PullRequest, "files": changed})
	if err != nil {
		return f, err
	}
	return f, post("/changes", "application/json", body)
}
