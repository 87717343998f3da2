package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/plumbhq/plumb/openapi"
)

// jsonDoc is the document decoded into generic JSON values, for structural
// assertions on exactly what is served.
type jsonDoc map[string]any

func loadJSON(t *testing.T) jsonDoc {
	t.Helper()
	var d jsonDoc
	if err := json.Unmarshal(openapi.Document(), &d); err != nil {
		t.Fatalf("the document is not JSON: %v", err)
	}
	return d
}

func obj(t *testing.T, v any, what string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: want an object, got %T (%v)", what, v, v)
	}
	return m
}

// deref follows $ref (only local references) until a non-reference node.
func (d jsonDoc) deref(t *testing.T, v any) map[string]any {
	t.Helper()
	m := obj(t, v, "node")
	for {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		var node any = map[string]any(d)
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			node = obj(t, node, ref)[part]
		}
		m = obj(t, node, ref)
	}
}

func (d jsonDoc) op(t *testing.T, method, path string) map[string]any {
	t.Helper()
	item := obj(t, obj(t, d["paths"], "paths")[path], "path "+path)
	return obj(t, item[strings.ToLower(method)], method+" "+path)
}

func (d jsonDoc) operations(t *testing.T) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for path, item := range obj(t, d["paths"], "paths") {
		for method, op := range obj(t, item, path) {
			if method == "parameters" {
				continue
			}
			out[strings.ToUpper(method)+" "+path] = obj(t, op, method+" "+path)
		}
	}
	return out
}

// params is an operation's parameters (path item's included), by name.
func (d jsonDoc) params(t *testing.T, method, path string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	item := obj(t, obj(t, d["paths"], "paths")[path], path)
	var all []any
	if ps, ok := item["parameters"].([]any); ok {
		all = append(all, ps...)
	}
	if ps, ok := d.op(t, method, path)["parameters"].([]any); ok {
		all = append(all, ps...)
	}
	for _, p := range all {
		pm := d.deref(t, p)
		out[pm["name"].(string)] = pm
	}
	return out
}

func TestDocumentLoadsAndValidates(t *testing.T) {
	ctx := context.Background()
	doc, err := openapi3.NewLoader().LoadFromData(openapi.Document())
	if err != nil {
		t.Fatalf("LoadFromData: %v", err)
	}
	if err := doc.Validate(ctx); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	// Stricter: defaults and patterns must be valid too.
	if err := doc.Validate(ctx, openapi3.EnableSchemaDefaultsValidation(), openapi3.EnableSchemaPatternValidation()); err != nil {
		t.Fatalf("Validate (defaults, patterns): %v", err)
	}
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if doc.Info.Version != "1.0.0" || doc.Info.Title != "Plumb code-quality API" {
		t.Errorf("info = %q %q, want Plumb code-quality API 1.0.0", doc.Info.Title, doc.Info.Version)
	}
	if len(doc.Servers) > 0 && !(len(doc.Servers) == 1 && doc.Servers[0].URL == "/") {
		t.Errorf("servers = %v, want none", doc.Servers)
	}
}

func TestDocumentIsDeterministicCompactJSON(t *testing.T) {
	a, b := openapi.Document(), openapi.Document()
	if !bytes.Equal(a, b) {
		t.Fatal("two calls returned different bytes")
	}
	a[0] = 'x' // the caller's copy: must not corrupt the cache
	if c := openapi.Document(); c[0] != '{' {
		t.Fatal("modifying a returned document changed the cached one")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compact.Bytes(), b) {
		t.Error("the document is not compact JSON")
	}
}

