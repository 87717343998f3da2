package web

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/analyze/cognitive"
	"github.com/plumbhq/plumb/source"
	"github.com/plumbhq/plumb/web/highlight"
)

// A file's page: its source highlighted, each line with its coverage (the
// union of the coverage tags, or one tag) and hit count, the line's issues
// under it (ignored ones folded), each function's cognitive complexity at
// its first line, and a header with the file's figures. What the commit
// lacks (source, coverage, figures, issues) is said, never an error. The
// lines are written as one HTML fragment here (a 20,000-line file is one
// pass over its lines), the header by the template.

type fileData struct {
	*filesScope
	Path, Name  string
	Figures     plumb.TreeFile
	HasFigures  bool
	Percent     string
	Tags        []coverageTag
	Tag         string // the coverage tag shown, "" the union
	Issues      int    // open issues at lines of the file
	Ignored     int
	Unplaced    []plumb.Issue // issues without a line of the file
	Covered     int64
	Missed      int64
	Partial     int64 // covered lines with some branch not run
	FirstMissed int   // the first missed or partial line
	FirstIssue  int
	Functions   int
	Lexer       string
	Source      plumb.FileSource
	NoSource    string // why the source is not shown
	Missing     []string
	Clones      int // duplicated blocks marked (one per copy in this file)
	Lines       template.HTML
	LineCount   int
}

func (s *Server) handleFile(w http.ResponseWriter, r *http.Request, v *view, path string) (string, error) {
	fs, err := s.filesOf(r, v, path)
	if err != nil {
		return "", err
	}
	ctx := r.Context()
	id := fs.Project.ID
	d := fileData{filesScope: fs, Path: path, Tag: r.URL.Query().Get("tag")}
	d.Name = path[strings.LastIndexByte(path, '/')+1:]
	if d.Figures, d.HasFigures, err = s.store.FileFigures(ctx, id, fs.At, path); err != nil {
		return "", err
	}
	var hits []int64 // the shown coverage: -1 not coverable, 0 missed, n hit
	var branches []plumb.LineBranches
	if fs.At.Coverage {
		tags, files, err := s.store.FileCoverage(ctx, id, fs.At.SHA, path)
		if err != nil && plumb.ErrorCode(err) != plumb.ENOTFOUND {
			return "", err
		}
		if hits, branches, err = d.pickCoverage(tags, files); err != nil {
			return "", err
		}
	}
	var issues []plumb.Issue
	var clones []plumb.FileClone
	if fs.At.SnapshotID != "" {
		if issues, err = s.store.FileIssues(ctx, id, fs.At.SnapshotID, path); err != nil {
			return "", err
		}
		if clones, err = s.store.FileClones(ctx, id, fs.At.SnapshotID, path); err != nil {
			return "", err
		}
	}
	// Only a file of the commit's figures, coverage or issues is fetched
	// from the code host.
	readSource := s.store.FileSource
	if d.HasFigures || hits != nil || len(issues) > 0 {
		readSource = s.store.FileSourceOrFetch
	}
	if d.Source, err = readSource(ctx, id, fs.At.SHA, path); err != nil {
		return "", err
	}
	if !d.HasFigures && hits == nil && len(issues) == 0 && d.Source.State == string(source.StateAbsent) {
		return "", plumb.Errorf(plumb.ENOTFOUND, "%s is not a file of this commit's analysis, coverage or sources.", strconv.Quote(path))
	}
	var lines []string
	var fns map[int][]cognitive.Function
	if rs := s.sourceLines(id, path, d.Source); rs != nil {
		lines, d.Lexer, fns = rs.Lines, rs.Lexer, rs.functions(path, d.Source.Content)
	}
	d.NoSource = noSourceReason(d.Source)
	d.Lines = d.render(lines, lineCoverage{hits, branches}, issues, fns, clones)
	d.Missing = fs.missing()
	if fs.At.Coverage && hits == nil {
		d.Missing = append(d.Missing, "This file has no coverage at this commit: no coverage report names it.")
	}
	if fs.At.SnapshotID != "" && len(issues) == 0 {
		d.Missing = append(d.Missing, "No issue of this commit's analysis is in this file.")
	}
	if d.Covered+d.Missed > 0 {
		d.Percent = percent(d.Covered, d.Covered+d.Missed)
	}
	fs.crumbs(v, path, nil)
	v.Title = path + " · " + fs.WS.Key + "/" + fs.Project.Key
	v.Data = &d
	return "file", nil
}

