package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
)

// The rest of a project's settings page, for its admins: the quality gate
// (validated by compare.Gate.Validate, as PUT …/gate on the API), the last
// webhook deliveries, and the badge token (a secret a private project's
// badge URLs accept as ?token=, shown once, regenerable, revocable).

// projectSettingsMore is what settings_project.html shows.
type projectSettingsMore struct {
	Gate            gateForm
	GateCustom      bool
	GateErrors      []string
	GateSaved       bool
	Deliveries      []codehost.HookRecord
	Host            hostForm
	HostErrors      []string
	HostTest        string // the host's answer to "test connection"
	HostTestOK      bool
	ViaApp          bool // the server has a GitHub App
	IssueLevels     []string
	BadgeToken      plumb.BadgeToken
	HasBadgeToken   bool
	NewBadgeToken   string // shown once, after creation
	BadgeTokenError string
}

func (s *Server) projectSettingsRoutes(project string) {
	m := s.mux
	m.HandleFunc("POST "+project+"/gate", s.form(s.handleGateForm))
	m.HandleFunc("POST "+project+"/code-host", s.form(s.handleCodeHostForm))
	m.HandleFunc("POST "+project+"/code-host/test", s.form(s.handleCodeHostTest))
	m.HandleFunc("POST "+project+"/badge-token", s.form(s.handleCreateBadgeToken))
	m.HandleFunc("POST "+project+"/badge-token/revoke", s.form(s.handleRevokeBadgeToken))
}

// flashBadgeToken is the flash kind of a project's new badge token.
func flashBadgeToken(p plumb.Project) string { return "badge-token:" + p.ID }

