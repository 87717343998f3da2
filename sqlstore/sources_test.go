package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/source"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// sFiles is a SourceWalk over path → content pairs, in the order given.
func sFiles(pairs ...string) SourceWalk {
	return func(put func(string, io.Reader) error) error {
		for i := 0; i+1 < len(pairs); i += 2 {
			if err := put(pairs[i], strings.NewReader(pairs[i+1])); err != nil {
				return err
			}
		}
		return nil
	}
}

// sOpen opens a database with a project, its clock at *now, and the given
// source options.
func sOpen(t testing.TB, now *time.Time, opt Options) (*DB, string) {
	t.Helper()
	opt.Now = func() time.Time { return *now }
	db, err := Open(context.Background(), sqltest.DSN(t), opt)
	dCheck(t, err)
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	dCheck(t, err)
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web"})
	dCheck(t, err)
	return db, p.ID
}

func sGet(t *testing.T, db *DB, project, commit, path string) Source {
	t.Helper()
	s, err := db.GetSource(context.Background(), project, commit, path)
	dCheck(t, err)
	return s
}

func sCount(t *testing.T, db *DB, table string) int {
	t.Helper()
	var n int
	dCheck(t, db.read.QueryRow(`SELECT count(*) FROM `+table).Scan(&n))
	return n
}

const (
	sShaA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	sShaB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func TestSourcesPutGetDedup(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{SourceLimits: source.Limits{MaxFileSize: 64}})
	main := "package main\n"
	res, err := db.PutSources(ctx, p, sShaA, source.OriginUpload, sFiles(
		"main.go", main, "copy/main.go", main, "big.txt", strings.Repeat("x", 65), "logo.png", "\x89PNG\x00\x00"))
	dCheck(t, err)
	if res != (SourcesPut{Files: 4, NewBlobs: 1, ReusedBlobs: 1, TooLarge: 1, Binary: 1, StoredBytes: res.StoredBytes}) || res.StoredBytes <= 0 {
		t.Fatalf("first put: %+v", res)
	}
	s := sGet(t, db, p, sShaA, "copy/main.go")
	if s.State != source.StateOK || string(s.Content) != main || s.BlobID != source.BlobID([]byte(main)) || s.Origin != "upload" || s.Size != int64(len(main)) {
		t.Fatalf("copy/main.go: %+v", s)
	}
	if s := sGet(t, db, p, sShaA, "big.txt"); s.State != source.StateTooLarge || s.Content != nil || s.Size != 65 {
		t.Fatalf("big.txt: %+v", s)
	}
	if s := sGet(t, db, p, sShaA, "logo.png"); s.State != source.StateBinary || s.Content != nil {
		t.Fatalf("logo.png: %+v", s)
	}
	for _, c := range [][2]string{{sShaA, "nope.go"}, {sShaB, "main.go"}} {
		if s := sGet(t, db, p, c[0], c[1]); s.State != source.StateAbsent {
			t.Fatalf("%v: %+v", c, s)
		}
	}
	// The next commit changes one file: one new content; the same content
	// fetched from a code host keeps its first origin.
	res, err = db.PutSources(ctx, p, sShaB, source.OriginGitHub, sFiles("main.go", main, "copy/main.go", main+"// v2\n"))
	dCheck(t, err)
	if res.NewBlobs != 1 || res.ReusedBlobs != 1 || sCount(t, db, "source_blobs") != 2 {
		t.Fatalf("second put: %+v, %d blobs", res, sCount(t, db, "source_blobs"))
	}
	if s := sGet(t, db, p, sShaB, "copy/main.go"); string(s.Content) != main+"// v2\n" || s.Origin != "github" {
		t.Fatalf("copy/main.go at B: %+v", s)
	}
	if s := sGet(t, db, p, sShaB, "main.go"); s.Origin != "upload" {
		t.Fatalf("main.go at B: %+v", s)
	}
	// A path kept again takes the new state.
	_, err = db.PutSources(ctx, p, sShaB, source.OriginUpload, sFiles("main.go", strings.Repeat("y", 100)))
	dCheck(t, err)
	if s := sGet(t, db, p, sShaB, "main.go"); s.State != source.StateTooLarge {
		t.Fatalf("main.go replaced: %+v", s)
	}
	if _, err := db.GetSource(ctx, "no-such-project", sShaA, "main.go"); plumb.ErrorCode(err) != plumb.ENOTFOUND {
		t.Fatalf("unknown project: %v", err)
	}
}

