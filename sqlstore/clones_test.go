package sqlstore

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
)

// Issue 21 item 3: a snapshot's clones are carried by export and import,
// and read back per file; a measured snapshot's clones may name files it
// did not change (its files list is the changes).
func TestClonesRoundTrip(t *testing.T) {
	doc := richDoc()
	six := did(kSnapshot, 6)
	clones := []dataset.Clone{
		{A: dataset.ClonePlace{Path: "a.go", StartLine: 1, EndLine: 2}, B: dataset.ClonePlace{Path: "c.go", StartLine: 3, EndLine: 4}, Lines: 2},
		{A: dataset.ClonePlace{Path: "c.go", StartLine: 1, EndLine: 1}, B: dataset.ClonePlace{Path: "c.go", StartLine: 5, EndLine: 5}, Lines: 1},
	}
	found := false
	for i := range doc.Snapshots {
		if doc.Snapshots[i].ID == six {
			doc.Snapshots[i].Clones, found = clones, true
		}
	}
	if !found {
		t.Fatalf("no snapshot %s in the rich document", six)
	}
	e1 := roundTrip(t, doc)
	got, err := dataset.Decode(bytes.NewReader(e1))
	dCheck(t, err)
	for _, s := range got.Snapshots {
		want := []dataset.Clone(nil)
		if s.ID == six {
			want = clones
		}
		if !reflect.DeepEqual(s.Clones, want) {
			t.Errorf("snapshot %s: clones %+v, want %+v", s.ID, s.Clones, want)
		}
	}
	db := dOpen(t, "clones", nil)
	dCheck(t, db.Import(context.Background(), bytes.NewReader(e1)))
	var project string
	for _, s := range got.Snapshots {
		if s.ID == six {
			project = s.ProjectID
		}
	}
	fc, err := db.FileClones(context.Background(), project, six, "c.go")
	dCheck(t, err)
	want := []plumb.FileClone{
		{Here: plumb.ClonePlace{Path: "c.go", StartLine: 1, EndLine: 1}, Other: plumb.ClonePlace{Path: "c.go", StartLine: 5, EndLine: 5}, Lines: 1},
		{Here: plumb.ClonePlace{Path: "c.go", StartLine: 3, EndLine: 4}, Other: plumb.ClonePlace{Path: "a.go", StartLine: 1, EndLine: 2}, Lines: 2},
		{Here: plumb.ClonePlace{Path: "c.go", StartLine: 5, EndLine: 5}, Other: plumb.ClonePlace{Path: "c.go", StartLine: 1, EndLine: 1}, Lines: 1},
	}
	if !reflect.DeepEqual(fc, want) {
		t.Errorf("c.go's clones %+v\nwant %+v", fc, want)
	}

	// A document with a clone that is no range of lines is refused.
	bad := richDoc()
	bad.Snapshots[0].Clones = []dataset.Clone{{A: dataset.ClonePlace{Path: "a.go", StartLine: 3, EndLine: 2}, B: dataset.ClonePlace{StartLine: 1, EndLine: 1}}}
	err = dOpen(t, "bad", nil).ImportDocument(context.Background(), bad)
	for _, s := range []string{"clones[0]: lines must be at least 1", "clones[0]: a lines 3-2 are not a range of lines", "clones[0]: b.path is required"} {
		if err == nil || !bytes.Contains([]byte(fmt.Sprint(err)), []byte(s)) {
			t.Errorf("import of bad clones: %v, want %q", err, s)
		}
	}
}