// docSection is the text of the section of docs/file under the level-2
// heading, up to the next one.
func docSection(t *testing.T, file, heading string) string {
	t.Helper()
	data, err := os.ReadFile("../docs/" + file)
	if err != nil {
		t.Fatalf("reading docs/%s: %v", file, err)
	}
	_, section, ok := strings.Cut(string(data), "## "+heading)
	if !ok {
		t.Fatalf("docs/%s has no %s section", file, heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}

// docsPaths parses the path table of docs/api.md: path -> methods.
func docsPaths(t *testing.T) map[string][]string {
	t.Helper()
	section := docSection(t, "api.md", "Paths")
	code := regexp.MustCompile("`([^`]+)`")
	out := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.Contains(cells[1], "method") || strings.Contains(cells[1], "---") {
			continue
		}
		var methods []string
		for _, m := range strings.Split(cells[1], ",") {
			methods = append(methods, strings.TrimSpace(m))
		}
		sort.Strings(methods)
		for _, m := range code.FindAllStringSubmatch(cells[2], -1) {
			path, _, _ := strings.Cut(m[1], "?")
			if path == "/healthz" || path == "/readyz" {
				continue
			}
			out[path] = methods
		}
	}
	if len(out) < 10 {
		t.Fatalf("parsed only %d paths from docs/api.md: %v", len(out), out)
	}
	return out
}

// ingestDocsPaths parses the endpoint table of docs/ingest.md, whose paths
// are below /ingest/gh/{workspace}/projects/{project} ("…"): path -> methods.
func ingestDocsPaths(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("../docs/ingest.md")
	if err != nil {
		t.Fatalf("reading docs/ingest.md: %v", err)
	}
	_, section, ok := strings.Cut(string(data), "## Endpoints")
	if !ok {
		t.Fatal("docs/ingest.md has no Endpoints section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	if !strings.Contains(section, "below `/ingest/gh/{workspace}/projects/{project}`") {
		t.Fatal("docs/ingest.md's Endpoints section does not say what … stands for")
	}
	row := regexp.MustCompile("^\\| `([A-Z]+) …(/[^`]*)` \\|")
	out := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			path := ingestPrefix + m[2]
			out[path] = append(out[path], m[1])
			sort.Strings(out[path])
		}
	}
	if len(out) != 10 {
		t.Fatalf("parsed %d ingestion paths from docs/ingest.md, want 10: %v", len(out), out)
	}
	return out
}

const ingestPrefix = "/ingest" + project

// TestPathsMatchDocs: the v1 operations are exactly docs/api.md's path table,
// the ingestion operations (below /ingest) exactly docs/ingest.md's.
func TestPathsMatchDocs(t *testing.T) {
	d := loadJSON(t)
	want := docsPaths(t)
	for path, methods := range ingestDocsPaths(t) {
		if _, dup := want[path]; dup {
			t.Fatalf("%s is in both docs/api.md and docs/ingest.md", path)
		}
		want[path] = methods
	}
	for path, methods := range qltyDocsPaths(t) {
		want[path] = methods
	}
	got := map[string][]string{}
	for key := range d.operations(t) {
		method, path, _ := strings.Cut(key, " ")
		got[path] = append(got[path], method)
	}
	for path, methods := range got {
		sort.Strings(methods)
		if !slices.Equal(methods, want[path]) {
			t.Errorf("%s: methods %v, docs/api.md has %v", path, methods, want[path])
		}
	}
	for path := range want {
		if _, ok := got[path]; !ok {
			t.Errorf("%s (docs/api.md) is missing from the document", path)
		}
	}
}

func TestOperations(t *testing.T) {
	d := loadJSON(t)
	ids := map[string]string{}
	for key, op := range d.operations(t) {
		id, _ := op["operationId"].(string)
		if id == "" {
			t.Errorf("%s has no operationId", key)
		} else if other, dup := ids[id]; dup {
			t.Errorf("operationId %s of %s is also %s's", id, key, other)
		}
		ids[id] = key
		if tags, _ := op["tags"].([]any); len(tags) != 1 {
			t.Errorf("%s: tags %v, want one", key, op["tags"])
		}
	}

	sec, _ := json.Marshal(d["security"])
	if string(sec) != `[{"bearerAuth":[]},{"basicAuth":[]}]` {
		t.Errorf("global security = %s", sec)
	}
	scheme := obj(t, obj(t, obj(t, d["components"], "components")["securitySchemes"], "securitySchemes")["bearerAuth"], "bearerAuth")
	if scheme["type"] != "http" || scheme["scheme"] != "bearer" {
		t.Errorf("bearerAuth = %v", scheme)
	}
	basic := obj(t, obj(t, obj(t, d["components"], "components")["securitySchemes"], "securitySchemes")["basicAuth"], "basicAuth")
	if basic["type"] != "http" || basic["scheme"] != "basic" {
		t.Errorf("basicAuth = %v", basic)
	}

	doc := d.op(t, "GET", "/openapi.json")
	if s, ok := doc["security"].([]any); !ok || len(s) != 0 {
		t.Errorf("/openapi.json security = %v, want []", doc["security"])
	}
	if got := statuses(t, doc); !slices.Equal(got, []string{"200", "406"}) {
		t.Errorf("/openapi.json statuses = %v, want 200 406", got)
	}
	for key, op := range d.operations(t) {
		if key == "GET /openapi.json" || key == qltyUploadOp { // the upload URL is signed
			continue
		}
		if _, ok := op["security"]; ok {
			t.Errorf("%s overrides the global security", key)
		}
	}
}

