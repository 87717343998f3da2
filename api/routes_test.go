package api

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/openapi"
)

// TestRoutesAreTheDocumentsOperations proves the route table and the served
// OpenAPI document list the same operations (method, path, operation id),
// and that the routes outside the document are only the probes.
func TestRoutesAreTheDocumentsOperations(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	var documented []string
	for path, item := range doc.Paths {
		for method, raw := range item {
			if method == "parameters" {
				continue
			}
			var op struct {
				OperationID string `json:"operationId"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatal(err)
			}
			documented = append(documented, fmt.Sprintf("%s %s %s", strings.ToUpper(method), path, op.OperationID))
		}
	}

	s := &Server{}
	s.routes()
	var routed, undocumented []string
	for _, r := range s.router.routes {
		segs := slices.Clone(r.segments)
		for i, seg := range segs {
			if strings.HasPrefix(seg, "{") {
				segs[i] = "{" + pathParamName[seg[1:len(seg)-1]] + "}"
			}
		}
		path := "/" + strings.Join(segs, "/")
		if r.operationID == "" {
			undocumented = append(undocumented, r.method+" "+path)
			continue
		}
		routed = append(routed, fmt.Sprintf("%s %s %s", r.method, path, r.operationID))
	}

	if missing, extra := difference(documented, routed), difference(routed, documented); len(missing)+len(extra) > 0 {
		t.Errorf("the route table and the OpenAPI document differ:\n documented, no route: %q\n routed, not documented: %q", missing, extra)
	}
	slices.Sort(undocumented)
	if want := []string{"GET /healthz", "GET /readyz"}; !slices.Equal(undocumented, want) {
		t.Errorf("routes outside the OpenAPI document = %q, want %q", undocumented, want)
	}
	for _, u := range undocumented {
		method, path, _ := strings.Cut(u, " ")
		if _, ok := doc.Paths[path][strings.ToLower(method)]; ok {
			t.Errorf("%s is marked undocumented but the document has it", u)
		}
	}
}

// difference is the elements of a not in b, sorted.
func difference(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

func TestOperationPanicsOnUnknownID(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("an unknown operation id did not panic")
		}
	}()
	var rt router
	rt.operation("noSuchOperation", jsonOnly, nil)
}
