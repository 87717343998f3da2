package web

import (
	"context"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
	"github.com/plumbhq/plumb/source"
)

// Workspaces, projects and the project overview.

func wsURL(ws plumb.Workspace) string { return "/w/" + url.PathEscape(ws.Key) }

func projURL(ws plumb.Workspace, p plumb.Project) string {
	return wsURL(ws) + "/" + url.PathEscape(p.Key)
}

// apiProjectURL is the project's address in the API.
func apiProjectURL(ws plumb.Workspace, p plumb.Project) string {
	return "/gh/" + url.PathEscape(ws.Key) + "/projects/" + url.PathEscape(p.Key)
}

// scope is a project page's context: the workspace, the project and the
// signed-in user's role. Found through the API's visibility rule (the user's
// workspaces), so a project the user cannot see is not found.
type scope struct {
	WS      plumb.Workspace
	Project plumb.Project
	Admin   bool
	URL     string // the project's page
	API     string // the project's API path
}

func (s *Server) workspaceOf(r *http.Request, v *view) (plumb.Workspace, string, error) {
	return s.store.FindWorkspace(r.Context(), v.User.ID, r.PathValue("ws"))
}

func (s *Server) projectOf(r *http.Request, v *view, section string) (*scope, error) {
	ws, _, err := s.workspaceOf(r, v)
	if err != nil {
		return nil, err
	}
	p, err := s.store.FindProject(r.Context(), ws.ID, r.PathValue("project"))
	if err != nil {
		return nil, err
	}
	admin, err := s.store.IsProjectAdmin(r.Context(), v.User.ID, p)
	if err != nil {
		return nil, err
	}
	sc := &scope{WS: ws, Project: p, Admin: admin, URL: projURL(ws, p), API: apiProjectURL(ws, p)}
	v.Crumbs = []crumb{{"Workspaces", "/"}, {ws.Key, wsURL(ws)}, {p.Key, sc.URL}}
	if section != "" {
		v.Crumbs = append(v.Crumbs, crumb{section, ""})
		v.Title = section + " · " + ws.Key + "/" + p.Key
	} else {
		v.Title = ws.Key + "/" + p.Key
	}
	return sc, nil
}

type homeData struct {
	Workspaces []plumb.Workspace
}

func (s *Server) handleHome(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	var d homeData
	err := s.store.EachWorkspace(r.Context(), v.User.ID, plumb.Page{}, func(ws plumb.Workspace) error {
		d.Workspaces = append(d.Workspaces, ws)
		return nil
	})
	if err != nil {
		return "", err
	}
	v.Title = "Workspaces"
	v.Crumbs = []crumb{{"Workspaces", ""}}
	v.Data = d
	return "home", nil
}

type projectRow struct {
	Project plumb.Project
	URL     string
	Metrics []metricCard
}

type workspaceData struct {
	WS       plumb.Workspace
	Role     string
	Projects []projectRow
}

// The few metrics a project's row shows in lists.
var summaryKeys = []string{lineCoverageKey(), metric.KeyMaintainability, metric.KeyIssues, metric.KeyLinesOfCode}

func (s *Server) handleWorkspace(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	ws, role, err := s.workspaceOf(r, v)
	if err != nil {
		return "", err
	}
	ps, err := s.store.WorkspaceProjects(r.Context(), ws.ID)
	if err != nil {
		return "", err
	}
	d := workspaceData{WS: ws, Role: role}
	for _, p := range ps {
		t, err := s.projectTotals(r.Context(), p)
		if err != nil {
			return "", err
		}
		d.Projects = append(d.Projects, projectRow{Project: p, URL: projURL(ws, p), Metrics: pick(cards(t, metric.ScopeProject, nil), summaryKeys)})
	}
	v.Title = ws.Key
	v.Crumbs = []crumb{{"Workspaces", "/"}, {ws.Key, ""}}
	v.Data = d
	return "workspace", nil
}

type applicationsData struct {
	WS           plumb.Workspace
	Enabled      bool
	Applications []plumb.Application
}

