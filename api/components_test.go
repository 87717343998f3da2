package api_test

// Components over HTTP: create, list (JSON, NDJSON, CSV), replace, delete,
// permissions, validation and the path glob rule as seen through fileCount.
// Helpers private to the metrics tests (components, metrics, series,
// coverage) are prefixed with m.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
)

// mCast is the world plus what components need:
//   - acme/core: Components enabled; dave is its project admin (a plain
//     member of acme otherwise); carol is a workspace admin of acme.
//   - acme/web: Components not enabled.
//   - alice is a plain member of acme; bob cannot see acme.
type mCast struct {
	*world
	Carol, Dave string // token secrets
	CarolUser   plumb.User
	DaveUser    plumb.User
	Core        plumb.Project
	Tools       plumb.Project // acme/tools: Components enabled, dave is not its admin
}

func mNewCast(t *testing.T, opts ...serverOption) *mCast {
	t.Helper()
	w := newWorld(t, opts...)
	c := &mCast{world: w}
	c.CarolUser = w.user(t, "carol")
	c.DaveUser = w.user(t, "dave")
	c.Carol = w.token(t, "carol")
	c.Dave = w.token(t, "dave")
	w.member(t, "acme", "carol", plumb.RoleAdmin)
	w.member(t, "acme", "dave", plumb.RoleMember)
	c.Core = w.project(t, plumb.ProjectInput{Workspace: "acme", Key: "core", ComponentsEnabled: true})
	c.Tools = w.project(t, plumb.ProjectInput{Workspace: "acme", Key: "tools", ComponentsEnabled: true})
	w.projectAdmin(t, "acme/core", "dave")
	return c
}

const mCore = "/gh/acme/projects/core"

// mSend sends a JSON body with a method.
func (ts *testServer) mSend(t testing.TB, method, path, token, body string) *resp {
	t.Helper()
	return ts.do(t, method, path, token, jsonBody, body)
}

// mCreate creates a component through the API and returns its id.
func (ts *testServer) mCreate(t testing.TB, project, token, name string, globs ...string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"name": name, "pathGlobs": globs})
	r := ts.mSend(t, http.MethodPost, project+"/components", token, string(b)).wantStatus(t, http.StatusCreated)
	var v struct{ ID string }
	if err := json.Unmarshal(r.Body, &v); err != nil || v.ID == "" {
		t.Fatalf("create response without id: %s", r)
	}
	return v.ID
}

// mSnapshot stores a default-branch snapshot ("main") of project p.
func (ts *testServer) mSnapshot(t testing.TB, p plumb.Project, at time.Time, in plumb.SnapshotInput) {
	t.Helper()
	in.ProjectID, in.AnalyzedAt = p.ID, at
	if in.Branch == "" {
		in.Branch = "main"
	}
	if in.CommitSHA == "" {
		in.CommitSHA = fmt.Sprintf("%040x", at.Unix())
	}
	ts.snapshot(t, in)
}

// mCoverage stores a coverage upload.
func (ts *testServer) mCoverage(t testing.TB, in plumb.CoverageInput) {
	t.Helper()
	_, err := ts.DB.AddCoverage(context.Background(), in)
	check(t, err)
}

// mFiles builds file figures: path, lines, loc, complexity, duplicated.
func mFile(path string, lines, loc, cx, dup int64) plumb.FileFigures {
	return plumb.FileFigures{Path: path, Lines: lines, LOC: loc, Complexity: cx, DuplicatedLines: dup}
}

// mIssue builds an issue.
func mIssue(fp, path, category, level string) plumb.Issue {
	return plumb.Issue{Fingerprint: fp, Tool: "lint", RuleKey: "R" + fp, Message: "m " + fp, Path: path, Category: category, Level: level}
}

