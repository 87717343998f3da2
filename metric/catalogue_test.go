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
	{"CMPLX", "Cognitive complexity", "maintainability", true, "number"},
	{"DUP", "Duplication", "maintainability", true, "percent"},
	{"MNT", "Maintainability rating", "maintainability", true, "rating"},
	{"SEC", "Security rating", "security", true, "rating"},
	{"SIZE", "Size", "size", false, "number"},
	{"ISS", "Issues", "quality", true, "number"},
	{"SECI", "Security issues", "security", true, "number"},
	{"TDR", "Technical debt ratio", "maintainability", true, "percent"},
	{"FILES", "Files", "size", false, "number"},
	{"LOC", "Lines of code", "size", false, "number"},
	{"COV", "Coverage", "coverage", false, "percent"},
	{"LCOV", "Covered lines", "coverage", false, "number"},
}

func TestCatalogueMatchesContract(t *testing.T) {
	got := metric.Catalogue()
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

func TestDescriptionsAreOneSentence(t *testing.T) {
	for _, d := range metric.Catalogue() {
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
		d, ok := metric.Lookup(key)
		if !ok || d != metric.Catalogue()[i] {
			t.Errorf("Lookup(%q) = %+v, %v; want catalogue entry %d", key, d, ok, i)
		}
		if !metric.IsKey(key) {
			t.Errorf("IsKey(%q) = false", key)
		}
	}
	for _, key := range []string{"", "cmplx", "Cov", "LOC ", "XYZ", "maintainability"} {
		if d, ok := metric.Lookup(key); ok || d != (metric.Definition{}) {
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
	for _, d := range metric.Catalogue() {
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
	c := metric.Catalogue()
	c[0].Name = "changed"
	k := metric.Categories()
	k[0] = "changed"
	keys := metric.Keys()
	keys[0] = "changed"
	if metric.Catalogue()[0].Name != "Cognitive complexity" || metric.Categories()[0] != "maintainability" || metric.Keys()[0] != "CMPLX" {
		t.Error("changing a returned slice changed the catalogue")
	}
}

func TestDescriptorJSON(t *testing.T) {
	for _, d := range metric.Catalogue() {
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
	d, _ := metric.Lookup("COV")
	b, _ := json.Marshal(d.Descriptor())
	want := `{"key":"COV","name":"Coverage","category":"coverage","inverted":false,"valueType":"percent","description":"Share of the coverable lines that the tests executed, as 100 × covered ÷ (covered + missed) lines, in percent with two decimals."}`
	if string(b) != want {
		t.Errorf("COV descriptor:\n got %s\nwant %s", b, want)
	}
}