func statuses(t *testing.T, op map[string]any) []string {
	t.Helper()
	var out []string
	for code := range obj(t, op["responses"], "responses") {
		out = append(out, code)
	}
	sort.Strings(out)
	return out
}

const (
	project   = "/gh/{ownerKeyOrId}/projects/{projectKeyOrId}"
	component = project + "/components/{componentIdOrName}"
)

func TestParameters(t *testing.T) {
	d := loadJSON(t)
	type check struct {
		method, path, name string
		want               string // the parameter's schema, as JSON, refs resolved one level
		required           bool
	}
	str := func(minLength int) string { return fmt.Sprintf(`{"type":"string","minLength":%d}`, minLength) }
	checks := []check{
		{"GET", project + "/builds/{buildId}", "ownerKeyOrId", str(3), true},
		{"GET", project + "/builds/{buildId}", "projectKeyOrId", str(3), true},
		{"GET", project + "/builds/{buildId}", "buildId", str(3), true},
		{"PUT", component, "componentIdOrName", str(1), true},
		{"GET", "/gh/{ownerKeyOrId}/applications/{applicationIdOrName}", "applicationIdOrName", str(1), true},
		{"GET", "/workspaces", "page[limit]", `{"type":"integer","default":20,"minimum":1,"maximum":100}`, false},
		{"GET", "/workspaces", "page[offset]", `{"type":"integer","default":0,"minimum":0}`, false},
		{"GET", project + "/builds", "status", `{"$ref":"#/components/schemas/BuildStatus"}`, false},
		{"GET", "/gh/{ownerKeyOrId}/applications", "name", `{"type":"string"}`, false},
		{"GET", project + "/files", "path", str(1), true},
		{"GET", project + "/coverage/file", "path", str(1), true},
		{"GET", project + "/coverage/file", "reference", str(1), true},
		{"GET", project + "/issues", "status", `{"type":"array","default":["open"],"items":{"$ref":"#/components/schemas/IssueStatus"}}`, false},
		{"GET", project + "/issues", "tool", `{"type":"array","items":{"type":"string"}}`, false},
		{"GET", component + "/metrics/series", "interval", `{"type":"string","enum":["day","week","month"],"default":"week"}`, false},
		{"GET", component + "/metrics/series", "metric", `{"type":"array","items":{"$ref":"#/components/schemas/MetricKey"}}`, false},
		{"GET", component + "/metrics/series", "category", `{"type":"array","items":{"$ref":"#/components/schemas/MetricCategory"}}`, false},
	}
	for _, c := range checks {
		p, ok := d.params(t, c.method, c.path)[c.name]
		if !ok {
			t.Errorf("%s %s: no parameter %s", c.method, c.path, c.name)
			continue
		}
		s := obj(t, p["schema"], c.name)
		delete(s, "description")
		got, _ := json.Marshal(s)
		if !jsonEqual(t, got, []byte(c.want)) {
			t.Errorf("%s %s %s: schema %s, want %s", c.method, c.path, c.name, got, c.want)
		}
		if req, _ := p["required"].(bool); req != c.required {
			t.Errorf("%s %s %s: required %v, want %v", c.method, c.path, c.name, req, c.required)
		}
	}

	// Array filters: form, exploded, and the accepted encodings described.
	for _, c := range []struct{ path, name string }{
		{project + "/issues", "category"}, {project + "/issues", "level"},
		{project + "/issues", "status"}, {project + "/issues", "tool"},
		{component + "/metrics/series", "metric"}, {component + "/metrics/series", "category"},
	} {
		p := d.params(t, "GET", c.path)[c.name]
		desc, _ := p["description"].(string)
		if p["style"] != "form" || p["explode"] != true ||
			!strings.Contains(desc, c.name+"[]=") || !strings.Contains(desc, c.name+"=") || !strings.Contains(desc, ",") {
			t.Errorf("%s %s: style %v explode %v description %q", c.path, c.name, p["style"], p["explode"], desc)
		}
	}
	for _, name := range []string{"from", "to"} {
		p := d.params(t, "GET", component+"/metrics/series")[name]
		s := obj(t, p["schema"], name)
		if s["type"] != "string" || !strings.Contains(s["description"].(string), "RFC 3339 date or date-time") {
			t.Errorf("series %s: schema %v", name, s)
		}
	}

	enumOf := func(name string) []any {
		return d.deref(t, map[string]any{"$ref": "#/components/schemas/" + name})["enum"].([]any)
	}
	if n := len(enumOf("IssueCategory")); n != 15 {
		t.Errorf("IssueCategory has %d values, want 15", n)
	}
	if n := len(enumOf("MetricKey")); n != 12 {
		t.Errorf("MetricKey has %d values, want 12", n)
	}
	if got := enumOf("MetricCategory"); len(got) != 6 {
		t.Errorf("MetricCategory = %v", got)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// TestSchemasAreClosed: every object schema forbids additional properties
// (but dimensions, a string map) and lists only known properties as required.
func TestSchemasAreClosed(t *testing.T) {
	d := loadJSON(t)
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				if v["additionalProperties"] != false {
					t.Errorf("%s: additionalProperties = %v, want false", path, v["additionalProperties"])
				}
				req, _ := v["required"].([]any)
				for _, r := range req {
					if _, ok := props[r.(string)]; !ok {
						t.Errorf("%s: required %v is not a property", path, r)
					}
				}
			}
			for k, c := range v {
				walk(path+"/"+k, c)
			}
		case []any:
			for _, c := range v {
				walk(path+"/[]", c)
			}
		}
	}
	walk("#", map[string]any(d))
}