// A failed write leaves nothing: a bad path, the walk's own error, an
// invalid commit or origin.
func TestSourcesBadInputLeavesNothing(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{})
	boom := errors.New("the upload broke")
	for name, c := range map[string]struct {
		commit, origin string
		walk           SourceWalk
		code           string
	}{
		"dot-dot":      {sShaA, "upload", sFiles("ok.go", "package ok\n", "../etc/passwd", "x"), plumb.EINVALID},
		"NUL":          {sShaA, "upload", sFiles("ok.go", "package ok\n", "a\x00b", "x"), plumb.EINVALID},
		"invalid UTF8": {sShaA, "upload", sFiles("ok.go", "package ok\n", "a\xff", "x"), plumb.EINVALID},
		"walk fails": {sShaA, "upload", func(put func(string, io.Reader) error) error {
			if err := put("ok.go", strings.NewReader("package ok\n")); err != nil {
				return err
			}
			return boom
		}, plumb.EINTERNAL},
		"reader fails": {sShaA, "upload", func(put func(string, io.Reader) error) error {
			return put("ok.go", io.MultiReader(strings.NewReader("package"), errReader{boom}))
		}, plumb.EINTERNAL},
		"commit": {"a b", "upload", sFiles("ok.go", "x"), plumb.EINVALID},
		"origin": {sShaA, "ftp", sFiles("ok.go", "x"), plumb.EINVALID},
	} {
		_, err := db.PutSources(ctx, p, c.commit, c.origin, c.walk)
		if plumb.ErrorCode(err) != c.code {
			t.Errorf("%s: %v, want %s", name, err, c.code)
		}
	}
	for _, table := range []string{"source_blobs", "source_commits", "source_files"} {
		if n := sCount(t, db, table); n != 0 {
			t.Errorf("%s holds %d rows after failed writes", table, n)
		}
	}
	if _, err := db.PutSources(ctx, "no-such-project", sShaA, "upload", sFiles("a.go", "x")); plumb.ErrorCode(err) != plumb.ENOTFOUND {
		t.Errorf("unknown project: %v", err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

func TestSourcesDeleteUnreferenced(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{})
	shared := "package shared\n"
	_, err := db.PutSources(ctx, p, sShaA, "upload", sFiles("a.go", "package a\n", "s.go", shared))
	dCheck(t, err)
	_, err = db.PutSources(ctx, p, sShaB, "upload", sFiles("b.go", "package b\n", "s.go", shared))
	dCheck(t, err)
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p, Branch: "main", CommitSHA: sShaB, AnalyzedAt: now,
		Files: []plumb.FileFigures{{Path: "b.go", Lines: 1, LOC: 1}}})
	dCheck(t, err)
	// Within the grace period nothing goes: A's upload may still be written.
	d, err := db.DeleteUnreferencedSources(ctx)
	dCheck(t, err)
	if d != (SourcesDeleted{}) {
		t.Fatalf("within the grace period: %+v", d)
	}
	now = now.Add(2 * sourceGrace)
	d, err = db.DeleteUnreferencedSources(ctx)
	dCheck(t, err)
	if d != (SourcesDeleted{Commits: 1, Blobs: 1}) {
		t.Fatalf("after it: %+v", d)
	}
	if s := sGet(t, db, p, sShaA, "a.go"); s.State != source.StateAbsent {
		t.Fatalf("a.go at A: %+v", s)
	}
	if s := sGet(t, db, p, sShaB, "s.go"); string(s.Content) != shared {
		t.Fatalf("s.go at B, shared with the collected commit: %+v", s)
	}
	// A coverage upload refers to its commit as well.
	_, err = db.PutSources(ctx, p, sShaA, "upload", sFiles("a.go", "package a\n"))
	dCheck(t, err)
	_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: p, CommitSHA: sShaA, Branch: "main", CoverageTag: "default", UploadedAt: now,
		Files: []plumb.CoverageFile{{Path: "a.go", Hits: []int64{1}}}})
	dCheck(t, err)
	now = now.Add(2 * sourceGrace)
	if d, err := db.DeleteUnreferencedSources(ctx); err != nil || d != (SourcesDeleted{}) {
		t.Fatalf("referenced by coverage: %+v %v", d, err)
	}
	// Deleting the project deletes its sources.
	_, err = db.DeleteProject(ctx, "acme/web", false)
	dCheck(t, err)
	for _, table := range []string{"source_blobs", "source_commits", "source_files"} {
		if n := sCount(t, db, table); n != 0 {
			t.Errorf("%s holds %d rows after the project's deletion", table, n)
		}
	}
}

