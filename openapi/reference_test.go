package openapi_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/openapi"
)

// The Reference reads what Document serves: the same operations, every
// parameter and response reference resolved, the same schemas.
func TestReferenceReadsTheDocument(t *testing.T) {
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	ref := openapi.ReadReference()
	n := 0
	for _, item := range doc.Paths {
		for method := range item {
			if method != "parameters" {
				n++
			}
		}
	}
	if len(ref.Operations) != n {
		t.Errorf("the reference has %d operations, the document %d", len(ref.Operations), n)
	}
	for _, op := range ref.Operations {
		raw, ok := doc.Paths[op.Path][strings.ToLower(op.Method)]
		if !ok {
			t.Errorf("%s %s is not in the document", op.Method, op.Path)
			continue
		}
		var o struct {
			OperationID string `json:"operationId"`
		}
		_ = json.Unmarshal(raw, &o)
		if o.OperationID != op.ID {
			t.Errorf("%s %s: id %q, the document says %q", op.Method, op.Path, op.ID, o.OperationID)
		}
		for _, p := range op.Parameters {
			if p.Name == "" || p.In == "" || p.Schema == nil {
				t.Errorf("%s: a parameter is not resolved: %+v", op.ID, p)
			}
		}
		if len(op.Responses) == 0 {
			t.Errorf("%s has no responses", op.ID)
		}
		for _, r := range op.Responses {
			if r.Description == "" {
				t.Errorf("%s: response %s is not resolved", op.ID, r.Status)
			}
		}
	}
	for _, s := range ref.Schemas {
		got, err := json.Marshal(s.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if want := doc.Components.Schemas[s.Name]; !jsonEqual(t, got, want) {
			t.Errorf("schema %s: %s, the document has %s", s.Name, got, want)
		}
	}
	if len(ref.Schemas) != len(doc.Components.Schemas) {
		t.Errorf("the reference has %d schemas, the document %d", len(ref.Schemas), len(doc.Components.Schemas))
	}
	if i := slices.IndexFunc(ref.Schemas, func(s openapi.NamedSchema) bool { return s.Name == "IssueList" }); i < 0 {
		t.Error("no IssueList schema")
	}
}