func TestSchemaRequiredLists(t *testing.T) {
	d := loadJSON(t)
	want := map[string]string{
		"Workspace":            "id key avatarUrl providerUrl createdAt updatedAt",
		"Application":          "id name description",
		"ApplicationWithCount": "id name description projectCount",
		"ApplicationCreate":    "name",
		"Issue":                "id fingerprint tool ruleKey message category level status location",
		"IssueLocation":        "path",
		"BuildListEntry":       "id type status branchName commitSha commitMessage submittedAt finishedAt queueSeconds",
		"Build": "id type status branchName commitSha commitMessage submittedAt finishedAt queueSeconds " +
			"statusReason conclusion exitCode source pullRequestNumber committerLogin startedAt executionSeconds",
		"Component":            "id name description pathGlobs",
		"ComponentWithCount":   "id name description pathGlobs fileCount",
		"ComponentWrite":       "name pathGlobs",
		"MetricValue":          "key name description category value inverted valueType",
		"MetricDescriptor":     "key name category inverted valueType description",
		"SeriesEntry":          "metric dimensions points",
		"SeriesPoint":          "timestamp value",
		"SeriesResponse":       "data meta",
		"FileCoverage":         "path hits tag coveredLines missedLines omitLines totalLines",
		"FileCoverageResponse": "tags files",
		"RateLimitResource":    "limit used remaining reset",
		"RateLimitResponse":    "resources",
		"Error":                "errors",
		"ErrorObject":          "status title detail",
		"WorkspaceList":        "data meta",
		"User":                 "id login name email avatarUrl providerUrl createdAt updatedAt",
		"Project":              "id key workspaceId workspaceKey defaultBranch providerUrl createdAt updatedAt",
		"ProjectList":          "data meta",
		"IssueCounts":          "total byCategory byLevel byStatus byTool",
		"ApplicationList":      "data meta",
		"IssueList":            "data meta",
		"BuildList":            "data meta",
		"ComponentList":        "data",
		"MetricValueList":      "data",
		"CoverageUploadResult": "id commitSha branch tag coverageTag format files coveredLines missedLines uploadedAt",
		"SnapshotResult":       "id commitSha branch analyzedAt issues current history keptIssues replacedIssues",
		"AnalysisUpload":       "commitSha branch",
		"AnalysisFile":         "path",
		"BuildCreate":          "type branchName commitSha",
		"BuildStatusReport":    "status",
	}
	for name, fields := range want {
		s := d.deref(t, map[string]any{"$ref": "#/components/schemas/" + name})
		var got []string
		for _, r := range s["required"].([]any) {
			got = append(got, r.(string))
		}
		if strings.Join(got, " ") != fields {
			t.Errorf("%s required = %v, want %s", name, got, fields)
		}
		var props []string
		for p := range s["properties"].(map[string]any) {
			props = append(props, p)
		}
		optional := map[string]bool{"ApplicationCreate": true, "ComponentWrite": true, "Issue": true, "IssueLocation": true,
			"AnalysisUpload": true, "AnalysisFile": true, "BuildCreate": true, "BuildStatusReport": true}
		if !optional[name] && len(props) != len(got) {
			t.Errorf("%s has properties %v beyond the required ones", name, props)
		}
	}
}

