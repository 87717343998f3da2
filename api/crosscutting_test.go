package api_test

// Rules that hold across resources: routing (404/405), the provider segment,
// authentication, addressing and visibility, path parameter lengths, the
// order of checks, content negotiation, pagination, the OpenAPI document,
// health endpoints and internal errors.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/openapi"
	"github.com/plumbhq/plumb/ratelimit"
)

func TestRouterNotFound(t *testing.T) {
	w := newWorld(t)
	paths := []string{
		"/",
		"/nope",
		"/workspaces/",                         // a trailing slash is a different path
		"/workspaces/acme/",                    // trailing slash
		"/user/",                               //
		"/gh",                                  //
		"/gh/acme",                             //
		"/gh/acme/applications/",               // trailing slash, not an empty application id
		"/gh/acme/projects/web/",               // trailing slash, not an empty segment
		"/gh/acme/projects/web/issues/counts/", //
		"/gh/acme/projects/web/issues/",        //
		"/gh/acme/projects/web/builds/",        //
		"/gh//applications",                    // an empty segment is not a parameter
		"/rate_limit/",                         //
		"/v1/workspaces",                       // paths carry no version
		"/gl/acme/applications",                // provider other than gh
		"/github/acme/applications",            //
		"/GH/acme/applications",                // the provider is case-sensitive
		"/bitbucket/acme/projects/web/issues",  //
	}
	for _, p := range paths {
		for _, token := range []string{"", w.Alice, "not-a-token"} {
			name := p + " token=" + map[bool]string{true: "none", false: "given"}[token == ""]
			t.Run(name, func(t *testing.T) {
				// Route comes before authentication: even without a valid
				// token the answer is 404.
				w.get(t, p, token).wantError(t, http.StatusNotFound, "No endpoint at GET "+p)
			})
		}
	}
}

func TestRouterMethodNotAllowed(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		method, path, allow string
	}{
		{"DELETE", "/workspaces", "GET"},
		{"POST", "/workspaces", "GET"},
		{"PUT", "/gh/acme/applications", "GET, POST"},
		{"DELETE", "/gh/acme/applications", "GET, POST"},
		{"POST", "/gh/acme/applications/shop", "GET"},
		{"POST", "/gh/acme/projects/web/issues", "GET"},
		{"DELETE", "/gh/acme/projects/web/builds", "GET"},
		{"PUT", "/gh/acme/projects/web/builds/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "GET"},
		{"GET", "/gh/acme/projects/web/components/core", "DELETE, PUT"},
		{"POST", "/rate_limit", "GET"},
		{"POST", "/openapi.json", "GET"},
		{"HEAD", "/workspaces", "GET"},
		{"OPTIONS", "/workspaces", "GET"},
		// The route is checked before path parameter lengths and visibility.
		{"DELETE", "/gh/ab/applications", "GET, POST"},
		{"DELETE", "/gh/globex/applications", "GET, POST"},
	}
	for _, tt := range tests {
		for _, token := range []string{"", w.Alice} {
			t.Run(tt.method+" "+tt.path+" auth="+strconv.FormatBool(token != ""), func(t *testing.T) {
				r := w.do(t, tt.method, tt.path, token, nil, "")
				r.wantStatus(t, http.StatusMethodNotAllowed)
				if got := r.Header.Get("Allow"); got != tt.allow {
					t.Errorf("Allow %q, want %q", got, tt.allow)
				}
				if tt.method != "HEAD" {
					if d := r.details(t); len(d) != 1 || !strings.Contains(d[0], tt.allow) {
						t.Errorf("detail %q does not name the allowed methods %q", d, tt.allow)
					}
				}
			})
		}
	}
}

