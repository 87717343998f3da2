package sqlstore

import (
	"bytes"
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
)

// Branch blobs decode to what was encoded; damaged ones are errors.
func TestBranchesBlob(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 200; round++ {
		var bs []plumb.LineBranches
		line := 0
		for n := rng.IntN(30); n > 0; n-- {
			line += 1 + rng.IntN(1000)
			total := 1 + rng.IntN(plumb.MaxBranches)
			bs = append(bs, plumb.LineBranches{Line: line, Total: total, Covered: rng.IntN(total + 1)})
		}
		if msg := checkBranches(bs); msg != "" {
			t.Fatal(msg)
		}
		got, err := decodeBranches(encodeBranches(bs))
		if err != nil || !reflect.DeepEqual(got, bs) {
			t.Fatalf("round %d: %v %v, want %v", round, got, err, bs)
		}
	}
	good := encodeBranches([]plumb.LineBranches{{Line: 3, Total: 2, Covered: 1}})
	for _, b := range [][]byte{{2, 1, 3, 2, 1}, good[:len(good)-1], append(good[:len(good):len(good)], 0), {1, 1, 0, 2, 1}, {1, 1, 3, 2, 3}, {1, 1, 3, 0, 0}} {
		if _, err := decodeBranches(b); err == nil {
			t.Errorf("% x decoded", b)
		}
	}
}

// Branch figures are stored per coverage tag, merge as plumb.MergeBranches
// says within a tag (across uploads and a file given twice in one report),
// and malformed figures are refused with nothing stored. The hits read as
// before.
func TestBranchesStored(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	db, pid := sOpen(t, &now, Options{})
	ctx := context.Background()
	const sha = "1111111111111111111111111111111111111111"
	lb := func(line, total, covered int) plumb.LineBranches {
		return plumb.LineBranches{Line: line, Total: total, Covered: covered}
	}
	add := func(tag string, files ...plumb.CoverageFile) error {
		_, err := db.IngestCoverage(ctx, plumb.CoverageInput{ProjectID: pid, CommitSHA: sha, Branch: "main", CoverageTag: tag, UploadedAt: now},
			func(emit func(plumb.CoverageFile) error) error {
				for _, f := range files {
					if err := emit(f); err != nil {
						return err
					}
				}
				return nil
			})
		return err
	}
	read := func() map[string][]plumb.LineBranches {
		t.Helper()
		_, files, err := db.StoredFileCoverage(ctx, pid, sha, "a.go")
		dCheck(t, err)
		got := map[string][]plumb.LineBranches{}
		for _, f := range files {
			got[f.Tag] = f.Branches
		}
		return got
	}
	// Dense, then sparse with the same path twice in one report.
	dCheck(t, add("unit", plumb.CoverageFile{Path: "a.go", Hits: []int64{1, 2, 0, 1}, Branches: []plumb.LineBranches{lb(2, 2, 1), lb(4, 4, 1)}}))
	dCheck(t, add("unit",
		plumb.CoverageFile{Path: "a.go", Lines: []plumb.LineHit{{Line: 2, Hits: 1}}, Total: 4, Branches: []plumb.LineBranches{lb(2, 2, 2)}},
		plumb.CoverageFile{Path: "a.go", Lines: []plumb.LineHit{{Line: 4, Hits: 1}, {Line: 5, Hits: 0}}, Total: 5, Branches: []plumb.LineBranches{lb(4, 3, 3), lb(5, 2, 0)}}))
	dCheck(t, add("e2e", plumb.CoverageFile{Path: "a.go", Hits: []int64{1, 1}}))
	want := map[string][]plumb.LineBranches{
		"unit": {lb(2, 2, 2), lb(4, 4, 3), lb(5, 2, 0)},
		"e2e":  nil,
	}
	if got := read(); !reflect.DeepEqual(got, want) {
		t.Fatalf("branches %v, want %v", got, want)
	}
	// An upload without branch figures keeps the tag's.
	dCheck(t, add("unit", plumb.CoverageFile{Path: "a.go", Hits: []int64{1}}))
	if got := read(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after an upload without branches: %v, want %v", got, want)
	}
	// The hits merge as they always did (counts add up).
	_, files, err := db.FileCoverage(ctx, pid, sha, "a.go")
	dCheck(t, err)
	if files[1].Tag != "unit" || !reflect.DeepEqual(files[1].Hits, []int64{2, 3, 0, 2, 0}) {
		t.Errorf("unit hits %+v", files[1])
	}
	for _, bad := range [][]plumb.LineBranches{{lb(3, 2, 1), lb(3, 2, 1)}, {lb(0, 2, 1)}, {lb(1, 0, 0)}, {lb(1, 2, 3)}, {lb(1, 2, -1)}, {lb(1, plumb.MaxBranches+1, 0)}} {
		err := add("unit", plumb.CoverageFile{Path: "a.go", Hits: []int64{1}}, plumb.CoverageFile{Path: "b.go", Hits: []int64{1}, Branches: bad})
		if plumb.ErrorCode(err) != plumb.EINVALID || !strings.Contains(err.Error(), "branches: line") {
			t.Errorf("%v: %v, want EINVALID", bad, err)
		}
		if got := read(); !reflect.DeepEqual(got, want) {
			t.Fatalf("after a refused upload: %v, want %v", got, want)
		}
	}
}

// Branch figures go through export and import; a document without them
// (written before they existed) imports as before; malformed ones are
// refused by the document's validation.
func TestBranchesDataset(t *testing.T) {
	doc := richDoc()
	var with *dataset.CoverageFile
	for i := range doc.Coverage {
		if len(doc.Coverage[i].Files) > 0 {
			with = &doc.Coverage[i].Files[0]
			break
		}
	}
	if with == nil {
		t.Fatal("the rich document has no coverage file")
	}
	with.Branches = []plumb.LineBranches{{Line: 1, Total: 2, Covered: 1}}
	e1 := roundTrip(t, doc)
	dSame(t, "export vs canonical input", e1, dEncode(t, dataset.Canonical(doc)))
	if !bytes.Contains(e1, []byte(`"branches":[{"line":1,"total":2,"covered":1}]`)) {
		t.Errorf("the export does not carry the branch figures")
	}
	// Without them: the export has no "branches" at all.
	if plain := roundTrip(t, richDoc()); bytes.Contains(plain, []byte(`"branches"`)) {
		t.Errorf("an export without branch figures names branches")
	}
	bad := richDoc()
	for i := range bad.Coverage {
		if len(bad.Coverage[i].Files) > 0 {
			bad.Coverage[i].Files[0].Branches = []plumb.LineBranches{{Line: 2, Total: 1, Covered: 2}}
			break
		}
	}
	db := dOpen(t, "invalid-branches", nil)
	err := db.ImportDocument(context.Background(), bad)
	if plumb.ErrorCode(err) != plumb.EINVALID || !strings.Contains(err.Error(), "branches[0] is line 2, 2 of 1 branches covered") {
		t.Errorf("import: %v, want EINVALID naming branches[0]", err)
	}
	dEmpty(t, db)
}