// mFileCounts lists a project's components as name → fileCount.
func (ts *testServer) mFileCounts(t testing.TB, project, token string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, d := range dataOf(t, ts.get(t, project+"/components", token).wantStatus(t, http.StatusOK)) {
		m := d.(map[string]any)
		out[m["name"].(string)] = m["fileCount"].(float64)
	}
	return out
}

var mUUIDv7 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestComponentCreate(t *testing.T) {
	w := mNewCast(t)
	r := w.mSend(t, http.MethodPost, mCore+"/components", w.Carol,
		`{"name":"Backend","description":"Go code","pathGlobs":["src/*","go.mod"],"fileCount":99,"unknown":true}`)
	r.wantStatus(t, http.StatusCreated)
	var got map[string]any
	check(t, json.Unmarshal(r.Body, &got))
	id, _ := got["id"].(string)
	if !mUUIDv7.MatchString(id) {
		t.Errorf("id %q is not a UUIDv7", id)
	}
	r.wantJSON(t, http.StatusCreated, mustJSON(map[string]any{"id": id, "name": "Backend", "description": "Go code", "pathGlobs": []string{"src/*", "go.mod"}}))
	if loc := r.Header.Get("Location"); loc != w.URL+mCore+"/components/"+id {
		t.Errorf("Location %q, want %q", loc, w.URL+mCore+"/components/"+id)
	}
	// The creator is recorded (not returned).
	cp, err := w.DB.FindComponent(context.Background(), w.Core.ID, id)
	check(t, err)
	if cp.CreatorID != w.CarolUser.ID {
		t.Errorf("creator %q, want carol %q", cp.CreatorID, w.CarolUser.ID)
	}

	// Without a description: "".
	r = w.mSend(t, http.MethodPost, mCore+"/components", w.Dave, `{"name":"Docs","pathGlobs":["docs/*"]}`)
	r.wantStatus(t, http.StatusCreated)
	check(t, json.Unmarshal(r.Body, &got))
	r.wantJSON(t, http.StatusCreated, mustJSON(map[string]any{"id": got["id"], "name": "Docs", "description": "", "pathGlobs": []string{"docs/*"}}))

	// Names are unique per project, ignoring case (409), in any script.
	w.mSend(t, http.MethodPost, mCore+"/components", w.Carol, `{"name":"BACKEND","pathGlobs":["x"]}`).
		wantError(t, http.StatusConflict, `"BACKEND"`)
	w.mCreate(t, mCore, w.Carol, "Über", "u/*")
	w.mSend(t, http.MethodPost, mCore+"/components", w.Carol, `{"name":"üBER","pathGlobs":["x"]}`).wantStatus(t, http.StatusConflict)
	// ...but only within the project.
	w.mCreate(t, "/gh/acme/projects/tools", w.Carol, "backend", "src/*")

	// The project may be addressed by id and the workspace by id.
	w.mCreate(t, "/gh/"+w.Acme.ID+"/projects/"+w.Core.ID, w.Carol, "ById", "x")
}

