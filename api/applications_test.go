package api_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
)

var uuidV7 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestCreateApplication(t *testing.T) {
	w := newWorld(t)
	create := func(t *testing.T, body string, headers ...map[string]string) *resp {
		t.Helper()
		h := map[string]string{"Content-Type": "application/json"}
		for _, m := range headers {
			for k, v := range m {
				h[k] = v
			}
		}
		return w.do(t, "POST", "/gh/acme/applications", w.Alice, h, body)
	}

	t.Run("created", func(t *testing.T) {
		r := create(t, `{"name":"Shop","description":"The web shop"}`).wantStatus(t, http.StatusCreated)
		var got struct{ ID string }
		mustUnmarshal(t, r.Body, &got)
		if !uuidV7.MatchString(got.ID) {
			t.Errorf("id %q is not a UUIDv7", got.ID)
		}
		r.wantJSON(t, http.StatusCreated, mustJSON(map[string]any{"id": got.ID, "name": "Shop", "description": "The web shop"}))
		loc := r.Header.Get("Location")
		if loc != w.URL+"/gh/acme/applications/"+got.ID {
			t.Errorf("Location %q", loc)
		}
		// The Location answers, with projectCount.
		w.get(t, loc, w.Alice).wantJSON(t, http.StatusOK, mustJSON(map[string]any{
			"id": got.ID, "name": "Shop", "description": "The web shop", "projectCount": 0}))
	})

	valid := []struct {
		name, body, contentType string
		wantName, wantDesc      string
	}{
		{"description defaults to empty", `{"name":"NoDesc"}`, "", "NoDesc", ""},
		{"null description", `{"name":"NullDesc","description":null}`, "", "NullDesc", ""},
		{"name stored exactly as sent", `{"name":"  Spaced  ","description":"  kept  "}`, "", "  Spaced  ", "  kept  "},
		{"unknown fields ignored", `{"name":"Extra","id":"x","projectCount":7,"foo":{"a":1}}`, "", "Extra", ""},
		{"charset parameter", `{"name":"Charset"}`, "application/json; charset=utf-8", "Charset", ""},
		{"+json media type", `{"name":"Vendor"}`, "application/vnd.plumb+json", "Vendor", ""},
		{"upper-case media type", `{"name":"Upper"}`, "Application/JSON", "Upper", ""},
		{"name of 100 characters", `{"name":"` + strings.Repeat("é", 100) + `"}`, "", strings.Repeat("é", 100), ""},
		{"description of 1000 characters", `{"name":"LongDesc","description":"` + strings.Repeat("d", 1000) + `"}`, "", "LongDesc", strings.Repeat("d", 1000)},
		{"trailing white space", "{\"name\":\"Spacey\"} \r\n\t ", "", "Spacey", ""},
		{"unicode and escapes", `{"name":"Caf\u00e9 \"x\"","description":"a\nb"}`, "", `Café "x"`, "a\nb"},
	}
	for _, tt := range valid {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.contentType != "" {
				h["Content-Type"] = tt.contentType
			}
			r := create(t, tt.body, h).wantStatus(t, http.StatusCreated)
			var got struct{ ID string }
			mustUnmarshal(t, r.Body, &got)
			r.wantJSON(t, http.StatusCreated, mustJSON(map[string]any{"id": got.ID, "name": tt.wantName, "description": tt.wantDesc}))
		})
	}

	invalid := []struct {
		name, body string
		details    []string
	}{
		{"empty body", ``, []string{"empty"}},
		{"blank body", " \n\t ", []string{"empty"}},
		{"invalid JSON", `{"name":`, []string{"not valid JSON"}},
		{"not JSON", `name=Shop`, []string{"not valid JSON"}},
		{"array", `[{"name":"Shop"}]`, []string{"JSON object"}},
		{"string", `"Shop"`, []string{"JSON object"}},
		{"null", `null`, []string{"JSON object"}},
		{"two objects", `{"name":"A"} {"name":"B"}`, []string{"exactly one JSON object"}},
		{"stray bracket", `{"name":"A"}]`, []string{"exactly one JSON object"}},
		{"stray brace", `{"name":"A"}}`, []string{"exactly one JSON object"}},
		{"trailing garbage", `{"name":"A"} x`, []string{"exactly one JSON object"}},
		{"trailing value", `{"name":"A"} 1`, []string{"exactly one JSON object"}},
		{"missing name", `{}`, []string{"name is required"}},
		{"null name", `{"name":null}`, []string{"name is required"}},
		{"empty name", `{"name":""}`, []string{"name must not be empty"}},
		{"blank name", `{"name":"   "}`, []string{"name must not be blank"}},
		{"name with a tab", `{"name":"a\tb"}`, []string{"name must not contain control characters"}},
		{"name too long", `{"name":"` + strings.Repeat("n", 101) + `"}`, []string{"name must be at most 100 characters"}},
		{"name with a control character", `{"name":"a\u0007b"}`, []string{"name must not contain control characters"}},
		{"name with a newline", `{"name":"a\nb"}`, []string{"name must not contain control characters"}},
		{"name a number", `{"name":5}`, []string{"name must be a string"}},
		{"name an array", `{"name":["Shop"]}`, []string{"name must be a string"}},
		{"description a number", `{"name":"Ok","description":5}`, []string{"description must be a string"}},
		{"description too long", `{"name":"Ok","description":"` + strings.Repeat("d", 1001) + `"}`, []string{"description must be at most 1000 characters"}},
		{"several errors", `{"name":5,"description":false}`, []string{"name must be a string", "description must be a string"}},
		{"missing name and bad description", `{"description":7}`, []string{"name is required", "description must be a string"}},
	}
	for _, tt := range invalid {
		t.Run(tt.name, func(t *testing.T) {
			create(t, tt.body).wantError(t, http.StatusBadRequest, tt.details...)
		})
	}

	t.Run("415 for a body that is not JSON", func(t *testing.T) {
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
			"application/jsonx", "text/json", "application/json-seq", "not a media type;;"} {
			h := map[string]string{}
			if ct != "" {
				h["Content-Type"] = ct
			}
			w.do(t, "POST", "/gh/acme/applications", w.Alice, h, `{"name":"CT"}`).
				wantError(t, http.StatusUnsupportedMediaType, "application/json")
		}
		// Without a Content-Type and without a body, also 415.
		w.do(t, "POST", "/gh/acme/applications", w.Alice, nil, "").wantStatus(t, http.StatusUnsupportedMediaType)
	})

	t.Run("409 for a name taken, ignoring case", func(t *testing.T) {
		create(t, `{"name":"Billing"}`).wantStatus(t, http.StatusCreated)
		for _, name := range []string{"Billing", "billing", "BILLING", "bIlLiNg"} {
			create(t, mustJSON(map[string]string{"name": name})).wantError(t, http.StatusConflict, name)
		}
		// Another workspace may use the name.
		w.do(t, "POST", "/gh/globex/applications", w.Bob, jsonBody, `{"name":"billing"}`).wantStatus(t, http.StatusCreated)
	})

	t.Run("409 ignores the case of any letter, not only ASCII", func(t *testing.T) {
		create(t, `{"name":"Ärger Σίσυφος"}`).wantStatus(t, http.StatusCreated)
		for _, name := range []string{"ärger σίσυφος", "ÄRGER ΣΊΣΥΦΟΣ"} {
			create(t, mustJSON(map[string]string{"name": name})).wantError(t, http.StatusConflict, "already exists")
		}
	})

	t.Run("403 when Applications are not enabled", func(t *testing.T) {
		w.workspace(t, plumb.WorkspaceInput{Key: "closed"})
		w.member(t, "closed", "alice", plumb.RoleAdmin)
		w.do(t, "POST", "/gh/closed/applications", w.Alice, jsonBody, `{"name":"Shop"}`).
			wantError(t, http.StatusForbidden, "Applications are not enabled")
		// List and get work whether or not Applications are enabled.
		w.get(t, "/gh/closed/applications", w.Alice).wantJSON(t, http.StatusOK, `{"data":[],"meta":{"hasMore":false}}`)
		w.setApplications(t, "closed", true)
		r := w.do(t, "POST", "/gh/closed/applications", w.Alice, jsonBody, `{"name":"Shop"}`).wantStatus(t, http.StatusCreated)
		w.setApplications(t, "closed", false)
		w.get(t, r.Header.Get("Location"), w.Alice).wantStatus(t, http.StatusOK)
		w.get(t, "/gh/closed/applications", w.Alice).wantStatus(t, http.StatusOK)
	})

	t.Run("any member may create", func(t *testing.T) {
		w.user(t, "erin")
		w.member(t, "acme", "erin", plumb.RoleMember)
		w.do(t, "POST", "/gh/ACME/applications", w.token(t, "erin"), jsonBody, `{"name":"ErinApp"}`).wantStatus(t, http.StatusCreated)
	})

	t.Run("by workspace id", func(t *testing.T) {
		r := w.do(t, "POST", "/gh/"+w.Acme.ID+"/applications", w.Alice, jsonBody, `{"name":"ByID"}`).wantStatus(t, http.StatusCreated)
		if loc := r.Header.Get("Location"); !strings.HasPrefix(loc, w.URL+"/gh/acme/applications/") {
			t.Errorf("Location %q", loc)
		}
	})

	t.Run("a failed create leaves no trace", func(t *testing.T) {
		create(t, `{"name":"Ghost","description":5}`).wantStatus(t, http.StatusBadRequest)
		w.get(t, "/gh/acme/applications/Ghost", w.Alice).wantStatus(t, http.StatusNotFound)
	})
}

