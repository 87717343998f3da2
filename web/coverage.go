package web

import (
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
)

// The file coverage viewer: a reference (a branch or tag name,
// refs/heads/…, refs/tags/…, refs/pull/N or a commit SHA, read by
// resolveRef's rule) and a path; every line with its hits, missed
// lines marked, and a switcher between the commit's coverage tags. Without a
// path it lists the files that have coverage at the reference.

type coverageLine struct {
	N     int
	Hits  int64
	Class string // "hit", "miss" or "" (not coverable)
}

type coverageData struct {
	*scope
	Ref, Path, Tag, Filter string // as given (Ref: as typed)
	Resolved, RefLabel     string // the reference Ref resolves to, and what it is
	SHA                    string
	Tags                   []coverageTag
	Files                  []coverageFileLink
	FileURL                string // the file's page at the reference
	More                   bool
	Lines                  []coverageLine
	Covered, Missed, Total int64
	Percent                string
	Error                  string
}

type coverageTag struct {
	Name, URL string
	Current   bool
}

type coverageFileLink struct{ Path, URL string }

const coverageFileList = 200

func (s *Server) handleCoverage(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.projectOf(r, v, "Coverage")
	if err != nil {
		return "", err
	}
	q := r.URL.Query()
	d := coverageData{scope: sc, Ref: strings.TrimSpace(q.Get("ref")), Path: strings.TrimPrefix(strings.TrimSpace(q.Get("path")), "./"),
		Tag: q.Get("tag"), Filter: q.Get("filter")}
	if d.Ref == "" {
		d.Ref = "refs/heads/" + sc.Project.DefaultBranch
	}
	ctx := r.Context()
	v.Data = &d
	// What was typed is read by the web's one rule (refs.go); the links and
	// the store get the reference it resolves to.
	ref, err := resolveRef(d.Ref, sc.Project.DefaultBranch, func(ref string) (bool, error) {
		_, err := s.store.ResolveReference(ctx, sc.Project.ID, ref)
		if plumb.ErrorCode(err) == plumb.ENOTFOUND {
			return false, nil
		}
		return err == nil, err
	})
	if plumb.ErrorCode(err) == plumb.ENOTFOUND {
		d.Error = strings.Join(plumb.ErrorDetails(err), " ")
		if d.Path == "" {
			return "coverage", nil
		}
		s.render(w, r, http.StatusNotFound, "coverage", v)
		return "", nil
	} else if err != nil {
		return "", err
	}
	d.Resolved, d.RefLabel = ref, refLabel(ref)
	link := func(path, tag string) string {
		nq := url.Values{"ref": {ref}}
		if path != "" {
			nq.Set("path", path)
		}
		if tag != "" {
			nq.Set("tag", tag)
		}
		return sc.URL + "/coverage?" + nq.Encode()
	}
	if d.Path == "" {
		sha, paths, err := s.store.CoveredPaths(ctx, sc.Project.ID, ref, d.Filter, coverageFileList+1)
		if plumb.ErrorCode(err) == plumb.ENOTFOUND || plumb.ErrorCode(err) == plumb.EINVALID {
			d.Error = strings.Join(plumb.ErrorDetails(err), " ")
			return "coverage", nil
		} else if err != nil {
			return "", err
		}
		d.SHA = sha
		if len(paths) > coverageFileList {
			paths, d.More = paths[:coverageFileList], true
		}
		for _, p := range paths {
			d.Files = append(d.Files, coverageFileLink{p, fileURL(sc.URL, p, ref, 0)})
		}
		return "coverage", nil
	}
	tags, files, err := s.store.FileCoverage(ctx, sc.Project.ID, ref, d.Path)
	if plumb.ErrorCode(err) == plumb.ENOTFOUND || plumb.ErrorCode(err) == plumb.EINVALID {
		// The page still answers 404 (the API's status for the same
		// question), with the form to ask another.
		d.Error = strings.Join(plumb.ErrorDetails(err), " ")
		s.render(w, r, http.StatusNotFound, "coverage", v)
		return "", nil
	} else if err != nil {
		return "", err
	}
	var cur *plumb.FileCoverageEntry
	for i := range files {
		if files[i].Tag == d.Tag || cur == nil && d.Tag == "" {
			cur = &files[i]
		}
	}
	if cur == nil {
		d.Error = "No coverage of this file under the tag " + d.Tag + "."
		cur = &files[0]
	}
	d.Tag = cur.Tag
	d.FileURL = fileURL(sc.URL, d.Path, ref, 0)
	for _, t := range tags {
		has := false
		for _, f := range files {
			has = has || f.Tag == t
		}
		if has {
			d.Tags = append(d.Tags, coverageTag{Name: t, URL: link(d.Path, t), Current: t == d.Tag})
		}
	}
	for i, h := range cur.Hits {
		l := coverageLine{N: i + 1, Hits: h}
		switch {
		case h > 0:
			l.Class = "hit"
			d.Covered++
		case h == 0:
			l.Class = "miss"
			d.Missed++
		}
		d.Lines = append(d.Lines, l)
	}
	d.Total = int64(len(cur.Hits))
	if d.Covered+d.Missed > 0 {
		d.Percent = percent(d.Covered, d.Covered+d.Missed)
	}
	v.Crumbs = append(v.Crumbs[:len(v.Crumbs)-1], crumb{"Coverage", link("", "")}, crumb{d.Path, ""})
	return "coverage", nil
}

func percent(n, of int64) string {
	return strconv.FormatFloat(math.Round(float64(n)*10000/float64(of))/100, 'f', -1, 64) + "%"
}