func TestAuthentication(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		name, header string
	}{
		{"no header", ""},
		{"scheme only", "Bearer"},
		{"scheme and space", "Bearer "},
		{"basic with a password", "Basic YWxpY2U6cGFzcw=="},
		{"basic with the token and a password", "Basic " + base64.StdEncoding.EncodeToString([]byte(w.Alice+":x"))},
		{"basic without a colon", "Basic " + base64.StdEncoding.EncodeToString([]byte(w.Alice))},
		{"basic with an empty user", "Basic " + base64.StdEncoding.EncodeToString([]byte(":"))},
		{"basic with the token as password", "Basic " + base64.StdEncoding.EncodeToString([]byte(":"+w.Alice))},
		{"basic not base64", "Basic " + w.Alice + "!"},
		{"basic scheme only", "Basic"},
		{"basic unknown token", "Basic " + base64.StdEncoding.EncodeToString([]byte("plb_0000000000000000000000000000000000000000:"))},
		{"token scheme", "Token " + w.Alice},
		{"no scheme", w.Alice},
		{"two tokens", "Bearer " + w.Alice + " " + w.Alice},
		{"unknown token", "Bearer plb_0000000000000000000000000000000000000000"},
		{"token of another case", "Bearer " + strings.ToUpper(w.Alice)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.header != "" {
				h["Authorization"] = tt.header
			}
			r := w.do(t, "GET", "/workspaces", "", h, "")
			r.wantStatus(t, http.StatusUnauthorized)
			if got := r.Header.Get("WWW-Authenticate"); got != `Bearer realm="plumb", Basic realm="plumb"` {
				t.Errorf("WWW-Authenticate %q", got)
			}
			for _, name := range rateLimitHeaders {
				if v := r.Header.Get(name); v != "" {
					t.Errorf("401 carries %s: %q", name, v)
				}
			}
		})
	}
	t.Run("basic: the token as user name, empty password", func(t *testing.T) {
		basic := base64.StdEncoding.EncodeToString([]byte(w.Alice + ":"))
		for _, h := range []string{"Basic " + basic, "basic " + basic, "BASIC " + basic} {
			r := w.do(t, "GET", "/workspaces", "", hdr("Authorization", h), "")
			r.wantStatus(t, http.StatusOK)
			if r.Header.Get("x-ratelimit-limit") == "" {
				t.Errorf("%s: no rate-limit headers", h)
			}
		}
		// Same user, same token: the Bearer and Basic answers are equal.
		a := w.do(t, "GET", "/workspaces", "", hdr("Authorization", "Basic "+basic), "").wantStatus(t, http.StatusOK)
		b := w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
		if string(a.Body) != string(b.Body) {
			t.Errorf("Basic answer %s differs from Bearer answer %s", a.Body, b.Body)
		}
		// A revoked token fails at once with Basic too.
		tok, secret := w.tokenFor(t, "alice")
		sb := "Basic " + base64.StdEncoding.EncodeToString([]byte(secret+":"))
		w.do(t, "GET", "/workspaces", "", hdr("Authorization", sb), "").wantStatus(t, http.StatusOK)
		w.revoke(t, tok.ID)
		w.do(t, "GET", "/workspaces", "", hdr("Authorization", sb), "").wantError(t, http.StatusUnauthorized, "revoked")
	})
	t.Run("scheme is case-insensitive", func(t *testing.T) {
		w.do(t, "GET", "/workspaces", "", hdr("Authorization", "bearer "+w.Alice), "").wantStatus(t, http.StatusOK)
		w.do(t, "GET", "/workspaces", "", hdr("Authorization", "BEARER "+w.Alice), "").wantStatus(t, http.StatusOK)
	})
	t.Run("revoked token fails at once", func(t *testing.T) {
		tok, secret := w.tokenFor(t, "alice")
		w.get(t, "/workspaces", secret).wantStatus(t, http.StatusOK)
		w.revoke(t, tok.ID)
		w.get(t, "/workspaces", secret).wantError(t, http.StatusUnauthorized, "revoked")
		w.get(t, "/rate_limit", secret).wantStatus(t, http.StatusUnauthorized)
		// Other tokens of the user still work.
		w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
	})
	t.Run("every endpoint but the description needs a token", func(t *testing.T) {
		for _, ep := range []struct{ method, path string }{
			{"GET", "/workspaces"},
			{"GET", "/rate_limit"},
			{"POST", "/gh/acme/applications"},
			{"GET", "/gh/acme/applications"},
			{"GET", "/gh/acme/applications/shop"},
			{"GET", "/gh/acme/projects/web/issues"},
			{"GET", "/gh/acme/projects/web/builds"},
			{"GET", "/gh/acme/projects/web/builds/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"},
			{"GET", "/gh/acme/projects/web/files?path=a.go"},
			{"GET", "/gh/acme/projects/web/coverage/file?reference=refs/heads/main&path=a.go"},
			{"GET", "/gh/acme/projects/web/components"},
			{"POST", "/gh/acme/projects/web/components"},
			{"PUT", "/gh/acme/projects/web/components/core"},
			{"DELETE", "/gh/acme/projects/web/components/core"},
			{"GET", "/gh/acme/projects/web/components/core/metrics"},
			{"GET", "/gh/acme/projects/web/components/core/metrics/series"},
		} {
			h := map[string]string{}
			body := ""
			if ep.method == "POST" || ep.method == "PUT" {
				h, body = jsonBody, `{"name":"x"}`
			}
			w.do(t, ep.method, ep.path, "", h, body).wantStatus(t, http.StatusUnauthorized)
		}
	})
}

