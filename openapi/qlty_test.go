package openapi_test

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// qltyUploadOp is the PUT of the qlty CLI's zip: a signed URL, no token.
const qltyUploadOp = "PUT /coverage/uploads/{uploadId}"

// isQltyPath reports the qlty CLI's paths (docs/migrate-from-qlty.md).
func isQltyPath(path string) bool {
	return path == "/coverage" || strings.HasPrefix(path, "/coverage/")
}

// qltyDocsPaths parses the endpoint table of docs/migrate-from-qlty.md:
// path -> methods.
func qltyDocsPaths(t *testing.T) map[string][]string {
	t.Helper()
	section := docSection(t, "migrate-from-qlty.md", "Endpoints")
	row := regexp.MustCompile("^\\| `([A-Z]+) (/[^`?]*)[^`]*` \\|")
	out := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			out[m[2]] = append(out[m[2]], m[1])
			sort.Strings(out[m[2]])
		}
	}
	if len(out) != 3 {
		t.Fatalf("parsed %d paths from docs/migrate-from-qlty.md, want 3: %v", len(out), out)
	}
	return out
}

// The qlty CLI's operations: tagged, their errors in the shape the CLI
// prints, the PUT without a token (no security, no 401, rate-limit headers
// optional since it is never counted).
func TestQltyOperations(t *testing.T) {
	d := loadJSON(t)
	ops := map[string]string{
		"POST /coverage":          "qltyPublishCoverage",
		"POST /coverage/complete": "qltyCompleteCoverage",
		qltyUploadOp:              "qltyUploadCoverageZip",
	}
	for key, op := range d.operations(t) {
		method, path, _ := strings.Cut(key, " ")
		id, ok := ops[key]
		if op["tags"].([]any)[0] == "qlty CLI" != ok {
			t.Errorf("%s: tag %v", key, op["tags"])
		}
		if !ok {
			continue
		}
		if op["operationId"] != id {
			t.Errorf("%s: operationId %v, want %s", key, op["operationId"], id)
		}
		codes := statuses(t, op)
		for _, code := range codes {
			r := d.deref(t, obj(t, op["responses"], key)[code])
			if code < "400" {
				continue
			}
			s := obj(t, obj(t, obj(t, r["content"], key)["application/json"], key)["schema"], key)
			if s["$ref"] != "#/components/schemas/QltyError" {
				t.Errorf("%s %s: error schema %v, want QltyError", key, code, s)
			}
			for name, hd := range obj(t, r["headers"], key) {
				if strings.HasPrefix(name, "x-ratelimit-") && key == qltyUploadOp && d.deref(t, hd)["required"] == true {
					t.Errorf("%s %s: %s required, but the PUT is never counted", key, code, name)
				}
			}
		}
		if key == qltyUploadOp {
			if s, ok := op["security"].([]any); !ok || len(s) != 0 {
				t.Errorf("%s security = %v, want []", key, op["security"])
			}
			if slices.Contains(codes, "401") || slices.Contains(codes, "429") {
				t.Errorf("%s: statuses %v document 401 or 429", key, codes)
			}
			if _, ok := d.params(t, method, path)["signature"]; !ok {
				t.Errorf("%s: no signature parameter", key)
			}
		}
	}
	qe := d.deref(t, map[string]any{"$ref": "#/components/schemas/QltyError"})
	if req, _ := qe["required"].([]any); len(req) != 1 || req[0] != "errors" {
		t.Errorf("QltyError required = %v, want errors (error is absent from the router's answers)", qe["required"])
	}
}
