package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/source"
)

// sourceStore reads kept sources (docs/sources.md).
type sourceStore interface {
	FileSource(ctx context.Context, projectID, commit, path string) (plumb.FileSource, error)
}

// handleGetFileSource answers a file's text at a commit (Plumb's extension).
// Whoever cannot see the project gets the 404 of every endpoint, before
// anything of the file is looked at.
func (s *Server) handleGetFileSource(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	ref := c.query.required("reference", 1)
	path := c.query.required("path", 1)
	if err := c.query.err(); err != nil {
		return err
	}
	if err := source.ValidatePath(path); err != nil {
		return err
	}
	commit, err := s.store.ResolveCommit(r.Context(), p.ID, ref)
	if err != nil {
		return err
	}
	src, err := s.store.FileSource(r.Context(), p.ID, commit, path)
	if err != nil {
		return err
	}
	why := map[string]string{
		string(source.StateAbsent):   "No source of %q is kept at commit %s: it was not uploaded with that commit's analysis or coverage.",
		string(source.StateTooLarge): "The source of %q at commit %s is larger than the per-file limit and was not kept.",
		string(source.StateBinary):   "%q at commit %s is a binary file; its content is not kept.",
		string(source.StateDisabled): "Sources are turned off for this project (%q at commit %s).",
	}
	if src.State != string(source.StateOK) {
		format, ok := why[src.State]
		if !ok {
			format = "No source of %q is kept at commit %s."
		}
		return &plumb.Error{Code: plumb.ENOTFOUND, Details: []string{fmt.Sprintf(format, path, commit)}}
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(src.Content)))
	h.Set("ETag", `"`+src.BlobID+`"`)
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(src.Content)
	return err
}
