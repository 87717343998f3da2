package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/source"
)

// sText is a source-like text of n lines; texts of different seeds have
// little in common.
func sText(seed int64, n int) string {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "func f%d(x int) int { return x*%d + %d }\n", r.Intn(1e6), r.Intn(1e6), r.Intn(1e6))
	}
	return b.String()
}

// sEdit is text with a line added after its first third and one replaced.
func sEdit(text, line string) string {
	lines := strings.SplitAfter(text, "\n")
	lines[len(lines)/3] = line + "\n" + lines[len(lines)/3]
	lines[2*len(lines)/3] = "// " + line + "\n"
	return strings.Join(lines, "")
}

// sSha is a commit SHA made of c.
func sSha(c byte) string { return strings.Repeat(string(c), 40) }

// sBlob is the stored row of a content: its base ("" for a full frame) and
// compressed length.
func sBlob(t testing.TB, db *DB, project, content string) (base string, n int) {
	t.Helper()
	var b sql.NullString
	dCheck(t, db.read.QueryRow(`SELECT base_id, length(compressed) FROM source_blobs WHERE project_id = $1 AND blob_id = $2`,
		project, source.BlobID([]byte(content))).Scan(&b, &n))
	return b.String, n
}

// A new content of a path is kept as a delta against the latest full frame
// of the path when that is much smaller, never against a delta (chains of
// one); an unrelated content starts a new full frame, the base of the next
// ones. Every version reads back exactly; the export carries full frames
// that import elsewhere.
func TestSourcesDelta(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{})
	v1 := sText(1, 2000)
	v2 := sEdit(v1, "// second")
	v3 := sEdit(v2, "// third")
	other := sText(2, 2000)
	v5 := sEdit(other, "// fifth")
	versions := []string{v1, v2, v3, other, v5}
	for i, v := range versions {
		now = now.Add(time.Minute)
		_, err := db.PutSources(ctx, p, sSha(byte('a'+i)), source.OriginUpload, sFiles("f.go", v, "same.go", "package same\n"))
		dCheck(t, err)
	}
	id := func(s string) string { return source.BlobID([]byte(s)) }
	full1, n1 := sBlob(t, db, p, v1)
	base2, n2 := sBlob(t, db, p, v2)
	base3, _ := sBlob(t, db, p, v3)
	base4, _ := sBlob(t, db, p, other)
	base5, _ := sBlob(t, db, p, v5)
	if full1 != "" || base2 != id(v1) || base3 != id(v1) || base4 != "" || base5 != id(other) {
		t.Fatalf("bases: v1 %q, v2 %q, v3 %q, other %q, v5 %q", full1, base2, base3, base4, base5)
	}
	if n2*10 > n1 {
		t.Fatalf("the delta of a two-line edit takes %d bytes, the full frame %d", n2, n1)
	}
	for i, v := range versions {
		if s := sGet(t, db, p, sSha(byte('a'+i)), "f.go"); s.State != source.StateOK || string(s.Content) != v || s.BlobID != id(v) {
			t.Fatalf("version %d reads back as %d bytes (%s), not %d", i+1, len(s.Content), s.State, len(v))
		}
	}

	// The export gives every content as a full frame; it imports elsewhere.
	doc, err := dataset.Decode(bytes.NewReader(dExport(t, db)))
	dCheck(t, err)
	for _, b := range doc.SourceBlobs {
		z, err := b.Frame()
		dCheck(t, err)
		if _, err := source.Decompress(z); err != nil {
			t.Fatalf("exported content %s is not a full frame: %v", b.BlobID, err)
		}
	}
	db2 := dOpen(t, "delta-import", nil)
	dCheck(t, db2.ImportDocument(ctx, doc))
	if s := sGet(t, db2, p, sSha('c'), "f.go"); string(s.Content) != v3 {
		t.Fatalf("v3 after export and import: %d bytes, %s", len(s.Content), s.State)
	}
}

