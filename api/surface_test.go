package api_test

// The original service's surface beyond the specification: GET /user,
// GET /workspaces/{o}, the projects list and get, whole-project metrics and
// series, issue counts (docs/api.md, "The original service's surface").

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

func TestGetUser(t *testing.T) {
	w := newWorld(t)
	alice := w.user(t, "alice2")
	tok := w.token(t, "alice2")
	// A user without a profile: every member a string, "" when unknown.
	w.get(t, "/user", tok).wantJSON(t, http.StatusOK, mustJSON(map[string]any{
		"id": alice.ID, "login": "alice2", "name": "Alice2", "email": "", "avatarUrl": "", "providerUrl": "",
		"createdAt": tsf(t0), "updatedAt": tsf(t0),
	}))
	// The operator sets the profile; updatedAt follows.
	w.Clock.Advance(90 * time.Minute)
	email, avatar, provider := "alice@example.com", "https://avatars.example.com/alice.png", "https://github.com/alice"
	_, err := w.DB.UpdateUser(context.Background(), "ALICE2", plumb.UserProfile{Email: &email, AvatarURL: &avatar, ProviderURL: &provider})
	check(t, err)
	want := mustJSON(map[string]any{
		"id": alice.ID, "login": "alice2", "name": "Alice2", "email": email, "avatarUrl": avatar, "providerUrl": provider,
		"createdAt": tsf(t0), "updatedAt": tsf(t0.Add(90 * time.Minute)),
	})
	w.get(t, "/user", tok).wantJSON(t, http.StatusOK, want)
	// HTTP Basic with the token as user name answers the same.
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(tok+":"))
	w.do(t, http.MethodGet, "/user", "", hdr("Authorization", basic), "").wantJSON(t, http.StatusOK, want)
	// Another user's token answers that user.
	if r := w.get(t, "/user", w.Bob).wantStatus(t, http.StatusOK); !strings.Contains(string(r.Body), `"login":"bob"`) {
		t.Errorf("Bob's /user: %s", r)
	}
	w.get(t, "/user", "").wantStatus(t, http.StatusUnauthorized)
	w.get(t, "/user", tok, hdr("Accept", "text/csv")).wantStatus(t, http.StatusNotAcceptable)
	w.do(t, http.MethodPost, "/user", tok, jsonBody, "{}").wantStatus(t, http.StatusMethodNotAllowed)

	// Clearing a field and refusing bad values.
	empty := ""
	_, err = w.DB.UpdateUser(context.Background(), alice.ID, plumb.UserProfile{AvatarURL: &empty})
	check(t, err)
	if r := w.get(t, "/user", tok).wantStatus(t, http.StatusOK); !strings.Contains(string(r.Body), `"avatarUrl":""`) {
		t.Errorf("cleared avatar: %s", r)
	}
	for _, p := range []plumb.UserProfile{
		{Email: ptr("not an email")}, {Email: ptr("a@")}, {AvatarURL: ptr("ftp://x/y.png")}, {ProviderURL: ptr("github.com/alice")},
	} {
		if _, err := w.DB.UpdateUser(context.Background(), alice.ID, p); plumb.ErrorCode(err) != plumb.EINVALID {
			t.Errorf("UpdateUser(%+v) = %v, want EINVALID", p, err)
		}
	}
}

func TestGetWorkspace(t *testing.T) {
	w := newWorld(t)
	want := mustJSON(map[string]any{"id": w.Acme.ID, "key": "acme", "avatarUrl": "https://github.com/acme.png",
		"providerUrl": "https://github.com/acme", "createdAt": tsf(t0), "updatedAt": tsf(t0)})
	for _, ref := range []string{"acme", "ACME", w.Acme.ID} {
		w.get(t, "/workspaces/"+ref, w.Alice).wantJSON(t, http.StatusOK, want)
	}
	// The same object as in the list.
	if list := dataOf(t, w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)); mustJSON(list[0]) != want {
		t.Errorf("list has %s, get has %s", mustJSON(list[0]), want)
	}
	w.get(t, "/workspaces/globex", w.Alice).wantError(t, http.StatusNotFound, "globex")
	w.get(t, "/workspaces/"+w.Globex.ID, w.Alice).wantStatus(t, http.StatusNotFound)
	w.get(t, "/workspaces/nope", w.Alice).wantStatus(t, http.StatusNotFound)
	w.get(t, "/workspaces/ab", w.Alice).wantError(t, http.StatusBadRequest, "ownerKeyOrId")
	w.get(t, "/workspaces/acme", "").wantStatus(t, http.StatusUnauthorized)
}

