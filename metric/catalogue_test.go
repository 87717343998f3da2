package metric_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/metric"
)

// The fixed attributes of api-contract.md, section Metrics, in the spec's order.
var contractTable = []struct {
	key, name, category string
	inverted            bool
	valueType           metric.ValueType
}{
	{"CMPLX", "Cognitive Complexity", "maintainability", true, "number"},
	{"DUP", "Duplication", "maintainability", true, "percentage"},
	{"MNT", "Maintainability Rating", "maintainability", true, "grade"},
	{"SEC", "Security Rating", "security", true, "grade"},
	{"SIZE", "Component Size", "size", false, "size"},
	{"ISS", "Issues", "quality", true, "number"},
	{"SECI", "Security Issues", "security", true, "number"},
	{"TDR", "Technical Debt Ratio", "maintainability", true, "percentage"},
	{"FILES", "Files", "size", false, "number"},
	{"LOC", "Lines of Code", "size", false, "number"},
	{"COV", "Coverage Rating", "coverage", true, "grade"},
	{"LCOV", "Line Coverage", "coverage", false, "percentage"},
}

var allScopes = []metric.Scope{metric.ScopeFile, metric.ScopeComponent, metric.ScopeProject}

func TestCatalogueMatchesContract(t *testing.T) {
	got := metric.Catalogue(metric.ScopeComponent)
	if len(got) != len(contractTable) {
		t.Fatalf("Catalogue() has %d metrics, want %d", len(got), len(contractTable))
	}
	for i, want := range contractTable {
		d := got[i]
		if d.Key != want.key || d.Name != want.name || d.Category != want.category ||
			d.Inverted != want.inverted || d.ValueType != want.valueType {
			t.Errorf("Catalogue()[%d] = %+v, want key %s name %q category %s inverted %v valueType %s",
				i, d, want.key, want.name, want.category, want.inverted, want.valueType)
		}
	}
}

// SIZE is named after its scope, as the original service names it; every
// other attribute is the same in every scope.
func TestCatalogueScopes(t *testing.T) {
	names := map[metric.Scope]string{metric.ScopeFile: "File Size", metric.ScopeComponent: "Component Size", metric.ScopeProject: "Project Size"}
	comp := metric.Catalogue(metric.ScopeComponent)
	for _, sc := range allScopes {
		for i, d := range metric.Catalogue(sc) {
			if d.Key == "SIZE" {
				if d.Name != names[sc] {
					t.Errorf("scope %d: SIZE is named %q, want %q", sc, d.Name, names[sc])
				}
				continue
			}
			if d != comp[i] {
				t.Errorf("scope %d: %s = %+v, differs from the component scope", sc, d.Key, d)
			}
		}
	}
	f, _ := metric.Lookup("SIZE", metric.ScopeFile)
	if want := "Size class from the lines of code: XS below 100, S below 250, M below 500, L below 1000, XL from 1000 on."; f.Description != want {
		t.Errorf("file SIZE description = %q, want %q", f.Description, want)
	}
	p, _ := metric.Lookup("SIZE", metric.ScopeProject)
	if want := "Size class from the lines of code: XS below 1000, S below 10000, M below 100000, L below 500000, XL from 500000 on."; p.Description != want {
		t.Errorf("project SIZE description = %q, want %q", p.Description, want)
	}
}

func TestDescriptionsAreOneSentence(t *testing.T) {
	for _, d := range append(metric.Catalogue(metric.ScopeFile), metric.Catalogue(metric.ScopeProject)...) {
		desc := d.Description
		if desc == "" || !strings.HasSuffix(desc, ".") || strings.Contains(strings.TrimSuffix(desc, "."), ". ") {
			t.Errorf("%s: description %q is not one sentence ending with a period", d.Key, desc)
		}
		if desc[0] < 'A' || desc[0] > 'Z' {
			t.Errorf("%s: description %q does not start with a capital letter", d.Key, desc)
		}
	}
}

