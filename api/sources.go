package api

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/source"
)

// sourceStore keeps and reads sources (docs/sources.md).
type sourceStore interface {
	FileSource(ctx context.Context, projectID, commit, path string) (plumb.FileSource, error)
	FileSourceOrFetch(ctx context.Context, projectID, commit, path string) (plumb.FileSource, error)
	SourcesRefused(ctx context.Context, projectID string) error
	PutSources(ctx context.Context, projectID, commit, origin string, walk plumb.SourceWalk) (plumb.SourcesPut, error)
}

// handleUploadSources keeps the files of a tar archive as the sources of a
// commit (POST …/sources). Regular files are kept under their archive
// paths; directories, links and other entries are skipped. Every path is
// checked, and a failure stores nothing.
func (s *Server) handleUploadSources(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.ingestProject(r.Context(), c)
	if err != nil {
		return err
	}
	sha, _, _ := commitParams(c.query)
	if err := c.query.err(); err != nil {
		return err
	}
	// Refused before the body is read: nothing to read for nothing.
	if err := s.store.SourcesRefused(r.Context(), p.ID); err != nil {
		return err
	}
	view := func(res plumb.SourcesPut) any {
		return apiv1.SourcesUploaded{CommitSHA: sha, Files: res.Files, NewBlobs: res.NewBlobs, ReusedBlobs: res.ReusedBlobs, TooLarge: res.TooLarge, Binary: res.Binary}
	}
	return s.idempotentUpload(w, r, p, func(ctx context.Context, body *limitedBody) (int, any, error) {
		answerWith(ctx, http.StatusCreated, view)
		res, err := s.store.PutSources(ctx, p.ID, sha, source.OriginUpload, func(put func(string, io.Reader) error) error {
			return eachTarFile(body, put)
		})
		if err != nil {
			return 0, nil, body.parseFailure(err)
		}
		return http.StatusCreated, view(res), nil
	})
}

// eachTarFile calls put with each regular file of a tar archive. An archive
// that is not tar, or holds no regular file, is EINVALID.
func eachTarFile(r io.Reader, put func(string, io.Reader) error) error {
	tr := tar.NewReader(r)
	files := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return plumb.Errorf(plumb.EINVALID, "The body is not a tar archive (entry %d): %v.", files+1, err)
		}
		if h.Typeflag != tar.TypeReg { // the reader reports old-style regular files (TypeRegA) as TypeReg
			continue
		}
		name := strings.TrimPrefix(h.Name, "./")
		if err := source.ValidatePath(name); err != nil {
			return plumb.Errorf(plumb.EINVALID, "Entry %d of the archive: %s.", files+1, strings.Join(plumb.ErrorDetails(err), "; "))
		}
		if err := put(name, tr); err != nil {
			return err
		}
		files++
	}
	if files == 0 {
		return plumb.Errorf(plumb.EINVALID, "The archive holds no regular file.")
	}
	return nil
}

// handleGetFileSource answers a file's text at a commit (Plumb's extension).
// Whoever cannot see the project gets the 404 of every endpoint, before
// anything of the file is looked at. A source not uploaded is fetched from
// the project's code host, as the file page does (docs/sources.md).
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
	src, err := s.store.FileSourceOrFetch(r.Context(), p.ID, commit, path)
	if err != nil {
		return err
	}
	if src.FetchFailure != "" {
		return &plumb.Error{Code: plumb.ENOTFOUND, Details: []string{fmt.Sprintf(
			"No source of %q is kept at commit %s, and fetching it from the project's code host (%s) failed: %s; it is tried again after %s.",
			path, commit, src.FetchHost, src.FetchFailure, src.FetchRetry.UTC().Format(time.RFC3339))}}
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