func TestProjects(t *testing.T) {
	w := newWorld(t)
	view := func(p plumb.Project, ws plumb.Workspace) map[string]any {
		return map[string]any{"id": p.ID, "key": p.Key, "workspaceId": ws.ID, "workspaceKey": ws.Key, "defaultBranch": "main",
			"providerUrl": "https://github.com/" + ws.Key + "/" + p.Key, "createdAt": tsf(t0), "updatedAt": tsf(t0)}
	}
	apiV, webV := view(w.API, w.Acme), view(w.Web, w.Acme)
	w.get(t, "/gh/acme/projects", w.Alice).wantJSON(t, http.StatusOK,
		mustJSON(map[string]any{"data": []any{apiV, webV}, "meta": map[string]any{"hasMore": false}}))
	r := w.get(t, "/gh/ACME/projects?page[limit]=1", w.Alice).wantJSON(t, http.StatusOK,
		mustJSON(map[string]any{"data": []any{apiV}, "meta": map[string]any{"hasMore": true}}))
	if !strings.Contains(r.links(t)["next"], "page%5Boffset%5D=1") {
		t.Errorf("Link next: %v", r.links(t))
	}
	w.get(t, "/gh/acme/projects?page[limit]=1&page[offset]=1", w.Alice).wantJSON(t, http.StatusOK,
		mustJSON(map[string]any{"data": []any{webV}, "meta": map[string]any{"hasMore": false}}))
	// NDJSON and CSV export every project.
	nd := w.get(t, "/gh/acme/projects", w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
	if got := ndjsonLines(t, nd.Body); mustJSON(got) != mustJSON([]any{apiV, webV}) {
		t.Errorf("NDJSON: %s", nd.Body)
	}
	csvR := w.get(t, "/gh/acme/projects", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
	wantCSV := [][]string{{"id", "key", "workspaceId", "workspaceKey", "defaultBranch", "providerUrl", "createdAt", "updatedAt"},
		{w.API.ID, "api", w.Acme.ID, "acme", "main", "https://github.com/acme/api", tsf(t0), tsf(t0)},
		{w.Web.ID, "web", w.Acme.ID, "acme", "main", "https://github.com/acme/web", tsf(t0), tsf(t0)}}
	if got := csvRecords(t, csvR.Body); !reflect.DeepEqual(got, wantCSV) {
		t.Errorf("CSV:\n got %q\nwant %q", got, wantCSV)
	}
	w.get(t, "/gh/acme/projects?page[limit]=0", w.Alice).wantError(t, http.StatusBadRequest, "page[limit]")
	w.get(t, "/gh/globex/projects", w.Alice).wantStatus(t, http.StatusNotFound)
	w.get(t, "/gh/globex/projects", w.Bob).wantJSON(t, http.StatusOK,
		mustJSON(map[string]any{"data": []any{view(w.Vault, w.Globex)}, "meta": map[string]any{"hasMore": false}}))

	for _, ref := range []string{"web", "WEB", w.Web.ID} {
		w.get(t, "/gh/acme/projects/"+ref, w.Alice).wantJSON(t, http.StatusOK, mustJSON(webV))
	}
	w.get(t, "/gh/"+w.Acme.ID+"/projects/web", w.Alice).wantJSON(t, http.StatusOK, mustJSON(webV))
	w.get(t, "/gh/acme/projects/vault", w.Alice).wantStatus(t, http.StatusNotFound)
	w.get(t, "/gh/globex/projects/vault", w.Alice).wantStatus(t, http.StatusNotFound)
	w.get(t, "/gh/acme/projects/ab", w.Alice).wantError(t, http.StatusBadRequest, "projectKeyOrId")
	w.get(t, "/gh/acme/projects/web", "").wantStatus(t, http.StatusUnauthorized)
}

// The whole project: every file of the worked example, including those no
// component would hold.
func TestProjectMetrics(t *testing.T) {
	w := mNewCast(t)
	// Project metrics need no Components: acme/web has them disabled.
	mWorkedExample(t, w.testServer, w.Web)
	// a 200/150/12/20, b 100/50/3/5, lib/other.go 50/40/7/0, docs 7/0/0/0.
	// Open issues: a high vulnerability + low style, b note secret + 2 fmt
	// style, lib high secret = 6 (144 minutes); security: 3, worst high.
	// TDR = 100 × 144 ÷ (240 × 30) = 2; DUP = 100 × 25 ÷ 357 = 7.00;
	// coverage a 80/100, b 40/60, lib 1/31: 121 of 191 = 63.35 → C.
	want := map[string]any{
		"CMPLX": 22, "DUP": 7, "MNT": "A", "SEC": "F", "SIZE": "XS", "ISS": 6, "SECI": 3, "TDR": 2,
		"FILES": 4, "LOC": 240, "COV": "C", "LCOV": 63.35,
	}
	r := w.get(t, "/gh/acme/projects/web/metrics", w.Alice).wantJSON(t, http.StatusOK, mValuesIn(metric.ScopeProject, want))
	mCheckValues(t, r)
	if !strings.Contains(string(r.Body), `"name":"Project Size"`) {
		t.Errorf("SIZE is not named Project Size: %s", r)
	}
	// A project without analyses or coverage.
	w.get(t, "/gh/acme/projects/api/metrics", w.Alice).wantJSON(t, http.StatusOK, mValuesIn(metric.ScopeProject, map[string]any{
		"CMPLX": 0, "DUP": 0, "MNT": "A", "SEC": "A", "SIZE": "XS", "ISS": 0, "SECI": 0, "TDR": 0,
		"FILES": 0, "LOC": 0, "COV": "F", "LCOV": 0,
	}))
	w.get(t, "/gh/acme/projects/web/metrics", w.Bob).wantStatus(t, http.StatusNotFound)
	w.get(t, "/gh/acme/projects/web/metrics", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusNotAcceptable)
}

// The project series equals the series of a component that holds every
// file ("*"), point for point, for every metric and interval; only SIZE's
// descriptor is named after the scope.
func TestProjectSeriesEqualsAllFilesComponent(t *testing.T) {
	w := mNewCast(t)
	mSeriesFixture(t, w)
	w.mCreate(t, mCore, w.Carol, "everything", "*")
	for _, q := range []string{"from=2025-12-01&interval=day", "from=2025-12-01&interval=week", "from=2025-12-01&interval=month",
		"from=2026-03-04&to=2026-03-18T10:00:00Z&metric=LOC,LCOV,COV&interval=week", "category=coverage,size"} {
		p := w.get(t, mCore+"/metrics/series?"+q, w.Alice).wantStatus(t, http.StatusOK)
		c := w.get(t, mCore+"/components/everything/metrics/series?"+q, w.Alice).wantStatus(t, http.StatusOK)
		fix := strings.ReplaceAll(string(c.Body), `"name":"Component Size"`, `"name":"Project Size"`)
		fix = strings.ReplaceAll(fix, mustJSONString(sizeDesc(metric.ScopeComponent)), mustJSONString(sizeDesc(metric.ScopeProject)))
		if string(p.Body) != fix {
			t.Errorf("%s: project series\n%s\ndiffers from the all-files component's\n%s", q, p.Body, fix)
		}
		if len(dataOf(t, p)) == 0 {
			t.Errorf("%s: no series", q)
		}
		for _, accept := range []string{"text/csv", "application/x-ndjson"} {
			pa := w.get(t, mCore+"/metrics/series?"+q, w.Alice, hdr("Accept", accept)).wantStatus(t, http.StatusOK)
			ca := w.get(t, mCore+"/components/everything/metrics/series?"+q, w.Alice, hdr("Accept", accept)).wantStatus(t, http.StatusOK)
			pb := string(pa.Body)
			cb := strings.ReplaceAll(strings.ReplaceAll(string(ca.Body), `"name":"Component Size"`, `"name":"Project Size"`),
				mustJSONString(sizeDesc(metric.ScopeComponent)), mustJSONString(sizeDesc(metric.ScopeProject)))
			if pb != cb {
				t.Errorf("%s %s: project and all-files component differ:\n%s\n%s", q, accept, pb, cb)
			}
		}
	}
	// The project metrics equal the all-files component's too.
	p := mMetricValues(t, w.testServer, mCore, w.Alice)
	c := mMetricValues(t, w.testServer, mCore+"/components/everything", w.Alice)
	if !reflect.DeepEqual(p, c) {
		t.Errorf("project metrics %v, all-files component %v", p, c)
	}
	// Parameters are checked as for components; projects without
	// Components enabled have series too.
	w.get(t, mCore+"/metrics/series?interval=hour", w.Alice).wantError(t, http.StatusBadRequest, "interval")
	w.get(t, mCore+"/metrics/series?metric=NOPE", w.Alice).wantError(t, http.StatusBadRequest, `metric has the unknown value "NOPE"`)
	w.get(t, mCore+"/metrics/series?from=2026-03-10&to=2026-03-01", w.Alice).wantError(t, http.StatusBadRequest, "from")
	w.get(t, "/gh/acme/projects/web/metrics/series", w.Alice).wantStatus(t, http.StatusOK)
	w.get(t, mCore+"/metrics/series", w.Bob).wantStatus(t, http.StatusNotFound)
}

func sizeDesc(sc metric.Scope) string {
	d, _ := metric.Lookup(metric.KeySize, sc)
	return d.Description
}

func mustJSONString(s string) string { return mustJSON(s) }

func TestIssueCounts(t *testing.T) {
	w := mNewCast(t)
	mWorkedExample(t, w.testServer, w.Web)
	counts := func(total int, cat, lvl, st, tool map[string]int) string {
		full := func(values []string, m map[string]int) map[string]int {
			out := map[string]int{}
			for _, v := range values {
				out[v] = m[v]
			}
			return out
		}
		return mustJSON(map[string]any{"total": total, "byCategory": full(plumb.IssueCategories, cat), "byLevel": full(plumb.IssueLevels, lvl),
			"byStatus": full(plumb.IssueStatuses, st), "byTool": tool})
	}
	const c = "/gh/acme/projects/web/issues/counts"
	// Default: open issues, as the list. f8 (on the removed src/old.go) is an
	// issue of the snapshot too.
	open := dataOf(t, w.get(t, "/gh/acme/projects/web/issues?page[limit]=100", w.Alice).wantStatus(t, http.StatusOK))
	w.get(t, c, w.Alice).wantJSON(t, http.StatusOK, counts(len(open),
		map[string]int{"vulnerability": 2, "style": 3, "secret": 2},
		map[string]int{"high": 3, "low": 1, "note": 1, "fmt": 2},
		map[string]int{"open": 7}, map[string]int{"lint": 7}))
	w.get(t, c+"?status=open,ignored", w.Alice).wantJSON(t, http.StatusOK, counts(8,
		map[string]int{"vulnerability": 3, "style": 3, "secret": 2},
		map[string]int{"high": 4, "low": 1, "note": 1, "fmt": 2},
		map[string]int{"open": 7, "ignored": 1}, map[string]int{"lint": 8}))
	w.get(t, c+"?level=high&category[]=secret", w.Alice).wantJSON(t, http.StatusOK, counts(1,
		map[string]int{"secret": 1}, map[string]int{"high": 1}, map[string]int{"open": 1}, map[string]int{"lint": 1}))
	w.get(t, c+"?tool=LINT&level=fmt", w.Alice).wantJSON(t, http.StatusOK, counts(2,
		map[string]int{"style": 2}, map[string]int{"fmt": 2}, map[string]int{"open": 2}, map[string]int{"lint": 2}))
	w.get(t, c+"?tool=other", w.Alice).wantJSON(t, http.StatusOK, counts(0, nil, nil, nil, map[string]int{}))
	// The count equals the list's length under every filter tried.
	for _, q := range []string{"", "level=high", "category=style,secret", "status=ignored", "tool=lint&level=low"} {
		list := dataOf(t, w.get(t, "/gh/acme/projects/web/issues?page[limit]=100&"+q, w.Alice).wantStatus(t, http.StatusOK))
		var got struct{ Total int }
		r := w.get(t, c+"?"+q, w.Alice).wantStatus(t, http.StatusOK)
		check(t, json.Unmarshal(r.Body, &got))
		if got.Total != len(list) {
			t.Errorf("%q: total %d, list has %d", q, got.Total, len(list))
		}
	}
	w.get(t, c+"?level=urgent", w.Alice).wantError(t, http.StatusBadRequest, `level has the unknown value "urgent"`)
	w.get(t, "/gh/acme/projects/api/issues/counts", w.Alice).wantJSON(t, http.StatusOK, counts(0, nil, nil, nil, map[string]int{}))
	w.get(t, c, w.Bob).wantStatus(t, http.StatusNotFound)
	w.get(t, c, w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusNotAcceptable)
}
