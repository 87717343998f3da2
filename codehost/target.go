package codehost

import (
	"fmt"
	"net/url"
	"strings"
)

// DefaultURLs are the API addresses of github.com and gitlab.com, by kind.
var DefaultURLs = map[string]string{GitHub: "https://api.github.com", GitLab: "https://gitlab.com"}

// Check names every problem of a connection, as PUT …/code-host refuses it
// (the web's settings form and plumb project code-host too), and fills in
// the base URL's default: GitHub's or GitLab's, or the GitHub App's (app)
// when the server has one and the connection is to GitHub. The messages
// start with the field's API name (kind, baseUrl, repository, token).
func (t *Target) Check(app *App) []string {
	var p []string
	viaApp := t.Kind == GitHub && app != nil
	def, known := DefaultURLs[t.Kind]
	if t.Kind != "" && !known {
		p = append(p, fmt.Sprintf("kind must be github or gitlab, got %q.", t.Kind))
	}
	if viaApp && t.BaseURL == "" {
		def = app.BaseURL
	}
	if t.BaseURL == "" {
		t.BaseURL = def
	} else if u, err := url.Parse(t.BaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		p = append(p, "baseUrl must be an http or https URL, such as https://github.example.com/api/v3.")
	}
	if t.Kind == GitHub && strings.Count(t.Repository, "/") != 1 {
		p = append(p, fmt.Sprintf("repository must be OWNER/NAME for GitHub, got %q.", t.Repository))
	}
	if strings.ContainsAny(t.Token, " \t\r\n") {
		p = append(p, "token must not contain spaces or line breaks.")
	}
	return p
}
