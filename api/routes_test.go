package api

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/openapi"
)

// TestRoutesAreTheDocumentsOperations proves the route table and the
// OpenAPI document list the same operations (method, path, operation id),
// and that the routes outside the document are only the probes and
// GitHub's webhook. (The
// document's Reference lists what the served document holds:
// openapi's TestReferenceReadsTheDocument.)
func TestRoutesAreTheDocumentsOperations(t *testing.T) {
	var documented []string
	paths := map[string]bool{}
	for _, op := range openapi.ReadReference().Operations {
		documented = append(documented, fmt.Sprintf("%s %s %s", op.Method, op.Path, op.ID))
		paths[op.Method+" "+op.Path] = true
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
	if want := []string{"GET /healthz", "GET /readyz", "POST /hooks/github"}; !slices.Equal(undocumented, want) {
		t.Errorf("routes outside the OpenAPI document = %q, want %q", undocumented, want)
	}
	for _, u := range undocumented {
		if paths[u] {
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
