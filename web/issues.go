package web

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
)

// The issue browser: the API's filters (category, level, status, tool; values
// of one filter OR, filters AND; status defaults to open), paging, and links
// to download the same selection as CSV or NDJSON from the API.

const issuesPerPage = 50

type option struct {
	Value   string
	Checked bool
	Count   int // issues with this value that pass the other filters
}

type issuesData struct {
	*scope
	Issues             []plumb.Issue
	Categories, Levels []option
	Statuses           []option
	Tool               string
	Offset             int
	Prev, Next         string
	CSV, NDJSON        string
	Curl               string
	Filtered           bool
	// Rows are the issues with their file page link and source snippet.
	Rows  []issueRow
	Total int         // issues passing every filter
	Tools []toolCount // per tool, issues passing the other filters
}

// issueRow is one issue of the browser: the link to its line on the file
// page (at the commit of the analysis listed) and its lines (±2) from the
// kept source, when there is one.
type issueRow struct {
	plumb.Issue
	Link    string
	Snippet []snippetLine
}

type snippetLine struct {
	N    int
	Text string
	At   bool // a line the issue names
}

type toolCount struct {
	Name string
	N    int
}

func options(all, chosen []string, counts map[string]int) []option {
	out := make([]option, len(all))
	for i, v := range all {
		out[i] = option{Value: v, Checked: plumb.Contains(chosen, v), Count: counts[v]}
	}
	return out
}

