package analyze

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/internal/testtool"
)

// clocVersion is the cloc whose rules package lang follows.
const clocVersion = "1.96"

// clocFile is one file of a cloc --by-file --json report.
type clocFile struct {
	Language             string
	Blank, Comment, Code int
}

// runCloc counts the lines of every file of a corpus with cloc, keyed by
// the path relative to its root, and lists the files it gave up on (its
// per-file timeout; it then reports every line as a comment).
func runCloc(t *testing.T, bin string, c corpus) (map[string]clocFile, map[string]bool) {
	t.Helper()
	dir := c.root
	cmd := exec.Command(bin, append([]string{"--quiet", "--by-file", "--skip-uniqueness", "--timeout", "60", "--json"}, c.paths()...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cloc: %v: %s", err, stderr.String())
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatalf("cloc output: %v", err)
	}
	files := map[string]clocFile{}
	for name, v := range raw {
		if name == "header" || name == "SUM" {
			continue
		}
		var f clocFile
		json.Unmarshal(v, &f)
		rel, _ := filepath.Rel(dir, name)
		files[filepath.ToSlash(rel)] = f
	}
	timedOut := map[string]bool{}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if name, ok := strings.CutPrefix(line, "Line count, exceeded timeout:"); ok {
			rel, _ := filepath.Rel(dir, strings.TrimSpace(name))
			timedOut[filepath.ToSlash(rel)] = true
		}
	}
	return files, timedOut
}

func clocBinary(t *testing.T) string {
	t.Helper()
	bin := tool(t, "PLUMB_CLOC", "cloc", "apt-get install -y cloc")
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("cloc --version: %v", err)
	}
	if v := strings.TrimSpace(string(out)); v != clocVersion {
		testtool.Missing(t, "cloc %s is installed; the line counts follow cloc %s (Debian 12's: apt-get install -y cloc, or set PLUMB_CLOC)", v, clocVersion)
	}
	return bin
}

// TestLinesMatchCloc compares the blank, comment and code lines of every
// file of real trees (corpora) with cloc's: at least 99% of files equal.
func TestLinesMatchCloc(t *testing.T) {
	bin := clocBinary(t)
	for _, c := range corpora(t) {
		t.Run(c.name, func(t *testing.T) {
			ref, timedOut := runCloc(t, bin, c)
			res := measureAll(t, c, noDup)
			ours := map[string]File{}
			for _, f := range res.Files {
				ours[f.Path] = f
			}
			why := map[string]string{}
			for _, s := range append(res.Skipped, res.Warnings...) {
				why[s.Path] = s.Reason
			}
			for name := range ref {
				if st, err := os.Lstat(filepath.Join(c.root, name)); err == nil && st.Mode()&os.ModeSymlink != 0 {
					why[name] = "a symbolic link: cloc counts its target, plumb leaves links out"
				}
			}
			same, total := 0, 0
			var diffs []string
			for name, e := range ref {
				if timedOut[name] {
					continue
				}
				total++
				f, ok := ours[name]
				switch {
				case !ok:
					diffs = append(diffs, fmt.Sprintf("%s [%s]: not measured (%s)", name, e.Language, why[name]))
				case f.Language != e.Language:
					diffs = append(diffs, fmt.Sprintf("%s: language %s, cloc %s", name, f.Language, e.Language))
				case f.Blank != e.Blank || f.Comment != e.Comment || f.Code != e.Code:
					diffs = append(diffs, fmt.Sprintf("%s [%s]: blank/comment/code %d/%d/%d, cloc %d/%d/%d", name, f.Language, f.Blank, f.Comment, f.Code, e.Blank, e.Comment, e.Code))
				default:
					same++
				}
			}
			var extra []string // measured here, not by cloc
			for _, f := range res.Files {
				if _, ok := ref[f.Path]; !ok {
					extra = append(extra, f.Path+" ["+f.Language+"]")
				}
			}
			sort.Strings(extra)
			if len(extra) > 0 {
				t.Logf("%d files measured by plumb that cloc does not count, such as %s", len(extra), strings.Join(extra[:min(len(extra), 10)], ", "))
			}
			sort.Strings(diffs)
			for i, d := range diffs {
				if i < 30 {
					t.Log(d)
				}
			}
			if total == 0 {
				t.Fatalf("cloc counted no file under %s", strings.Join(c.paths(), " "))
			}
			pct := 100 * float64(same) / float64(total)
			t.Logf("%s (%s): %d of %d files equal to cloc %s (%.2f%%); %d left out, cloc gave up on them (timeout)", c.name, strings.Join(c.paths(), " "), same, total, clocVersion, pct, len(timedOut))
			if pct < 99 {
				t.Errorf("%.2f%% of files equal to cloc, below 99%%", pct)
			}
		})
	}
}
