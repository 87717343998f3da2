package openapi

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/internal/testtool"
)

// oapiCodegen is the Go client generator the test runs, at a pinned version
// (built once into the test tools' cache folder by testtool.GoInstall).
const oapiCodegen, oapiCodegenVersion = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen", "v2.4.1"

// A Go client generated from the document with oapi-codegen's default
// options compiles, and has a method for every operation. oapi-codegen v2
// reads OpenAPI 3.0 schemas: the one 3.1 construct it does not read, a type
// array with "null" (["string", "null"]) or a oneOf with {type: "null"}, is rewritten to the
// 3.0 form (type "string", nullable: true) first; nothing else is changed.
func TestGeneratedGoClientCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: downloads and runs oapi-codegen")
	}
	goBin := testtool.Need(t, "go", "install Go: the test builds the generated client with it")
	generator := testtool.GoInstall(t, oapiCodegen, oapiCodegenVersion)
	dir := t.TempDir()
	var doc any
	if err := json.Unmarshal(Document(), &doc); err != nil {
		t.Fatal(err)
	}
	nullableTo30(doc)
	raw, _ := json.Marshal(doc)
	if err := os.WriteFile(filepath.Join(dir, "openapi.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOBIN="+filepath.Join(dir, "bin"))
	run := func(bin string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(generator, "-generate", "types,client", "-package", "client", "-o", "client.go", "openapi.json"); err != nil {
		t.Fatalf("oapi-codegen failed on the document: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/plumbclient\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run(goBin, "get", "github.com/oapi-codegen/runtime@v1.1.1"); err != nil {
		testtool.Missing(t, "the oapi-codegen runtime module is not available here (it needs the Go module proxy): %s", out)
	}
	if out, err := run(goBin, "build", "./..."); err != nil {
		t.Fatalf("the generated client does not compile: %v\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, "client.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range append(append(endpoints[:len(endpoints):len(endpoints)], surfaceEndpoints...), ingestEndpoints...) {
		method := strings.ToUpper(ep.id[:1]) + ep.id[1:]
		if !strings.Contains(string(src), ") "+method+"(") && !strings.Contains(string(src), ") "+method+"WithBody(") {
			t.Errorf("the generated client has no method %s for %s %s", method, ep.method, ep.path)
		}
	}
}

// nullableTo30 rewrites every type array that includes "null", and every
// oneOf of a schema and {type: null}, to the OpenAPI 3.0 form: the other
// schema and nullable: true.
func nullableTo30(v any) {
	switch x := v.(type) {
	case map[string]any:
		// oneOf [X, {type: null}] is X, nullable.
		if alts, ok := x["oneOf"].([]any); ok && len(alts) == 2 {
			if n, _ := alts[1].(map[string]any); len(n) == 1 && n["type"] == "null" {
				delete(x, "oneOf")
				if _, isRef := alts[0].(map[string]any)["$ref"]; isRef {
					x["allOf"] = []any{alts[0]} // 3.0: a nullable reference
				} else {
					for k, v := range alts[0].(map[string]any) {
						x[k] = v
					}
				}
				x["nullable"] = true
			}
		}
		if ts, ok := x["type"].([]any); ok {
			var rest []any
			for _, t := range ts {
				if t != "null" {
					rest = append(rest, t)
				}
			}
			if len(rest) < len(ts) {
				x["nullable"] = true
				if len(rest) == 1 {
					x["type"] = rest[0]
				} else {
					x["type"] = rest
				}
				if e, ok := x["enum"].([]any); ok {
					var keep []any
					for _, v := range e {
						if v != nil {
							keep = append(keep, v)
						}
					}
					x["enum"] = keep
				}
			}
		}
		for _, c := range x {
			nullableTo30(c)
		}
	case []any:
		for _, c := range x {
			nullableTo30(c)
		}
	}
}

// What generators and portals read besides the paths: a license, servers
// (DocumentFor), a description on every operation, and formats on
// non-integer numbers.
func TestDocumentForGenerators(t *testing.T) {
	var d map[string]any
	if err := json.Unmarshal(Document(), &d); err != nil {
		t.Fatal(err)
	}
	lic, _ := d["info"].(map[string]any)["license"].(map[string]any)
	if lic["identifier"] != "MIT" || lic["name"] == "" {
		t.Errorf("info.license = %v", lic)
	}
	if _, ok := d["servers"]; ok {
		t.Errorf("Document() has servers; only DocumentFor names one")
	}
	for path, item := range d["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			if method == "parameters" {
				continue
			}
			if desc, _ := op.(map[string]any)["description"].(string); len(desc) < 20 {
				t.Errorf("%s %s: description %q", method, path, desc)
			}
		}
	}
	for name := range d["components"].(map[string]any)["parameters"].(map[string]any) {
		if !strings.HasSuffix(name, "Param") {
			t.Errorf("parameter component %s does not end in Param", name)
		}
	}
	doc := string(Document())
	if strings.Contains(doc, `"type":"number"}`) || !strings.Contains(doc, `"type":"number","format":"double"`) {
		t.Errorf("a number schema without format double")
	}
	var s struct {
		Servers []struct{ URL string }
	}
	if err := json.Unmarshal(DocumentFor("https://plumb.example.com"), &s); err != nil || len(s.Servers) != 1 || s.Servers[0].URL != "https://plumb.example.com" {
		t.Errorf("DocumentFor servers = %+v, %v", s.Servers, err)
	}
}
