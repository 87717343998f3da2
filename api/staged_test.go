package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/sqlstore"
)

// Staged writes (docs/architecture.md, "Staged writes"): a large upload is
// written in short transactions, invisible until one short transaction
// publishes it. These tests run a many-record analysis upload in chunks of
// 50 rows and stop it between two chunks with the store's test hook.

// stageGate counts the staged transactions of one kind and holds the one
// numbered at until it is opened (or the request ends).
type stageGate struct {
	kind   string
	at     int
	mu     sync.Mutex
	calls  int
	held   chan struct{} // closed when the write is held
	open   chan struct{}
	onHold func(ctx context.Context) error // instead of waiting for open
	once   sync.Once
}

// release lets the held write go on (once; also when the test ends early,
// so that its server can close).
func (g *stageGate) release() { g.once.Do(func() { close(g.open) }) }

// releaseAtEnd releases the gate when the test ends, before the servers
// created so far close.
func (g *stageGate) releaseAtEnd(t *testing.T) { t.Cleanup(g.release) }

func newStageGate(kind string, at int) *stageGate {
	return &stageGate{kind: kind, at: at, held: make(chan struct{}), open: make(chan struct{})}
}

func (g *stageGate) hook(ctx context.Context, kind string) error {
	if kind != g.kind {
		return nil
	}
	g.mu.Lock()
	g.calls++
	n, at, onHold := g.calls, g.at, g.onHold
	g.mu.Unlock()
	if n != at {
		return nil
	}
	close(g.held)
	if onHold != nil {
		return onHold(ctx)
	}
	select {
	case <-g.open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *stageGate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls
}

// waitHeld waits until the upload is held; done is its answer, should it
// end before.
func (g *stageGate) waitHeld(t *testing.T, done <-chan rawAnswer) {
	t.Helper()
	select {
	case <-g.held:
	case a := <-done:
		t.Fatalf("the upload ended before it was held (after %d transactions): %d %v %s", g.count(), a.status, a.err, truncate(a.body, 600))
	case <-time.After(2 * time.Minute):
		t.Fatal("the upload never reached the staged transaction it was to be held at")
	}
}

// bigAnalysis is an analysis of files files under src/ with one finding on
// each of the first issues of them; extra is appended to the files list.
func bigAnalysis(files, issues int, extra string) string {
	var b strings.Builder
	b.WriteString(`{"commitSha":"` + strings.Repeat("b", 40) + `","branch":"main","files":[`)
	for i := range files {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"path":"src/p%02d/f%05d.go","lines":%d,"loc":%d,"complexity":%d}`, i%37, i, 200+i%50, 80+i%40, i%9)
	}
	b.WriteString(extra)
	b.WriteString(`],"sarif":[{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"lint","rules":[{"id":"R1"}]}},"results":[`)
	for i := range issues {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"ruleId":"R1","level":"warning","message":{"text":"finding %d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/p%02d/f%05d.go"},"region":{"startLine":%d}}}]}`,
			i, i%37, i, 1+i%90)
	}
	b.WriteString(`]}]}]}`)
	return b.String()
}

// rawPost sends an upload from a goroutine other than the test's: it
// reports instead of failing the test.
type rawAnswer struct {
	status int
	body   string
	err    error
}

