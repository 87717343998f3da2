package openapi_test

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/ingest/coverage"
)

// The ingestion operations (docs/ingest.md) under the tag Ingestion.

var ingestOps = map[string]string{
	"POST " + ingestPrefix + "/coverage":                        "uploadCoverage",
	"POST " + ingestPrefix + "/sarif":                           "uploadSarif",
	"POST " + ingestPrefix + "/analyses":                        "uploadAnalysis",
	"POST " + ingestPrefix + "/sources":                         "uploadSources",
	"POST " + ingestPrefix + "/builds":                          "createBuild",
	"POST " + ingestPrefix + "/builds/{buildId}/status":         "reportBuildStatus",
	"POST " + ingestPrefix + "/changes":                         "uploadChange",
	"GET " + ingestPrefix + "/analyses":                         "listAnalysedCommits",
	"GET " + ingestPrefix + "/gate":                             "evaluateQualityGate",
	"GET " + ingestPrefix + "/upload-tokens":                    "listUploadTokens",
	"POST " + ingestPrefix + "/upload-tokens":                   "createUploadToken",
	"GET " + ingestPrefix + "/upload-tokens/{uploadTokenId}":    "getUploadToken",
	"DELETE " + ingestPrefix + "/upload-tokens/{uploadTokenId}": "revokeUploadToken",
}

func TestIngestionOperations(t *testing.T) {
	d := loadJSON(t)
	found := false
	for _, tg := range d["tags"].([]any) {
		if m := obj(t, tg, "tag"); m["name"] == "Ingestion" {
			found = true
			if desc, _ := m["description"].(string); !strings.Contains(desc, "plbu_") {
				t.Errorf("tag Ingestion description %q does not mention upload tokens", desc)
			}
		}
	}
	if !found {
		t.Error("no tag Ingestion")
	}
	n := 0
	for key, op := range d.operations(t) {
		tag := op["tags"].([]any)[0]
		id, isIngest := ingestOps[key]
		if !isIngest {
			if tag == "Ingestion" {
				t.Errorf("%s is tagged Ingestion", key)
			}
			continue
		}
		n++
		if tag != "Ingestion" {
			t.Errorf("%s: tag %v, want Ingestion", key, tag)
		}
		if op["operationId"] != id {
			t.Errorf("%s: operationId %v, want %s", key, op["operationId"], id)
		}
	}
	if n != len(ingestOps) {
		t.Errorf("%d ingestion operations in the document, want %d", n, len(ingestOps))
	}
}

func TestIngestionRequestBodies(t *testing.T) {
	d := loadJSON(t)
	for key, want := range map[string]string{
		"/coverage": "raw", "/sarif": "raw",
		"/analyses": "AnalysisUpload", "/builds": "BuildCreate", "/builds/{buildId}/status": "BuildStatusReport",
	} {
		op := d.op(t, "POST", ingestPrefix+key)
		rb := obj(t, op["requestBody"], key+" requestBody")
		if rb["required"] != true {
			t.Errorf("%s: request body not required", key)
		}
		content := obj(t, rb["content"], key+" content")
		var types []string
		for mt := range content {
			types = append(types, mt)
		}
		sort.Strings(types)
		if want == "raw" {
			if !slices.Equal(types, []string{"*/*", "application/octet-stream"}) {
				t.Errorf("%s: request media types %v, want application/octet-stream and */*", key, types)
			}
			for _, mt := range types {
				s := obj(t, obj(t, content[mt], mt)["schema"], mt+" schema")
				if s["type"] != "string" || s["format"] != "binary" {
					t.Errorf("%s %s: schema %v, want a binary string", key, mt, s)
				}
			}
			continue
		}
		if !slices.Equal(types, []string{"application/json"}) {
			t.Errorf("%s: request media types %v, want application/json", key, types)
		}
		ref := obj(t, obj(t, content["application/json"], key)["schema"], key)["$ref"]
		if ref != "#/components/schemas/"+want {
			t.Errorf("%s: request schema %v, want %s", key, ref, want)
		}
	}
}