func TestComponentList(t *testing.T) {
	w := mNewCast(t)
	w.mSnapshot(t, w.Core, t0.Add(-time.Hour), plumb.SnapshotInput{Files: []plumb.FileFigures{
		mFile("src/a.go", 10, 8, 1, 0), mFile("src/b/c.go", 5, 5, 0, 0), mFile("go.mod", 3, 3, 0, 0), mFile("README.md", 9, 0, 0, 0),
	}})
	// An empty list.
	w.get(t, mCore+"/components", w.Alice).wantJSON(t, http.StatusOK, `{"data":[]}`)
	back := w.mCreate(t, mCore, w.Carol, "backend", "src/*", "go.mod")
	w.mSend(t, http.MethodPut, mCore+"/components/"+back, w.Carol, `{"name":"backend","description":"the, \"server\"","pathGlobs":["src/*","go.mod"]}`).
		wantStatus(t, http.StatusOK)
	apiC := w.mCreate(t, mCore, w.Carol, "API", "src/b/*")
	zed := w.mCreate(t, mCore, w.Carol, "zed", "nothing/*")
	want := []map[string]any{
		{"id": apiC, "name": "API", "description": "", "pathGlobs": []string{"src/b/*"}, "fileCount": 1},
		{"id": back, "name": "backend", "description": `the, "server"`, "pathGlobs": []string{"src/*", "go.mod"}, "fileCount": 3},
		{"id": zed, "name": "zed", "description": "", "pathGlobs": []string{"nothing/*"}, "fileCount": 0},
	}
	// JSON: every component in name order (case-insensitive), no meta; reads need no admin role.
	r := w.get(t, mCore+"/components", w.Alice)
	r.wantJSON(t, http.StatusOK, mustJSON(map[string]any{"data": want}))

	// NDJSON: one component per line, as in data.
	r = w.get(t, mCore+"/components", w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("Content-Type %q", ct)
	}
	lines := ndjsonLines(t, r.Body)
	if len(lines) != len(want) {
		t.Fatalf("%d NDJSON lines, want %d: %s", len(lines), len(want), r)
	}
	for i, l := range lines {
		b, _ := json.Marshal(l)
		assertJSON(t, b, mustJSON(want[i]))
	}

	// CSV: header, one row per component, globs joined with "," in one cell.
	r = w.get(t, mCore+"/components", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("Content-Type %q", ct)
	}
	recs := csvRecords(t, r.Body)
	wantRecs := [][]string{
		{"id", "name", "description", "pathGlobs", "fileCount"},
		{apiC, "API", "", "src/b/*", "1"},
		{back, "backend", `the, "server"`, "src/*,go.mod", "3"},
		{zed, "zed", "", "nothing/*", "0"},
	}
	if !reflect.DeepEqual(recs, wantRecs) {
		t.Errorf("CSV\n got: %q\nwant: %q", recs, wantRecs)
	}
	if !strings.Contains(string(r.Body), `"src/*,go.mod"`) {
		t.Errorf("the globs cell is not quoted: %q", r.Body)
	}
	// text/* picks CSV; an empty list still has its header.
	r = w.get(t, "/gh/acme/projects/tools/components", w.Alice, hdr("Accept", "text/*")).wantStatus(t, http.StatusOK)
	if got := csvRecords(t, r.Body); len(got) != 1 || strings.Join(got[0], ",") != "id,name,description,pathGlobs,fileCount" {
		t.Errorf("empty CSV list: %q", got)
	}
	w.get(t, mCore+"/components", w.Alice, hdr("Accept", "application/xml")).wantStatus(t, http.StatusNotAcceptable)
}