func rawPost(ctx context.Context, url, token, body string) rawAnswer {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return rawAnswer{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return rawAnswer{err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return rawAnswer{status: res.StatusCode, body: string(b), err: err}
}

// prompt sends a write with a generous deadline (ten seconds, where it
// normally takes milliseconds): a write that waits for the held upload
// misses it.
func (ts *testServer) prompt(t *testing.T, method, path, token, body string, want int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, ts.URL+path, strings.NewReader(body))
	check(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s while an upload to another project was being written: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s → %d, want %d: %s", method, path, res.StatusCode, want, b)
	}
}

// visibleState is what readers see of acme/web: its current issues, its
// whole-project metrics, its issue counts, a file's metrics and the
// analyses of the upload's commit.
func (ts *testServer) visibleState(t *testing.T, token string) string {
	t.Helper()
	var b strings.Builder
	for _, path := range []string{"/gh/acme/projects/web/issues", "/gh/acme/projects/web/metrics", "/gh/acme/projects/web/issues/counts",
		"/gh/acme/projects/web/files?path=src/p00/f00000.go", ingWeb + "/analyses?commits=" + strings.Repeat("b", 40)} {
		r := ts.get(t, path, token, hdr("Accept", "application/x-ndjson"))
		fmt.Fprintf(&b, "%s %d\n%s\n", path, r.Status, r.Body)
	}
	return b.String()
}

func (ts *testServer) wantNothingStaged(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := ts.DB.StagedWriteStats(context.Background())
		check(t, err)
		if st == (sqlstore.StagedWriteStats{}) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("staged rows left behind: %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestStagedUploadLeavesOtherWritesFree: while a many-record upload is
// being written (held between two of its transactions), writes in another
// project (a build, a component, an application) answer at once, and
// nothing of the upload is visible; released, it is stored whole.
func TestStagedUploadLeavesOtherWritesFree(t *testing.T) {
	gate := newStageGate("snapshot", 30)
	w := newIngWorld(t, withStore(sqlstore.Options{StageChunk: 50, StageHook: gate.hook}))
	gate.releaseAtEnd(t)
	w.setComponents(t, "acme/web", true)
	w.setComponents(t, "acme/api", true)
	core := w.mCreate(t, "/gh/acme/projects/web", w.Dave, "Core", "src/p01/*")
	before := w.visibleState(t, w.Dave)

	done := make(chan rawAnswer, 1)
	go func() {
		done <- rawPost(context.Background(), w.URL+ingWeb+"/analyses", w.Upload, bigAnalysis(2000, 1500, ""))
	}()
	gate.waitHeld(t, done)

	w.prompt(t, http.MethodPost, "/ingest/gh/acme/projects/api/builds", w.Dave,
		`{"type":"analysis","branchName":"main","commitSha":"`+strings.Repeat("c", 40)+`"}`, http.StatusCreated)
	w.prompt(t, http.MethodPost, "/gh/acme/projects/api/components", w.Dave, `{"name":"Lib","pathGlobs":["lib/*"]}`, http.StatusCreated)
	w.prompt(t, http.MethodPost, "/gh/acme/applications", w.Dave, `{"name":"Shop"}`, http.StatusCreated)
	// A component of the project being written, created meanwhile, is
	// counted when the snapshot is published.
	late := w.mCreate(t, "/gh/acme/projects/web", w.Dave, "Late", "src/p02/*")
	if mid := w.visibleState(t, w.Dave); mid != before {
		t.Fatalf("the state changed while the upload was held:\nbefore %s\nduring %s", before, truncate(mid, 2000))
	}
	st, err := w.DB.StagedWriteStats(context.Background())
	check(t, err)
	if st.Writes != 1 || st.PendingSnapshots != 1 || st.StagedRows == 0 {
		t.Fatalf("while held: %+v, want one write with staged rows", st)
	}

	gate.release()
	a := <-done
	if a.err != nil || a.status != http.StatusCreated {
		t.Fatalf("upload: %d %v %s", a.status, a.err, a.body)
	}
	// 1500 issues and 2000 files in chunks of 50: at least 70 transactions.
	if n := gate.count(); n < 70 {
		t.Fatalf("the upload was written in %d transactions, want at least 70", n)
	}
	w.wantNothingStaged(t)
	counts := w.get(t, "/gh/acme/projects/web/issues/counts", w.Dave).wantStatus(t, http.StatusOK)
	if !strings.Contains(string(counts.Body), "1500") {
		t.Errorf("issue counts after the upload: %s", counts.Body)
	}
	if after := w.visibleState(t, w.Dave); after == before {
		t.Errorf("nothing of the upload is visible after it: %s", truncate(after, 2000))
	}
	// Both components, the one created during the write included, have
	// their share: src/p01 holds 55 files, src/p02 54 (i % 37 of 2000).
	comps := string(w.get(t, "/gh/acme/projects/web/components", w.Dave).wantStatus(t, http.StatusOK).Body)
	if !strings.Contains(comps, `"pathGlobs":["src/p01/*"],"fileCount":55`) || !strings.Contains(comps, `"pathGlobs":["src/p02/*"],"fileCount":54`) {
		t.Errorf("components after the upload (want 55 and 54 files): %s", comps)
	}
	// Their figures are those of the same components created afterwards
	// (which replay the history): counted from the changes while the files
	// were written (Core), and counted anew at publication (Late).
	for id, glob := range map[string]string{core: "src/p01/*", late: "src/p02/*"} {
		again := w.mCreate(t, "/gh/acme/projects/web", w.Dave, "Again "+glob, glob)
		got := w.get(t, "/gh/acme/projects/web/components/"+id+"/metrics", w.Dave).wantStatus(t, http.StatusOK).Body
		want := w.get(t, "/gh/acme/projects/web/components/"+again+"/metrics", w.Dave).wantStatus(t, http.StatusOK).Body
		if string(got) != string(want) {
			t.Errorf("component %s: metrics %s, want those of a component made afterwards: %s", glob, got, want)
		}
	}
}

// TestStagedUploadFailureLeavesNothing: an upload that fails after some of
// its transactions (a write failing late; or the client going away between
// two transactions) leaves nothing visible and no staged row behind, and
// the next upload to the project is stored. A bad record (a path listed
// twice, which shows only once the files are sorted) is found before the
// first transaction.
func TestStagedUploadFailureLeavesNothing(t *testing.T) {
	t.Run("a write failing late", func(t *testing.T) {
		gate := newStageGate("snapshot", -1) // counts only
		w := newIngWorld(t, withStore(sqlstore.Options{StageChunk: 50, StageHook: gate.hook}))
		gate.releaseAtEnd(t)
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody, bigAnalysis(120, 60, "")).wantStatus(t, http.StatusCreated)
		before := w.visibleState(t, w.Dave)
		calls := gate.count()
		// src/zz sorts after every other path: the files before it have
		// been checked as a whole before anything is written.
		dup := `,{"path":"src/zz.go","lines":3},{"path":"src/zz.go","lines":4}`
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody, bigAnalysis(2000, 1500, dup)).
			wantError(t, http.StatusBadRequest, `files[2001]: path "src/zz.go" is listed twice`)
		if n := gate.count() - calls; n != 0 {
			t.Fatalf("the bad upload was found bad after %d transactions, want before the first", n)
		}
		w.wantNothingStaged(t)
		// The 60th transaction fails (its issues and most files written).
		gate.mu.Lock()
		gate.at = gate.calls + 60
		gate.onHold = func(context.Context) error { return plumb.Errorf(plumb.EINVALID, "a record found bad late") }
		gate.mu.Unlock()
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody, bigAnalysis(2000, 1500, "")).
			wantError(t, http.StatusBadRequest, "a record found bad late")
		w.wantNothingStaged(t)
		if after := w.visibleState(t, w.Dave); after != before {
			t.Fatalf("a failed upload changed the state:\nbefore %s\nafter %s", before, truncate(after, 2000))
		}
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody, bigAnalysis(2000, 1500, "")).wantStatus(t, http.StatusCreated)
		if w.visibleState(t, w.Dave) == before {
			t.Fatal("the next upload is not visible")
		}
	})
	t.Run("the client goes away between two transactions", func(t *testing.T) {
		gate := newStageGate("snapshot", 40)
		w := newIngWorld(t, withStore(sqlstore.Options{StageChunk: 50, StageHook: gate.hook}))
		gate.releaseAtEnd(t)
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody, bigAnalysis(120, 60, "")).wantStatus(t, http.StatusCreated)
		before := w.visibleState(t, w.Dave)
		ctx, cancel := context.WithCancel(context.Background())
		gate.onHold = func(server context.Context) error {
			cancel() // the client hangs up; the server's request ends
			select {
			case <-server.Done():
			case <-time.After(10 * time.Second):
			}
			return nil
		}
		a := rawPost(ctx, w.URL+ingWeb+"/analyses", w.Upload, bigAnalysis(2000, 1500, ""))
		if a.err == nil {
			t.Fatalf("the upload answered %d after its client went away", a.status)
		}
		w.wantNothingStaged(t) // removed once the server notices
		if after := w.visibleState(t, w.Dave); after != before {
			t.Fatalf("an abandoned upload changed the state:\nbefore %s\nafter %s", before, truncate(after, 2000))
		}
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody, bigAnalysis(300, 100, "")).wantStatus(t, http.StatusCreated)
	})
}

