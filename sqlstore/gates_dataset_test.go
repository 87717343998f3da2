package sqlstore

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/dataset/datasettest"
)

// A project's own quality gate goes through export and import (a restored
// server judges pull requests as before); a project on the default gate
// stays on it; a gate an API PUT would refuse is refused whole.
func TestDatasetQualityGate(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "gate", nil)
	dCheck(t, db.ImportDocument(ctx, datasettest.Rich()))
	p := datasettest.Rich().Projects[0].ID
	pc, sec := 90.0, 2
	want := compare.Gate{PatchCoverage: &pc, NewIssues: &compare.IssueBound{Level: "medium", Max: 1}, NewSecurityIssues: &sec}
	dCheck(t, db.PutGate(ctx, p, want, dT0.AddDate(0, 1, 0)))
	got := dExport(t, db)
	if !bytes.Contains(got, []byte(`"qualityGate":{"conditions":{"patchCoverage":90,"coverageDrop":null,"newIssues":{"level":"medium","max":1},"newSecurityIssues":2},"updatedAt":"`)) {
		t.Fatalf("the export lacks the project's gate")
	}
	db2 := dOpen(t, "gate2", nil)
	dCheck(t, db2.Import(ctx, bytes.NewReader(got)))
	g, custom, err := db2.Gate(ctx, p)
	dCheck(t, err)
	if !custom || !reflect.DeepEqual(g, want) {
		t.Fatalf("the gate after the round trip: custom %v, %+v", custom, g)
	}
	if _, custom, err := db2.Gate(ctx, datasettest.Rich().Projects[1].ID); err != nil || custom {
		t.Fatalf("a project on the default gate has its own after import: %v %v", custom, err)
	}
	if again := dExport(t, db2); !bytes.Equal(again, got) {
		t.Fatal("export → import → export changed the bytes")
	}

	bad := datasettest.Rich()
	over := 120.0
	bad.Projects[0].QualityGate = &dataset.QualityGate{Conditions: compare.Gate{PatchCoverage: &over}, UpdatedAt: dT0}
	db3 := dOpen(t, "gate3", nil)
	err = db3.ImportDocument(ctx, bad)
	if plumb.ErrorCode(err) != plumb.EINVALID || !bytes.Contains([]byte(err.Error()), []byte("qualityGate.conditions.patchCoverage")) {
		t.Fatalf("a gate out of range: %v", err)
	}
	if n := sCount(t, db3, "projects"); n != 0 {
		t.Fatalf("%d projects imported with a bad gate", n)
	}
}