func TestComponentReplace(t *testing.T) {
	w := mNewCast(t)
	w.mSnapshot(t, w.Core, t0.Add(-time.Hour), plumb.SnapshotInput{Files: []plumb.FileFigures{
		mFile("src/a.go", 10, 8, 1, 0), mFile("lib/b.go", 5, 5, 0, 0),
	}})
	id := w.mCreate(t, mCore, w.Carol, "Backend", "src/*")
	other := w.mCreate(t, mCore, w.Carol, "Frontend", "web/*")
	w.mSend(t, http.MethodPut, mCore+"/components/"+id, w.Carol, `{"name":"Backend","description":"first","pathGlobs":["src/*"]}`).
		wantJSON(t, http.StatusOK, mustJSON(map[string]any{"id": id, "name": "Backend", "description": "first", "pathGlobs": []string{"src/*"}}))

	// By name, in another case, by the project admin (not the creator): the
	// description not sent is dropped; new globs; own name in another case.
	w.mSend(t, http.MethodPut, mCore+"/components/bAcKeNd", w.Dave, `{"name":"BACKEND","pathGlobs":["lib/*","src/*"]}`).
		wantJSON(t, http.StatusOK, mustJSON(map[string]any{"id": id, "name": "BACKEND", "description": "", "pathGlobs": []string{"lib/*", "src/*"}}))
	cp, err := w.DB.FindComponent(context.Background(), w.Core.ID, id)
	check(t, err)
	if cp.CreatorID != w.CarolUser.ID {
		t.Errorf("creator %q after a replace by dave, want carol %q", cp.CreatorID, w.CarolUser.ID)
	}
	if n := w.mFileCounts(t, mCore, w.Alice); n["BACKEND"] != 2 || n["Frontend"] != 0 {
		t.Errorf("file counts after the replace: %v", n)
	}
	// Renaming onto another component's name (any case) is a conflict, and
	// changes nothing.
	w.mSend(t, http.MethodPut, mCore+"/components/"+id, w.Carol, `{"name":"frontend","pathGlobs":["x"]}`).
		wantError(t, http.StatusConflict, `"frontend"`)
	w.mSend(t, http.MethodPut, mCore+"/components/"+other, w.Carol, `{"name":"backend","pathGlobs":["x"]}`).
		wantStatus(t, http.StatusConflict)
	if n := w.mFileCounts(t, mCore, w.Alice); n["BACKEND"] != 2 || len(n) != 2 {
		t.Errorf("a failed replace changed something: %v", n)
	}
	// The new name addresses it; the old one, once taken by nothing, is 404.
	w.mSend(t, http.MethodPut, mCore+"/components/backend", w.Carol, `{"name":"Core","pathGlobs":["src/*"]}`).wantStatus(t, http.StatusOK)
	w.mSend(t, http.MethodPut, mCore+"/components/backend", w.Carol, `{"name":"Core","pathGlobs":["src/*"]}`).wantStatus(t, http.StatusNotFound)
	w.get(t, mCore+"/components/core/metrics", w.Alice).wantStatus(t, http.StatusOK)
}

func TestComponentDelete(t *testing.T) {
	w := mNewCast(t)
	id := w.mCreate(t, mCore, w.Carol, "Backend", "src/*")
	keep := w.mCreate(t, mCore, w.Carol, "Keep", "src/*")
	r := w.do(t, http.MethodDelete, mCore+"/components/"+id, w.Dave, nil, "").wantStatus(t, http.StatusNoContent)
	if len(r.Body) != 0 {
		t.Errorf("204 with a body: %q", r.Body)
	}
	w.do(t, http.MethodDelete, mCore+"/components/"+id, w.Dave, nil, "").wantStatus(t, http.StatusNotFound)
	w.get(t, mCore+"/components/"+id+"/metrics", w.Dave).wantStatus(t, http.StatusNotFound)
	w.get(t, mCore+"/components/backend/metrics/series", w.Dave).wantStatus(t, http.StatusNotFound)
	w.mSend(t, http.MethodPut, mCore+"/components/"+id, w.Dave, `{"name":"Backend","pathGlobs":["x"]}`).wantStatus(t, http.StatusNotFound)
	// By name, ignoring case.
	w.do(t, http.MethodDelete, mCore+"/components/KEEP", w.Carol, nil, "").wantStatus(t, http.StatusNoContent)
	w.get(t, mCore+"/components", w.Alice).wantJSON(t, http.StatusOK, `{"data":[]}`)
	// The name is free again.
	w.mCreate(t, mCore, w.Carol, "backend", "src/*")
	_ = keep
}

