package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/metric"
)

// Badges: SVG images of a project's default-branch figures for READMEs, at
// the original service's paths (/gh/{workspace}/projects/{project}/coverage.svg,
// maintainability.svg, …), and the same as JSON for shields.io's endpoint
// badge (…/coverage.json). A project's badges answer to anyone only when its
// admins made them public (settings page); otherwise only to a signed-in
// member or to a request carrying the project's badge token (?token=…, for a
// private repository's README), and 404 to everyone else, exactly as for a
// project that does not exist.

type badgeKind struct {
	file, title, label, key string
}

var badgeKinds = func() []badgeKind {
	var out []badgeKind
	for _, b := range []badgeKind{
		{"coverage.svg", "Line coverage", "coverage", lineCoverageKey()},
		{"coverage-rating.svg", "Coverage rating", "coverage", coverageRatingKey()},
		{"maintainability.svg", "Maintainability rating", "maintainability", metric.KeyMaintainability},
		{"security.svg", "Security rating", "security", metric.KeySecurity},
		{"issues.svg", "Open issues", "issues", metric.KeyIssues},
	} {
		if b.key != "" {
			out = append(out, b)
		}
	}
	return out
}()

// lineCoverageKey and coverageRatingKey find the coverage metrics by what
// they are (the coverage percentage, the coverage grade) in the catalogue.
func lineCoverageKey() string   { return coverageKey(metric.ValuePercent) }
func coverageRatingKey() string { return coverageKey(metric.ValueGrade) }

func coverageKey(vt metric.ValueType) string {
	for _, d := range metric.Catalogue(metric.ScopeProject) {
		if d.Category == metric.CategoryCoverage && d.ValueType == vt {
			return d.Key
		}
	}
	return ""
}

func isCoverage(key string) bool {
	d, _ := metric.Lookup(key, metric.ScopeProject)
	return d.Category == metric.CategoryCoverage
}

func findBadge(name string) (badgeKind, string, bool) {
	base, format := name, "svg"
	if strings.HasSuffix(name, ".json") {
		base, format = strings.TrimSuffix(name, ".json")+".svg", "json"
	}
	for _, b := range badgeKinds {
		if b.file == base {
			return b, format, true
		}
	}
	return badgeKind{}, "", false
}

// badgeRequest reports whether a path is a badge's:
// /gh/{workspace}/projects/{project}/{badge}.
func badgeRequest(path string) bool {
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(parts) != 5 || parts[0] != "gh" || parts[2] != "projects" {
		return false
	}
	_, _, ok := findBadge(parts[4])
	return ok
}

func (s *Server) handleBadge(w http.ResponseWriter, r *http.Request) {
	// Badges are served outside the pages' header middleware: an SVG (or
	// JSON, or an error body) is never to be sniffed as anything else.
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		api.WriteErrorBody(w, http.StatusMethodNotAllowed, fmt.Sprintf("Method %s is not allowed on a badge; allowed: GET, HEAD.", r.Method))
		return
	}
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	kind, format, _ := findBadge(parts[4])
	notFound := func() {
		w.Header().Set("Cache-Control", "no-store")
		api.WriteErrorBody(w, http.StatusNotFound, "No badge here: the project does not exist or its badges are not public.")
	}
	ctx := r.Context()
	p, err := s.store.FindProjectByKeys(ctx, parts[1], parts[3])
	if err != nil {
		if plumb.ErrorCode(err) != plumb.ENOTFOUND {
			s.log.Error("badge", "error", err)
		}
		notFound()
		return
	}
	public, err := s.store.BadgesPublic(ctx, p.ID)
	if err != nil {
		notFound()
		return
	}
	if !public && !s.badgeTokenOK(r, p.ID) {
		v, ok := s.signedIn(w, r)
		if !ok {
			notFound()
			return
		}
		if _, _, err := s.store.FindWorkspace(ctx, v.User.ID, p.WorkspaceID); err != nil {
			notFound()
			return
		}
	}
	t, err := s.projectTotals(ctx, p)
	if err != nil {
		s.log.Error("badge", "error", err)
		api.WriteErrorBody(w, http.StatusInternalServerError, "An unexpected error occurred; the server logged it.")
		return
	}
	message, color := badgeValue(kind, t)
	cache := "public, max-age=300"
	if !public {
		cache = "private, no-store"
	}
	w.Header().Set("Cache-Control", cache)
	if format == "json" {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"schemaVersion": 1, "label": kind.label, "message": message, "color": color})
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	_, _ = w.Write([]byte(badgeSVG(kind.label, message, color)))
}

// badgeTokenOK reports whether the request carries the project's badge
// token (?token=…). A wrong or revoked one counts as none: the badge then
// answers as to anyone else. The token is never logged (request logs carry
// the path only).
func (s *Server) badgeTokenOK(r *http.Request, projectID string) bool {
	secret := r.URL.Query().Get("token")
	if secret == "" {
		return false
	}
	ok, err := s.store.BadgeTokenValid(r.Context(), projectID, secret)
	if err != nil {
		s.log.Error("badge token", "error", err)
	}
	return ok && err == nil
}

// badgeValue is the message and colour of a badge.
func badgeValue(kind badgeKind, t metric.Totals) (string, string) {
	d, _ := metric.Lookup(kind.key, metric.ScopeProject)
	var val any
	for _, v := range metric.Values(t, metric.ScopeProject) {
		if v.Key == kind.key {
			val = v.Value
		}
	}
	if isCoverage(kind.key) && t.Coverage.Covered+t.Coverage.Missed == 0 || !isCoverage(kind.key) && t.Files == 0 {
		return "unknown", "#9f9f9f"
	}
	switch x := val.(type) {
	case string:
		return x, gradeColors[x]
	case float64:
		msg := strconv.FormatFloat(x, 'f', -1, 64)
		if d.ValueType == metric.ValuePercent {
			msg += "%"
		}
		c := "#e05d44"
		switch {
		case x >= 90:
			c = "#44cc11"
		case x >= 80:
			c = "#97ca00"
		case x >= 70:
			c = "#dfb317"
		case x >= 60:
			c = "#fe7d37"
		}
		return msg, c
	case int64:
		c := "#44cc11"
		if x > 0 {
			c = "#dfb317"
		}
		return strconv.FormatInt(x, 10), c
	}
	return "unknown", "#9f9f9f"
}

var gradeColors = map[string]string{"A": "#44cc11", "B": "#97ca00", "C": "#dfb317", "D": "#fe7d37", "F": "#e05d44"}

// badgeSVG draws a flat two-part badge (label in grey, message in colour).
func badgeSVG(label, message, color string) string {
	width := func(s string) int { return 10 + len(s)*7 }
	lw, mw := width(label), width(message)
	e := template.HTMLEscapeString
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%[1]d" height="20" role="img" aria-label="%[4]s: %[5]s">`+
		`<title>%[4]s: %[5]s</title><linearGradient id="s" x2="0" y2="100%%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`+
		`<clipPath id="r"><rect width="%[1]d" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)">`+
		`<rect width="%[2]d" height="20" fill="#555"/><rect x="%[2]d" width="%[3]d" height="20" fill="%[6]s"/><rect width="%[1]d" height="20" fill="url(#s)"/></g>`+
		`<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`+
		`<text x="%[7]d" y="14">%[4]s</text><text x="%[8]d" y="14">%[5]s</text></g></svg>`,
		lw+mw, lw, mw, e(label), e(message), color, lw/2, lw+mw/2)
}