func (s *Server) handleApplications(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	ws, _, err := s.workspaceOf(r, v)
	if err != nil {
		return "", err
	}
	d := applicationsData{WS: ws, Enabled: ws.ApplicationsEnabled}
	err = s.store.EachApplication(r.Context(), ws.ID, "", plumb.Page{}, func(a plumb.Application) error {
		d.Applications = append(d.Applications, a)
		return nil
	})
	if err != nil {
		return "", err
	}
	v.Title = "Applications · " + ws.Key
	v.Crumbs = []crumb{{"Workspaces", "/"}, {ws.Key, wsURL(ws)}, {"Applications", ""}}
	v.Data = d
	return "applications", nil
}

// projectTotals are the whole project's latest totals.
func (s *Server) projectTotals(ctx context.Context, p plumb.Project) (metric.Totals, error) {
	return s.store.WholeProjectTotals(ctx, p.ID)
}

// metricCard is one metric value as a page shows it.
type metricCard struct {
	Key, Name, Description, Category string
	Display                          string // the value as people read it
	Grade                            string // "a"…"f" for ratings: the colour class
	Spark                            template.HTML
	ChartURL                         string
}

func cards(t metric.Totals, sc metric.Scope, spark map[string][]metric.Point) []metricCard {
	vals := metric.Values(t, sc)
	out := make([]metricCard, len(vals))
	for i, mv := range vals {
		c := metricCard{Key: mv.Key, Name: mv.Name, Description: mv.Description, Category: mv.Category}
		d, _ := metric.Lookup(mv.Key, sc)
		if c.Name == "" {
			c.Name = mv.Key
		}
		switch x := mv.Value.(type) {
		case string:
			c.Display = x
			if d.ValueType == metric.ValueGrade {
				c.Grade = gradeClass(x)
			}
		case float64:
			c.Display = strconv.FormatFloat(x, 'f', -1, 64)
			if d.ValueType == metric.ValuePercent {
				c.Display += "%"
			}
		case int64:
			c.Display = strconv.FormatInt(x, 10)
		default:
			c.Display = "–"
		}
		if spark != nil {
			c.Spark = sparkline(spark[mv.Key], c.Name)
		}
		out[i] = c
	}
	return out
}

func gradeClass(letter string) string {
	switch letter {
	case "A", "B", "C", "D", "F":
		return "grade-" + string(rune(letter[0]+'a'-'A'))
	}
	return ""
}

func pick(cs []metricCard, keys []string) []metricCard {
	var out []metricCard
	for _, k := range keys {
		for _, c := range cs {
			if c.Key == k {
				out = append(out, c)
			}
		}
	}
	return out
}

type overviewData struct {
	*scope
	Metrics     []metricCard
	HasAnalysis bool
	HasCoverage bool
	Builds      []plumb.Build
	Components  []componentRow
	Base        string
	Badges      []badgeLink
	Public      bool
}

type badgeLink struct{ Name, URL string }

// history returns the analysis and coverage measurements of the project, or
// of one of its components when c is not nil.
func (s *Server) history(ctx context.Context, sc *scope, c *plumb.Component, to time.Time) (analysis, coverage []plumb.TotalsAt, err error) {
	if c != nil {
		return s.store.ComponentHistory(ctx, *c, to)
	}
	return s.store.WholeProjectHistory(ctx, sc.Project.ID, to)
}

// metricScope is the scope of a chart: a component's, or the whole project's.
func metricScope(c *plumb.Component) metric.Scope {
	if c != nil {
		return metric.ScopeComponent
	}
	return metric.ScopeProject
}

// series buckets one metric of a history into a window.
func series(d metric.Definition, sc metric.Scope, win metric.Window, analysis, coverage []plumb.TotalsAt) []metric.Point {
	source := analysis
	if d.Category == metric.CategoryCoverage {
		source = coverage
	}
	ms := make([]metric.Measurement, len(source))
	for i, h := range source {
		ms[i] = metric.Measurement{At: h.At, Value: metric.SeriesValue(d.Key, h.Totals, sc)}
	}
	return metric.Bucket(win, ms)
}