// markdownFormat are the operations that also offer a Markdown summary.
var markdownFormat = map[string]bool{
	"GET " + project + "/compare":                   true,
	"GET " + project + "/pulls/{pullRequestNumber}": true,
}

// multiFormat are the operations that offer NDJSON and CSV besides JSON.
var multiFormat = map[string]bool{
	"GET /workspaces":                               true,
	"GET /gh/{ownerKeyOrId}/applications":           true,
	"GET " + project + "/issues":                    true,
	"GET " + project + "/builds":                    true,
	"GET " + project + "/components":                true,
	"GET " + component + "/metrics/series":          true,
	"GET /gh/{ownerKeyOrId}/projects":               true,
	"GET " + project + "/metrics/series":            true,
	"GET " + project + "/compare":                   true,
	"GET " + project + "/pulls/{pullRequestNumber}": true,
}

var paginated = map[string]bool{
	"GET /workspaces":                        true,
	"GET /gh/{ownerKeyOrId}/applications":    true,
	"GET " + project + "/issues":             true,
	"GET " + project + "/builds":             true,
	"GET " + ingestPrefix + "/upload-tokens": true,
	"GET /gh/{ownerKeyOrId}/projects":        true,
}

func TestResponses(t *testing.T) {
	d := loadJSON(t)
	rateLimit := []string{"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-used", "x-ratelimit-reset", "x-ratelimit-resource"}
	for key, op := range d.operations(t) {
		method, path, _ := strings.Cut(key, " ")
		ingestion := strings.HasPrefix(path, "/ingest/") || isQltyPath(path)
		codes := statuses(t, op)
		success := map[string]string{"GET": "200", "PUT": "200", "POST": "201", "DELETE": "204"}[method]
		if key == "POST "+ingestPrefix+"/builds/{buildId}/status" || key == "POST /coverage/complete" {
			success = "200" // a status report changes an existing build
		}
		if codes[0] != success {
			t.Errorf("%s: success status %s, want %s", key, codes[0], success)
		}
		if key == "GET /openapi.json" {
			continue
		}
		for _, must := range []string{"401", "405", "406", "500", "503"} {
			if must == "401" && key == qltyUploadOp {
				continue // no token: a signed URL
			}
			if !slices.Contains(codes, must) {
				t.Errorf("%s: no %s response", key, must)
			}
		}
		isBody := method == "POST" || method == "PUT"
		for _, code := range []string{"413", "415"} {
			if slices.Contains(codes, code) != isBody {
				t.Errorf("%s: %s documented = %v, want %v", key, code, !isBody, isBody)
			}
		}
		// Ingestion: Idempotency-Key conflicts, impossible build transitions.
		tokenAdmin := strings.Contains(path, "/upload-tokens")
		change := strings.HasSuffix(path, "/changes") || method == "GET" // no conflict: a change replaces the last; the gate and analysed commits only read
		conflict := ingestion && !tokenAdmin && !change || key == "POST "+project+"/components" || key == "PUT "+component || key == "POST /gh/{ownerKeyOrId}/applications" ||
			key == "GET "+project+"/compare" || key == "GET "+project+"/pulls/{pullRequestNumber}" // an issue list while issues have no data
		if slices.Contains(codes, "409") != conflict {
			t.Errorf("%s: 409 documented = %v, want %v", key, !conflict, conflict)
		}
		if (ingestion || strings.Contains(key, "/components") || key == "POST /gh/{ownerKeyOrId}/applications") && !slices.Contains(codes, "403") {
			t.Errorf("%s: no 403 response", key)
		}

		for _, code := range codes {
			r := d.deref(t, obj(t, op["responses"], key)[code])
			h, _ := r["headers"].(map[string]any)
			for _, name := range rateLimit {
				if _, ok := h[name]; !ok {
					t.Errorf("%s %s: no %s header", key, code, name)
				}
			}
			content, _ := r["content"].(map[string]any)
			var types []string
			for mt := range content {
				types = append(types, mt)
			}
			sort.Strings(types)
			switch {
			case code == "204":
				if len(types) != 0 {
					t.Errorf("%s 204 has content %v", key, types)
				}
			case code == success && multiFormat[key]:
				want := []string{"application/json", "application/x-ndjson", "text/csv"}
				if markdownFormat[key] {
					want = append(want, "text/markdown")
				}
				if !slices.Equal(types, want) {
					t.Errorf("%s %s: content %v", key, code, types)
				}
				nd := obj(t, obj(t, content["application/x-ndjson"], "ndjson")["schema"], "ndjson schema")
				if nd["type"] != "array" || !strings.Contains(nd["description"].(string), "each line is one") {
					t.Errorf("%s ndjson schema = %v", key, nd)
				}
				csv := obj(t, content["text/csv"], "csv")
				cs := obj(t, csv["schema"], "csv schema")
				cols, _ := csv["x-csv-columns"].([]any)
				if cs["type"] != "string" || len(cols) == 0 {
					t.Errorf("%s csv = %v", key, csv)
				}
				for _, c := range cols {
					if !strings.Contains(cs["description"].(string), c.(string)) {
						t.Errorf("%s csv description does not list column %v", key, c)
					}
				}
			case code == success && key == "GET "+project+"/files/source":
				if !slices.Equal(types, []string{"text/plain"}) {
					t.Errorf("%s %s: content %v, want text/plain only", key, code, types)
				}
			default:
				if !slices.Equal(types, []string{"application/json"}) {
					t.Errorf("%s %s: content %v, want application/json only", key, code, types)
				}
			}
			if code == success {
				if _, ok := h["Link"]; ok != paginated[key] {
					t.Errorf("%s %s: Link header documented = %v, want %v", key, code, ok, paginated[key])
				}
				// Uploads create no resource with an address of its own.
				wantLocation := code == "201" && (!ingestion || strings.HasSuffix(path, "/builds") || tokenAdmin)
				if _, ok := h["Location"]; ok != wantLocation {
					t.Errorf("%s %s: Location header documented = %v", key, code, ok)
				}
			}
			for c, name := range map[string]string{"401": "WWW-Authenticate", "405": "Allow", "429": "Retry-After"} {
				if code == c {
					if _, ok := h[name]; !ok {
						t.Errorf("%s %s: no %s header", key, code, name)
					}
				}
			}
		}
	}
}

