package web

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/plumbhq/plumb"
)

// The file tree: one directory's entries (directories first) with their
// lines of code, line coverage, open issues and complexity summed over the
// files under them, sortable by each and filterable by component. The
// store hands every file under the directory in one read; the entries are
// summed here in one pass.

type treeEntry struct {
	Name, URL       string
	Dir             bool
	Files           int
	LOC, Complexity int64
	OpenIssues      int64
	Covered, Missed int64
	Figures, HasCov bool
	Percent         string // line coverage, "" without coverage
	Bar             int    // Percent rounded to a whole number, for the bar
}

func (e *treeEntry) add(f plumb.TreeFile) {
	e.Files++
	e.LOC += f.LOC
	e.Complexity += f.Complexity
	e.OpenIssues += f.OpenIssues
	e.Figures = e.Figures || f.Figures
	if f.Coverage {
		e.HasCov = true
		e.Covered += f.Covered
		e.Missed += f.Missed
	}
}

func (e *treeEntry) coverage() float64 {
	if e.Covered+e.Missed == 0 {
		return -1
	}
	return float64(e.Covered) / float64(e.Covered+e.Missed)
}

type sortLink struct {
	Key, Label, URL string
	On              bool
}

type treeData struct {
	*filesScope
	Dir        string
	Entries    []treeEntry
	Total      treeEntry
	Sort       string
	Sorts      []sortLink
	Component  string
	Components []plumb.Component
	Missing    []string // what the page cannot show, and why
}

var treeSorts = []struct{ Key, Label string }{{"name", "Name"}, {"loc", "Lines of code"}, {"coverage", "Coverage"}, {"issues", "Open issues"}, {"complexity", "Complexity"}}

func (s *Server) handleTree(w http.ResponseWriter, r *http.Request, v *view, dir string) (string, error) {
	fs, err := s.filesOf(r, v, dir)
	if err != nil {
		return "", err
	}
	ctx := r.Context()
	q := r.URL.Query()
	d := treeData{filesScope: fs, Dir: dir, Sort: cmp.Or(q.Get("sort"), "name"), Component: q.Get("component")}
	if !slices.ContainsFunc(treeSorts, func(s struct{ Key, Label string }) bool { return s.Key == d.Sort }) {
		return "", plumb.Errorf(plumb.EINVALID, "sort must be one of name, loc, coverage, issues or complexity, got %q.", d.Sort)
	}
	var componentID string
	if fs.Project.ComponentsEnabled {
		if d.Components, err = s.store.ListComponents(ctx, fs.Project.ID); err != nil {
			return "", err
		}
	}
	if d.Component != "" {
		if !fs.Project.ComponentsEnabled {
			return "", plumb.Errorf(plumb.EFORBIDDEN, "Components are not enabled on project %q.", fs.Project.Key)
		}
		c, err := s.store.FindComponent(ctx, fs.Project.ID, d.Component)
		if err != nil {
			return "", err
		}
		componentID = c.ID
	}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	files, err := s.treeFiles(r, fs, componentID, prefix)
	if err != nil {
		return "", err
	}
	if dir != "" && len(files) == 0 && componentID == "" {
		return "", plumb.Errorf(plumb.ENOTFOUND, "No such directory.")
	}
	keep := url.Values{}
	if d.Component != "" {
		keep.Set("component", d.Component)
	}
	if d.Sort != "name" {
		keep.Set("sort", d.Sort)
	}
	ref := fs.linkRef()
	byName := map[string]int{}
	for _, f := range files {
		rest := f.Path[len(prefix):]
		name, _, isDir := strings.Cut(rest, "/")
		d.Total.add(f)
		i, ok := byName[name]
		if !ok {
			i = len(d.Entries)
			byName[name] = i
			e := treeEntry{Name: name, Dir: isDir}
			if isDir {
				e.URL = dirURL(fs.URL, prefix+name, ref, keep)
			} else {
				e.URL = fileURL(fs.URL, f.Path, ref, 0)
			}
			d.Entries = append(d.Entries, e)
		}
		d.Entries[i].add(f)
	}
	for i := range d.Entries {
		d.Entries[i].fill()
	}
	d.Total.fill()
	sortEntries(d.Entries, d.Sort)
	for _, so := range treeSorts {
		sq := url.Values{}
		if d.Component != "" {
			sq.Set("component", d.Component)
		}
		if so.Key != "name" {
			sq.Set("sort", so.Key)
		}
		d.Sorts = append(d.Sorts, sortLink{so.Key, so.Label, dirURL(fs.URL, dir, ref, sq), so.Key == d.Sort})
	}
	d.Missing = fs.missing()
	fs.crumbs(v, dir, keep)
	v.Title = "Files · " + fs.WS.Key + "/" + fs.Project.Key
	if dir != "" {
		v.Title = dir + "/ · " + v.Title
	}
	v.Data = &d
	return "files", nil
}