// sFirstVersion opens a database with a project that keeps a 1,000-line
// content of path at commit sShaA; now is its clock.
func sFirstVersion(t *testing.T, path string) (db *DB, project string, now *time.Time, v1 string) {
	now = new(time.Time)
	*now = dT0
	db, project = sOpen(t, now, Options{})
	v1 = sText(1, 1000)
	_, err := db.PutSources(context.Background(), project, sShaA, source.OriginUpload, sFiles(path, v1))
	dCheck(t, err)
	return db, project, now, v1
}

// The collection never deletes a base a kept delta needs: v1's commit goes,
// its content stays while v2 (a delta against it) is kept, and goes with it.
// Turning the project's sources off and deleting the project delete deltas
// and bases alike.
func TestSourcesDeltaCollection(t *testing.T) {
	ctx := context.Background()
	db, p, now, v1 := sFirstVersion(t, "f.go")
	v2 := sEdit(v1, "// second")
	_, err := db.PutSources(ctx, p, sShaB, source.OriginUpload, sFiles("f.go", v2))
	dCheck(t, err)
	if base, _ := sBlob(t, db, p, v2); base != source.BlobID([]byte(v1)) {
		t.Fatalf("v2 is not a delta against v1: %q", base)
	}
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p, Branch: "main", CommitSHA: sShaB, AnalyzedAt: *now,
		Files: []plumb.FileFigures{{Path: "f.go", Lines: 1, LOC: 1}}})
	dCheck(t, err)
	*now = now.Add(2 * sourceGrace)
	d, err := db.DeleteUnreferencedSources(ctx)
	dCheck(t, err)
	if d != (SourcesDeleted{Commits: 1}) {
		t.Fatalf("collection: %+v", d)
	}
	if s := sGet(t, db, p, sShaB, "f.go"); string(s.Content) != v2 {
		t.Fatalf("v2 after its base's commit was collected: %d bytes, %s", len(s.Content), s.State)
	}
	// A new version takes v1 as its base still.
	v3 := sEdit(v2, "// third")
	_, err = db.PutSources(ctx, p, sSha('c'), source.OriginUpload, sFiles("f.go", v3))
	dCheck(t, err)
	if base, _ := sBlob(t, db, p, v3); base != source.BlobID([]byte(v1)) {
		t.Fatalf("v3's base: %q", base)
	}
	// Once no kept file needs them, the deltas and then the base go.
	_, err = db.write.Exec(`DELETE FROM snapshots WHERE project_id = $1`, p)
	dCheck(t, err)
	*now = now.Add(2 * sourceGrace)
	d, err = db.DeleteUnreferencedSources(ctx)
	dCheck(t, err)
	if d != (SourcesDeleted{Commits: 2, Blobs: 3}) || sCount(t, db, "source_blobs") != 0 {
		t.Fatalf("collection of everything: %+v, %d blobs left", d, sCount(t, db, "source_blobs"))
	}

	for _, drop := range []string{"disable", "delete"} {
		_, err = db.PutSources(ctx, p, sShaA, source.OriginUpload, sFiles("f.go", v1))
		dCheck(t, err)
		_, err = db.PutSources(ctx, p, sShaB, source.OriginUpload, sFiles("f.go", v2))
		dCheck(t, err)
		if drop == "disable" {
			d, err := db.SetSourcesDisabled(ctx, p, true)
			dCheck(t, err)
			if d.Blobs != 2 {
				t.Fatalf("disabling deleted %+v", d)
			}
			_, err = db.SetSourcesDisabled(ctx, p, false)
			dCheck(t, err)
		} else {
			_, err = db.DeleteProject(ctx, "acme/web", false)
			dCheck(t, err)
		}
		if n := sCount(t, db, "source_blobs"); n != 0 {
			t.Fatalf("%s left %d contents", drop, n)
		}
	}
}