func TestIngestionParameters(t *testing.T) {
	d := loadJSON(t)
	type check struct {
		path, name, in, want string
		required             bool
	}
	sha := `{"type":"string","minLength":7,"maxLength":64,"pattern":"^[0-9a-fA-F]{7,64}$"}`
	key := `{"type":"string","minLength":1,"maxLength":200}`
	checks := []check{
		{"/coverage", "ownerKeyOrId", "path", `{"type":"string","minLength":3}`, true},
		{"/coverage", "projectKeyOrId", "path", `{"type":"string","minLength":3}`, true},
		{"/coverage", "commitSha", "query", sha, true},
		{"/coverage", "branch", "query", `{"type":"string"}`, false},
		{"/coverage", "tag", "query", `{"type":"string"}`, false},
		{"/coverage", "coverageTag", "query", `{"type":"string","default":"default"}`, false},
		{"/coverage", "format", "query", `{"$ref":"#/components/schemas/CoverageFormat"}`, false},
		{"/coverage", "stripPrefix", "query", `{"type":"string"}`, false},
		{"/coverage", "addPrefix", "query", `{"type":"string"}`, false},
		{"/coverage", "modulePath", "query", `{"type":"string"}`, false},
		{"/coverage", "Idempotency-Key", "header", key, false},
		{"/sarif", "commitSha", "query", sha, true},
		{"/sarif", "branch", "query", `{"type":"string","minLength":1}`, true},
		{"/sarif", "analyzedAt", "query", `{"type":"string","format":"date-time"}`, false},
		{"/sarif", "repoRoot", "query", `{"type":"string"}`, false},
		{"/sarif", "Idempotency-Key", "header", key, false},
		{"/analyses", "stripPrefix", "query", `{"type":"string"}`, false},
		{"/analyses", "repoRoot", "query", `{"type":"string"}`, false},
		{"/analyses", "Idempotency-Key", "header", key, false},
		{"/builds", "Idempotency-Key", "header", key, false},
		{"/builds/{buildId}/status", "buildId", "path", `{"type":"string","minLength":3}`, true},
	}
	for _, c := range checks {
		p, ok := d.params(t, "POST", ingestPrefix+c.path)[c.name]
		if !ok {
			t.Errorf("%s: no parameter %s", c.path, c.name)
			continue
		}
		if p["in"] != c.in {
			t.Errorf("%s %s: in %v, want %s", c.path, c.name, p["in"], c.in)
		}
		s := obj(t, p["schema"], c.name)
		delete(s, "description")
		got, _ := json.Marshal(s)
		if !jsonEqual(t, got, []byte(c.want)) {
			t.Errorf("%s %s: schema %s, want %s", c.path, c.name, got, c.want)
		}
		if req, _ := p["required"].(bool); req != c.required {
			t.Errorf("%s %s: required %v, want %v", c.path, c.name, req, c.required)
		}
	}
	// Only the idempotent operations take the key; a status report is safe
	// to repeat by itself.
	if _, ok := d.params(t, "POST", ingestPrefix+"/builds/{buildId}/status")["Idempotency-Key"]; ok {
		t.Error("the build status report documents Idempotency-Key")
	}
	for _, path := range []string{"/sarif", "/analyses", "/builds", "/builds/{buildId}/status"} {
		if _, ok := d.params(t, "POST", ingestPrefix+path)["format"]; ok {
			t.Errorf("%s documents format", path)
		}
	}

	// The format enumeration is the parser's, in its detection order.
	got := d.deref(t, map[string]any{"$ref": "#/components/schemas/CoverageFormat"})["enum"].([]any)
	var want []any
	for _, f := range coverage.Formats {
		want = append(want, string(f))
	}
	if !slices.Equal(got, want) {
		t.Errorf("CoverageFormat enum %v, want coverage.Formats %v", got, want)
	}
}