// TestStagedUploadOfAStoppedServer: a server stops in the middle of an
// upload's transactions (here: held for good). Another server on the same
// database, once the write's lease has run out, removes what it staged:
// when it starts (SweepStagedWrites, as plumb serve does), or at the next
// upload to the project. Nothing of it was ever visible; the stopped
// server's write, should it wake up, finds its lease gone and answers 503
// without touching what the other server wrote.
func TestStagedUploadOfAStoppedServer(t *testing.T) {
	for _, sweep := range []bool{true, false} {
		name := "the next upload removes it"
		if sweep {
			name = "a starting server removes it"
		}
		t.Run(name, func(t *testing.T) {
			gate := newStageGate("snapshot", 25)
			a := newIngWorld(t, withStore(sqlstore.Options{StageChunk: 50, StageHook: gate.hook}))
			gate.releaseAtEnd(t)
			before := a.visibleState(t, a.Dave)
			done := make(chan rawAnswer, 1)
			go func() {
				done <- rawPost(context.Background(), a.URL+ingWeb+"/analyses", a.Upload, bigAnalysis(2000, 1500, ""))
			}()
			gate.waitHeld(t, done)
			st, err := a.DB.StagedWriteStats(context.Background())
			check(t, err)
			if st.Writes != 1 || st.StagedRows == 0 {
				t.Fatalf("while held: %+v", st)
			}

			// Server b starts on the database an hour later.
			b := newTestServer(t, onDatabase(a.DSN, testclock.New(t0.Add(time.Hour))), withStore(sqlstore.Options{StageChunk: 50}))
			if sweep {
				check(t, b.DB.SweepStagedWrites(context.Background()))
				b.wantNothingStaged(t)
			}
			if got := b.visibleState(t, a.Dave); got != before {
				t.Fatalf("the stopped upload is visible:\nbefore %s\nnow %s", before, truncate(got, 2000))
			}
			b.do(t, http.MethodPost, ingWeb+"/analyses", a.Upload, jsonBody, bigAnalysis(300, 100, "")).wantStatus(t, http.StatusCreated)
			b.wantNothingStaged(t)
			stored := b.visibleState(t, a.Dave)
			if stored == before || !strings.Contains(stored, "finding 99") || strings.Contains(stored, "finding 100\"") {
				t.Fatalf("after the other server's upload: %s", truncate(stored, 2000))
			}

			gate.release()
			if ans := <-done; ans.err != nil || ans.status != http.StatusServiceUnavailable {
				t.Fatalf("the stopped server's upload, woken up: %d %v %s", ans.status, ans.err, ans.body)
			}
			b.wantNothingStaged(t)
			if got := b.visibleState(t, a.Dave); got != stored {
				t.Fatalf("the woken write changed the state:\nbefore %s\nafter %s", stored, truncate(got, 2000))
			}
		})
	}
}