// TestVisibility: a workspace the user is not a member of, and everything in
// it, answers 404 exactly as a missing one does.
func TestVisibility(t *testing.T) {
	w := newWorld(t)
	app := w.application(t, w.Globex.ID, "Secret", "")
	b := w.build(t, plumb.Build{ProjectID: w.Vault.ID, Type: "analysis", Status: "running", BranchName: "main",
		CommitSHA: "abc", SubmittedAt: t0})
	ownBuild := w.build(t, plumb.Build{ProjectID: w.Web.ID, Type: "analysis", Status: "running", BranchName: "main",
		CommitSHA: "abc", SubmittedAt: t0})

	tests := []struct {
		method, hidden, missing string
	}{
		// workspace by key and by id
		{"GET", "/gh/globex/applications", "/gh/nobody/applications"},
		{"POST", "/gh/globex/applications", "/gh/nobody/applications"},
		{"GET", "/gh/" + w.Globex.ID + "/applications", "/gh/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/applications"},
		// applications
		{"GET", "/gh/globex/applications/Secret", "/gh/nobody/applications/Secret"},
		{"GET", "/gh/globex/applications/" + app.ID, "/gh/nobody/applications/" + app.ID},
		{"GET", "/gh/acme/applications/" + app.ID, "/gh/acme/applications/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"},
		{"GET", "/gh/acme/applications/Secret", "/gh/acme/applications/Nopeee"},
		// projects
		{"GET", "/gh/globex/projects/vault/issues", "/gh/nobody/projects/vault/issues"},
		{"GET", "/gh/globex/projects/vault/builds", "/gh/nobody/projects/vault/builds"},
		{"GET", "/gh/" + w.Globex.ID + "/projects/" + w.Vault.ID + "/builds", "/gh/" + w.Globex.ID + "/projects/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/builds"},
		{"GET", "/gh/acme/projects/" + w.Vault.ID + "/issues", "/gh/acme/projects/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/issues"},
		{"GET", "/gh/acme/projects/vault/issues", "/gh/acme/projects/vaulx/issues"},
		// builds
		{"GET", "/gh/globex/projects/vault/builds/" + b.ID, "/gh/nobody/projects/vault/builds/" + b.ID},
		{"GET", "/gh/acme/projects/web/builds/" + b.ID, "/gh/acme/projects/web/builds/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"},
		{"GET", "/gh/acme/projects/api/builds/" + ownBuild.ID, "/gh/acme/projects/api/builds/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.hidden, func(t *testing.T) {
			h, body := map[string]string{}, ""
			if tt.method == "POST" {
				h, body = jsonBody, `{"name":"Probe"}`
			}
			hidden := w.do(t, tt.method, tt.hidden, w.Alice, h, body).wantStatus(t, http.StatusNotFound)
			missing := w.do(t, tt.method, tt.missing, w.Alice, h, body).wantStatus(t, http.StatusNotFound)
			// The two answers differ only by the name in the path.
			hd, md := hidden.details(t), missing.details(t)
			if len(hd) != 1 || len(md) != 1 {
				t.Fatalf("details %q and %q", hd, md)
			}
			hs, ms := strings.Split(strings.Trim(tt.hidden, "/"), "/"), strings.Split(strings.Trim(tt.missing, "/"), "/")
			normalized := hd[0]
			for i := range hs {
				if hs[i] != ms[i] {
					normalized = strings.ReplaceAll(normalized, hs[i], ms[i])
				}
			}
			if normalized != md[0] {
				t.Errorf("a hidden resource is told apart from a missing one:\nhidden:  %q\nmissing: %q", hd[0], md[0])
			}
		})
	}
	t.Run("bob sees his own workspace", func(t *testing.T) {
		w.get(t, "/gh/globex/projects/vault/builds/"+b.ID, w.Bob).wantStatus(t, http.StatusOK)
		w.get(t, "/gh/acme/applications", w.Bob).wantStatus(t, http.StatusNotFound)
	})
	t.Run("membership removed hides at once", func(t *testing.T) {
		w.get(t, "/gh/globex/applications", w.Bob).wantStatus(t, http.StatusOK)
		check(t, w.DB.RemoveMember(context.Background(), "globex", "bob"))
		w.get(t, "/gh/globex/applications", w.Bob).wantStatus(t, http.StatusNotFound)
	})
}

func TestAddressing(t *testing.T) {
	w := newWorld(t)
	b := w.build(t, plumb.Build{ProjectID: w.Web.ID, Type: "analysis", Status: "running", BranchName: "main",
		CommitSHA: "abc", SubmittedAt: t0})
	for _, owner := range []string{"acme", "ACME", "AcMe", w.Acme.ID} {
		for _, project := range []string{"web", "WEB", "wEb", w.Web.ID} {
			p := "/gh/" + owner + "/projects/" + project
			t.Run(p, func(t *testing.T) {
				w.get(t, p+"/builds", w.Alice).wantStatus(t, http.StatusOK)
				w.get(t, p+"/issues", w.Alice).wantStatus(t, http.StatusOK)
				w.get(t, p+"/builds/"+b.ID, w.Alice).wantStatus(t, http.StatusOK)
			})
		}
		t.Run("/gh/"+owner+"/applications", func(t *testing.T) {
			w.get(t, "/gh/"+owner+"/applications", w.Alice).wantStatus(t, http.StatusOK)
		})
	}
	t.Run("a project id of another workspace is not found", func(t *testing.T) {
		w.get(t, "/gh/acme/projects/"+w.Vault.ID+"/builds", w.Bob).wantStatus(t, http.StatusNotFound)
		w.get(t, "/gh/globex/projects/"+w.Web.ID+"/builds", w.Bob).wantStatus(t, http.StatusNotFound)
	})
	t.Run("UUIDs are case-insensitive", func(t *testing.T) {
		up := strings.ToUpper
		app := w.application(t, w.Acme.ID, "Shop", "")
		w.get(t, "/gh/"+up(w.Acme.ID)+"/projects/"+up(w.Web.ID)+"/builds/"+up(b.ID), w.Alice).wantStatus(t, http.StatusOK)
		w.get(t, "/gh/"+up(w.Acme.ID)+"/applications/"+up(app.ID), w.Alice).wantStatus(t, http.StatusOK)
		// Still invisible in another case.
		w.get(t, "/gh/"+up(w.Globex.ID)+"/applications", w.Alice).wantStatus(t, http.StatusNotFound)
	})
	t.Run("percent-encoded segments are decoded", func(t *testing.T) {
		w.get(t, "/gh/%61cme/projects/w%65b/builds", w.Alice).wantStatus(t, http.StatusOK)
	})
}

