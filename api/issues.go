package api

import (
	"net/http"

	"github.com/plumbhq/plumb"
)

func (s *Server) handleListIssues(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	f := issueFilter(c.query)
	return serveList(s, w, r, c, func(pg plumb.Page, fn func(issueView) error) error {
		f.Page = pg
		return s.store.EachIssue(r.Context(), p.ID, f, func(i plumb.Issue) error { return fn(newIssueView(i)) })
	})
}

// issueCountsView is GET …/issues/counts.
type issueCountsView struct {
	Total      int            `json:"total"`
	ByCategory map[string]int `json:"byCategory"`
	ByLevel    map[string]int `json:"byLevel"`
	ByStatus   map[string]int `json:"byStatus"`
	ByTool     map[string]int `json:"byTool"`
}

// handleIssueCounts counts the issues the issue list would return with the
// same filters, by category, level, status and tool.
func (s *Server) handleIssueCounts(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	f := issueFilter(c.query)
	if err := c.query.err(); err != nil {
		return err
	}
	n, err := s.store.IssueCounts(r.Context(), p.ID, f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, issueCountsView{Total: n.Total, ByCategory: n.ByCategory, ByLevel: n.ByLevel, ByStatus: n.ByStatus, ByTool: n.ByTool})
}

// issueFilter reads the issue list's filters (status defaults to open).
func issueFilter(q *query) plumb.IssueFilter {
	f := plumb.IssueFilter{
		Categories: q.enumList("category", plumb.IssueCategories),
		Levels:     q.enumList("level", plumb.IssueLevels),
		Statuses:   q.enumList("status", plumb.IssueStatuses),
		Tools:      dedupe(q.list("tool")),
	}
	if len(f.Statuses) == 0 {
		f.Statuses = []string{"open"}
	}
	return f
}
