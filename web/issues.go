package web

import (
	"net/http"
	"net/url"
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
	// Coverage is the coverage viewer's address of each issue path that
	// has coverage on the default branch; a path without coverage gets no
	// link (the viewer would only say "No coverage here").
	Coverage map[string]string
}

func options(all, chosen []string) []option {
	out := make([]option, len(all))
	for i, v := range all {
		out[i] = option{Value: v, Checked: plumb.Contains(chosen, v)}
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
	d.Categories = options(plumb.IssueCategories, f.Categories)
	d.Levels = options(plumb.IssueLevels, f.Levels)
	d.Statuses = options(plumb.IssueStatuses, f.Statuses)
	if o := q.Get("offset"); o != "" {
		if d.Offset, err = strconv.Atoi(o); err != nil || d.Offset < 0 {
			return "", plumb.Errorf(plumb.EINVALID, "offset must be a whole number of 0 or more, got %q.", o)
		}
	}
	f.Page = plumb.Page{Offset: d.Offset, Limit: issuesPerPage + 1}
	err = s.store.EachIssue(r.Context(), sc.Project.ID, f, func(i plumb.Issue) error {
		d.Issues = append(d.Issues, i)
		return nil
	})
	if err != nil {
		return "", err
	}
	if d.Coverage, err = s.coverageLinks(r, sc, d.Issues); err != nil {
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
	if len(d.Issues) > issuesPerPage {
		d.Issues = d.Issues[:issuesPerPage]
		d.Next = page(d.Offset + issuesPerPage)
	}
	if d.Offset > 0 {
		d.Prev = page(max(0, d.Offset-issuesPerPage))
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

// coverageLinks gives the coverage viewer's address, at the default branch,
// of each path among issues that has coverage there.
func (s *Server) coverageLinks(r *http.Request, sc *scope, issues []plumb.Issue) (map[string]string, error) {
	var paths []string
	for _, i := range issues {
		if i.Path != "" && !plumb.Contains(paths, i.Path) {
			paths = append(paths, i.Path)
		}
	}
	ref := "refs/heads/" + sc.Project.DefaultBranch
	has, err := s.store.PathsWithCoverage(r.Context(), sc.Project.ID, ref, paths)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for p := range has {
		out[p] = sc.URL + "/coverage?" + url.Values{"ref": {ref}, "path": {p}}.Encode()
	}
	return out, nil
}