func TestPathParameterMinimumLength(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		method, path string
		details      []string
	}{
		{"GET", "/gh/ab/applications", []string{"ownerKeyOrId"}},
		{"POST", "/gh/ab/applications", []string{"ownerKeyOrId"}},
		{"GET", "/gh/a/applications/x", []string{"ownerKeyOrId"}},
		{"GET", "/gh/acme/projects/ab/issues", []string{"projectKeyOrId"}},
		{"GET", "/gh/acme/projects/x/builds", []string{"projectKeyOrId"}},
		{"GET", "/gh/acme/projects/web/builds/ab", []string{"buildId"}},
		{"GET", "/gh/ab/projects/cd/builds/ef", []string{"ownerKeyOrId", "projectKeyOrId", "buildId"}},
		// Length counts characters, not bytes: "éé" is two.
		{"GET", "/gh/%C3%A9%C3%A9/applications", []string{"ownerKeyOrId"}},
		// The length check runs before visibility: the same answer for a
		// hidden workspace.
		{"GET", "/gh/globex/projects/ab/issues", []string{"projectKeyOrId"}},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			h, body := map[string]string{}, ""
			if tt.method == "POST" {
				h, body = jsonBody, `{"name":"x"}`
			}
			r := w.do(t, tt.method, tt.path, w.Alice, h, body)
			r.wantError(t, http.StatusBadRequest, tt.details...)
			// After authentication: without a token the answer is 401.
			w.do(t, tt.method, tt.path, "", h, body).wantStatus(t, http.StatusUnauthorized)
		})
	}
	t.Run("exactly the minimum is accepted", func(t *testing.T) {
		w.get(t, "/gh/abc/applications", w.Alice).wantStatus(t, http.StatusNotFound)
		w.get(t, "/gh/%C3%A9%C3%A9%C3%A9/applications", w.Alice).wantStatus(t, http.StatusNotFound)
		w.get(t, "/gh/acme/projects/abc/builds", w.Alice).wantStatus(t, http.StatusNotFound)
		w.get(t, "/gh/acme/projects/web/builds/abc", w.Alice).wantStatus(t, http.StatusNotFound)
		w.get(t, "/gh/acme/applications/x", w.Alice).wantStatus(t, http.StatusNotFound)
	})
}

// TestOrderOfChecks: route and method, authentication (401), visibility
// (404), permission (403), then parameters and body (400).
func TestOrderOfChecks(t *testing.T) {
	w := newWorld(t)
	w.workspace(t, plumb.WorkspaceInput{Key: "closed"})
	w.member(t, "closed", "alice", plumb.RoleMember)
	w.workspace(t, plumb.WorkspaceInput{Key: "hiddenclosed"})
	tests := []struct {
		name, method, path, token string
		headers                   map[string]string
		body                      string
		status                    int
	}{
		{"unknown path without token", "GET", "/nope", "", nil, "", 404},
		{"unknown provider without token", "GET", "/gl/globex/applications", "", nil, "", 404},
		{"wrong method without token", "PATCH", "/gh/globex/applications", "", nil, "", 405},
		{"hidden workspace without token", "GET", "/gh/globex/applications", "", nil, "", 401},
		{"hidden project with bad query without token", "GET", "/gh/globex/projects/vault/issues?level=bogus", "", nil, "", 401},
		{"short path parameter without token", "GET", "/gh/ab/applications", "", nil, "", 401},
		{"bad Accept without token", "GET", "/workspaces", "", hdr("Accept", "image/png"), "", 401},
		{"bad query to a hidden project", "GET", "/gh/globex/projects/vault/issues?level=bogus&page[limit]=0", w.Alice, nil, "", 404},
		{"bad query to a missing project", "GET", "/gh/acme/projects/nope/issues?category=x&status=y", w.Alice, nil, "", 404},
		{"bad build status to a hidden project", "GET", "/gh/globex/projects/vault/builds?status=bogus", w.Alice, nil, "", 404},
		{"bad page to a hidden workspace", "GET", "/gh/globex/applications?page[offset]=-1", w.Alice, nil, "", 404},
		{"malformed query string to a hidden project", "GET", "/gh/globex/projects/vault/issues?level=%zz", w.Alice, nil, "", 404},
		{"malformed query string to a visible project", "GET", "/gh/acme/projects/web/issues?level=%zz", w.Alice, nil, "", 400},
		{"bad query to a visible project", "GET", "/gh/acme/projects/web/issues?level=bogus", w.Alice, nil, "", 400},
		{"create in a hidden workspace with a bad body", "POST", "/gh/globex/applications", w.Alice, jsonBody, `{"name":5}`, 404},
		{"create in a hidden workspace with a bad media type", "POST", "/gh/globex/applications", w.Alice, hdr("Content-Type", "text/plain"), `x`, 404},
		{"create in a hidden workspace without Applications", "POST", "/gh/hiddenclosed/applications", w.Alice, jsonBody, `{"name":"x"}`, 404},
		{"create without Applications, bad media type", "POST", "/gh/closed/applications", w.Alice, hdr("Content-Type", "text/plain"), `x`, 403},
		{"create without Applications, bad body", "POST", "/gh/closed/applications", w.Alice, jsonBody, `{`, 403},
		{"create without Applications, no body", "POST", "/gh/closed/applications", w.Alice, nil, "", 403},
		{"create with a bad media type and a bad body", "POST", "/gh/acme/applications", w.Alice, hdr("Content-Type", "text/plain"), `{`, 415},
		{"create with a bad body", "POST", "/gh/acme/applications", w.Alice, jsonBody, `{`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.do(t, tt.method, tt.path, tt.token, tt.headers, tt.body).wantStatus(t, tt.status)
		})
	}
}