// Uploads of the same paths at once, each with its own commit, keep every
// version readable on both backends: the project lock orders them, so a
// delta's base is always a kept full frame.
func TestSourcesDeltaConcurrent(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{})
	base := sText(1, 1500)
	_, err := db.PutSources(ctx, p, sShaA, source.OriginUpload, sFiles("f.go", base, "g.go", base))
	dCheck(t, err)
	const n = 6
	texts := make([]string, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range texts {
		texts[i] = sEdit(base, fmt.Sprintf("// upload %d", i))
		if i%3 == 2 {
			texts[i] = sText(int64(10+i), 1500) // not worth a delta: a new full frame
		}
	}
	for i := range texts {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = db.PutSources(ctx, p, sSha(byte('0'+i)), source.OriginUpload, sFiles("f.go", texts[i], "g.go", texts[n-1-i]))
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		dCheck(t, err)
		for path, want := range map[string]string{"f.go": texts[i], "g.go": texts[n-1-i]} {
			if s := sGet(t, db, p, sSha(byte('0'+i)), path); string(s.Content) != want {
				t.Fatalf("upload %d, %s: %d bytes, %s", i, path, len(s.Content), s.State)
			}
		}
	}
	var chained int
	dCheck(t, db.read.QueryRow(`SELECT count(*) FROM source_blobs d JOIN source_blobs b ON b.project_id = d.project_id AND b.blob_id = d.base_id
		WHERE b.base_id IS NOT NULL`).Scan(&chained))
	if chained != 0 {
		t.Fatalf("%d deltas against a delta", chained)
	}
}

// BenchmarkGetSource reads a 20,000-line file (about 1 MB of text) kept as a
// full frame and as a delta against an earlier version (two frames
// decompressed).
func BenchmarkGetSource(b *testing.B) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(b, &now, Options{SourceLimits: source.Limits{MaxFileSize: 4 << 20}})
	v1 := sText(1, 20000)
	v2 := sEdit(v1, "// second")
	for i, v := range []string{v1, v2} {
		if _, err := db.PutSources(ctx, p, sSha(byte('a'+i)), source.OriginUpload, sFiles("big.go", v)); err != nil {
			b.Fatal(err)
		}
	}
	if base, _ := sBlob(b, db, p, v2); base == "" {
		b.Fatal("v2 is not a delta")
	}
	for _, c := range []struct {
		name   string
		commit string
		want   int
	}{{"Full", sSha('a'), len(v1)}, {"Delta", sSha('b'), len(v2)}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				s, err := db.GetSource(ctx, p, c.commit, "big.go")
				if err != nil || len(s.Content) != c.want {
					b.Fatalf("%d bytes, %v", len(s.Content), err)
				}
			}
		})
	}
}

// A content fetched from the code host on a first view is kept the same
// way: a delta against the path's uploaded content when that pays.
func TestSourceFetchDelta(t *testing.T) {
	ctx := context.Background()
	db, p, now, v1 := sFirstVersion(t, "src/big.go")
	v2 := sEdit(v1, "// fetched")
	host := newFetchHost(t, "github", map[string]string{"src/big.go": v2})
	dCheck(t, db.PutCodeHost(ctx, p, host.target(), *now))
	src, err := db.FileSourceOrFetch(ctx, p, fCommit, "src/big.go")
	dCheck(t, err)
	if src.State != string(source.StateOK) || string(src.Content) != v2 || host.calls.Load() != 1 {
		t.Fatalf("the fetched file: %s, %d bytes, %d calls", src.State, len(src.Content), host.calls.Load())
	}
	if base, _ := sBlob(t, db, p, v2); base != source.BlobID([]byte(v1)) {
		t.Fatalf("the fetched content's base: %q", base)
	}
	if s := sGet(t, db, p, fCommit, "src/big.go"); string(s.Content) != v2 || s.FetchedFrom != "github" {
		t.Fatalf("read again: %d bytes from %q", len(s.Content), s.FetchedFrom)
	}
}