// Every component operation, reads included, is 403 on a project without
// Components enabled; writes need the project admin role; a project or
// component the user cannot see is 404.
func TestComponentAccess(t *testing.T) {
	w := mNewCast(t)
	id := w.mCreate(t, mCore, w.Carol, "Backend", "src/*")
	w.mCreate(t, "/gh/acme/projects/tools", w.Carol, "Backend", "src/*")
	body := `{"name":"Backend","pathGlobs":["src/*"]}`
	type op struct {
		name, method, path, body string
		write                    bool
		ok                       int
	}
	ops := func(project, comp string) []op {
		return []op{
			{"list", http.MethodGet, project + "/components", "", false, http.StatusOK},
			{"create", http.MethodPost, project + "/components", `{"name":"New","pathGlobs":["x"]}`, true, http.StatusCreated},
			{"replace", http.MethodPut, project + "/components/" + comp, body, true, http.StatusOK},
			{"metrics", http.MethodGet, project + "/components/" + comp + "/metrics", "", false, http.StatusOK},
			{"series", http.MethodGet, project + "/components/" + comp + "/metrics/series", "", false, http.StatusOK},
			{"delete", http.MethodDelete, project + "/components/" + comp, "", true, http.StatusNoContent},
		}
	}
	send := func(o op, token string) *resp {
		t.Helper()
		h := map[string]string{}
		if o.body != "" {
			h = jsonBody
		}
		return w.do(t, o.method, o.path, token, h, o.body)
	}

	// Components not enabled (acme/web): 403 for everyone who can see it, even the workspace admin.
	for _, o := range ops("/gh/acme/projects/web", "Backend") {
		for _, tok := range []string{w.Carol, w.Alice} {
			send(o, tok).wantError(t, http.StatusForbidden, "Components are not enabled")
		}
	}
	// A plain member: reads are fine, writes are 403 (acme/core).
	for _, o := range ops(mCore, id) {
		r := send(o, w.Alice)
		if o.write {
			r.wantError(t, http.StatusForbidden, "admin")
		} else {
			r.wantStatus(t, o.ok)
		}
	}
	// dave is admin of acme/core only.
	for _, o := range ops("/gh/acme/projects/tools", "backend") {
		r := send(o, w.Dave)
		if o.write {
			r.wantStatus(t, http.StatusForbidden)
		} else {
			r.wantStatus(t, o.ok)
		}
	}
	// bob cannot see acme at all: 404 whatever he sends.
	for _, o := range ops(mCore, id) {
		send(o, w.Bob).wantStatus(t, http.StatusNotFound)
	}
	// Unknown project, unknown workspace, wrong provider.
	for _, p := range []string{"/gh/acme/projects/nope", "/gh/nope/projects/core", "/gl/acme/projects/core"} {
		for _, o := range ops(p, id) {
			send(o, w.Carol).wantStatus(t, http.StatusNotFound)
		}
	}
	// Unknown component: 404 before the permission check and the body.
	for _, o := range ops(mCore, "nope")[2:] {
		send(o, w.Carol).wantError(t, http.StatusNotFound, `"nope"`)
		send(o, w.Alice).wantStatus(t, http.StatusNotFound)
	}
	w.mSend(t, http.MethodPut, mCore+"/components/nope", w.Alice, `{`).wantStatus(t, http.StatusNotFound)
	// Permission before the body: a member with a bad body is 403.
	w.mSend(t, http.MethodPost, mCore+"/components", w.Alice, `{}`).wantStatus(t, http.StatusForbidden)
	w.do(t, http.MethodPost, mCore+"/components", w.Alice, hdr("Content-Type", "text/plain"), "x").wantStatus(t, http.StatusForbidden)
	// No token: 401.
	for _, o := range ops(mCore, id) {
		send(o, "").wantStatus(t, http.StatusUnauthorized)
	}
	// The workspace admin (carol) and the project admin (dave) may write.
	for _, tok := range []string{w.Carol, w.Dave} {
		for _, o := range ops(mCore, id) {
			send(o, tok).wantStatus(t, o.ok)
			if o.name == "create" {
				w.do(t, http.MethodDelete, mCore+"/components/new", tok, nil, "").wantStatus(t, http.StatusNoContent)
			}
		}
		id = w.mCreate(t, mCore, w.Carol, "Backend", "src/*")
	}
	// Enabling Components later opens the project.
	w.setComponents(t, "acme/web", true)
	w.get(t, "/gh/acme/projects/web/components", w.Alice).wantJSON(t, http.StatusOK, `{"data":[]}`)
}

