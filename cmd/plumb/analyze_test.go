package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/internal/progress"
	"github.com/plumbhq/plumb/internal/testtool"
)

// analyzeTree writes a small checkout for plumb analyze.
func analyzeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testtool.WriteFiles(t, dir, files)
	return dir
}

// analysisOut is the part of plumb analyze --out's document the tests read.
type analysisOut struct {
	CommitSHA string `json:"commitSha"`
	Files     []struct {
		Path       string `json:"path"`
		Complexity int    `json:"complexity"`
	} `json:"files"`
	SARIF []struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Name string } `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	} `json:"sarif"`
}

func (a analysisOut) paths() string {
	var p []string
	for _, f := range a.Files {
		p = append(p, f.Path)
	}
	sort.Strings(p)
	return strings.Join(p, " ")
}

func (a analysisOut) rules() map[string]int {
	m := map[string]int{}
	for _, s := range a.SARIF {
		for _, r := range s.Runs {
			for _, x := range r.Results {
				m[r.Tool.Driver.Name+"/"+x.RuleID]++
			}
		}
	}
	return m
}

const twoIfs = "package p\n\nfunc F(a, b bool) int {\n\tif a {\n\t\tif b {\n\t\t\treturn 1\n\t\t}\n\t}\n\treturn 0\n}\n" // complexity 3

// The claims of plumb analyze --help, through the command line.
func TestAnalyzeFlags(t *testing.T) {
	t.Run("--format table prints a summary and uploads nothing", func(t *testing.T) {
		srv := newFakeIngest(t, snapshotOK)
		dir := analyzeTree(t, map[string]string{"p/f.go": twoIfs, "s.py": "x = 1\n"})
		res := runCLI(t, srv, ghPush, "", "analyze", dir, "--format", "table")
		if res.err != nil {
			t.Fatalf("%v\n%s", res.err, res.stderr)
		}
		if n := len(srv.requests()); n != 0 {
			t.Errorf("%d requests sent", n)
		}
		for _, want := range []string{"Language", "Go", "Python", "Total", "issues"} {
			if !strings.Contains(res.stdout, want) {
				t.Errorf("table has no %q:\n%s", want, res.stdout)
			}
		}
	})
	t.Run("--out writes the upload; --exclude leaves paths out", func(t *testing.T) {
		dir := analyzeTree(t, map[string]string{"src/a.go": twoIfs, "docs/b.go": twoIfs, "docs/x/c.go": twoIfs, "gen/d.go": twoIfs})
		out := filepath.Join(t.TempDir(), "analysis.json")
		res := runCLI(t, nil, nil, "", "analyze", dir, "--out", out, "--exclude", "docs/*", "--exclude", "gen/d.go", "--commit", shaA, "--branch", "main")
		if res.err != nil {
			t.Fatalf("%v\n%s", res.err, res.stderr)
		}
		var doc analysisOut
		if b, err := os.ReadFile(out); err != nil || json.Unmarshal(b, &doc) != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if doc.CommitSHA != shaA || doc.paths() != "src/a.go" {
			t.Errorf("commit %s, files %q; want only src/a.go", doc.CommitSHA, doc.paths())
		}
	})
	t.Run(".plumb.yml sets excludes and thresholds; --sarif adds other tools", func(t *testing.T) {
		dir := analyzeTree(t, map[string]string{
			"a.go":       twoIfs,
			"gen/b.go":   twoIfs,
			".plumb.yml": "analyze:\n  exclude: [\"gen/**\"]\n  thresholds:\n    cognitiveComplexity: 2\n",
		})
		sarif := writeFile(t, "lint.sarif", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"lint"}},"results":[{"ruleId":"L1","message":{"text":"x"}}]}]}`)
		res := runCLI(t, nil, nil, "", "analyze", dir, "--out", "-", "--sarif", sarif, "--commit", shaA, "--branch", "main")
		if res.err != nil {
			t.Fatalf("%v\n%s", res.err, res.stderr)
		}
		var doc analysisOut
		if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
			t.Fatalf("%v: %s", err, res.stdout)
		}
		// a.go scores 3: over the threshold of 2 (the default, 15, would not report it)
		if doc.paths() != ".plumb.yml a.go" || len(doc.SARIF) != 2 { // YAML is measured too
			t.Fatalf("files %q, %d SARIF logs", doc.paths(), len(doc.SARIF))
		}
		if r := doc.rules(); r["plumb/cognitive-complexity"] != 1 || r["lint/L1"] != 1 {
			t.Errorf("results by tool and rule: %v", r)
		}
		// a .plumb.yml the command cannot use is a usage error that says why
		os.WriteFile(filepath.Join(dir, ".plumb.yml"), []byte("analyze:\n  thresholds:\n    cognitiveComplexty: 2\n"), 0o644)
		res = runCLI(t, nil, nil, "", "analyze", dir, "--format", "table")
		if msg := fmt.Sprint(res.err); res.code != 2 || !strings.Contains(msg, ".plumb.yml") || !strings.Contains(msg, "cognitiveComplexty") {
			t.Errorf("misspelt key: exit %d, error %q", res.code, msg)
		}
	})
}

// progressCases are where the CLI's progress bars are drawn (showProgress):
// on a terminal only, never in CI or on a dumb terminal.
var progressCases = []struct {
	name     string
	terminal bool
	env      map[string]string
	want     bool
}{
	{"terminal", true, nil, true},
	{"not a terminal", false, nil, false},
	{"terminal in CI", true, ghPush, false},
	{"dumb terminal", true, map[string]string{"TERM": "dumb"}, false},
}

// A progress bar is drawn on a terminal for a large tree, and cleared at
// the end; never in CI, on a dumb terminal, or when stderr is a file.
func TestAnalyzeProgressBar(t *testing.T) {
	dir := analyzeTree(t, map[string]string{"a.go": twoIfs, "b.go": twoIfs, "c.py": "x = 1\n"})
	for _, c := range progressCases {
		t.Run(c.name, func(t *testing.T) {
			testHooks(t)
			stderrIsTerminal = func(io.Writer) bool { return c.terminal }
			old := progress.MinFiles
			progress.MinFiles = 3 // this tree is "large"
			t.Cleanup(func() { progress.MinFiles = old })
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), []string{"analyze", dir, "--format", "table"}, envOf(c.env), nil, &stdout, &stderr); err != nil {
				t.Fatal(err)
			}
			drawn := strings.Contains(stderr.String(), "\ranalysing [")
			if drawn != c.want {
				t.Errorf("progress bar drawn: %v, want %v; stderr %q", drawn, c.want, stderr.String())
			}
			if c.want && (!strings.Contains(stderr.String(), "100%  3/3 files") || !strings.HasSuffix(stderr.String(), "\r\033[K")) {
				t.Errorf("the bar does not reach 3/3 files and clear itself: %q", stderr.String())
			}
			if strings.Contains(stdout.String(), "\r") {
				t.Error("progress on stdout")
			}
		})
	}
	// a small tree: no bar, even on a terminal
	testHooks(t)
	stderrIsTerminal = func(io.Writer) bool { return true }
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"analyze", dir, "--format", "table"}, envOf(nil), nil, io.Discard, &stderr); err != nil || stderr.Len() != 0 {
		t.Errorf("small tree: %v, stderr %q", err, stderr.String())
	}
}