func (s *Server) loadProjectSettingsMore(r *http.Request, d *projectSettingsData) error {
	ctx := r.Context()
	m := &d.More
	var err error
	if m.BadgeToken, m.HasBadgeToken, err = s.store.ProjectBadgeToken(ctx, d.Project.ID); err != nil {
		return err
	}
	m.IssueLevels, m.ViaApp = plumb.IssueLevels, s.cfg.GitHubApp != nil
	if m.HostErrors == nil {
		t, found, err := s.store.CodeHost(ctx, d.Project.ID)
		if err != nil {
			return err
		}
		m.Host = hostForm{Kind: t.Kind, Repository: t.Repository, BaseURL: t.BaseURL, Configured: found, HasToken: t.Token != ""}
	}
	if m.Deliveries, err = s.store.HookDeliveries(ctx, d.Project.ID, lastDeliveries); err != nil {
		return err
	}
	if m.GateErrors == nil { // after a refused form, the form as sent
		g, custom, err := s.store.Gate(ctx, d.Project.ID)
		if err != nil {
			return err
		}
		m.Gate, m.GateCustom = gateFormOf(g), custom
	}
	if m.HasBadgeToken && r.Method == http.MethodGet {
		if m.NewBadgeToken, err = s.takeFlash(r, flashBadgeToken(d.Project)); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) handleCreateBadgeToken(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	secret, err := s.store.CreateBadgeToken(r.Context(), sc.Project.ID, v.User.ID)
	if err != nil {
		return "", err
	}
	if err := s.setFlash(r, flashBadgeToken(sc.Project), secret); err != nil {
		return "", err
	}
	http.Redirect(w, r, sc.URL+"/settings#badges", http.StatusSeeOther)
	return "", nil
}

func (s *Server) handleRevokeBadgeToken(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	had, err := s.store.RevokeBadgeToken(r.Context(), sc.Project.ID)
	if err != nil {
		return "", err
	}
	if !had {
		return s.settingsPage(w, r, v, projectSettingsData{scope: sc,
			More: projectSettingsMore{BadgeTokenError: "This project has no badge token to revoke."}}, http.StatusBadRequest)
	}
	http.Redirect(w, r, sc.URL+"/settings#badges", http.StatusSeeOther)
	return "", nil
}

// lastDeliveries is how many webhook deliveries the settings page lists.
const lastDeliveries = 20

// gateForm is the gate as the form shows and sends it: each condition's
// switch and its thresholds, as typed.
type gateForm struct {
	PatchOn, DropOn, IssuesOn, SecurityOn     bool
	Patch, Drop, IssuesLevel, IssuesMax       string
	Security                                  string
	PatchAdv, DropAdv, IssuesAdv, SecurityAdv bool // advisory: shown, never failing the gate
}

// advisory lists, by the gate's field names, the conditions the form makes
// advisory; the box of a condition turned off is ignored.
func (f gateForm) advisory() []string {
	var out []string
	for i, on := range []bool{f.PatchOn && f.PatchAdv, f.DropOn && f.DropAdv, f.IssuesOn && f.IssuesAdv, f.SecurityOn && f.SecurityAdv} {
		if on {
			out = append(out, compare.GateConditions[i])
		}
	}
	return out
}

func gateFormOf(g compare.Gate) gateForm {
	f := gateForm{Patch: "80", Drop: "1", IssuesLevel: "high", IssuesMax: "0", Security: "0"}
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	if g.PatchCoverage != nil {
		f.PatchOn, f.Patch = true, num(*g.PatchCoverage)
	}
	if g.CoverageDrop != nil {
		f.DropOn, f.Drop = true, num(*g.CoverageDrop)
	}
	if g.NewIssues != nil {
		f.IssuesOn, f.IssuesLevel, f.IssuesMax = true, g.NewIssues.Level, strconv.Itoa(g.NewIssues.Max)
	}
	if g.NewSecurityIssues != nil {
		f.SecurityOn, f.Security = true, strconv.Itoa(*g.NewSecurityIssues)
	}
	f.PatchAdv, f.DropAdv = !g.Blocking("patchCoverage"), !g.Blocking("coverageDrop")
	f.IssuesAdv, f.SecurityAdv = !g.Blocking("newIssues"), !g.Blocking("newSecurityIssues")
	return f
}

// gate reads the form into a gate; problems name the fields as the page
// labels them. The gate's own rules are compare.Gate.Validate's, the same
// as the API's.
func (f gateForm) gate() (compare.Gate, []string) {
	var g compare.Gate
	var problems []string
	float := func(on bool, raw, label string) *float64 {
		if !on {
			return nil
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s must be a number, got %q.", label, raw))
			return nil
		}
		return &x
	}
	integer := func(on bool, raw, label string) *int {
		if !on {
			return nil
		}
		x, err := strconv.Atoi(strings.TrimSpace(raw))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s must be a whole number, got %q.", label, raw))
			return nil
		}
		return &x
	}
	g.PatchCoverage = float(f.PatchOn, f.Patch, "Patch coverage")
	g.CoverageDrop = float(f.DropOn, f.Drop, "Coverage drop")
	if n := integer(f.IssuesOn, f.IssuesMax, "New issues"); n != nil {
		g.NewIssues = &compare.IssueBound{Level: f.IssuesLevel, Max: *n}
	}
	g.NewSecurityIssues = integer(f.SecurityOn, f.Security, "New security issues")
	g.Advisory = f.advisory()
	return g, append(problems, g.Validate()...)
}

func (s *Server) handleGateForm(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	pf := r.PostForm
	f := gateForm{PatchOn: pf.Get("patch_on") == "on", Patch: pf.Get("patch"), DropOn: pf.Get("drop_on") == "on", Drop: pf.Get("drop"),
		IssuesOn: pf.Get("issues_on") == "on", IssuesLevel: pf.Get("issues_level"), IssuesMax: pf.Get("issues_max"),
		SecurityOn: pf.Get("security_on") == "on", Security: pf.Get("security"),
		PatchAdv: pf.Get("patch_advisory") == "on", DropAdv: pf.Get("drop_advisory") == "on",
		IssuesAdv: pf.Get("issues_advisory") == "on", SecurityAdv: pf.Get("security_advisory") == "on"}
	g, problems := f.gate()
	if len(problems) > 0 {
		return s.settingsPage(w, r, v, projectSettingsData{scope: sc,
			More: projectSettingsMore{Gate: f, GateErrors: problems}}, http.StatusBadRequest)
	}
	if err := s.store.PutGate(r.Context(), sc.Project.ID, g, s.now()); err != nil {
		return "", err
	}
	http.Redirect(w, r, sc.URL+"/settings#gate", http.StatusSeeOther)
	return "", nil
}

