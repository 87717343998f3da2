// Command stagegap measures how long an upload holds the database writer
// at a time (docs/benchmarks.md, "Staged writes"): it serves the API
// in-process on a fresh SQLite database, uploads one report, and notes the
// time of every transaction of the staged write (the store's test hook).
// The longest gap between two of them bounds the longest transaction (a gap
// also holds the parsing and sorting done between them); the last one is
// the publishing transaction, timed to the answer.
//
//	stagegap -kind coverage -file lcov.info
//	stagegap -kind sarif -file sarif.json
//	stagegap -kind analyses -file analysis.json
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
)

func main() {
	kind := flag.String("kind", "coverage", "coverage, sarif or analyses")
	file := flag.String("file", "", "the report to upload")
	flag.Parse()
	if err := run(*kind, *file); err != nil {
		fmt.Fprintln(os.Stderr, "stagegap:", err)
		os.Exit(1)
	}
}

func run(kind, file string) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "stagegap-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var mu sync.Mutex
	var marks []time.Time
	hook := func(context.Context, string) error {
		mu.Lock()
		marks = append(marks, time.Now())
		mu.Unlock()
		return nil
	}
	db, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(dir, "plumb.db"), sqlstore.Options{StageHook: hook})
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "bench"}); err != nil {
		return err
	}
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "bench", Key: "repo"})
	if err != nil {
		return err
	}
	_, token, err := db.CreateProjectUploadToken(ctx, p.ID, "bench", "bench")
	if err != nil {
		return err
	}
	srv := httptest.NewServer(api.NewServer(db, ratelimit.NewMemory(1000, time.Now), slog.New(slog.NewTextHandler(io.Discard, nil)),
		api.Config{MaxUploadBytes: 8 << 30, SpoolDir: dir}))
	defer srv.Close()
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	ct := "application/octet-stream"
	if kind == "analyses" {
		ct = "application/json"
	}
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/ingest/gh/bench/projects/repo/"+kind+
		"?commitSha=abcdef0123456789abcdef0123456789abcdef01&branch=main", f)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", ct)
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	end := time.Now()
	if res.StatusCode != http.StatusCreated {
		return fmt.Errorf("upload answered %d: %.300s", res.StatusCode, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(marks) == 0 {
		return fmt.Errorf("no staged transaction was noted")
	}
	var gaps []time.Duration
	for i := 1; i < len(marks); i++ {
		gaps = append(gaps, marks[i].Sub(marks[i-1]))
	}
	slices.Sort(gaps)
	pct := func(q float64) time.Duration {
		if len(gaps) == 0 {
			return 0
		}
		return gaps[min(len(gaps)-1, int(q*float64(len(gaps))))]
	}
	fmt.Printf("%.200s\n", body)
	fmt.Printf("transactions %d; wall %s (first transaction after %s); gap between transactions p50 %s, p99 %s, max %s; last transaction to the answer %s\n",
		len(marks), end.Sub(start).Round(time.Millisecond), marks[0].Sub(start).Round(time.Millisecond),
		pct(0.5).Round(time.Millisecond), pct(0.99).Round(time.Millisecond), pct(1).Round(time.Millisecond),
		end.Sub(marks[len(marks)-1]).Round(time.Millisecond))
	return nil
}
