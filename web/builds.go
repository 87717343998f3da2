package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
)

const buildsPerPage = 30

type buildsData struct {
	*scope
	Builds     []plumb.Build
	Status     string
	Statuses   []string
	Offset     int
	Prev, Next string
	Now        time.Time
}

func (s *Server) handleBuilds(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.projectOf(r, v, "Builds")
	if err != nil {
		return "", err
	}
	q := r.URL.Query()
	d := buildsData{scope: sc, Status: q.Get("status"), Statuses: plumb.BuildStatuses, Now: s.now()}
	if d.Status != "" && !plumb.Contains(plumb.BuildStatuses, d.Status) {
		return "", plumb.Errorf(plumb.EINVALID, "Query parameter status has the unknown value %q; it takes one of %s.", d.Status, strings.Join(plumb.BuildStatuses, ", "))
	}
	if d.Offset, err = pageOffset(q); err != nil {
		return "", err
	}
	f := plumb.BuildFilter{Status: d.Status, Page: plumb.Page{Offset: d.Offset, Limit: buildsPerPage + 1}}
	err = s.store.EachBuild(r.Context(), sc.Project.ID, f, func(b plumb.Build) error {
		d.Builds = append(d.Builds, b)
		return nil
	})
	if err != nil {
		return "", err
	}
	page := func(offset int) string {
		nq := url.Values{}
		if d.Status != "" {
			nq.Set("status", d.Status)
		}
		nq.Set("offset", strconv.Itoa(offset))
		return sc.URL + "/builds?" + nq.Encode()
	}
	d.Builds, d.Prev, d.Next = onePage(d.Builds, d.Offset, buildsPerPage, page)
	v.Data = d
	return "builds", nil
}

type buildData struct {
	*scope
	// B is a pointer: the template calls ExecutionSeconds, a method of
	// *plumb.Build, which a value stored in an interface cannot reach.
	B   *plumb.Build
	Now time.Time
	// Files is the file tree at the build's commit, when the commit has an
	// analysis or coverage.
	Files string
}

func (s *Server) handleBuild(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.projectOf(r, v, "Builds")
	if err != nil {
		return "", err
	}
	b, err := s.store.FindBuild(r.Context(), sc.Project.ID, r.PathValue("build"))
	if err != nil {
		return "", err
	}
	v.Crumbs = append(v.Crumbs[:len(v.Crumbs)-1], crumb{"Builds", sc.URL + "/builds"}, crumb{shortID(b.ID), ""})
	v.Title = "Build " + shortID(b.ID)
	d := buildData{scope: sc, B: &b, Now: s.now()}
	if at, err := s.store.FilesAt(r.Context(), sc.Project.ID, b.CommitSHA); err == nil {
		d.Files = dirURL(sc.URL, "", at.SHA, nil)
	} else if plumb.ErrorCode(err) != plumb.ENOTFOUND {
		return "", err
	}
	v.Data = d
	return "build", nil
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
