package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// A write given an Idempotency-Key's answer records it in the transaction
// that publishes the write, so the key replays it whatever happens to the
// server afterwards; a write whose key a retry took over (its server stopped
// renewing the lease) is not published at all.
func TestIdempotentAnswerRecordedWithTheWrite(t *testing.T) {
	ctx := context.Background()
	dsn := sqltest.DSN(t)
	clock := testclock.New(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	open := func() *DB {
		db, err := Open(ctx, dsn, Options{Now: clock.Now})
		dCheck(t, err)
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := open(), open()
	_, err := a.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	dCheck(t, err)
	p, err := a.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web"})
	dCheck(t, err)
	answer := func(key, bodyHash string) *plumb.IdempotentAnswer {
		return &plumb.IdempotentAnswer{ProjectID: p.ID, Key: key, Answer: func(result any) (int, string, string, error) {
			switch v := result.(type) {
			case plumb.Build:
				return 201, `{"build":"` + v.ID + `"}`, bodyHash, nil
			case plumb.CoverageSummary:
				return 201, `{"coverage":"` + v.ID + `"}`, bodyHash, nil
			case plumb.Snapshot:
				return 201, `{"snapshot":"` + v.ID + `"}`, bodyHash, nil
			}
			return 0, "", "", nil
		}}
	}
	build := plumb.Build{ProjectID: p.ID, Type: "analysis", Status: "submitted", BranchName: "main", CommitSHA: "abcdef0", SubmittedAt: clock.Now()}

	// Recorded with each kind of write: a replay answers it.
	for _, c := range []struct {
		key   string
		write func(ctx context.Context) (string, error)
	}{
		{"b1", func(ctx context.Context) (string, error) {
			v, err := a.AddBuild(ctx, build)
			return `{"build":"` + v.ID + `"}`, err
		}},
		{"c1", func(ctx context.Context) (string, error) {
			v, err := a.IngestCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: "abcdef0", Branch: "main", UploadedAt: clock.Now()},
				func(emit func(plumb.CoverageFile) error) error {
					return emit(plumb.CoverageFile{Path: "a.c", Hits: []int64{1, 0}})
				})
			return `{"coverage":"` + v.ID + `"}`, err
		}},
		{"s1", func(ctx context.Context) (string, error) {
			v, err := a.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: "abcdef0", AnalyzedAt: clock.Now(),
				Files: []plumb.FileFigures{{Path: "a.go", Lines: 1}}})
			return `{"snapshot":"` + v.ID + `"}`, err
		}},
	} {
		if _, _, _, done, err := a.IdempotencyStart(ctx, p.ID, c.key, "req"); err != nil || done {
			t.Fatalf("%s: start: %v %v", c.key, done, err)
		}
		ans := answer(c.key, "hash-"+c.key)
		want, err := c.write(plumb.WithIdempotentAnswer(ctx, ans))
		dCheck(t, err)
		if !ans.Recorded() {
			t.Errorf("%s: the answer was not recorded", c.key)
		}
		// Another server, long after: the key replays the answer.
		clock.Advance(IdempotencyLease + time.Second)
		status, body, hash, done, err := b.IdempotencyStart(ctx, p.ID, c.key, "req")
		if err != nil || !done || status != 201 || body != want || hash != "hash-"+c.key {
			t.Errorf("%s: replay %d %q %q done=%v err=%v, want 201 %q", c.key, status, body, hash, done, err, want)
		}
	}

	// Taken over: a's lease ran out, b runs the request; a's write then
	// fails and leaves nothing.
	if _, _, _, done, err := a.IdempotencyStart(ctx, p.ID, "b2", "req"); err != nil || done {
		t.Fatalf("start: %v %v", done, err)
	}
	clock.Advance(IdempotencyLease + time.Second)
	if _, _, _, done, err := b.IdempotencyStart(ctx, p.ID, "b2", "req"); err != nil || done {
		t.Fatalf("take over: %v %v", done, err)
	}
	builds := countRows(t, a, `SELECT count(*) FROM builds`)
	ans := answer("b2", "h")
	if _, err := a.AddBuild(plumb.WithIdempotentAnswer(ctx, ans), build); plumb.ErrorCode(err) != plumb.ECONFLICT || ans.Recorded() {
		t.Errorf("a write whose key was taken over: %v (recorded %v), want a conflict", err, ans.Recorded())
	}
	if n := countRows(t, a, `SELECT count(*) FROM builds`); n != builds {
		t.Errorf("%d builds after a refused write, want %d", n, builds)
	}
	ans = answer("b2", "h")
	if _, err := b.AddBuild(plumb.WithIdempotentAnswer(ctx, ans), build); err != nil || !ans.Recorded() {
		t.Errorf("the write of the server that took the key over: %v (recorded %v)", err, ans.Recorded())
	}
}
