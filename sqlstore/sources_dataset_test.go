package sqlstore

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
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
	if src.State != source.StateOK || string(src.Content) != "package util // été\n" || src.Origin != source.OriginGitHub ||
		src.FetchedFrom != source.OriginGitHub || !src.FetchedAt.Equal(s.AnalyzedAt.Add(time.Hour)) {
		t.Fatalf("util/util.go after the round trip: %+v", src)
	}
	if src, err := db2.GetSource(ctx, s.ProjectID, s.CommitSHA, "cmd/main.go"); err != nil || src.FetchedFrom != "" || !src.FetchedAt.IsZero() {
		t.Fatalf("an uploaded file after the round trip: %+v %v", src, err)
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

// A project's badge token goes through export and import as its hash, never
// its secret, so that the secret still opens the restored server's badges;
// a fetched file keeps where and when it was fetched. A document with a bad
// badge token hash, one shared by two projects, or a fetchedFrom without
// fetchedAt is refused whole.
func TestDatasetBadgeTokenAndFetched(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "badge", nil)
	dCheck(t, db.ImportDocument(ctx, datasettest.Rich()))
	p := datasettest.Rich().Projects[0].ID
	secret, err := db.CreateBadgeToken(ctx, p, "ada")
	dCheck(t, err)
	_, err = db.PutSources(ctx, p, sShaA, source.OriginGitLab, sFiles("lib/a.go", "package a\n"))
	dCheck(t, err)
	got := dExport(t, db)
	if bytes.Contains(got, []byte(secret)) || bytes.Contains(got, []byte(strings.TrimPrefix(secret, BadgeTokenPrefix))) {
		t.Fatal("the export holds the badge token's secret")
	}
	if !bytes.Contains(got, []byte(`"badgeToken":{"hash":"`+plumb.HashToken(secret)+`","createdBy":"ada"`)) {
		t.Fatalf("the export lacks the badge token's hash")
	}
	db2 := dOpen(t, "badge2", nil)
	dCheck(t, db2.Import(ctx, bytes.NewReader(got)))
	if ok, err := db2.BadgeTokenValid(ctx, p, secret); err != nil || !ok {
		t.Fatalf("the badge token after the round trip: %v %v", ok, err)
	}
	if ok, _ := db2.BadgeTokenValid(ctx, p, secret+"x"); ok {
		t.Fatal("another secret opens the restored badges")
	}
	if _, has, err := db2.ProjectBadgeToken(ctx, datasettest.Rich().Projects[1].ID); err != nil || has {
		t.Fatalf("a project without a badge token has one after import: %v %v", has, err)
	}
	src, err := db2.GetSource(ctx, p, sShaA, "lib/a.go")
	dCheck(t, err)
	if src.FetchedFrom != source.OriginGitLab || !src.FetchedAt.Equal(dT0.AddDate(0, 6, 0)) {
		t.Fatalf("a fetched file after the round trip: from %q at %v", src.FetchedFrom, src.FetchedAt)
	}
	if again := dExport(t, db2); !bytes.Equal(again, got) {
		t.Fatal("export → import → export changed the bytes")
	}

	at := dT0
	for name, spoil := range map[string]func(d *dataset.Document){
		"a secret for a hash": func(d *dataset.Document) {
			d.Projects[0].BadgeToken = &dataset.BadgeToken{Hash: secret, CreatedBy: "ada", CreatedAt: at}
		},
		"a hash twice": func(d *dataset.Document) {
			b := &dataset.BadgeToken{Hash: plumb.HashToken(secret), CreatedBy: "ada", CreatedAt: at}
			d.Projects[0].BadgeToken, d.Projects[1].BadgeToken = b, b
		},
		"fetchedFrom alone": func(d *dataset.Document) {
			d.SourceCommits[0].Files[0].FetchedFrom = source.OriginGitHub
		},
		"fetched from an upload": func(d *dataset.Document) {
			d.SourceCommits[0].Files[0].FetchedFrom, d.SourceCommits[0].Files[0].FetchedAt = source.OriginUpload, &at
		},
	} {
		bad := datasettest.WithSources(datasettest.Rich())
		spoil(bad)
		db3 := dOpen(t, "bad", nil)
		if err := db3.ImportDocument(ctx, bad); plumb.ErrorCode(err) != plumb.EINVALID {
			t.Fatalf("%s: %v", name, err)
		}
		if n := sCount(t, db3, "projects"); n != 0 {
			t.Fatalf("%s: %d projects imported", name, n)
		}
	}
}
