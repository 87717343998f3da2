package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

type componentView struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	PathGlobs   []string `json:"pathGlobs"`
}

type componentCountView struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	PathGlobs   []string `json:"pathGlobs"`
	FileCount   int64    `json:"fileCount"`
}

func newComponentView(c plumb.Component) componentView {
	return componentView{ID: c.ID, Name: c.Name, Description: c.Description, PathGlobs: c.PathGlobs}
}

// componentProject finds the {owner}/{project} project and checks that it has
// Components enabled (every component operation needs it, reads included).
func (s *Server) componentProject(ctx context.Context, c *call) (plumb.Project, error) {
	p, err := s.project(ctx, c)
	if err != nil {
		return p, err
	}
	if !p.ComponentsEnabled {
		return p, plumb.Errorf(plumb.EFORBIDDEN, "Components are not enabled on project %q.", p.Key)
	}
	return p, nil
}

// requireProjectAdmin checks that the caller administers the project.
func (s *Server) requireProjectAdmin(ctx context.Context, c *call, p plumb.Project, refusal string) error {
	ok, err := s.store.IsProjectAdmin(ctx, c.user.ID, p)
	if err != nil {
		return err
	}
	if !ok {
		return plumb.Errorf(plumb.EFORBIDDEN, refusal, p.Key)
	}
	return nil
}

// The 403 details of requireProjectAdmin, each naming the project (%q).
const (
	componentAdminRefusal   = "Creating, replacing and deleting components needs the admin role on project %q."
	uploadAdminRefusal      = "Uploading to project %q needs the project admin role or the project's upload token."
	uploadTokenAdminRefusal = "Managing the upload tokens of project %q needs the project admin role (a workspace admin administers every project of the workspace)."
)

func (s *Server) handleListComponents(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.componentProject(r.Context(), c)
	if err != nil {
		return err
	}
	comps, err := s.store.ListComponents(r.Context(), p.ID)
	if err != nil {
		return err
	}
	views := make([]componentCountView, len(comps))
	for i, cp := range comps {
		views[i] = componentCountView{ID: cp.ID, Name: cp.Name, Description: cp.Description, PathGlobs: cp.PathGlobs, FileCount: cp.FileCount}
	}
	if c.format == formatJSON {
		return writeJSON(w, http.StatusOK, struct {
			Data []componentCountView `json:"data"`
		}{views})
	}
	rw := newRowWriter(w, c.format)
	for _, v := range views {
		if err := rw.write(v); err != nil {
			return err
		}
	}
	return rw.finish(reflect.TypeOf(componentCountView{}))
}

// readComponent validates a create or replace body. name and pathGlobs are
// required; description is optional ("" when absent).
func (s *Server) readComponent(w http.ResponseWriter, r *http.Request) (plumb.Component, error) {
	obj, err := s.readJSONObject(w, r)
	if err != nil {
		return plumb.Component{}, err
	}
	f := &fields{obj: obj}
	var cp plumb.Component
	cp.Name = f.name("name", 100)
	cp.Description, _ = f.str("description", false, 0, 1000)
	if globs, ok := f.strList("pathGlobs", true); ok {
		switch {
		case len(globs) == 0:
			f.fail("Field pathGlobs must hold at least one glob.")
		case len(globs) > 1000:
			f.fail("Field pathGlobs may hold at most 1000 globs, got %d.", len(globs))
		}
		for i, g := range globs {
			if err := metric.ValidateGlob(g); err != nil {
				f.fail("Field pathGlobs[%d]: %v", i, err)
			} else if len([]rune(g)) > 1000 {
				f.fail("Field pathGlobs[%d] must be at most 1000 characters long.", i)
			}
		}
		cp.PathGlobs = globs
	}
	return cp, f.err()
}