func TestComponentMethods(t *testing.T) {
	w := mNewCast(t)
	id := w.mCreate(t, mCore, w.Carol, "Backend", "src/*")
	for _, path := range []string{mCore + "/components/" + id, mCore + "/components/nope"} {
		r := w.get(t, path, w.Carol).wantStatus(t, http.StatusMethodNotAllowed)
		if a := r.Header.Get("Allow"); a != "DELETE, PUT" {
			t.Errorf("Allow %q, want \"DELETE, PUT\"", a)
		}
	}
	r := w.do(t, http.MethodPatch, mCore+"/components", w.Carol, jsonBody, `{}`).wantStatus(t, http.StatusMethodNotAllowed)
	if a := r.Header.Get("Allow"); a != "GET, POST" {
		t.Errorf("Allow %q, want \"GET, POST\"", a)
	}
	w.do(t, http.MethodPost, mCore+"/components/"+id+"/metrics", w.Carol, jsonBody, `{}`).wantStatus(t, http.StatusMethodNotAllowed)
}

func TestComponentValidation(t *testing.T) {
	w := mNewCast(t)
	id := w.mCreate(t, mCore, w.Carol, "Backend", "src/*")
	long := strings.Repeat("n", 101)
	cases := []struct {
		name, body string
		details    []string
	}{
		{"name missing", `{"pathGlobs":["src/*"]}`, []string{"name is required"}},
		{"name null", `{"name":null,"pathGlobs":["src/*"]}`, []string{"name is required"}},
		{"name empty", `{"name":"","pathGlobs":["src/*"]}`, []string{"name must not be empty"}},
		{"name 101 characters", `{"name":"` + long + `","pathGlobs":["src/*"]}`, []string{"name must be at most 100 characters"}},
		{"name not a string", `{"name":5,"pathGlobs":["src/*"]}`, []string{"name must be a string"}},
		{"name blank", `{"name":"   ","pathGlobs":["src/*"]}`, []string{"name must not be blank"}},
		{"name with a control character", `{"name":"a\tb","pathGlobs":["src/*"]}`, []string{"control characters"}},
		{"globs missing", `{"name":"X"}`, []string{"pathGlobs is required"}},
		{"globs empty array", `{"name":"X","pathGlobs":[]}`, []string{"pathGlobs must hold at least one glob"}},
		{"glob empty string", `{"name":"X","pathGlobs":["src/*",""]}`, []string{"pathGlobs[1]", "empty"}},
		{"glob with a comma", `{"name":"X","pathGlobs":["a,b"]}`, []string{"pathGlobs[0]", "comma"}},
		{"glob with CR", `{"name":"X","pathGlobs":["a\rb"]}`, []string{"pathGlobs[0]", "line break"}},
		{"glob with LF", `{"name":"X","pathGlobs":["ok","a\nb"]}`, []string{"pathGlobs[1]", "line break"}},
		{"globs not an array", `{"name":"X","pathGlobs":"src/*"}`, []string{"pathGlobs must be an array of strings"}},
		{"globs not strings", `{"name":"X","pathGlobs":["src/*",3]}`, []string{"pathGlobs must be an array of strings"}},
		{"glob too long", `{"name":"X","pathGlobs":["` + strings.Repeat("a", 1001) + `"]}`, []string{"pathGlobs[0]", "1000"}},
		{"description not a string", `{"name":"X","pathGlobs":["a"],"description":7}`, []string{"description must be a string"}},
		{"description too long", `{"name":"X","pathGlobs":["a"],"description":"` + strings.Repeat("d", 1001) + `"}`, []string{"description must be at most 1000"}},
		{"not an object", `["name"]`, []string{"JSON object"}},
		{"not JSON", `{"name":`, []string{"not valid JSON"}},
		{"empty body", ``, []string{"empty"}},
		{"null", `null`, []string{"JSON object"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, req := range []struct{ method, path string }{
				{http.MethodPost, mCore + "/components"},
				{http.MethodPut, mCore + "/components/" + id},
			} {
				r := w.do(t, req.method, req.path, w.Carol, jsonBody, c.body).wantStatus(t, http.StatusBadRequest)
				d := r.details(t)
				if len(d) != 1 {
					t.Errorf("%s: %d errors, want 1: %q", req.method, len(d), d)
					continue
				}
				for _, s := range c.details {
					if !strings.Contains(d[0], s) {
						t.Errorf("%s: detail %q does not contain %q", req.method, d[0], s)
					}
				}
			}
		})
	}
	// Several errors at once, one per field or element.
	r := w.mSend(t, http.MethodPost, mCore+"/components", w.Carol, `{"name":"","description":false,"pathGlobs":["a,b","","ok","x\ny"]}`)
	r.wantError(t, http.StatusBadRequest, "name", "description", "pathGlobs[0]", "pathGlobs[1]", "pathGlobs[3]")
	w.mSend(t, http.MethodPut, mCore+"/components/"+id, w.Carol, `{}`).wantError(t, http.StatusBadRequest, "name is required", "pathGlobs is required")
	// Nothing was stored or changed by any of them.
	w.get(t, mCore+"/components", w.Alice).wantJSON(t, http.StatusOK,
		mustJSON(map[string]any{"data": []map[string]any{{"id": id, "name": "Backend", "description": "", "pathGlobs": []string{"src/*"}, "fileCount": 0}}}))
	// 100 characters, non-ASCII, is fine; so are globs with ?, [ and spaces.
	name := strings.Repeat("é", 100)
	w.mSend(t, http.MethodPost, mCore+"/components", w.Carol, `{"name":"`+name+`","pathGlobs":["a?[b] c/*"],"description":null}`).
		wantStatus(t, http.StatusCreated)

	// 415: not JSON; 413: too large.
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", ""} {
		r := w.do(t, http.MethodPost, mCore+"/components", w.Carol, hdr("Content-Type", ct), `{"name":"X","pathGlobs":["a"]}`)
		r.wantError(t, http.StatusUnsupportedMediaType, "application/json")
		w.do(t, http.MethodPut, mCore+"/components/"+id, w.Carol, hdr("Content-Type", ct), `{"name":"X","pathGlobs":["a"]}`).
			wantStatus(t, http.StatusUnsupportedMediaType)
	}
	w.do(t, http.MethodPost, mCore+"/components", w.Carol, hdr("Content-Type", "application/json; charset=utf-8"), `{"name":"Charset","pathGlobs":["a"]}`).
		wantStatus(t, http.StatusCreated)
}

