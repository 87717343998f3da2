package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/source"
)

// The file pages (docs/web.md, "Files"): the file tree of a commit
// (files_tree.go) and a file's page (files_page.go), both at the reference
// ?ref= names, read by resolveRef's rule; no ref is the default branch's
// latest analysis. What the two share is here: the reference, the path
// and the addresses.

// filesScope is a file page's context: the project and the commit shown.
type filesScope struct {
	*scope
	Action   string // the page's own path: its GET forms' action
	Ref      string // the ref as typed ("" the default branch)
	Resolved string // what it resolves to
	RefLabel string
	At       plumb.FilesAt
}

// filesOf finds the project (by the project pages' visibility rule) and the
// commit ?ref= names. An unknown reference is ENOTFOUND, a malformed path
// EINVALID: both the site's 4xx page.
func (s *Server) filesOf(r *http.Request, v *view, path string) (*filesScope, error) {
	sc, err := s.projectOf(r, v, "Files")
	if err != nil {
		return nil, err
	}
	if path != "" {
		if err := source.ValidatePath(path); err != nil {
			return nil, plumb.Errorf(plumb.EINVALID, "%s", strings.Replace(strings.Join(plumb.ErrorDetails(err), " "), "source path", "The path", 1))
		}
	}
	fs := &filesScope{scope: sc, Action: r.URL.EscapedPath(), Ref: strings.TrimSpace(r.URL.Query().Get("ref"))}
	ctx := r.Context()
	found := map[string]plumb.FilesAt{}
	ref, err := resolveRef(fs.Ref, sc.Project.DefaultBranch, func(ref string) (bool, error) {
		at, err := s.store.FilesAt(ctx, sc.Project.ID, ref)
		if plumb.ErrorCode(err) == plumb.ENOTFOUND {
			return false, nil
		}
		found[ref] = at
		return err == nil, err
	})
	if err != nil {
		if plumb.ErrorCode(err) == plumb.ENOTFOUND {
			return nil, plumb.Errorf(plumb.ENOTFOUND, "No branch, tag or commit %s has an analysis or coverage in this project.", strconv.Quote(fs.Ref))
		}
		return nil, err
	}
	at, ok := found[ref]
	if !ok {
		if at, err = s.store.FilesAt(ctx, sc.Project.ID, ref); err != nil {
			return nil, err
		}
	}
	fs.Resolved, fs.RefLabel, fs.At = ref, refLabel(ref), at
	v.Crumbs = v.Crumbs[:len(v.Crumbs)-1]
	return fs, nil
}

// escapePath escapes each element of a repository path for a URL.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// fileURL is a file's page at ref ("" the default branch), at line (0 the
// top).
func fileURL(projectURL, path, ref string, line int) string {
	u := projectURL + "/files/" + escapePath(path)
	if ref != "" {
		u += "?" + url.Values{"ref": {ref}}.Encode()
	}
	if line > 0 {
		u += "#L" + strconv.Itoa(line)
	}
	return u
}

// dirURL is a directory's page in the tree ("" the root) at ref, with
// the query's other settings (sort, component).
func dirURL(projectURL, dir, ref string, q url.Values) string {
	u := projectURL + "/files"
	if dir != "" {
		u += "/" + escapePath(strings.TrimSuffix(dir, "/")) + "/"
	}
	nq := url.Values{}
	for k, vs := range q {
		nq[k] = vs
	}
	if ref != "" {
		nq.Set("ref", ref)
	}
	if enc := nq.Encode(); enc != "" {
		u += "?" + enc
	}
	return u
}

// linkRef is the ref a page's links carry: none for the default branch.
func (fs *filesScope) linkRef() string {
	if fs.Ref == "" {
		return ""
	}
	return fs.Resolved
}

// fileCrumbs are the breadcrumbs of a path in the tree: the project's, then
// Files and each directory.
func (fs *filesScope) crumbs(v *view, path string, q url.Values) {
	v.Crumbs = append(v.Crumbs, crumb{"Files", dirURL(fs.URL, "", fs.linkRef(), q)})
	parts := strings.Split(strings.TrimSuffix(path, "/"), "/")
	for i, p := range parts {
		if p == "" {
			continue
		}
		if i == len(parts)-1 {
			v.Crumbs = append(v.Crumbs, crumb{p, ""})
		} else {
			v.Crumbs = append(v.Crumbs, crumb{p, dirURL(fs.URL, strings.Join(parts[:i+1], "/"), fs.linkRef(), q)})
		}
	}
	if path == "" {
		v.Crumbs[len(v.Crumbs)-1].URL = ""
	}
}

// handleFiles serves /files/{path...}: a directory (a path ending in /, or
// none) in the tree, else a file's page.
func (s *Server) handleFiles(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	p := r.PathValue("path")
	if p == "" || strings.HasSuffix(p, "/") {
		return s.handleTree(w, r, v, strings.TrimSuffix(p, "/"))
	}
	return s.handleFile(w, r, v, p)
}

// issueSourceLink is the file page of an issue's location at commit.
func issueSourceLink(projectURL, commit string, is plumb.Issue) string {
	line := 0
	if is.StartLine != nil {
		line = *is.StartLine
	}
	return fileURL(projectURL, is.Path, commit, line)
}

// hostName is a code host's name as the pages write it.
func hostName(kind string) string {
	switch kind {
	case "github":
		return "GitHub"
	case "gitlab":
		return "GitLab"
	}
	return "the code host"
}

// FetchedNote says where a source fetched from the project's code host on
// a first view came from ("" for an uploaded one).
func (d *fileData) FetchedNote() string {
	src := d.Source
	if src.State != string(source.StateOK) || src.FetchedFrom == "" {
		return ""
	}
	return "This source was fetched from " + hostName(src.FetchedFrom) + " at " + abbrevSHA(d.At.SHA) +
		" on first view, " + src.FetchedAt.UTC().Format("2006-01-02 15:04 UTC") + "; it was not uploaded with the analysis."
}

// unfetchedReason says why a source could not be fetched from the
// project's code host, and when a view tries again.
func unfetchedReason(src plumb.FileSource) string {
	host := hostName(src.FetchHost)
	var why string
	switch src.FetchFailure {
	case "not_found":
		why = host + " has no such file at this commit"
	case "rate_limited":
		why = host + "'s rate limit is reached"
	case "unauthorized":
		why = host + " refused the project's token (check its code-host connection)"
	case "too_large":
		why = "the file is larger than the server keeps (the per-file cap on sources)"
	case "mismatch":
		why = host + " answered a content that is not the file's blob"
	default:
		why = host + " could not be reached or answered an error"
	}
	return "The source is not shown: none was uploaded for this commit, and fetching it from " + host + " failed: " + why +
		". Plumb tries again after " + src.FetchRetry.UTC().Format("15:04 UTC") + "."
}

// abbrevSHA is a commit's first seven hex digits, as git abbreviates it.
func abbrevSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