// TestCSVColumnsMatchDocs compares x-csv-columns with docs/api.md's list.
func TestCSVColumnsMatchDocs(t *testing.T) {
	data, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]string{
		"workspaces":   "GET /workspaces",
		"applications": "GET /gh/{ownerKeyOrId}/applications",
		"issues":       "GET " + project + "/issues",
		"builds":       "GET " + project + "/builds",
		"components":   "GET " + project + "/components",
		"series":       "GET " + component + "/metrics/series",
	}
	line := regexp.MustCompile("(?m)^\\s*- (\\w+): `([^`]+)`")
	d := loadJSON(t)
	seen := 0
	for _, m := range line.FindAllStringSubmatch(string(data), -1) {
		key, ok := ops[m[1]]
		if !ok {
			continue
		}
		seen++
		method, path, _ := strings.Cut(key, " ")
		content := obj(t, obj(t, d.op(t, method, path)["responses"], key)["200"], key)["content"]
		cols, _ := json.Marshal(obj(t, obj(t, content, key)["text/csv"], key)["x-csv-columns"])
		want, _ := json.Marshal(strings.Split(m[2], ","))
		if !bytes.Equal(cols, want) {
			t.Errorf("%s: x-csv-columns %s, docs/api.md %s", m[1], cols, want)
		}
	}
	if seen != len(ops) {
		t.Errorf("found %d of %d CSV column lists in docs/api.md", seen, len(ops))
	}
}