func (e *treeEntry) fill() {
	if c := e.coverage(); c >= 0 {
		e.Percent = percent(e.Covered, e.Covered+e.Missed)
		e.Bar = int(c*100 + 0.5)
	}
}

// sortEntries puts directories first, then orders by key: name ascending,
// the figures descending (the most lines, issues, complexity first; the
// least coverage first), name breaking ties.
func sortEntries(es []treeEntry, key string) {
	slices.SortFunc(es, func(a, b treeEntry) int {
		if a.Dir != b.Dir {
			if a.Dir {
				return -1
			}
			return 1
		}
		var c int
		switch key {
		case "loc":
			c = cmp.Compare(b.LOC, a.LOC)
		case "issues":
			c = cmp.Compare(b.OpenIssues, a.OpenIssues)
		case "complexity":
			c = cmp.Compare(b.Complexity, a.Complexity)
		case "coverage":
			ca, cb := a.coverage(), b.coverage()
			switch {
			case ca < 0 && cb >= 0:
				c = 1
			case cb < 0 && ca >= 0:
				c = -1
			default:
				c = cmp.Compare(ca, cb)
			}
		}
		return cmp.Or(c, strings.Compare(a.Name, b.Name))
	})
}

// missing says what the commit lacks for the file pages, and why.
func (fs *filesScope) missing() []string {
	var out []string
	switch {
	case fs.At.SnapshotID == "":
		out = append(out, "No analysis of this commit: lines of code, complexity and issues come from `plumb analyze` (or `plumb upload analysis`).")
	case fs.At.Figures == "":
		out = append(out, "Per-file lines of code and complexity are kept for the default branch's analyses only; this commit's analysis gives its issues.")
	}
	if !fs.At.Coverage {
		out = append(out, "No coverage for this commit: coverage comes from CI with `plumb upload coverage FILE`.")
	}
	return out
}

// treeFiles are the commit's files under prefix, in path order: the
// commit's whole list read once per version of its data (files_cache.go),
// the prefix's range found by binary search.
func (s *Server) treeFiles(r *http.Request, fs *filesScope, componentID, prefix string) ([]plumb.TreeFile, error) {
	all, err := s.trees.get(treeKey{fs.Project.ID, fs.At.Version, componentID}, func() ([]plumb.TreeFile, error) {
		files, err := s.store.TreeFiles(r.Context(), fs.Project.ID, fs.At, "", componentID)
		slices.SortFunc(files, func(a, b plumb.TreeFile) int { return strings.Compare(a.Path, b.Path) })
		return files, err
	})
	if err != nil || prefix == "" {
		return all, err
	}
	lo, _ := slices.BinarySearchFunc(all, prefix, func(f plumb.TreeFile, p string) int { return strings.Compare(f.Path, p) })
	hi := lo
	for hi < len(all) && strings.HasPrefix(all[hi].Path, prefix) {
		hi++
	}
	return all[lo:hi], nil
}

func treeSize(files []plumb.TreeFile) int {
	n := 0
	for _, f := range files {
		n += len(f.Path) + 96
	}
	return n
}