func (s *Server) handleProject(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.projectOf(r, v, "")
	if err != nil {
		return "", err
	}
	ctx := r.Context()
	t, err := s.projectTotals(ctx, sc.Project)
	if err != nil {
		return "", err
	}
	now := s.now().UTC().Truncate(time.Second)
	analysis, coverage, err := s.history(ctx, sc, nil, now)
	if err != nil {
		return "", err
	}
	win := metric.Window{From: now.AddDate(0, -6, 0), To: now, Interval: metric.IntervalWeek}
	spark := map[string][]metric.Point{}
	for _, d := range metric.Catalogue(metric.ScopeProject) {
		spark[d.Key] = series(d, metric.ScopeProject, win, analysis, coverage)
	}
	d := overviewData{scope: sc, Metrics: cards(t, metric.ScopeProject, spark), HasAnalysis: t.Files > 0 || len(analysis) > 0,
		HasCoverage: len(coverage) > 0, Base: s.baseURL(r)}
	for i := range d.Metrics {
		d.Metrics[i].ChartURL = sc.URL + "/metrics?metric=" + d.Metrics[i].Key
	}
	err = s.store.EachBuild(ctx, sc.Project.ID, plumb.BuildFilter{Page: plumb.Page{Limit: 5}}, func(b plumb.Build) error {
		d.Builds = append(d.Builds, b)
		return nil
	})
	if err != nil {
		return "", err
	}
	if sc.Project.ComponentsEnabled {
		if d.Components, err = s.componentRows(ctx, sc); err != nil {
			return "", err
		}
	}
	if d.Public, err = s.store.BadgesPublic(ctx, sc.Project.ID); err != nil {
		return "", err
	}
	for _, b := range badgeKinds {
		d.Badges = append(d.Badges, badgeLink{b.title, d.Base + sc.API + "/" + b.file})
	}
	v.Data = d
	return "project", nil
}

type metricsData struct {
	*scope
	Component  *plumb.Component
	File       string // the file charted alone (?file=), or ""
	FileURL    string // its file page
	NoHistory  bool   // the file is in no default-branch analysis or coverage
	Components []plumb.Component
	Interval   string
	Window     string
	Metric     string
	Charts     []chartData
	Intervals  []string
	Windows    []string
	Self       func(k, v string) string
}

type chartData struct {
	Def  metric.Definition
	SVG  template.HTML
	Rows []pointRow
	URL  string
}

type pointRow struct {
	At    time.Time
	Label string
}

var windows = map[string]int{"1m": 1, "6m": 6, "1y": 12, "all": 0}