// hostForm is the code-host connection as the form shows it: never the
// token, only whether there is one (tokens are write-only).
type hostForm struct {
	Kind, Repository, BaseURL string
	Configured, HasToken      bool
}

// handleCodeHostForm saves the code-host connection under the API's rules
// (api.CheckCodeHost); an empty token keeps the one stored.
func (s *Server) handleCodeHostForm(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	ctx := r.Context()
	pf := r.PostForm
	t := codehost.Target{Kind: strings.TrimSpace(pf.Get("kind")), Repository: strings.TrimSpace(pf.Get("repository")),
		BaseURL: strings.TrimSpace(pf.Get("base_url")), Token: strings.TrimSpace(pf.Get("token"))}
	old, found, err := s.store.CodeHost(ctx, sc.Project.ID)
	if err != nil {
		return "", err
	}
	var problems []string
	if t.Repository == "" || len(t.Repository) > 500 {
		problems = append(problems, "repository must be 1 to 500 characters: OWNER/NAME on GitHub, the project's path or id on GitLab.")
	}
	if len(t.Token) > 1000 || len(t.BaseURL) > 2000 {
		problems = append(problems, "token (1,000 characters at most) or baseUrl (2,000) is too long.")
	}
	if t.Token == "" && found && old.Kind == t.Kind {
		t.Token = old.Token // write-only: blank keeps the stored token
	}
	if t.Token == "" && !(t.Kind == codehost.GitHub && s.cfg.GitHubApp != nil) {
		problems = append(problems, "token is required (GitHub: a token with the repo:status scope; GitLab: a token with the api scope).")
	}
	problems = append(problems, api.CheckCodeHost(&t, s.cfg.GitHubApp)...)
	if len(problems) > 0 {
		return s.settingsPage(w, r, v, projectSettingsData{scope: sc, More: projectSettingsMore{HostErrors: problems,
			Host: hostForm{Kind: t.Kind, Repository: t.Repository, BaseURL: pf.Get("base_url"), Configured: found, HasToken: found && old.Token != ""}}},
			http.StatusBadRequest)
	}
	if err := s.store.PutCodeHost(ctx, sc.Project.ID, t, s.now()); err != nil {
		return "", err
	}
	http.Redirect(w, r, sc.URL+"/settings#code-host", http.StatusSeeOther)
	return "", nil
}

// handleCodeHostTest asks the host for the connected repository with the
// stored token (or the App's installation token) and shows its answer.
func (s *Server) handleCodeHostTest(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.adminScope(r, v)
	if err != nil {
		return "", err
	}
	t, found, err := s.store.CodeHost(r.Context(), sc.Project.ID)
	if err != nil {
		return "", err
	}
	if !found {
		return s.settingsPage(w, r, v, projectSettingsData{scope: sc, More: projectSettingsMore{HostTest: "No code host is connected: save the connection first."}}, http.StatusBadRequest)
	}
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	name, err := s.checkCodeHost(ctx, t)
	m := projectSettingsMore{HostTestOK: err == nil, HostTest: fmt.Sprintf("%s answered: repository %s is reachable with these credentials.", t.BaseURL, name)}
	var he *codehost.HTTPError
	switch {
	case errors.As(err, &he):
		m.HostTest = fmt.Sprintf("%s answered %d %s: %s", t.BaseURL, he.Status, http.StatusText(he.Status), he.Body)
	case err != nil:
		m.HostTest = fmt.Sprintf("%s could not be reached: %v", t.BaseURL, err)
	}
	return s.settingsPage(w, r, v, projectSettingsData{scope: sc, More: m}, http.StatusOK)
}

func (s *Server) checkCodeHost(ctx context.Context, t codehost.Target) (string, error) {
	if t.Token == "" && t.Kind == codehost.GitHub && s.cfg.GitHubApp != nil {
		var err error
		if t, err = s.cfg.GitHubApp.Target(ctx, t.Repository, 0); err != nil {
			return "", err
		}
	}
	return s.cfg.CodeHost.CheckConnection(ctx, t)
}
