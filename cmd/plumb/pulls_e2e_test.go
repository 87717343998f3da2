package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A pull request end to end: coverage of the base on main, coverage of the
// head with the change computed by git (plumb upload coverage --base), the
// comparison through the API, and plumb gate's table and exit status.
func TestPullRequestEndToEnd(t *testing.T) {
	onBothBackends(t, func(t *testing.T, e *e2e) {
		dir, git := gitRepo(t)
		ciGitDir = dir
		write := fileWriter(t, dir)
		write("a.go", "1\n2\n3\n4\n")
		base := commitAll(git, "base")
		git("checkout", "-q", "-b", "feature")
		write("a.go", "1\nTWO\nTHREE\n4\n")
		write("b.go", "b1\nb2\n")
		head := commitAll(git, "head")

		lcov := filepath.Join(t.TempDir(), "lcov.info")
		report := func(body string) string {
			if err := os.WriteFile(lcov, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			return lcov
		}
		if _, errs, code := e.ci(t, e.upload, "upload", "coverage", report("SF:a.go\nDA:1,1\nDA:2,1\nDA:3,1\nDA:4,1\nend_of_record\n"),
			"--commit", base, "--branch", "main"); code != 0 {
			t.Fatalf("base upload: %d %s", code, errs)
		}
		// Head: a.go 2 missed (changed lines 2-3: 1 of 2), b.go 2 missed
		// (1 of 2): patch 2 of 4 = 50 %; total 4/4 → 4/6.
		_, errs, code := e.ci(t, e.upload, "upload", "coverage", report("SF:a.go\nDA:1,1\nDA:2,0\nDA:3,1\nDA:4,1\nend_of_record\nSF:b.go\nDA:1,1\nDA:2,0\nend_of_record\n"),
			"--commit", head, "--branch", "feature", "--pr", "3", "--base", "main")
		if code != 0 || !strings.Contains(errs, "sent the change against main (merge base "+short(base)+"): 2 files, 4 changed lines") {
			t.Fatalf("head upload: %d %s", code, errs)
		}
		var cmp struct {
			Patch struct {
				Percent float64 `json:"percent"`
			} `json:"patch"`
			CoverageDelta float64 `json:"coverageDelta"`
		}
		if st := e.get(t, "/gh/acme/projects/web/pulls/3", &cmp); st != 200 || cmp.Patch.Percent != 50 || cmp.CoverageDelta != -33.33 {
			t.Fatalf("pull request 3: status %d, %+v", st, cmp)
		}

		out, _, code := e.ci(t, e.upload, "gate", "--head", head)
		if code != 1 || !strings.HasPrefix(out, "Quality gate: FAILED (head "+short(head)+" against base "+short(base)+")") {
			t.Fatalf("gate: exit %d\n%s", code, out)
		}
		for _, row := range []string{
			`patch_coverage\s+≥ 80.00%\s+50.00% \(2 of 4 lines\)\s+failed`,
			`coverage_drop\s+≤ 1.00 points\s+100.00% → 66.67%\s+failed`,
			// no analysis on either side: the issues are not compared
			`new_issues\s+≤ 0 of level high or worse\s+no analysis of either commit\s+no data`,
		} {
			if !regexp.MustCompile(row).MatchString(out) {
				t.Errorf("gate table lacks %s:\n%s", row, out)
			}
		}
		// Against itself: total coverage did not move; the patch is still
		// the head's uploaded change against its merge base.
		out, _, code = e.ci(t, e.upload, "gate", "--head", head, "--base", head)
		if code != 1 || !regexp.MustCompile(`coverage_drop\s+≤ 1.00 points\s+66.67% → 66.67%\s+passed`).MatchString(out) ||
			!regexp.MustCompile(`patch_coverage\s+≥ 80.00%\s+50.00%`).MatchString(out) {
			t.Errorf("gate against itself: exit %d\n%s", code, out)
		}
		// The failing conditions made advisory: still shown as failed,
		// but the gate passes and plumb gate exits 0.
		e.adminCmd(t, "project", "gate", "acme/web", "--set", "patchCoverage=advisory", "--set", "coverageDrop=advisory")
		out, _, code = e.ci(t, e.upload, "gate", "--head", head)
		if code != 0 || !strings.HasPrefix(out, "Quality gate: PASSED") ||
			!regexp.MustCompile(`patch_coverage\s+≥ 80.00%\s+50.00% \(2 of 4 lines\)\s+failed \(advisory\)`).MatchString(out) ||
			!regexp.MustCompile(`coverage_drop\s+≤ 1.00 points\s+100.00% → 66.67%\s+failed \(advisory\)`).MatchString(out) {
			t.Errorf("gate with advisory conditions: exit %d\n%s", code, out)
		}
	})
}

// fileWriter writes files into dir.
// commitAll commits every change of the work tree as msg and returns the
// new commit.
func commitAll(git func(args ...string) string, msg string) string {
	git("add", "-A")
	git("commit", "-q", "-m", msg)
	return git("rev-parse", "HEAD")
}

func fileWriter(t *testing.T, dir string) func(name, body string) {
	return func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