// handleMetrics draws the metric series of the project, or of one component
// (?component=), with the interval (day, week, month) and window (1m, 6m,
// 1y, all) controls; ?metric= shows one metric with its data table.
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.projectOf(r, v, "Metrics")
	if err != nil {
		return "", err
	}
	ctx := r.Context()
	q := r.URL.Query()
	d := metricsData{scope: sc, Interval: q.Get("interval"), Window: q.Get("window"), Metric: q.Get("metric"),
		Intervals: []string{"day", "week", "month"}, Windows: []string{"1m", "6m", "1y", "all"}}
	if d.Interval == "" {
		d.Interval = "week"
	}
	if d.Window == "" {
		d.Window = "6m"
	}
	iv, err := metric.ParseInterval(d.Interval)
	if err != nil {
		return "", plumb.Errorf(plumb.EINVALID, "interval must be day, week or month, got %q.", d.Interval)
	}
	months, ok := windows[d.Window]
	if !ok {
		return "", plumb.Errorf(plumb.EINVALID, "window must be 1m, 6m, 1y or all, got %q.", d.Window)
	}
	if d.Metric != "" && !metric.IsKey(d.Metric) {
		return "", plumb.Errorf(plumb.EINVALID, "metric must be one of %v, got %q.", metric.Keys(), d.Metric)
	}
	if sc.Project.ComponentsEnabled {
		if d.Components, err = s.store.ListComponents(ctx, sc.Project.ID); err != nil {
			return "", err
		}
	}
	if name := q.Get("component"); name != "" {
		if !sc.Project.ComponentsEnabled {
			return "", plumb.Errorf(plumb.EFORBIDDEN, "Components are not enabled on project %q.", sc.Project.Key)
		}
		c, err := s.store.FindComponent(ctx, sc.Project.ID, name)
		if err != nil {
			return "", err
		}
		d.Component = &c
		v.Crumbs = append(v.Crumbs[:len(v.Crumbs)-1], crumb{"Metrics", sc.URL + "/metrics"}, crumb{c.Name, ""})
	}
	ms := metricScope(d.Component)
	now := s.now().UTC().Truncate(time.Second)
	var analysis, coverage []plumb.TotalsAt
	if d.File = q.Get("file"); d.File != "" {
		if d.Component != nil {
			return "", plumb.Errorf(plumb.EINVALID, "Chart a component or a file, not both.")
		}
		if err := source.ValidatePath(d.File); err != nil {
			return "", err
		}
		ms = metric.ScopeFile
		d.FileURL = sc.URL + "/files/" + escapePath(d.File)
		analysis, coverage, err = s.store.FileHistory(ctx, sc.Project.ID, d.File, now)
		d.NoHistory = len(analysis)+len(coverage) == 0
		v.Crumbs = append(v.Crumbs[:len(v.Crumbs)-1], crumb{"Metrics", sc.URL + "/metrics"}, crumb{d.File, d.FileURL}, crumb{"History", ""})
	} else {
		analysis, coverage, err = s.history(ctx, sc, d.Component, now)
	}
	if err != nil {
		return "", err
	}
	from := now.AddDate(0, -months, 0)
	if months == 0 {
		from = now
		for _, h := range [][]plumb.TotalsAt{analysis, coverage} {
			if len(h) > 0 && h[0].At.Before(from) {
				from = h[0].At
			}
		}
	}
	win := metric.Window{From: from, To: now, Interval: iv}
	d.Self = func(k, val string) string {
		nq := url.Values{}
		for key, vs := range q {
			nq[key] = vs
		}
		if val == "" {
			nq.Del(k)
		} else {
			nq.Set(k, val)
		}
		return sc.URL + "/metrics?" + nq.Encode()
	}
	for _, def := range metric.Catalogue(ms) {
		if d.Metric != "" && def.Key != d.Metric || ms == metric.ScopeFile && def.Key == "FILES" {
			continue
		}
		pts := series(def, ms, win, analysis, coverage)
		cd := chartData{Def: def, SVG: lineChart(def, pts, iv), URL: d.Self("metric", def.Key)}
		for _, p := range pts {
			cd.Rows = append(cd.Rows, pointRow{p.Timestamp, seriesLabel(def, p.Value)})
		}
		d.Charts = append(d.Charts, cd)
	}
	v.Data = d
	return "metrics", nil
}

type componentRow struct {
	C       plumb.Component
	Metrics []metricCard
	Chart   string
}

func (s *Server) componentRows(ctx context.Context, sc *scope) ([]componentRow, error) {
	comps, err := s.store.ListComponents(ctx, sc.Project.ID)
	if err != nil {
		return nil, err
	}
	rows := make([]componentRow, len(comps))
	for i, c := range comps {
		t, err := s.store.ComponentTotals(ctx, c)
		if err != nil {
			return nil, err
		}
		rows[i] = componentRow{C: c, Metrics: pick(cards(t, metric.ScopeComponent, nil), summaryKeys),
			Chart: sc.URL + "/metrics?component=" + url.QueryEscape(c.Name)}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].C.Name < rows[j].C.Name })
	return rows, nil
}

// HistoryURL is the file's history charts: the metrics page with ?file=.
func (d *fileData) HistoryURL() string { return d.URL + "/metrics?file=" + url.QueryEscape(d.Path) }
