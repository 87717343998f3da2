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
	q := c.query
	f := plumb.IssueFilter{
		Categories: q.enumList("category", plumb.IssueCategories),
		Levels:     q.enumList("level", plumb.IssueLevels),
		Statuses:   q.enumList("status", plumb.IssueStatuses),
		Tools:      dedupe(q.list("tool")),
	}
	if len(f.Statuses) == 0 {
		f.Statuses = []string{"open"}
	}
	return serveList(s, w, r, c, func(pg plumb.Page, fn func(issueView) error) error {
		f.Page = pg
		return s.store.EachIssue(r.Context(), p.ID, f, func(i plumb.Issue) error { return fn(newIssueView(i)) })
	})
}
