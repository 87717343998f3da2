package sarif

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// TestParseThroughTemporaryFiles: a log whose issues do not fit the memory
// budgets (results before the tool, pending locations, the fingerprint sort)
// gives the issues it gives in memory, and ParseEach hands over the same
// issues as Parse, grouped by file.
func TestParseThroughTemporaryFiles(t *testing.T) {
	var results []string
	for i := range 3000 {
		// Repeated messages in one file make groups of several findings,
		// whose fingerprints count occurrences in line order.
		results = append(results, fmt.Sprintf(`{"ruleId": "R%d", "message": {"text": "finding %d"}, "locations": [{"physicalLocation":
			{"artifactLocation": {"uri": "src/f%d.go"}, "region": {"startLine": %d}}}]}`, i%3, i%40, i%17, 1+(i*7919)%500))
	}
	// The first run names its tool after its results; the second before.
	doc := `{"version": "2.1.0", "runs": [{"results": [` + strings.Join(results[:1500], ",") + `], "tool": {"driver": {"name": "late"}}},
		{"tool": {"driver": {"name": "early"}}, "results": [` + strings.Join(results[1500:], ",") + `]}]}`
	want := mustParse(t, doc, Options{})
	if len(want) != 3000 {
		t.Fatalf("got %d issues in memory, want 3000", len(want))
	}
	defer func(p, s int) { pendingBudget, sortBudget = p, s }(pendingBudget, sortBudget)
	pendingBudget, sortBudget = 1<<10, 4<<10
	dir := t.TempDir()
	got := mustParse(t, doc, Options{TempDir: dir})
	if !reflect.DeepEqual(got, want) {
		t.Fatal("the issues differ when they go through temporary files")
	}
	var each []plumb.Issue
	if err := ParseEach(strings.NewReader(doc), Options{TempDir: dir}, func(is plumb.Issue) error {
		each = append(each, is)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	byFingerprint := func(a, b plumb.Issue) int { return strings.Compare(a.Tool+a.Fingerprint, b.Tool+b.Fingerprint) }
	slices.SortFunc(each, byFingerprint)
	sorted := slices.Clone(want)
	slices.SortFunc(sorted, byFingerprint)
	if !reflect.DeepEqual(each, sorted) {
		t.Fatal("ParseEach hands over other issues than Parse")
	}
}