func TestKeysAndLookup(t *testing.T) {
	var want []string
	for _, c := range contractTable {
		want = append(want, c.key)
	}
	if got := metric.Keys(); !slices.Equal(got, want) {
		t.Errorf("Keys() = %v, want %v", got, want)
	}
	for i, key := range want {
		d, ok := metric.Lookup(key, metric.ScopeComponent)
		if !ok || d != metric.Catalogue(metric.ScopeComponent)[i] {
			t.Errorf("Lookup(%q) = %+v, %v; want catalogue entry %d", key, d, ok, i)
		}
		if !metric.IsKey(key) {
			t.Errorf("IsKey(%q) = false", key)
		}
	}
	for _, key := range []string{"", "cmplx", "Cov", "LOC ", "XYZ", "maintainability"} {
		if d, ok := metric.Lookup(key, metric.ScopeFile); ok || d != (metric.Definition{}) {
			t.Errorf("Lookup(%q) = %+v, %v; want zero, false", key, d, ok)
		}
		if metric.IsKey(key) {
			t.Errorf("IsKey(%q) = true", key)
		}
	}
}

func TestCategories(t *testing.T) {
	want := []string{"maintainability", "reliability", "security", "size", "coverage", "quality"}
	if got := metric.Categories(); !slices.Equal(got, want) {
		t.Fatalf("Categories() = %v, want %v", got, want)
	}
	for _, c := range want {
		if !metric.IsCategory(c) {
			t.Errorf("IsCategory(%q) = false", c)
		}
	}
	for _, c := range []string{"", "Security", "bug", "CMPLX", "reliability "} {
		if metric.IsCategory(c) {
			t.Errorf("IsCategory(%q) = true", c)
		}
	}
	used := map[string]bool{}
	for _, d := range metric.Catalogue(metric.ScopeProject) {
		if !metric.IsCategory(d.Category) {
			t.Errorf("%s has category %q, which is not a category", d.Key, d.Category)
		}
		used[d.Category] = true
	}
	if used["reliability"] {
		t.Error("a metric has category reliability; the contract has none today")
	}
}

func TestCatalogueReturnsCopies(t *testing.T) {
	c := metric.Catalogue(metric.ScopeFile)
	c[0].Name = "changed"
	k := metric.Categories()
	k[0] = "changed"
	keys := metric.Keys()
	keys[0] = "changed"
	if metric.Catalogue(metric.ScopeFile)[0].Name != "Cognitive Complexity" || metric.Categories()[0] != "maintainability" || metric.Keys()[0] != "CMPLX" {
		t.Error("changing a returned slice changed the catalogue")
	}
}

func TestDescriptorJSON(t *testing.T) {
	for _, d := range metric.Catalogue(metric.ScopeComponent) {
		b, err := json.Marshal(d.Descriptor())
		if err != nil {
			t.Fatal(err)
		}
		desc, _ := json.Marshal(d.Description)
		want := `{"key":"` + d.Key + `","name":"` + d.Name + `","category":"` + d.Category +
			`","inverted":` + map[bool]string{true: "true", false: "false"}[d.Inverted] +
			`,"valueType":"` + string(d.ValueType) + `","description":` + string(desc) + `}`
		if string(b) != want {
			t.Errorf("descriptor of %s:\n got %s\nwant %s", d.Key, b, want)
		}
	}
	d, _ := metric.Lookup("LCOV", metric.ScopeProject)
	b, _ := json.Marshal(d.Descriptor())
	want := `{"key":"LCOV","name":"Line Coverage","category":"coverage","inverted":false,"valueType":"percentage","description":"Share of the coverable lines that the tests executed, as 100 × covered ÷ (covered + missed) lines, in percent with two decimals."}`
	if string(b) != want {
		t.Errorf("COV descriptor:\n got %s\nwant %s", b, want)
	}
}