// sourceLines is a kept source's lines highlighted (and its functions
// scored), from the render cache; nil when the source is not kept ("ok").
// The file page and the pull-request diff both show lines from here.
func (s *Server) sourceLines(projectID, path string, src plumb.FileSource) *renderedSource {
	if src.State != string(source.StateOK) {
		return nil
	}
	// The lexer is chosen by the file's name: the path is part of the key.
	rs, _ := s.rendered.get(renderKey{projectID, src.BlobID, path}, func() (*renderedSource, error) {
		lines, lexer := highlight.Lines(path, src.Content)
		return &renderedSource{Lines: lines, Lexer: lexer}, nil
	})
	return rs
}

// pickCoverage chooses the coverage shown: the tag ?tag= names, else the
// union of every tag (a line is covered when a tag hit it, missed when a
// tag could cover it and none did; its count the sum; its branch figures
// merged as plumb.MergeBranches merges uploads), and the tag links.
func (d *fileData) pickCoverage(tags []string, files []plumb.FileCoverageEntry) ([]int64, []plumb.LineBranches, error) {
	if len(files) == 0 {
		if d.Tag != "" {
			return nil, nil, plumb.Errorf(plumb.ENOTFOUND, "No coverage of this file under the tag %s.", strconv.Quote(d.Tag))
		}
		return nil, nil, nil
	}
	link := func(tag string) string {
		q := url.Values{}
		if r := d.linkRef(); r != "" {
			q.Set("ref", r)
		}
		if tag != "" {
			q.Set("tag", tag)
		}
		u := d.URL + "/files/" + escapePath(d.Path)
		if e := q.Encode(); e != "" {
			u += "?" + e
		}
		return u
	}
	if len(files) > 1 {
		d.Tags = append(d.Tags, coverageTag{Name: "all tags", URL: link(""), Current: d.Tag == ""})
	}
	var union []int64
	var branches []plumb.LineBranches
	for _, f := range files {
		if len(files) > 1 {
			d.Tags = append(d.Tags, coverageTag{Name: f.Tag, URL: link(f.Tag), Current: d.Tag == f.Tag})
		}
		if d.Tag == f.Tag {
			return f.Hits, f.Branches, nil
		}
		branches = plumb.MergeBranches(branches, f.Branches)
		for len(union) < len(f.Hits) {
			union = append(union, -1)
		}
		for i, h := range f.Hits {
			switch {
			case h < 0:
			case union[i] < 0:
				union[i] = h
			default:
				union[i] += h
			}
		}
	}
	if d.Tag != "" {
		return nil, nil, plumb.Errorf(plumb.ENOTFOUND, "No coverage of this file under the tag %s; it has %s.", strconv.Quote(d.Tag), strings.Join(tags, ", "))
	}
	return union, branches, nil
}

func noSourceReason(src plumb.FileSource) string {
	if src.FetchFailure != "" {
		return unfetchedReason(src)
	}
	switch source.State(src.State) {
	case source.StateOK:
		return ""
	case source.StateTooLarge:
		return "The source is not shown: the file is larger than the server keeps (the per-file cap on sources)."
	case source.StateBinary:
		return "The source is not shown: this is a binary file."
	case source.StateDisabled:
		return "The source is not shown: this project or this server does not keep sources."
	}
	return "The source is not shown: none was uploaded for this commit (plumb analyze sends it; plumb upload coverage --source does too)."
}