func TestCreateApplicationBodyLimit(t *testing.T) {
	w := newWorld(t, withConfig(api.Config{MaxBodyBytes: 64}))
	ok := `{"name":"Fits"}`
	w.do(t, "POST", "/gh/acme/applications", w.Alice, jsonBody, ok).wantStatus(t, http.StatusCreated)
	exact := `{"name":"Exact","description":"` + strings.Repeat("x", 64-len(`{"name":"Exact","description":""}`)) + `"}`
	if len(exact) != 64 {
		t.Fatalf("exact body is %d bytes", len(exact))
	}
	w.do(t, "POST", "/gh/acme/applications", w.Alice, jsonBody, exact).wantStatus(t, http.StatusCreated)
	over := `{"name":"Over","description":"` + strings.Repeat("x", 100) + `"}`
	w.do(t, "POST", "/gh/acme/applications", w.Alice, jsonBody, over).wantError(t, http.StatusRequestEntityTooLarge, "64 bytes")
	// The media type is checked before the size.
	w.do(t, "POST", "/gh/acme/applications", w.Alice, hdr("Content-Type", "text/plain"), over).wantStatus(t, http.StatusUnsupportedMediaType)
	// Over the limit even when it is also invalid JSON: the size is checked first.
	w.do(t, "POST", "/gh/acme/applications", w.Alice, jsonBody, strings.Repeat("{", 100)).wantStatus(t, http.StatusRequestEntityTooLarge)

	t.Run("chunked body without Content-Length", func(t *testing.T) {
		req, err := http.NewRequest("POST", w.URL+"/gh/acme/applications", io.MultiReader(strings.NewReader(over)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+w.Alice)
		req.Header.Set("Content-Type", "application/json")
		if req.ContentLength != 0 {
			t.Fatalf("request has a Content-Length %d", req.ContentLength)
		}
		w.send(t, req, "/gh/acme/applications", "", nil).wantStatus(t, http.StatusRequestEntityTooLarge)
	})
	t.Run("default limit is 1 MiB", func(t *testing.T) {
		w2 := newWorld(t)
		big := `{"name":"Big","description":"` + strings.Repeat("x", 1<<20) + `"}`
		w2.do(t, "POST", "/gh/acme/applications", w2.Alice, jsonBody, big).wantError(t, http.StatusRequestEntityTooLarge, "1048576 bytes")
	})
}

func TestListApplications(t *testing.T) {
	w := newWorld(t)
	names := []string{"beta", "Alpha", "gamma_1", "100% done", "a_b", "Alpaca", "delta, \"the\" one", "Ärger"}
	apps := map[string]plumb.Application{}
	for i, n := range names {
		apps[n] = w.application(t, w.Acme.ID, n, fmt.Sprintf("desc %d", i))
	}
	w.application(t, w.Globex.ID, "Alphabet", "hidden")
	w.applicationProject(t, "acme", "Alpha", "web")
	w.applicationProject(t, "acme", "Alpha", "api")
	w.applicationProject(t, "acme", "beta", "web")
	view := func(n string) map[string]any {
		a := apps[n]
		count := map[string]int{"Alpha": 2, "beta": 1}[n]
		return map[string]any{"id": a.ID, "name": a.Name, "description": a.Description, "projectCount": count}
	}
	list := func(ns ...string) string {
		data := []any{}
		for _, n := range ns {
			data = append(data, view(n))
		}
		return mustJSON(map[string]any{"data": data, "meta": map[string]any{"hasMore": false}})
	}
	ordered := []string{"100% done", "a_b", "Alpaca", "Alpha", "beta", "delta, \"the\" one", "gamma_1", "Ärger"}

	tests := []struct {
		query string
		want  []string
	}{
		{"", ordered},
		{"?name=", ordered},
		{"?name=alp", []string{"Alpaca", "Alpha"}},
		{"?name=ALP", []string{"Alpaca", "Alpha"}},
		{"?name=pHa", []string{"Alpha"}},
		{"?name=%25", []string{"100% done"}},    // % is literal
		{"?name=_", []string{"a_b", "gamma_1"}}, // _ is literal
		{"?name=a_b", []string{"a_b"}},
		{"?name=p_", nil}, // as a LIKE pattern it would match Alpaca and Alpha
		{"?name=1_", nil}, // … and 100% done
		{"?name=%25%25", nil},
		{"?name=1%25", nil}, // as a LIKE pattern it would match 100% done
		{"?name=0%25+d", []string{"100% done"}},
		{"?name=%22the%22", []string{"delta, \"the\" one"}},
		{"?name=nomatch", nil},
		{"?name=%C3%A4", []string{"Ärger"}}, // ä matches Ä
		{"?name=%C3%84R", []string{"Ärger"}},
		{"?name=RGER", []string{"Ärger"}},
		{"?name=alphabet", nil}, // another workspace's
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			w.get(t, "/gh/acme/applications"+tt.query, w.Alice).wantJSON(t, http.StatusOK, list(tt.want...))
		})
	}
	t.Run("name given twice", func(t *testing.T) {
		w.get(t, "/gh/acme/applications?name=a&name=b", w.Alice).wantError(t, http.StatusBadRequest, "name")
	})
	t.Run("paged, links keep the filter", func(t *testing.T) {
		r := w.get(t, "/gh/acme/applications?name=AL&page[limit]=1", w.Alice)
		r.wantJSON(t, http.StatusOK, mustJSON(map[string]any{"data": []any{view("Alpaca")}, "meta": map[string]any{"hasMore": true}}))
		next := r.links(t)["next"]
		u, err := url.Parse(next)
		if err != nil || u.Query().Get("name") != "AL" {
			t.Fatalf("next link %q does not keep name", next)
		}
		r = w.get(t, next, w.Alice)
		r.wantJSON(t, http.StatusOK, mustJSON(map[string]any{"data": []any{view("Alpha")}, "meta": map[string]any{"hasMore": false}}))
		if _, ok := r.links(t)["next"]; ok {
			t.Error("last page has a next link")
		}
	})
	t.Run("NDJSON", func(t *testing.T) {
		r := w.get(t, "/gh/acme/applications?name=al", w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
		assertJSON(t, []byte(mustJSON(ndjsonLines(t, r.Body))), mustJSON([]any{view("Alpaca"), view("Alpha")}))
	})
	t.Run("CSV", func(t *testing.T) {
		r := w.get(t, "/gh/acme/applications?name=e", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
		want := "id,name,description,projectCount\r\n" +
			apps["100% done"].ID + ",100% done,desc 3,0\r\n" +
			apps["beta"].ID + ",beta,desc 0,1\r\n" +
			apps[`delta, "the" one`].ID + `,"delta, ""the"" one",desc 6,0` + "\r\n" +
			apps["Ärger"].ID + ",Ärger,desc 7,0\r\n"
		if string(r.Body) != want {
			t.Errorf("CSV\n%q\nwant\n%q", r.Body, want)
		}
	})
}

func TestGetApplication(t *testing.T) {
	w := newWorld(t)
	shop := w.application(t, w.Acme.ID, "Shop", "The shop")
	spaced := w.application(t, w.Acme.ID, "My App/2", "")
	// An application named like another one's id: the id wins.
	impostor := w.application(t, w.Acme.ID, shop.ID, "named like shop's id")
	w.applicationProject(t, "acme", "Shop", "web")
	shopView := mustJSON(map[string]any{"id": shop.ID, "name": "Shop", "description": "The shop", "projectCount": 1})

	umlaut := w.application(t, w.Acme.ID, "Größe", "")
	t.Run("non-ASCII name in another case", func(t *testing.T) {
		for _, ref := range []string{"Gr%C3%B6%C3%9Fe", "GR%C3%96%C3%9FE", "gr%C3%B6%C3%9Fe"} {
			w.get(t, "/gh/acme/applications/"+ref, w.Alice).wantJSON(t, http.StatusOK,
				mustJSON(map[string]any{"id": umlaut.ID, "name": "Größe", "description": "", "projectCount": 0}))
		}
	})
	for _, ref := range []string{shop.ID, "Shop", "shop", "SHOP", "sHoP"} {
		t.Run(ref, func(t *testing.T) {
			w.get(t, "/gh/acme/applications/"+ref, w.Alice).wantJSON(t, http.StatusOK, shopView)
			w.get(t, "/gh/"+w.Acme.ID+"/applications/"+ref, w.Alice).wantJSON(t, http.StatusOK, shopView)
		})
	}
	t.Run("escaped name", func(t *testing.T) {
		w.get(t, "/gh/acme/applications/my%20app%2F2", w.Alice).wantJSON(t, http.StatusOK,
			mustJSON(map[string]any{"id": spaced.ID, "name": "My App/2", "description": "", "projectCount": 0}))
	})
	t.Run("impostor by id", func(t *testing.T) {
		w.get(t, "/gh/acme/applications/"+impostor.ID, w.Alice).wantJSON(t, http.StatusOK,
			mustJSON(map[string]any{"id": impostor.ID, "name": shop.ID, "description": "named like shop's id", "projectCount": 0}))
	})
	t.Run("not found", func(t *testing.T) {
		for _, ref := range []string{"Sho", "Shopp", "x", "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "%25", "_"} {
			w.get(t, "/gh/acme/applications/"+ref, w.Alice).wantError(t, http.StatusNotFound, "was not found")
		}
	})
	t.Run("projectCount follows membership", func(t *testing.T) {
		w.applicationProject(t, "acme", shop.ID, "api")
		w.applicationProject(t, "acme", shop.ID, "web") // already in
		w.get(t, "/gh/acme/applications/shop", w.Alice).wantJSON(t, http.StatusOK,
			mustJSON(map[string]any{"id": shop.ID, "name": "Shop", "description": "The shop", "projectCount": 2}))
	})
}