// bigLCOV is an LCOV report of files files under src/, four lines each
// (the first three covered); bad, when set, ends it with a malformed record.
func bigLCOV(files int, bad bool) string {
	var b strings.Builder
	for i := range files {
		fmt.Fprintf(&b, "SF:src/p%02d/f%05d.go\nDA:1,3\nDA:2,1\nDA:3,7\nDA:4,0\nend_of_record\n", i%37, i)
	}
	if bad {
		b.WriteString("SF:src/zz.go\nDA:one,1\nend_of_record\n")
	}
	return b.String()
}

// coverageState is what readers see of acme/web's coverage of the commit.
func (ts *testServer) coverageState(t *testing.T, token string) string {
	t.Helper()
	var b strings.Builder
	for _, path := range []string{"/gh/acme/projects/web/metrics",
		"/gh/acme/projects/web/coverage/file?reference=refs/heads/main&path=src/p00/f00000.go",
		"/gh/acme/projects/web/coverage/file?reference=" + strings.Repeat("d", 40) + "&path=src/p05/f00005.go"} {
		r := ts.get(t, path, token)
		fmt.Fprintf(&b, "%s %d\n%s\n", path, r.Status, r.Body)
	}
	return b.String()
}

// TestStagedCoverageUpload: a coverage report is merged in transactions of
// a batch of files each while it is parsed: writes in another project
// answer while it is held between two of them, and nothing of it is
// visible until it is published whole; a report found malformed late (after
// batches were staged) leaves nothing behind.
func TestStagedCoverageUpload(t *testing.T) {
	sha := strings.Repeat("d", 40)
	lcovURL := ingWeb + "/coverage?commitSha=" + sha + "&branch=main&format=lcov"
	t.Run("held between two batches", func(t *testing.T) {
		gate := newStageGate("coverage", 8)
		w := newIngWorld(t, withStore(sqlstore.Options{StageChunk: 50, StageHook: gate.hook}))
		gate.releaseAtEnd(t)
		w.setComponents(t, "acme/api", true)
		before := w.coverageState(t, w.Dave)
		done := make(chan rawAnswer, 1)
		go func() { done <- rawPost(context.Background(), w.URL+lcovURL, w.Upload, bigLCOV(1500, false)) }()
		gate.waitHeld(t, done)
		w.prompt(t, http.MethodPost, "/ingest/gh/acme/projects/api/builds", w.Dave,
			`{"type":"analysis","branchName":"main","commitSha":"`+strings.Repeat("c", 40)+`"}`, http.StatusCreated)
		w.prompt(t, http.MethodPost, "/gh/acme/projects/api/components", w.Dave, `{"name":"Lib","pathGlobs":["lib/*"]}`, http.StatusCreated)
		if mid := w.coverageState(t, w.Dave); mid != before {
			t.Fatalf("the held coverage upload is visible:\nbefore %s\nduring %s", before, mid)
		}
		gate.release()
		a := <-done
		if a.err != nil || a.status != http.StatusCreated || !strings.Contains(a.body, `"files":1500,"coveredLines":4500,"missedLines":1500`) {
			t.Fatalf("upload: %d %v %s", a.status, a.err, a.body)
		}
		if n := gate.count(); n < 30 {
			t.Fatalf("the report was merged in %d transactions, want at least 30", n)
		}
		w.wantNothingStaged(t)
		after := w.coverageState(t, w.Dave)
		if !strings.Contains(after, `"coveredLines":3`) {
			t.Fatalf("after the upload: %s", after)
		}
	})
	t.Run("malformed late", func(t *testing.T) {
		gate := newStageGate("coverage", -1)
		w := newIngWorld(t, withStore(sqlstore.Options{StageChunk: 50, StageHook: gate.hook}))
		gate.releaseAtEnd(t)
		w.do(t, http.MethodPost, lcovURL, w.Upload, nil, bigLCOV(10, false)).wantStatus(t, http.StatusCreated)
		before := w.coverageState(t, w.Dave)
		calls := gate.count()
		w.do(t, http.MethodPost, lcovURL, w.Upload, nil, bigLCOV(1500, true)).wantError(t, http.StatusBadRequest, "lcov report at line 9002")
		if n := gate.count() - calls; n < 25 {
			t.Fatalf("the report was found malformed after %d transactions, want at least 25", n)
		}
		w.wantNothingStaged(t)
		if after := w.coverageState(t, w.Dave); after != before {
			t.Fatalf("a failed upload changed the coverage:\nbefore %s\nafter %s", before, after)
		}
	})
}