func TestComponentBodyLimit(t *testing.T) {
	w := mNewCast(t, withConfig(api.Config{MaxBodyBytes: 200}))
	id := w.mCreate(t, mCore, w.Carol, "Backend", "src/*")
	big := `{"name":"X","pathGlobs":["` + strings.Repeat("a", 300) + `"]}`
	w.mSend(t, http.MethodPost, mCore+"/components", w.Carol, big).wantStatus(t, http.StatusRequestEntityTooLarge)
	w.mSend(t, http.MethodPut, mCore+"/components/"+id, w.Carol, big).wantStatus(t, http.StatusRequestEntityTooLarge)
	w.get(t, mCore+"/components", w.Alice).wantJSON(t, http.StatusOK,
		mustJSON(map[string]any{"data": []map[string]any{{"id": id, "name": "Backend", "description": "", "pathGlobs": []string{"src/*"}, "fileCount": 0}}}))
}

// The glob rule through fileCount and FILES: `*` crosses `/`, a glob matches
// the whole path, matching is byte-exact (spaces, non-ASCII); files that
// appear later join, removed files leave.
func TestComponentGlobs(t *testing.T) {
	w := mNewCast(t)
	w.mSnapshot(t, w.Core, t0.Add(-48*time.Hour), plumb.SnapshotInput{Files: []plumb.FileFigures{
		mFile("src/main.go", 1, 1, 0, 0), mFile("src/a/b/c.go", 1, 1, 0, 0), mFile("lib/src/a.go", 1, 1, 0, 0),
		mFile("src", 1, 1, 0, 0), mFile("main.go.txt", 1, 1, 0, 0), mFile("main.go", 1, 1, 0, 0),
		mFile("docs/über/ß.md", 1, 1, 0, 0), mFile("docs/uber/ß.md", 1, 1, 0, 0), mFile("my dir/file name.go", 1, 1, 0, 0),
		mFile("a/vendor/b", 1, 1, 0, 0), mFile("vendor/b", 1, 1, 0, 0), mFile("x/docs/api.md", 1, 1, 0, 0),
		mFile("docs/api.md", 1, 1, 0, 0), mFile("docs/api.md.bak", 1, 1, 0, 0), mFile("a?.go", 1, 1, 0, 0), mFile("ab.go", 1, 1, 0, 0),
		mFile("SRC/up.go", 1, 1, 0, 0),
	}})
	comps := map[string][]string{
		"src":      {"src/*"},
		"go":       {"*.go"},
		"umlaut":   {"docs/über/*"},
		"spaces":   {"my dir/*"},
		"vendor":   {"*/vendor/*"},
		"exact":    {"docs/api.md"},
		"stars":    {"**/api.md"},
		"question": {"a?.go"},
		"two":      {"main.go", "src/a/*"},
		"all":      {"*"},
		"none":     {"nothing"},
	}
	// Created before the second snapshot (kept up incrementally) ...
	for name, globs := range comps {
		w.mCreate(t, mCore, w.Carol, name, globs...)
	}
	want := map[string]float64{
		"src": 2, "go": 8, "umlaut": 1, "spaces": 1, "vendor": 1, "exact": 1, "stars": 2, "question": 1, "two": 2, "all": 17, "none": 0,
	}
	if got := w.mFileCounts(t, mCore, w.Alice); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("file counts\n got: %v\nwant: %v", got, want)
	}
	// New files join existing components; removed files leave.
	w.mSnapshot(t, w.Core, t0.Add(-24*time.Hour), plumb.SnapshotInput{
		Files:   []plumb.FileFigures{mFile("src/new/deep/x.go", 1, 1, 0, 0), mFile("docs/über/neu.md", 1, 1, 0, 0), mFile("nothing", 1, 1, 0, 0)},
		Removed: []string{"src/main.go", "main.go", "a/vendor/b"},
	})
	// ... and the same globs created after it (backfilled).
	for name, globs := range comps {
		w.mCreate(t, mCore, w.Carol, "late-"+name, globs...)
	}
	want = map[string]float64{
		"src": 2, "go": 7, "umlaut": 2, "spaces": 1, "vendor": 0, "exact": 1, "stars": 2, "question": 1, "two": 1, "all": 17, "none": 1,
	}
	got := w.mFileCounts(t, mCore, w.Alice)
	for name, n := range want {
		if got[name] != n || got["late-"+name] != n {
			t.Errorf("%s: fileCount %v (created before) and %v (created after), want %v", name, got[name], got["late-"+name], n)
		}
		// FILES agrees with fileCount.
		if v := mMetricValues(t, w.testServer, mCore+"/components/"+name, w.Alice)["FILES"]; v != n {
			t.Errorf("%s: FILES %v, want %v", name, v, n)
		}
	}
	// Changing the globs with PUT recomputes the files.
	w.mSend(t, http.MethodPut, mCore+"/components/none", w.Carol, `{"name":"none","pathGlobs":["*.md","*.bak"]}`).wantStatus(t, http.StatusOK)
	if n := w.mFileCounts(t, mCore, w.Alice)["none"]; n != 6 {
		t.Errorf("after PUT: fileCount %v, want 6", n)
	}
}