// listParam reads a filter given as repeated keys or comma lists, as the API
// accepts it; unknown values are refused with the API's wording.
func listParam(q url.Values, name string, allowed []string) ([]string, error) {
	var out []string
	for _, raw := range append(q[name], q[name+"[]"]...) {
		for _, v := range strings.Split(raw, ",") {
			if v = strings.TrimSpace(v); v == "" || plumb.Contains(out, v) {
				continue
			}
			if allowed != nil && !plumb.Contains(allowed, v) {
				return nil, plumb.Errorf(plumb.EINVALID, "Query parameter %s has the unknown value %q; it takes %s.", name, v, strings.Join(allowed, ", "))
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// issueFilter reads the issue list's four filters from a query.
func issueFilter(q url.Values) (plumb.IssueFilter, error) {
	var f plumb.IssueFilter
	var err error
	for _, p := range []struct {
		name    string
		allowed []string
		dst     *[]string
	}{{"category", plumb.IssueCategories, &f.Categories}, {"level", plumb.IssueLevels, &f.Levels},
		{"status", plumb.IssueStatuses, &f.Statuses}, {"tool", nil, &f.Tools}} {
		if *p.dst, err = listParam(q, p.name, p.allowed); err != nil {
			return f, err
		}
	}
	return f, nil
}

func (s *Server) handleIssues(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.projectOf(r, v, "Issues")
	if err != nil {
		return "", err
	}
	q := r.URL.Query()
	f, err := issueFilter(q)
	if err != nil {
		return "", err
	}
	d := issuesData{scope: sc, Tool: strings.Join(f.Tools, ","),
		Filtered: len(f.Categories)+len(f.Levels)+len(f.Statuses)+len(f.Tools) > 0}
	if len(f.Statuses) == 0 {
		f.Statuses = []string{"open"}
	}
	if err := s.issueCounts(r, sc, f, &d); err != nil {
		return "", err
	}
	if d.Offset, err = pageOffset(q); err != nil {
		return "", err
	}
	f.Page = plumb.Page{Offset: d.Offset, Limit: issuesPerPage + 1}
	err = s.store.EachIssue(r.Context(), sc.Project.ID, f, func(i plumb.Issue) error {
		d.Issues = append(d.Issues, i)
		return nil
	})
	if err != nil {
		return "", err
	}
	// The same selection in the API's query form.
	api := url.Values{}
	for name, vals := range map[string][]string{"category": f.Categories, "level": f.Levels, "status": f.Statuses, "tool": f.Tools} {
		if len(vals) > 0 {
			api.Set(name, strings.Join(vals, ","))
		}
	}
	page := func(offset int) string {
		nq := url.Values{}
		for k, vs := range q {
			nq[k] = vs
		}
		nq.Set("offset", strconv.Itoa(offset))
		return sc.URL + "/issues?" + nq.Encode()
	}
	d.Issues, d.Prev, d.Next = onePage(d.Issues, d.Offset, issuesPerPage, page)
	if d.Rows, err = s.issueRows(r, sc, d.Issues); err != nil {
		return "", err
	}
	d.CSV = sc.URL + "/issues.csv?" + api.Encode()
	d.NDJSON = sc.URL + "/issues.ndjson?" + api.Encode()
	d.Curl = "curl -H 'Authorization: Bearer $PLUMB_TOKEN' -H 'Accept: text/csv' '" + s.baseURL(r) + sc.API + "/issues?" + api.Encode() + "'"
	v.Data = d
	return "issues", nil
}

// handleIssuesExport downloads every issue of a selection, as the API's CSV
// or NDJSON export does (same columns and objects), for a signed-in user.
func (s *Server) handleIssuesExport(format string) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
		sc, err := s.projectOf(r, v, "Issues")
		if err != nil {
			return "", err
		}
		f, err := issueFilter(r.URL.Query())
		if err != nil {
			return "", err
		}
		if len(f.Statuses) == 0 {
			f.Statuses = []string{"open"}
		}
		name := sc.WS.Key + "-" + sc.Project.Key + "-issues." + format
		h := w.Header()
		h.Set("Content-Disposition", `attachment; filename="`+strings.NewReplacer(`"`, "", "\\", "").Replace(name)+`"`)
		h.Set("Cache-Control", "no-store")
		err = api.WriteIssueExport(w, format == "csv", func(fn func(plumb.Issue) error) error {
			return s.store.EachIssue(r.Context(), sc.Project.ID, f, fn)
		})
		if err != nil {
			panic(http.ErrAbortHandler) // the download is cut rather than short
		}
		return "", nil
	}
}

// issueCounts fills the browser's counts: the total passing the filters,
// and for each filter's values the issues passing the other filters (what
// checking that value would add).
func (s *Server) issueCounts(r *http.Request, sc *scope, f plumb.IssueFilter, d *issuesData) error {
	ctx := r.Context()
	count := func(g plumb.IssueFilter) (plumb.IssueCounts, error) {
		return s.store.IssueCounts(ctx, sc.Project.ID, g)
	}
	all, err := count(f)
	if err != nil {
		return err
	}
	d.Total = all.Total
	// by[i]: the counts with filter i (category, level, status, tool) off.
	var by [4]plumb.IssueCounts
	for i, off := range []func(g *plumb.IssueFilter){
		func(g *plumb.IssueFilter) { g.Categories = nil },
		func(g *plumb.IssueFilter) { g.Levels = nil },
		func(g *plumb.IssueFilter) { g.Statuses = nil },
		func(g *plumb.IssueFilter) { g.Tools = nil },
	} {
		g := f
		off(&g)
		if by[i], err = count(g); err != nil {
			return err
		}
	}
	d.Categories = options(plumb.IssueCategories, f.Categories, by[0].ByCategory)
	d.Levels = options(plumb.IssueLevels, f.Levels, by[1].ByLevel)
	d.Statuses = options(plumb.IssueStatuses, f.Statuses, by[2].ByStatus)
	for name, n := range by[3].ByTool {
		d.Tools = append(d.Tools, toolCount{name, n})
	}
	slices.SortFunc(d.Tools, func(a, b toolCount) int { return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(a.Name, b.Name)) })
	return nil
}

// snippetContext is how many lines around an issue's lines its snippet
// shows; snippetMax bounds a snippet's lines (an issue spanning a long
// range shows its start).
const (
	snippetContext = 2
	snippetMax     = 12
)

// issueRows gives each issue its file page link, at the commit of the
// analysis the browser lists (the default branch's latest), and its
// snippet from that commit's kept source: each file's source read once.
func (s *Server) issueRows(r *http.Request, sc *scope, issues []plumb.Issue) ([]issueRow, error) {
	ctx := r.Context()
	at, err := s.store.FilesAt(ctx, sc.Project.ID, "refs/heads/"+sc.Project.DefaultBranch)
	if plumb.ErrorCode(err) == plumb.ENOTFOUND {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	texts := map[string][]string{}
	rows := make([]issueRow, len(issues))
	for i, is := range issues {
		rows[i] = issueRow{Issue: is}
		if is.Path == "" || at.SHA == "" {
			continue
		}
		rows[i].Link = issueSourceLink(sc.URL, at.SHA, is)
		if is.StartLine == nil {
			continue
		}
		lines, ok := texts[is.Path]
		if !ok {
			src, err := s.store.FileSource(ctx, sc.Project.ID, at.SHA, is.Path)
			if err != nil {
				return nil, err
			}
			if src.State == "ok" {
				lines = strings.Split(strings.TrimSuffix(string(src.Content), "\n"), "\n")
			}
			texts[is.Path] = lines
		}
		rows[i].Snippet = snippet(lines, *is.StartLine, is.EndLine)
	}
	return rows, nil
}

// snippet is lines start-2 … end+2 (1-based; end defaults to start), at
// most snippetMax of them; none when start is not a line of the text.
func snippet(lines []string, start int, end *int) []snippetLine {
	if start < 1 || start > len(lines) {
		return nil
	}
	last := start
	if end != nil && *end >= start {
		last = min(*end, len(lines))
	}
	from, to := max(1, start-snippetContext), min(len(lines), last+snippetContext, start+snippetMax-1)
	out := make([]snippetLine, 0, to-from+1)
	for n := from; n <= to; n++ {
		out = append(out, snippetLine{N: n, Text: strings.TrimRight(lines[n-1], "\r"), At: n >= start && n <= last})
	}
	return out
}
