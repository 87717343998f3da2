package sqlstore

import (
	"bytes"
	"context"
	"testing"

	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/dataset/datasettest"
	"github.com/plumbhq/plumb/source"
)

// Export and import carry sources: a document with sources imports, exports
// as its canonical form (contents as the zstd frames kept), and that export
// imports and exports to the same bytes; the contents read back; an export
// without source leaves them out; a project's sources setting survives.
func TestSourcesDatasetRoundTrip(t *testing.T) {
	ctx := context.Background()
	doc := datasettest.WithSources(datasettest.Rich())
	off := sOtherProject(doc)
	doc.Projects[off].SourcesDisabled = true
	want := dEncode(t, dataset.Canonical(doc))
	db := dOpen(t, "sources", nil)
	dCheck(t, db.ImportDocument(ctx, doc))
	got := dExport(t, db)
	if !bytes.Equal(got, want) {
		t.Fatalf("export differs from the canonical document:\n%s", got[bytes.Index(got, []byte(`"idempotencyKeys"`)):])
	}
	db2 := dOpen(t, "sources2", nil)
	dCheck(t, db2.Import(ctx, bytes.NewReader(got)))
	if again := dExport(t, db2); !bytes.Equal(again, got) {
		t.Fatal("export → import → export changed the bytes")
	}
	s := doc.Snapshots[0]
	src, err := db2.GetSource(ctx, s.ProjectID, s.CommitSHA, "util/util.go")
	dCheck(t, err)
	if src.State != source.StateOK || string(src.Content) != "package util // été\n" || src.Origin != source.OriginGitHub {
		t.Fatalf("util/util.go after the round trip: %+v", src)
	}
	if src, err := db2.GetSource(ctx, s.ProjectID, s.CommitSHA, "data/big.json"); err != nil || src.State != source.StateTooLarge || src.Size != 5<<20 {
		t.Fatalf("data/big.json: %+v %v", src, err)
	}
	if off, err := db2.SourcesDisabled(ctx, doc.Projects[off].ID); err != nil || !off {
		t.Fatalf("the sources setting: %v %v", off, err)
	}
	var small bytes.Buffer
	dCheck(t, db2.ExportWith(ctx, &small, ExportOptions{WithoutSource: true}))
	without := datasettest.Rich()
	without.Projects[off].SourcesDisabled = true
	if !bytes.Equal(small.Bytes(), dEncode(t, dataset.Canonical(without))) {
		t.Fatal("an export without source is not the document without its sources")
	}
	// A document whose content does not match its blob id is refused whole.
	bad := datasettest.WithSources(datasettest.Rich())
	bad.SourceBlobs[0].Content += "tampered"
	if err := dOpen(t, "bad", nil).ImportDocument(ctx, bad); err == nil {
		t.Fatal("a tampered content imported")
	}
}

// sOtherProject is the index of a project of doc other than that of its
// first snapshot (whose commit WithSources gives sources).
func sOtherProject(doc *dataset.Document) int {
	for i, p := range doc.Projects {
		if p.ID != doc.Snapshots[0].ProjectID {
			return i
		}
	}
	panic("one project only")
}