func TestAcceptNegotiation(t *testing.T) {
	w := newWorld(t)
	const (
		jsonCT   = "application/json"
		ndjsonCT = "application/x-ndjson"
		csvCT    = "text/csv; charset=utf-8"
	)
	list := []struct {
		accept, want string // want: Content-Type, or "" for 406
	}{
		{"", jsonCT},
		{"*/*", jsonCT},
		{"*", jsonCT},
		{"application/json", jsonCT},
		{"APPLICATION/JSON", jsonCT},
		{"application/json; charset=utf-8", jsonCT},
		{"application/*", jsonCT},
		{"application/x-ndjson", ndjsonCT},
		{"text/csv", csvCT},
		{"text/*", csvCT},
		{"text/html, text/*;q=0.5", csvCT},
		{"text/csv, application/json", jsonCT},                     // equal q: JSON
		{"text/csv;q=0.8, application/json;q=0.8", jsonCT},         // equal q: JSON
		{"application/x-ndjson, */*", jsonCT},                      // equal q: JSON
		{"application/json;q=0.5, text/csv", csvCT},                // higher q wins
		{"text/csv;q=0.5, application/x-ndjson;q=0.9", ndjsonCT},   //
		{"application/json;q=0, */*;q=0.1, text/csv;q=0.2", csvCT}, // q=0 excludes
		{"*/*, application/json;q=0, application/x-ndjson;q=0", csvCT},
		{"text/*, text/csv;q=0", ""},
		{"*/*;q=0", ""},
		{"application/json;q=0", ""},
		{"application/xml", ""},
		{"text/html", ""},
		{"image/png, text/plain", ""},
	}
	for _, tt := range list {
		t.Run("list Accept="+tt.accept, func(t *testing.T) {
			r := w.get(t, "/workspaces", w.Alice, hdr("Accept", tt.accept))
			if tt.want == "" {
				r.wantError(t, http.StatusNotAcceptable, "application/json, application/x-ndjson, text/csv")
				return
			}
			r.wantStatus(t, http.StatusOK)
			if got := r.Header.Get("Content-Type"); got != tt.want {
				t.Errorf("Content-Type %q, want %q", got, tt.want)
			}
		})
	}

	t.Run("several Accept fields form one list", func(t *testing.T) {
		req, err := http.NewRequest("GET", w.URL+"/workspaces", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+w.Alice)
		req.Header.Add("Accept", "application/xml")
		req.Header.Add("Accept", "text/csv")
		r := w.send(t, req, "/workspaces", "", nil).wantStatus(t, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); ct != csvCT {
			t.Errorf("Content-Type %q, want %q", ct, csvCT)
		}
	})

	app := w.application(t, w.Acme.ID, "Shop", "")
	b := w.build(t, plumb.Build{ProjectID: w.Web.ID, Type: "analysis", Status: "running", BranchName: "main", CommitSHA: "abc", SubmittedAt: t0})
	jsonOnly := []struct{ method, path, body string }{
		{"GET", "/rate_limit", ""},
		{"GET", "/gh/acme/applications/" + app.ID, ""},
		{"GET", "/gh/acme/projects/web/builds/" + b.ID, ""},
		{"POST", "/gh/acme/applications", `{"name":"Other"}`},
	}
	for _, ep := range jsonOnly {
		for _, tt := range []struct{ accept, want string }{
			{"text/csv", ""},
			{"application/x-ndjson", ""},
			{"text/*", ""},
			{"text/csv, application/x-ndjson", ""},
			{"*/*", jsonCT},
			{"application/*", jsonCT},
			{"text/csv, application/json;q=0.1", jsonCT},
		} {
			t.Run(ep.method+" "+ep.path+" Accept="+tt.accept, func(t *testing.T) {
				h := hdr("Accept", tt.accept)
				if ep.body != "" {
					h["Content-Type"] = "application/json"
				}
				r := w.do(t, ep.method, ep.path, w.Alice, h, ep.body)
				if tt.want == "" {
					r.wantError(t, http.StatusNotAcceptable, "application/json")
					return
				}
				if r.Status >= 300 {
					if r.Status != http.StatusConflict { // the second POST of the name
						t.Fatalf("status %d: %s", r.Status, r)
					}
				}
				if got := r.Header.Get("Content-Type"); got != tt.want {
					t.Errorf("Content-Type %q, want %q", got, tt.want)
				}
			})
		}
	}

	t.Run("errors are JSON whatever the Accept", func(t *testing.T) {
		// The harness checks that each of these is the JSON error body.
		for _, accept := range []string{"text/csv", "application/x-ndjson", "image/png"} {
			w.get(t, "/gh/acme/applications", "", hdr("Accept", accept)).wantStatus(t, http.StatusUnauthorized)
			w.get(t, "/nope", w.Alice, hdr("Accept", accept)).wantStatus(t, http.StatusNotFound)
			w.do(t, "PUT", "/workspaces", w.Alice, hdr("Accept", accept), "").wantStatus(t, http.StatusMethodNotAllowed)
		}
		for _, accept := range []string{"text/csv", "application/x-ndjson"} {
			w.get(t, "/gh/nobody/applications", w.Alice, hdr("Accept", accept)).wantStatus(t, http.StatusNotFound)
			w.get(t, "/workspaces?page[limit]=0", w.Alice, hdr("Accept", accept)).wantStatus(t, http.StatusBadRequest)
		}
		w.get(t, "/workspaces", w.Alice, hdr("Accept", "image/png")).wantStatus(t, http.StatusNotAcceptable)
		w.get(t, "/rate_limit", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusNotAcceptable)
	})
}