// render writes the line table's rows.
func (d *fileData) render(lines []string, cov lineCoverage, issues []plumb.Issue, fns map[int][]cognitive.Function, clones []plumb.FileClone) template.HTML {
	hits := cov.hits
	n := max(len(lines), len(hits))
	byLine := map[int][]plumb.Issue{}
	for _, is := range issues {
		// Without source an issue's line is shown (with its coverage); with
		// source, a line past its end is not a line of the file.
		if is.StartLine != nil && *is.StartLine >= 1 && (len(lines) == 0 || *is.StartLine <= len(lines)) {
			byLine[*is.StartLine] = append(byLine[*is.StartLine], is)
			n = max(n, *is.StartLine)
		} else {
			d.Unplaced = append(d.Unplaced, is)
		}
		if is.Status == "open" {
			d.Issues++
		} else {
			d.Ignored++
		}
	}
	if len(lines) == 0 {
		// Without source, as for issues: a block's lines are shown.
		// Past the file's last line (as the analysis counted them) none is.
		for _, c := range clones {
			end := c.Here.EndLine
			if d.HasFigures {
				end = min(end, int(d.Figures.Lines))
			}
			n = max(n, end)
		}
	}
	d.LineCount = n
	// The next missed block or partial line and the next line with an open
	// issue after each line, for the "next" links: one backward pass.
	nextMiss, nextIssue := make([]int, n+2), make([]int, n+2)
	back := cov.walkBack()
	for i := n; i >= 1; i-- {
		nextMiss[i], nextIssue[i] = nextMiss[i+1], nextIssue[i+1]
		if i <= len(hits) && hits[i-1] == 0 && (i == 1 || hits[i-2] != 0) || back.partial(i) {
			nextMiss[i] = i
		}
		if hasOpen(byLine[i]) {
			nextIssue[i] = i
		}
	}
	d.FirstMissed, d.FirstIssue = nextMiss[1], nextIssue[1]
	marks := newCloneMarks(clones, n)
	fwd := cov.walk()
	var b strings.Builder
	b.Grow(n*96 + len(issues)*256)
	for i := 1; i <= n; i++ {
		ln := strconv.Itoa(i)
		for _, f := range fns[i] {
			d.Functions++
			b.WriteString(`<tr class="fn"><td></td><td></td><td><span class="cc" title="cognitive complexity">complexity `)
			b.WriteString(strconv.Itoa(f.Complexity))
			b.WriteString(`</span> `)
			htmlEscaper.WriteString(&b, f.Name)
			b.WriteString("</td></tr>\n")
		}
		if here := marks.starts[i]; len(here) > 0 {
			d.Clones += len(here)
			d.writeCloneNote(&b, here)
		}
		class, cov := "", ""
		if i <= len(hits) {
			switch h := hits[i-1]; {
			case h > 0:
				class, cov = "hit", strconv.FormatInt(h, 10)+"×"
				d.Covered++
				if br, ok := fwd.at(i); ok && br.Partial(h) {
					class, cov = "part", partialCell(h, br, nextMiss[i+1])
					d.Partial++
				}
			case h == 0:
				class, cov = "miss", "missed"
				d.Missed++
				if nextMiss[i] == i && nextMiss[i+1] > 0 {
					cov = `<a class="next" href="#L` + strconv.Itoa(nextMiss[i+1]) + `" title="next missed or partial line">missed ↓</a>`
				}
			}
		}
		b.WriteString(`<tr id="L` + ln + `"`)
		if class != "" {
			b.WriteString(` class="` + class + `"`)
		}
		b.WriteString(`><td class="` + marks.gutterClass(i) + `"><a href="#L` + ln + `">` + ln + `</a></td><td class="cov">` + cov + `</td><td class="src">`)
		if i <= len(lines) {
			b.WriteString(lines[i-1])
		}
		b.WriteString("</td></tr>\n")
		if here := byLine[i]; len(here) > 0 {
			writeLineIssues(&b, here, nextIssue[i+1])
		}
	}
	return template.HTML(b.String())
}

func hasOpen(issues []plumb.Issue) bool {
	for _, is := range issues {
		if is.Status == "open" {
			return true
		}
	}
	return false
}

// writeLineIssues writes the row of a line's issues: the open ones listed,
// the ignored ones folded.
func writeLineIssues(b *strings.Builder, issues []plumb.Issue, next int) {
	b.WriteString(`<tr class="line-issues"><td></td><td></td><td><ul>`)
	ignored := 0
	for _, is := range issues {
		if is.Status != "open" {
			ignored++
			continue
		}
		writeIssue(b, is)
	}
	b.WriteString(`</ul>`)
	if ignored > 0 {
		b.WriteString(`<details><summary>` + strconv.Itoa(ignored) + ` ignored</summary><ul>`)
		for _, is := range issues {
			if is.Status != "open" {
				writeIssue(b, is)
			}
		}
		b.WriteString(`</ul></details>`)
	}
	if next > 0 {
		b.WriteString(`<a class="next" href="#L` + strconv.Itoa(next) + `">next issue ↓</a>`)
	}
	b.WriteString("</td></tr>\n")
}

func writeIssue(b *strings.Builder, is plumb.Issue) {
	b.WriteString(`<li><span class="level level-`)
	htmlEscaper.WriteString(b, is.Level)
	b.WriteString(`">`)
	htmlEscaper.WriteString(b, is.Level)
	b.WriteString(`</span> `)
	htmlEscaper.WriteString(b, is.Message)
	b.WriteString(` <span class="muted">`)
	htmlEscaper.WriteString(b, is.Tool)
	b.WriteString(` `)
	htmlEscaper.WriteString(b, is.RuleKey)
	b.WriteString(`</span>`)
	if u := is.DocumentationURL; strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
		b.WriteString(` <a href="`)
		htmlEscaper.WriteString(b, u)
		b.WriteString(`" rel="noopener noreferrer">docs</a>`)
	}
	b.WriteString("</li>")
}