func (s *Server) handleCreateComponent(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.componentProject(r.Context(), c)
	if err != nil {
		return err
	}
	if err := s.requireProjectAdmin(r.Context(), c, p, componentAdminRefusal); err != nil {
		return err
	}
	in, err := s.readComponent(w, r)
	if err != nil {
		return err
	}
	in.ProjectID, in.CreatorID = p.ID, c.user.ID
	cp, err := s.store.CreateComponent(r.Context(), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", fmt.Sprintf("%s/gh/%s/projects/%s/components/%s", s.baseURL(r), c.params["owner"], c.params["project"], cp.ID))
	return writeJSON(w, http.StatusCreated, newComponentView(cp))
}

// adminOfComponent finds the component a write addresses (404 before 403,
// as the contract orders the checks) and requires its project's admin.
func (s *Server) adminOfComponent(ctx context.Context, c *call) (plumb.Project, error) {
	p, err := s.componentProject(ctx, c)
	if err != nil {
		return p, err
	}
	if _, err := s.store.FindComponent(ctx, p.ID, c.params["component"]); err != nil {
		return p, err
	}
	return p, s.requireProjectAdmin(ctx, c, p, componentAdminRefusal)
}

func (s *Server) handleReplaceComponent(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.adminOfComponent(r.Context(), c)
	if err != nil {
		return err
	}
	in, err := s.readComponent(w, r)
	if err != nil {
		return err
	}
	cp, err := s.store.ReplaceComponent(r.Context(), p.ID, c.params["component"], in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newComponentView(cp))
}

func (s *Server) handleDeleteComponent(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.adminOfComponent(r.Context(), c)
	if err != nil {
		return err
	}
	if err := s.store.DeleteComponent(r.Context(), p.ID, c.params["component"]); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// component finds the {component} of a Components-enabled project.
func (s *Server) component(ctx context.Context, c *call) (plumb.Component, error) {
	p, err := s.componentProject(ctx, c)
	if err != nil {
		return plumb.Component{}, err
	}
	return s.store.FindComponent(ctx, p.ID, c.params["component"])
}

type metricsResponse struct {
	Data []metric.Value `json:"data"`
}

func (s *Server) handleComponentMetrics(w http.ResponseWriter, r *http.Request, c *call) error {
	cp, err := s.component(r.Context(), c)
	if err != nil {
		return err
	}
	t, err := s.store.ComponentTotals(r.Context(), cp)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, metricsResponse{Data: metric.Values(t, metric.ScopeComponent)})
}

func (s *Server) handleFileMetrics(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	path := c.query.required("path", 1)
	if err := c.query.err(); err != nil {
		return err
	}
	t, err := s.store.FileTotals(r.Context(), p.ID, strings.TrimPrefix(path, "./"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, metricsResponse{Data: metric.Values(t, metric.ScopeFile)})
}

// fileCoverageHead is a file coverage entry without its hits, which are
// streamed from their stored form (a file of millions of lines costs its
// stored size per request, not its expanded array).
type fileCoverageHead struct {
	Tag          string `json:"tag"`
	CoveredLines int64  `json:"coveredLines"`
	MissedLines  int64  `json:"missedLines"`
	OmitLines    int64  `json:"omitLines"`
	TotalLines   int64  `json:"totalLines"`
}

func (s *Server) handleFileCoverage(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	ref := c.query.required("reference", 1)
	path := c.query.required("path", 1)
	for _, prefix := range []string{"refs/heads/", "refs/tags/", "refs/pull/"} {
		if ref == prefix {
			c.query.fail("Query parameter reference %q names no %s; give refs/heads/<branch>, refs/tags/<tag>, refs/pull/<number> or a commit SHA.", ref,
				map[string]string{"refs/heads/": "branch", "refs/tags/": "tag", "refs/pull/": "pull request"}[prefix])
		}
	}
	if err := c.query.err(); err != nil {
		return err
	}
	tags, files, err := s.store.FileCoverageHits(r.Context(), p.ID, ref, strings.TrimPrefix(path, "./"))
	if err != nil {
		return err
	}
	// {"tags":[...],"files":[{"path":…,"hits":[…],"tag":…,"coveredLines":…,…}]}
	heads := make([][]byte, len(files))
	for i, f := range files {
		n, err := f.Hits.Counts()
		if err != nil {
			return err
		}
		b, err := json.Marshal(fileCoverageHead{Tag: f.Tag, CoveredLines: n.Covered, MissedLines: n.Missed, OmitLines: n.Omitted, TotalLines: n.Total})
		if err != nil {
			return err
		}
		heads[i] = b
	}
	tagsJSON, err := json.Marshal(tags)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	fmt.Fprintf(bw, `{"tags":%s,"files":[`, tagsJSON)
	for i, f := range files {
		if i > 0 {
			bw.WriteByte(',')
		}
		p, _ := json.Marshal(f.Path)
		fmt.Fprintf(bw, `{"path":%s,"hits":`, p)
		if err := f.Hits.WriteJSON(bw); err != nil {
			return err
		}
		bw.WriteByte(',')
		bw.Write(heads[i][1:]) // the head's members, after its "{"
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}
