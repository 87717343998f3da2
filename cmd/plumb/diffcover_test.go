package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plumbhq/plumb/internal/testtool"
)

// diffCoverVersion is the npm diff-cover (a TypeScript port of Python's
// diff_cover) that checks Plumb's patch coverage.
const diffCoverVersion = "2.0.5"

// diffCover returns the command that runs npm's diff-cover, installing it
// once into the test tools' cache folder (testtool.CacheDir; .ci/run
// installs it there beforehand); without node, npm or the registry the test
// ends with testtool.Missing.
func diffCover(t *testing.T) []string {
	t.Helper()
	node := testtool.Need(t, "node", "the check against diff-cover needs node and npm (apt-get install -y nodejs npm)")
	dir := filepath.Join(testtool.CacheDir(), "diff-cover-"+diffCoverVersion)
	script := filepath.Join(dir, "node_modules", "diff-cover", "dist", "diff-cover.js")
	if _, err := os.Stat(script); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		npm := testtool.Need(t, "npm", "the check against diff-cover installs it with npm (apt-get install -y npm)")
		install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", dir, "diff-cover@"+diffCoverVersion)
		if out, err := install.CombinedOutput(); err != nil {
			testtool.Missing(t, "npm install diff-cover@%s failed (no npm registry?): %v\n%s", diffCoverVersion, err, out)
		}
	}
	return []string{node, script}
}

// Patch coverage, per file and in total, equals diff-cover's on the same git
// change and LCOV report: a modified file with added lines, a renamed and
// edited file, a deleted file and a file without coverage (README).
func TestPatchCoverageMatchesDiffCover(t *testing.T) {
	dc := diffCover(t)
	e := startE2E(t, "sqlite:"+filepath.Join(t.TempDir(), "plumb.db"))
	dir, git := gitRepo(t)
	ciGitDir = dir
	write := fileWriter(t, dir)
	write("a.js", "l1\nl2\nl3\nl4\nl5\nl6\n")
	write("old.js", "o1\no2\no3\no4\n")
	write("gone.js", "g1\ng2\n")
	base := commitAll(git, "base")
	git("checkout", "-q", "-b", "feature")
	write("a.js", "l1\nL2\nL3\nl4\nl5\nl6\nl7\nl8\n")
	git("mv", "old.js", "new.js")
	write("new.js", "o1\nN2\no3\no4\nN5\nN6\n")
	git("rm", "-q", "gone.js")
	write("README.md", "# hi\nmore\n")
	head := commitAll(git, "head")
	lcov := filepath.Join(dir, "lcov.info")
	upload := func(body, commit string, args ...string) {
		t.Helper()
		write("lcov.info", body)
		if _, errs, code := e.ci(t, e.upload, append([]string{"upload", "coverage", lcov, "--commit", commit}, args...)...); code != 0 {
			t.Fatalf("upload for %s: %d %s", commit, code, errs)
		}
	}
	upload("SF:a.js\nDA:1,1\nDA:2,1\nend_of_record\n", base, "--branch", "main")
	report := "SF:a.js\nDA:1,1\nDA:2,1\nDA:3,0\nDA:4,1\nDA:7,0\nDA:8,4\nend_of_record\n" +
		"SF:new.js\nDA:1,1\nDA:2,0\nDA:5,3\nend_of_record\n"
	upload(report, head, "--branch", "feature", "--pr", "9", "--base", "main")

	// diff-cover on the same checkout and report
	out := filepath.Join(t.TempDir(), "diff-cover.json")
	cmd := exec.Command(dc[0], append(dc[1:], lcov, "--compare-branch", "main", "--ignore-unstaged", "--format", "json:"+out)...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("diff-cover: %v\n%s", err, b)
	}
	var want struct {
		SrcStats map[string]struct {
			CoveredLines   []int `json:"covered_lines"`
			ViolationLines []int `json:"violation_lines"`
		} `json:"src_stats"`
		TotalLines   int     `json:"total_num_lines"`
		TotalMissing int     `json:"total_num_violations"`
		Percent      float64 `json:"total_percent_covered"`
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("diff-cover's report: %v\n%s", err, raw)
	}

	var got struct {
		Patch struct {
			Covered   int     `json:"covered"`
			Coverable int     `json:"coverable"`
			Percent   float64 `json:"percent"`
			Files     []struct {
				Path           string   `json:"path"`
				HasCoverage    bool     `json:"hasCoverage"`
				Covered        int      `json:"covered"`
				Coverable      int      `json:"coverable"`
				UncoveredLines [][2]int `json:"uncoveredLines"`
			} `json:"files"`
		} `json:"patch"`
	}
	if st := e.get(t, "/gh/acme/projects/web/pulls/9", &got); st != 200 {
		t.Fatalf("pull request 9: status %d", st)
	}
	if got.Patch.Coverable != want.TotalLines || got.Patch.Coverable-got.Patch.Covered != want.TotalMissing || fmt.Sprintf("%.2f", got.Patch.Percent) != fmt.Sprintf("%.2f", want.Percent) {
		t.Errorf("patch %d/%d (%.2f%%); diff-cover %d lines, %d missing (%.2f%%)", got.Patch.Covered, got.Patch.Coverable, got.Patch.Percent,
			want.TotalLines, want.TotalMissing, want.Percent)
	}
	t.Logf("patch %d/%d (%.2f%%); diff-cover %d lines, %d missing (%.2f%%)", got.Patch.Covered, got.Patch.Coverable, got.Patch.Percent,
		want.TotalLines, want.TotalMissing, want.Percent)
	seen := 0
	for _, f := range got.Patch.Files {
		w, ok := want.SrcStats[f.Path]
		if !f.HasCoverage {
			if ok {
				t.Errorf("%s: no coverage in Plumb, diff-cover reports it", f.Path)
			}
			continue
		}
		seen++
		var missed []int
		for _, r := range f.UncoveredLines {
			for l := r[0]; l <= r[1]; l++ {
				missed = append(missed, l)
			}
		}
		if !ok || f.Covered != len(w.CoveredLines) || !slices.Equal(missed, w.ViolationLines) {
			t.Errorf("%s: covered %d, missed %v; diff-cover covered %v, missed %v", f.Path, f.Covered, missed, w.CoveredLines, w.ViolationLines)
		}
	}
	if seen != len(want.SrcStats) || seen != 2 {
		t.Errorf("files with patch coverage: Plumb %d, diff-cover %d (%s)", seen, len(want.SrcStats), raw)
	}
}