func TestSourcesRefused(t *testing.T) {
	ctx := context.Background()
	now := dT0
	dsn := sqltest.DSN(t)
	db, err := Open(ctx, dsn, Options{Now: func() time.Time { return now }})
	dCheck(t, err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	dCheck(t, err)
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web"})
	dCheck(t, err)
	q, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "api"})
	dCheck(t, err)
	for _, id := range []string{p.ID, q.ID} {
		_, err = db.PutSources(ctx, id, sShaA, "upload", sFiles("a.go", "package a\n"))
		dCheck(t, err)
	}
	// The project setting: turning it off deletes the project's sources only.
	d, err := db.SetSourcesDisabled(ctx, p.ID, true)
	dCheck(t, err)
	if d != (SourcesDeleted{Commits: 1, Blobs: 1}) {
		t.Fatalf("disabling: %+v", d)
	}
	if off, err := db.SourcesDisabled(ctx, p.ID); err != nil || !off {
		t.Fatalf("SourcesDisabled: %v %v", off, err)
	}
	if _, err := db.PutSources(ctx, p.ID, sShaA, "upload", sFiles("a.go", "package a\n")); plumb.ErrorCode(err) != plumb.EFORBIDDEN ||
		plumb.ErrorCode(db.SourcesRefused(ctx, p.ID)) != plumb.EFORBIDDEN {
		t.Fatalf("a disabled project takes sources: %v", err)
	}
	if s := sGet(t, db, p.ID, sShaA, "a.go"); s.State != source.StateDisabled {
		t.Fatalf("disabled project: %+v", s)
	}
	if s := sGet(t, db, q.ID, sShaA, "a.go"); s.State != source.StateOK || db.SourcesRefused(ctx, q.ID) != nil {
		t.Fatalf("the other project: %+v", s)
	}
	if _, err := db.SetSourcesDisabled(ctx, "no-such-project", true); plumb.ErrorCode(err) != plumb.ENOTFOUND {
		t.Fatalf("unknown project: %v", err)
	}
	_, err = db.SetSourcesDisabled(ctx, p.ID, false)
	dCheck(t, err)
	_, err = db.PutSources(ctx, p.ID, sShaA, "upload", sFiles("a.go", "package a\n"))
	dCheck(t, err)
	dCheck(t, db.Close())
	// The server option: opening with it deletes every source kept.
	db, err = Open(ctx, dsn, Options{Now: func() time.Time { return now }, RefuseSources: true})
	dCheck(t, err)
	defer db.Close()
	for _, table := range []string{"source_blobs", "source_commits", "source_files"} {
		if n := sCount(t, db, table); n != 0 {
			t.Errorf("%s holds %d rows on a server that refuses sources", table, n)
		}
	}
	if _, err := db.PutSources(ctx, q.ID, sShaA, "upload", sFiles("a.go", "x")); plumb.ErrorCode(err) != plumb.EFORBIDDEN {
		t.Fatalf("a refusing server takes sources: %v", err)
	}
	if s := sGet(t, db, q.ID, sShaA, "a.go"); s.State != source.StateDisabled {
		t.Fatalf("refusing server: %+v", s)
	}
	if _, err := Open(ctx, dsn, Options{SourceLimits: source.Limits{MaxFileSize: -1}}); plumb.ErrorCode(err) != plumb.EINVALID {
		t.Fatalf("a bad cap: %v", err)
	}
}

