package web

import (
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/compare"
)

// The annotated diff of a pull request: each changed file at the head, its
// changed lines marked covered, missed or not coverable, with diffContext
// lines of unchanged source around them and the rest folded in <details>
// (no script), the new issues under their lines. The lines come from the
// file page's highlighting (sourceLines). Without a kept source the changed
// line numbers are listed with their coverage, and the page says why.

// diffContext is how many unchanged lines are shown around changed ones.
const diffContext = 3

type diffFile struct {
	Path, PreviousPath, Status string
	URL                        string // the file's page at the head
	HasCoverage                bool
	Covered, Coverable, Missed int64
	Percent                    string
	Changed                    int    // changed lines
	Issues                     int    // new issues in the file
	NoSource                   string // why the source is not shown
	Rows                       template.HTML
}

// diffFiles makes the changed files' diffs, a few at a time (each reads its
// source), in the change's order.
func (s *Server) diffFiles(r *http.Request, sc *scope, head string, files []compare.FileChange, j *compare.Judged, newIssues []plumb.Issue) ([]diffFile, error) {
	patch := map[string]*compare.PatchFile{}
	if j.Patch != nil {
		for i := range j.Patch.Files {
			patch[j.Patch.Files[i].Path] = &j.Patch.Files[i]
		}
	}
	issues := map[string][]plumb.Issue{}
	for _, is := range newIssues {
		issues[is.Path] = append(issues[is.Path], is)
	}
	out := make([]diffFile, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range diffWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f := files[i]
				out[i], errs[i] = s.diffFile(r, sc, head, f, patch[f.Path], j.Data.HeadHits[f.Path], issues[f.Path])
			}
		}()
	}
	for i := range files {
		if r.Context().Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	return out, errors.Join(errs...)
}

// diffWorkers is how many changed files diffFiles makes at once.
const diffWorkers = 4

// diffFile makes one changed file's diff: pf is its patch coverage (nil
// without), hits the head's, newIssues the new issues in it.
func (s *Server) diffFile(r *http.Request, sc *scope, head string, f compare.FileChange, pf *compare.PatchFile, hits []int64, newIssues []plumb.Issue) (diffFile, error) {
	df := diffFile{Path: f.Path, PreviousPath: f.PreviousPath, Status: f.Status}
	for _, rg := range f.AddedLines {
		df.Changed += rg.End - rg.Start + 1
	}
	if f.Status == "deleted" {
		return df, nil
	}
	df.URL = fileURL(sc.URL, f.Path, head, 0)
	if pf != nil {
		df.HasCoverage, df.Covered, df.Coverable = pf.HasCoverage, pf.Coverage.Covered, pf.Coverage.Coverable
		df.Missed = pf.Coverage.Coverable - pf.Coverage.Covered
	}
	if df.Coverable > 0 {
		df.Percent = percent(df.Covered, df.Coverable)
	}
	byLine := map[int][]plumb.Issue{}
	for _, is := range newIssues {
		if is.StartLine != nil && *is.StartLine >= 1 {
			byLine[*is.StartLine] = append(byLine[*is.StartLine], is)
			df.Issues++
		}
	}
	src, err := s.store.FileSource(r.Context(), sc.Project.ID, head, f.Path)
	if err != nil {
		return df, err
	}
	var lines []string
	if rs := s.sourceLines(sc.Project.ID, f.Path, src); rs != nil {
		lines = rs.Lines
	} else {
		df.NoSource = noSourceReason(src)
	}
	df.Rows = renderDiff(lines, hits, f.AddedLines, byLine, func(line int) string {
		return df.URL + "#L" + strconv.Itoa(line)
	})
	return df, nil
}

// renderDiff writes a changed file's rows: with lines (its source), every
// line, the unchanged ones away from a change folded; without, the changed
// lines alone. hits are the head's (-1 not coverable, 0 missed, n hit).
func renderDiff(lines []string, hits []int64, added []compare.LineRange, issues map[int][]plumb.Issue, link func(line int) string) template.HTML {
	n := len(lines)
	last := 0
	if len(added) > 0 {
		last = added[len(added)-1].End
	}
	if n == 0 {
		n = last
	}
	changed := make([]bool, n+2)
	for _, rg := range added {
		for l := rg.Start; l <= min(rg.End, n); l++ {
			changed[l] = true
		}
	}
	// shown: a changed line, one near it, or (without source) only changed.
	shown := make([]bool, n+2)
	for l := 1; l <= n; l++ {
		if !changed[l] {
			continue
		}
		lo, hi := l, l
		if len(lines) > 0 {
			lo, hi = max(1, l-diffContext), min(n, l+diffContext)
		}
		for k := lo; k <= hi; k++ {
			shown[k] = true
		}
	}
	var b strings.Builder
	b.Grow(n*64 + len(issues)*256)
	row := func(l int) {
		ln := strconv.Itoa(l)
		class, cov := "ctx", ""
		if changed[l] {
			switch {
			case l > len(hits) || hits[l-1] < 0:
				class, cov = "changed nocov", "not coverable"
			case hits[l-1] == 0:
				class, cov = "changed miss", "missed"
			default:
				class, cov = "changed hit", "covered"
			}
		}
		b.WriteString(`<tr class="` + class + `"><td class="ln"><a href="`)
		htmlEscaper.WriteString(&b, link(l))
		b.WriteString(`">` + ln + `</a></td><td class="cov">` + cov + `</td><td class="src">`)
		if l <= len(lines) {
			b.WriteString(lines[l-1])
		}
		b.WriteString("</td></tr>\n")
		if here := issues[l]; len(here) > 0 {
			writeLineIssues(&b, here, 0)
		}
	}
	for l := 1; l <= n; {
		if shown[l] {
			row(l)
			l++
			continue
		}
		end := l
		for end+1 <= n && !shown[end+1] {
			end++
		}
		if len(lines) == 0 {
			b.WriteString(`<tr class="gap"><td colspan="3">…</td></tr>` + "\n")
			l = end + 1
			continue
		}
		b.WriteString(`<tr class="fold"><td colspan="3"><details><summary>` + strconv.Itoa(end-l+1) + ` unchanged lines (` + strconv.Itoa(l) + `–` + strconv.Itoa(end) + `)</summary><table class="code diff">` + "\n")
		for k := l; k <= end; k++ {
			row(k)
		}
		b.WriteString("</table></details></td></tr>\n")
		l = end + 1
	}
	return template.HTML(b.String())
}