func TestIngestionResponses(t *testing.T) {
	d := loadJSON(t)
	results := map[string]string{
		"/coverage": "CoverageUploadResult", "/sarif": "SnapshotResult", "/analyses": "SnapshotResult",
		"/builds": "Build", "/builds/{buildId}/status": "Build",
	}
	for path, result := range results {
		key := "POST " + ingestPrefix + path
		op := d.op(t, "POST", ingestPrefix+path)
		codes := statuses(t, op)
		success := "201"
		if strings.HasSuffix(path, "/status") {
			success = "200"
		}
		want := []string{success, "400", "401", "403", "404", "405", "406", "409", "413", "415", "429", "500", "503"}
		if path == "/coverage" || path == "/sarif" || path == "/analyses" {
			want = append(want, "408") // a stalled upload
		}
		sort.Strings(want)
		if !slices.Equal(codes, want) {
			t.Errorf("%s: statuses %v, want %v", key, codes, want)
		}
		responses := obj(t, op["responses"], key)
		ok := obj(t, responses[success], key)
		schema := obj(t, obj(t, obj(t, ok["content"], key)["application/json"], key)["schema"], key)
		if schema["$ref"] != "#/components/schemas/"+result {
			t.Errorf("%s %s: schema %v, want %s", key, success, schema["$ref"], result)
		}
		h := obj(t, ok["headers"], key)
		_, replay := h["Idempotent-Replayed"]
		if replay != (success == "201") {
			t.Errorf("%s %s: Idempotent-Replayed documented = %v", key, success, replay)
		}
		// The errors speak of ingestion, not of the v1 operations.
		for _, code := range []string{"400", "401", "403", "404", "409", "413", "415"} {
			r := d.deref(t, responses[code])
			desc, _ := r["description"].(string)
			if strings.Contains(desc, "Components") || strings.Contains(desc, "component") {
				t.Errorf("%s %s: description %q is the v1 one", key, code, desc)
			}
			ref := obj(t, obj(t, obj(t, r["content"], key)["application/json"], key)["schema"], key)["$ref"]
			if ref != "#/components/schemas/Error" {
				t.Errorf("%s %s: error schema %v", key, code, ref)
			}
		}
		if desc := d.deref(t, responses["404"])["description"].(string); !strings.Contains(desc, "upload token") {
			t.Errorf("%s 404: description %q does not say what an upload token sees", key, desc)
		}
	}
	replayed := d.deref(t, map[string]any{"$ref": "#/components/headers/IdempotentReplayed"})
	if s, _ := json.Marshal(replayed["schema"]); !jsonEqual(t, s, []byte(`{"type":"string","enum":["true"]}`)) || replayed["required"] == true {
		t.Errorf("Idempotent-Replayed header = %v", replayed)
	}
}

func TestValidatorIngestionResponses(t *testing.T) {
	v := newValidator(t)
	b := func(v any) string { return string(js(t, v)) }
	const cov = "/ingest/gh/acme/projects/web/coverage?commitSha=abcdef0"
	covBody := J{"id": uuid1, "commitSha": "abcdef0", "branch": "main", "tag": "", "coverageTag": "default", "format": "lcov",
		"files": 2, "coveredLines": 21, "missedLines": 7, "uploadedAt": ts}
	snap := J{"id": uuid1, "commitSha": "abcdef0", "branch": "main", "analyzedAt": ts, "issues": 3, "current": true, "history": true,
		"keptIssues": J{"gosec": 2}, "replacedIssues": J{}}
	jsonH := headers("application/json")
	cases := []respCase{
		{"coverage", "POST", cov, 201, jsonH, b(covBody), ""},
		{"coverage replayed", "POST", cov, 201, headers("application/json", "Idempotent-Replayed", "true"), b(covBody), ""},
		{"sarif", "POST", "/ingest/gh/acme/projects/web/sarif", 201, jsonH, b(snap), ""},
		{"analysis", "POST", "/ingest/gh/acme/projects/web/analyses", 201, jsonH, b(snap), ""},
		{"build", "POST", "/ingest/gh/acme/projects/web/builds", 201, headers("application/json", "Location", "http://x/gh/acme/projects/web/builds/"+uuid1), b(fullBuild()), ""},
		{"build status", "POST", "/ingest/gh/acme/projects/web/builds/" + uuid1 + "/status", 200, jsonH, b(fullBuild()), ""},
		{"build conflict", "POST", "/ingest/gh/acme/projects/web/builds/" + uuid1 + "/status", 409, jsonH, b(errorBody(409)), ""},
		{"too large", "POST", cov, 413, jsonH, b(errorBody(413)), ""},
		{"encoding", "POST", cov, 415, jsonH, b(errorBody(415)), ""},

		{"unknown format", "POST", cov, 201, jsonH, b(with(covBody, "format", "gcov")), "format"},
		{"upper-case sha", "POST", cov, 201, jsonH, b(with(covBody, "commitSha", "ABCDEF0")), "commitSha"},
		{"missing count", "POST", cov, 201, jsonH, b(with(covBody, "missedLines", del)), "missedLines"},
		{"replayed not true", "POST", cov, 201, headers("application/json", "Idempotent-Replayed", "yes"), b(covBody), "Idempotent-Replayed"},
		{"snapshot extra", "POST", "/ingest/gh/acme/projects/web/sarif", 201, jsonH, b(with(snap, "tools", []any{"x"})), "tools"},
		{"build without Location", "POST", "/ingest/gh/acme/projects/web/builds", 201, jsonH, b(fullBuild()), "Location"},
		{"upload 200", "POST", cov, 200, jsonH, b(covBody), "is not documented"},
		{"no GET", "GET", "/ingest/gh/acme/projects/web/coverage", 200, jsonH, "{}", "no operation documented"},
	}
	runRespCases(t, v, cases)
}