// Sources stream: a put reads one file at a time, so a walk of many files
// holds one content in memory (checked by the reader, which refuses to be
// read once the next file has started).
func TestSourcesStreamOneFileAtATime(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{})
	var open *bytes.Reader
	res, err := db.PutSources(ctx, p, sShaA, "upload", func(put func(string, io.Reader) error) error {
		for i := range 200 {
			if open != nil && open.Len() != 0 {
				t.Fatalf("file %d starts before the previous one was read", i)
			}
			open = bytes.NewReader([]byte(strings.Repeat("line\n", i+1)))
			if err := put("f/"+strings.Repeat("x", i%7+1)+string(rune('a'+i%26))+".txt", open); err != nil {
				return err
			}
		}
		return nil
	})
	dCheck(t, err)
	if res.Files != 200 {
		t.Fatalf("%+v", res)
	}
}

// SourceStates answers, for many paths at once (more than one batch of
// the IN list), what GetSource answers for each, without the content.
func TestSourceStatesMatchGetSource(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{SourceLimits: source.Limits{MaxFileSize: 64}})
	var pairs, paths []string
	for i := range 450 {
		path := fmt.Sprintf("pkg/f%03d.go", i)
		pairs = append(pairs, path, fmt.Sprintf("package pkg // %d\n", i%7))
		paths = append(paths, path)
	}
	pairs = append(pairs, "big.txt", strings.Repeat("x", 65), "logo.png", "\x89PNG\x00\x00")
	_, err := db.PutSources(ctx, p, sShaA, source.OriginUpload, sFiles(pairs...))
	dCheck(t, err)
	paths = append(paths, "big.txt", "logo.png", "none.go")
	states, err := db.SourceStates(ctx, p, sShaA, paths)
	dCheck(t, err)
	if len(states) != len(paths)-1 {
		t.Fatalf("%d states for %d paths with a state", len(states), len(paths)-1)
	}
	if _, ok := states["none.go"]; ok {
		t.Error("a path without a source has a state")
	}
	for _, path := range paths[:len(paths)-1] {
		want := sGet(t, db, p, sShaA, path)
		want.Content = nil
		if got := states[path]; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: state %+v, GetSource %+v", path, got, want)
		}
	}
	if states["big.txt"].State != source.StateTooLarge || states["pkg/f000.go"].State != source.StateOK {
		t.Errorf("states: %+v %+v", states["big.txt"], states["pkg/f000.go"])
	}
	// Another commit has none; a project that refuses sources: every path disabled.
	if other, err := db.SourceStates(ctx, p, sShaB, paths); err != nil || len(other) != 0 {
		t.Errorf("another commit: %v %v", other, err)
	}
	_, err = db.SetSourcesDisabled(ctx, p, true)
	dCheck(t, err)
	states, err = db.SourceStates(ctx, p, sShaA, []string{"pkg/f001.go", "none.go"})
	dCheck(t, err)
	if states["pkg/f001.go"].State != source.StateDisabled || states["none.go"].State != source.StateDisabled {
		t.Errorf("disabled: %+v", states)
	}
}