// TestPagination uses the workspaces list; the other lists share the code
// and have their own smaller tests.
func TestPagination(t *testing.T) {
	ts := newTestServer(t)
	ts.user(t, "carol")
	carol := ts.token(t, "carol")
	var keys []string
	for i := 0; i < 25; i++ {
		key := fmt.Sprintf("ws-%02d", i)
		ts.workspace(t, plumb.WorkspaceInput{Key: key})
		ts.member(t, key, "carol", plumb.RoleMember)
		keys = append(keys, key)
	}
	page := func(t *testing.T, r *resp) (got []string, hasMore bool) {
		t.Helper()
		var body struct {
			Data []struct{ Key string }
			Meta struct{ HasMore *bool }
		}
		if err := json.Unmarshal(r.Body, &body); err != nil || body.Meta.HasMore == nil {
			t.Fatalf("not a list with meta.hasMore: %s", r)
		}
		for _, d := range body.Data {
			got = append(got, d.Key)
		}
		return got, *body.Meta.HasMore
	}
	valid := []struct {
		query    string
		from, to int
		hasMore  bool
		next     string // expected next link query, "" for none
		prev     string
	}{
		{"", 0, 20, true, "page%5Blimit%5D=20&page%5Boffset%5D=20", ""},
		{"?page[limit]=5", 0, 5, true, "page%5Blimit%5D=5&page%5Boffset%5D=5", ""},
		{"?page%5Blimit%5D=5", 0, 5, true, "page%5Blimit%5D=5&page%5Boffset%5D=5", ""},
		{"?page[limit]=1", 0, 1, true, "page%5Blimit%5D=1&page%5Boffset%5D=1", ""},
		{"?page[limit]=100", 0, 25, false, "", ""},
		{"?page[limit]=25", 0, 25, false, "", ""},
		{"?page[limit]=24", 0, 24, true, "page%5Blimit%5D=24&page%5Boffset%5D=24", ""},
		{"?page[offset]=", 0, 20, true, "page%5Blimit%5D=20&page%5Boffset%5D=20", ""},
		{"?page[offset]=0", 0, 20, true, "page%5Blimit%5D=20&page%5Boffset%5D=20", ""},
		{"?page[offset]=null", 0, 20, true, "page%5Blimit%5D=20&page%5Boffset%5D=20", ""},
		{"?page[limit]=5&page[offset]=20", 20, 25, false, "", "page%5Blimit%5D=5&page%5Boffset%5D=15"},
		{"?page[limit]=5&page[offset]=19", 19, 24, true, "page%5Blimit%5D=5&page%5Boffset%5D=24", "page%5Blimit%5D=5&page%5Boffset%5D=14"},
		{"?page[limit]=5&page[offset]=3", 3, 8, true, "page%5Blimit%5D=5&page%5Boffset%5D=8", "page%5Blimit%5D=5&page%5Boffset%5D=0"},
		{"?page[offset]=24", 24, 25, false, "", "page%5Blimit%5D=20&page%5Boffset%5D=4"},
		{"?page[limit]=5&page[offset]=25", 25, 25, false, "", "page%5Blimit%5D=5&page%5Boffset%5D=20"},
		{"?page[limit]=5&page[offset]=1000", 25, 25, false, "", "page%5Blimit%5D=5&page%5Boffset%5D=995"},
		// Unknown parameters are ignored, and kept in the links.
		{"?page[limit]=10&x=1", 0, 10, true, "page%5Blimit%5D=10&page%5Boffset%5D=10&x=1", ""},
	}
	for _, tt := range valid {
		t.Run("valid "+tt.query, func(t *testing.T) {
			r := ts.get(t, "/workspaces"+tt.query, carol).wantStatus(t, http.StatusOK)
			got, hasMore := page(t, r)
			if strings.Join(got, ",") != strings.Join(keys[tt.from:tt.to], ",") {
				t.Errorf("rows %v, want %v", got, keys[tt.from:tt.to])
			}
			if hasMore != tt.hasMore {
				t.Errorf("hasMore %v, want %v", hasMore, tt.hasMore)
			}
			links := r.links(t)
			wantLinks := map[string]string{}
			if tt.next != "" {
				wantLinks["next"] = ts.URL + "/workspaces?" + tt.next
			}
			if tt.prev != "" {
				wantLinks["prev"] = ts.URL + "/workspaces?" + tt.prev
			}
			if fmt.Sprint(links) != fmt.Sprint(wantLinks) {
				t.Errorf("links %v, want %v", links, wantLinks)
			}
		})
	}
	invalid := []struct {
		query   string
		details []string
	}{
		{"?page[limit]=0", []string{"page[limit]"}},
		{"?page[limit]=101", []string{"page[limit]"}},
		{"?page[limit]=-1", []string{"page[limit]"}},
		{"?page[limit]=abc", []string{"page[limit]"}},
		{"?page[limit]=1.5", []string{"page[limit]"}},
		{"?page[limit]=1e1", []string{"page[limit]"}},
		{"?page[limit]=", []string{"page[limit]"}},
		{"?page[limit]=5&page[limit]=6", []string{"page[limit]"}},
		{"?page[offset]=-1", []string{"page[offset]"}},
		{"?page[offset]=abc", []string{"page[offset]"}},
		{"?page[offset]=2.0", []string{"page[offset]"}},
		{"?page[offset]=99999999999999999999999", []string{"page[offset]"}},
		{"?page[limit]=0&page[offset]=-1", []string{"page[limit]", "page[offset]"}},
	}
	for _, tt := range invalid {
		t.Run("invalid "+tt.query, func(t *testing.T) {
			ts.get(t, "/workspaces"+tt.query, carol).wantError(t, http.StatusBadRequest, tt.details...)
			// The same for the exports.
			ts.get(t, "/workspaces"+tt.query, carol, hdr("Accept", "text/csv")).wantError(t, http.StatusBadRequest, tt.details...)
		})
	}
	t.Run("following next links walks the whole list", func(t *testing.T) {
		var all []string
		next := "/workspaces?page[limit]=7"
		for n := 0; next != ""; n++ {
			if n > 10 {
				t.Fatal("too many pages")
			}
			r := ts.get(t, next, carol).wantStatus(t, http.StatusOK)
			got, hasMore := page(t, r)
			all = append(all, got...)
			next = r.links(t)["next"]
			if hasMore != (next != "") {
				t.Fatalf("hasMore %v with next link %q", hasMore, next)
			}
			if next != "" && !strings.HasPrefix(next, ts.URL+"/") {
				t.Fatalf("next link %q is not an absolute URL of the server", next)
			}
		}
		if strings.Join(all, ",") != strings.Join(keys, ",") {
			t.Errorf("walked %v, want %v", all, keys)
		}
		// And back with prev links.
		r := ts.get(t, "/workspaces?page[limit]=7&page[offset]=21", carol)
		var back []string
		for prev := r.links(t)["prev"]; prev != ""; prev = r.links(t)["prev"] {
			r = ts.get(t, prev, carol).wantStatus(t, http.StatusOK)
			got, _ := page(t, r)
			back = append(got, back...)
		}
		if strings.Join(back, ",") != strings.Join(keys[:21], ",") {
			t.Errorf("walked back %v, want %v", back, keys[:21])
		}
	})
	t.Run("links use the configured base URL", func(t *testing.T) {
		ts2 := newTestServer(t, withConfig(api.Config{BaseURL: "https://plumb.example.com/"}))
		ts2.user(t, "carol")
		tok := ts2.token(t, "carol")
		for _, k := range []string{"aaa", "bbb"} {
			ts2.workspace(t, plumb.WorkspaceInput{Key: k})
			ts2.member(t, k, "carol", plumb.RoleMember)
		}
		r := ts2.get(t, "/workspaces?page[limit]=1", tok)
		if got := r.links(t)["next"]; got != "https://plumb.example.com/workspaces?page%5Blimit%5D=1&page%5Boffset%5D=1" {
			t.Errorf("next link %q", got)
		}
	})
	t.Run("links honour X-Forwarded-Proto when the Host is trusted", func(t *testing.T) {
		ts2 := newTestServer(t, withConfig(api.Config{TrustHost: true}))
		ts2.user(t, "carol")
		tok := ts2.token(t, "carol")
		for _, k := range []string{"aaa", "bbb"} {
			ts2.workspace(t, plumb.WorkspaceInput{Key: k})
			ts2.member(t, k, "carol", plumb.RoleMember)
		}
		r := ts2.get(t, "/workspaces?page[limit]=1", tok, hdr("X-Forwarded-Proto", "https"))
		u, err := url.Parse(r.links(t)["next"])
		if err != nil || u.Scheme != "https" || "http://"+u.Host != ts2.URL {
			t.Errorf("next link %q, want https on the request's host", r.links(t)["next"])
		}
	})
	t.Run("exports without page[limit] return every row", func(t *testing.T) {
		r := ts.get(t, "/workspaces", carol, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
		if n := len(ndjsonLines(t, r.Body)); n != 25 {
			t.Errorf("NDJSON export has %d rows, want 25", n)
		}
		if l := r.Header.Get("Link"); l != "" {
			t.Errorf("export has a Link header %q", l)
		}
		r = ts.get(t, "/workspaces", carol, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
		if n := len(csvRecords(t, r.Body)); n != 26 {
			t.Errorf("CSV export has %d records, want a header and 25 rows", n)
		}
		// page[offset] alone still applies.
		r = ts.get(t, "/workspaces?page[offset]=20", carol, hdr("Accept", "application/x-ndjson"))
		if n := len(ndjsonLines(t, r.Body)); n != 5 {
			t.Errorf("NDJSON export from offset 20 has %d rows, want 5", n)
		}
	})
	t.Run("exports with page[limit] are paged", func(t *testing.T) {
		r := ts.get(t, "/workspaces?page[limit]=5&page[offset]=5", carol, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
		var got []string
		for _, v := range ndjsonLines(t, r.Body) {
			got = append(got, v.(map[string]any)["key"].(string))
		}
		if strings.Join(got, ",") != strings.Join(keys[5:10], ",") {
			t.Errorf("rows %v, want %v", got, keys[5:10])
		}
		l := r.links(t)
		if l["next"] != ts.URL+"/workspaces?page%5Blimit%5D=5&page%5Boffset%5D=10" || l["prev"] != ts.URL+"/workspaces?page%5Blimit%5D=5&page%5Boffset%5D=0" {
			t.Errorf("links %v", l)
		}
		r = ts.get(t, "/workspaces?page[limit]=5&page[offset]=5", carol, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
		if n := len(csvRecords(t, r.Body)); n != 6 {
			t.Errorf("CSV page has %d records, want a header and 5 rows", n)
		}
	})
}

func TestOpenAPIDocument(t *testing.T) {
	w := newWorld(t)
	// servers names the address the request reached (no base URL is set).
	want := openapi.DocumentFor(w.URL)
	for _, tc := range []struct {
		name, token string
		header      map[string]string
		headers     bool
	}{
		{"no token", "", nil, false},
		{"valid token", w.Alice, nil, true},
		{"invalid token", "", hdr("Authorization", "Bearer nope"), false},
		{"malformed header", "", hdr("Authorization", "Basic x"), false},
		{"Accept JSON", "", hdr("Accept", "application/json"), false},
		{"Accept any", "", hdr("Accept", "*/*"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := w.get(t, "/openapi.json", tc.token, tc.header).wantStatus(t, http.StatusOK)
			if ct := r.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			assertJSON(t, r.Body, string(want))
			if got := r.Header.Get("x-ratelimit-limit") != ""; got != tc.headers {
				t.Errorf("x-ratelimit headers present: %v, want %v", got, tc.headers)
			}
		})
	}
	t.Run("declares OpenAPI 3.1.0 and API version 1.0.0", func(t *testing.T) {
		var doc struct {
			OpenAPI string `json:"openapi"`
			Info    struct{ Version string }
		}
		r := w.get(t, "/openapi.json", "")
		if err := json.Unmarshal(r.Body, &doc); err != nil || doc.OpenAPI != "3.1.0" || doc.Info.Version != "1.0.0" {
			t.Errorf("openapi %q version %q (%v)", doc.OpenAPI, doc.Info.Version, err)
		}
	})
	t.Run("not counted", func(t *testing.T) {
		before := rateLimitOf(t, w.testServer, w.Alice)
		for i := 0; i < 3; i++ {
			w.get(t, "/openapi.json", w.Alice)
		}
		if after := rateLimitOf(t, w.testServer, w.Alice); after.Used != before.Used {
			t.Errorf("used went from %d to %d", before.Used, after.Used)
		}
	})
	t.Run("406 for CSV", func(t *testing.T) {
		w.get(t, "/openapi.json", "", hdr("Accept", "text/csv")).wantError(t, http.StatusNotAcceptable, "application/json")
	})
	t.Run("servers is the configured base URL", func(t *testing.T) {
		b := newWorld(t, withConfig(api.Config{BaseURL: "https://plumb.example.com/"}))
		var doc struct{ Servers []struct{ URL string } }
		r := b.get(t, "/openapi.json", "").wantStatus(t, http.StatusOK)
		if err := json.Unmarshal(r.Body, &doc); err != nil || len(doc.Servers) != 1 || doc.Servers[0].URL != "https://plumb.example.com" {
			t.Errorf("servers %+v (%v)", doc.Servers, err)
		}
	})
}

func TestHealth(t *testing.T) {
	w := newWorld(t)
	w.get(t, "/healthz", "").wantJSON(t, http.StatusOK, `{"status":"ok"}`)
	w.get(t, "/readyz", "").wantJSON(t, http.StatusOK, `{"status":"ready","checks":{"database":"ok"}}`)
	w.testServer.API.AddReadyCheck("rateLimit", func(context.Context) string { return "redis: unreachable, using in-process limits" })
	w.get(t, "/readyz", "").wantJSON(t, http.StatusOK,
		`{"status":"ready","checks":{"database":"ok","rateLimit":"redis: unreachable, using in-process limits"}}`)
	w.get(t, "/healthz", w.Alice).wantJSON(t, http.StatusOK, `{"status":"ok"}`)
	w.DB.Close()
	w.get(t, "/healthz", "").wantJSON(t, http.StatusOK, `{"status":"ok"}`)
	w.get(t, "/readyz", "").wantError(t, http.StatusServiceUnavailable, "database is not reachable")
}

// TestInternalErrorsHideDetails: a 500 says only that something went wrong
// (with the request id), and the log has the cause.
func TestInternalErrorsHideDetails(t *testing.T) {
	t.Run("database closed", func(t *testing.T) {
		w := newWorld(t)
		w.DB.Close()
		for _, p := range []string{"/workspaces", "/gh/acme/applications", "/gh/acme/projects/web/issues", "/rate_limit"} {
			r := w.get(t, p, w.Alice).wantStatus(t, http.StatusInternalServerError)
			checkInternalError(t, w.testServer, r, "database is closed")
		}
	})
	t.Run("limiter fails", func(t *testing.T) {
		w := newWorld(t, withLimiter(failingLimiter{}))
		for _, p := range []string{"/workspaces", "/rate_limit", "/gh/acme/projects/web/builds"} {
			r := w.get(t, p, w.Alice).wantStatus(t, http.StatusInternalServerError)
			checkInternalError(t, w.testServer, r, "limiter store exploded")
		}
		// A route error is still the answer, without rate-limit headers.
		r := w.get(t, "/nope", w.Alice).wantStatus(t, http.StatusNotFound)
		if v := r.Header.Get("x-ratelimit-limit"); v != "" {
			t.Errorf("x-ratelimit-limit %q without a limiter", v)
		}
	})
}

func checkInternalError(t *testing.T, ts *testServer, r *resp, cause string) {
	t.Helper()
	id := r.Header.Get("X-Request-Id")
	if id == "" {
		t.Fatalf("500 without X-Request-Id: %s", r)
	}
	want := fmt.Sprintf(`{"errors":[{"status":"500","title":"Internal Server Error","detail":"An unexpected error occurred. The server logged it with request id %s."}]}`, id)
	assertJSON(t, r.Body, want)
	for _, leak := range []string{cause, "sql", "sqlite", "panic", "plumb error"} {
		if strings.Contains(strings.ToLower(string(r.Body)), leak) {
			t.Errorf("500 body leaks %q: %s", leak, r.Body)
		}
	}
	logs := ts.Logs.String()
	if !strings.Contains(logs, cause) || !strings.Contains(logs, id) {
		t.Errorf("the log does not have the cause %q with request id %s:\n%s", cause, id, logs)
	}
}

type failingLimiter struct{}

var errLimiter = errors.New("limiter store exploded")

func (failingLimiter) Take(context.Context, string) (ratelimit.Status, bool, error) {
	return ratelimit.Status{}, false, errLimiter
}
func (failingLimiter) Peek(context.Context, string) (ratelimit.Status, error) {
	return ratelimit.Status{}, errLimiter
}

func TestRequestID(t *testing.T) {
	w := newWorld(t)
	r := w.get(t, "/workspaces", w.Alice, hdr("X-Request-Id", "abc-123"))
	if got := r.Header.Get("X-Request-Id"); got != "abc-123" {
		t.Errorf("X-Request-Id %q, want the client's", got)
	}
	r = w.get(t, "/workspaces", w.Alice)
	if got := r.Header.Get("X-Request-Id"); len(got) < 8 {
		t.Errorf("X-Request-Id %q, want a generated id", got)
	}
	// Tokens never reach the log.
	w.get(t, "/workspaces", "", hdr("Authorization", "Bearer secret-probe-value"))
	if strings.Contains(w.Logs.String(), w.Alice) || strings.Contains(w.Logs.String(), "secret-probe-value") {
		t.Error("a token is in the log")
	}
}
