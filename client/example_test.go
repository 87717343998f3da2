package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
)

// exampleServer starts a real Plumb API over a new SQLite database, with
// user alice, her API token, workspace acme and project acme/web (alice
// administers both), and returns the server's URL and alice's token.
func exampleServer() (url, token string, stop func()) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "plumb-client-example-")
	if err != nil {
		log.Fatal(err)
	}
	db, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(dir, "plumb.db"), sqlstore.Options{})
	if err != nil {
		log.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			log.Fatal(err)
		}
	}
	_, err = db.CreateUser(ctx, "alice", "Alice")
	must(err)
	_, token, err = db.CreateToken(ctx, "alice", "example")
	must(err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	must(err)
	must(db.AddMember(ctx, "acme", "alice", plumb.RoleAdmin))
	web, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web"})
	must(err)
	must(db.AddProjectAdmin(ctx, "acme/web", "alice"))
	// An analysis of main with the source of one file.
	const commit = "0123456789abcdef0123456789abcdef01234567"
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: web.ID, Branch: "main", CommitSHA: commit, AnalyzedAt: time.Now().Add(-time.Minute),
		Files: []plumb.FileFigures{{Path: "cmd/hello/main.go", Lines: 3, LOC: 3}}})
	must(err)
	_, err = db.PutSources(ctx, web.ID, commit, "upload", func(put func(string, io.Reader) error) error {
		return put("cmd/hello/main.go", strings.NewReader("package main\n\nfunc main() { println(\"hello\") }\n"))
	})
	must(err)
	h := api.NewServer(db, ratelimit.NewMemory(5000, time.Now), slog.New(slog.NewTextHandler(io.Discard, nil)), api.Config{})
	srv := httptest.NewServer(h)
	return srv.URL, token, func() { srv.Close(); db.Close(); os.RemoveAll(dir) }
}

// Ask the server who the token belongs to and which projects it sees.
func Example() {
	url, token, stop := exampleServer()
	defer stop()

	c, err := client.New(url, token)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	user, err := c.User(ctx)
	if err != nil {
		log.Fatal(err)
	}
	projects, err := c.Projects(ctx, "acme")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(user.Login)
	for _, p := range projects {
		fmt.Printf("%s/%s on %s\n", p.WorkspaceKey, p.Key, p.DefaultBranch)
	}
	// Output:
	// alice
	// acme/web on main
}

// Upload an LCOV report of a commit on main. An upload is retried, with the
// same Idempotency-Key, when the server is busy or out of reach.
func ExampleProject_UploadCoverage() {
	url, token, stop := exampleServer()
	defer stop()

	c, err := client.New(url, token, client.WithRetries(5))
	if err != nil {
		log.Fatal(err)
	}
	report := client.Bytes("lcov.info", []byte("SF:src/a.js\nDA:1,1\nDA:2,0\nDA:3,4\nend_of_record\n"))
	up, err := c.Project("acme", "web").UploadCoverage(context.Background(), report, client.CoverageOptions{
		CommitSHA: "5d1e6f0c9a8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e", Branch: "main",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d file, %d covered and %d missed lines\n", up.Format, up.Files, up.CoveredLines, up.MissedLines)
	// Output:
	// lcov: 1 file, 2 covered and 1 missed lines
}

// A CI job's build: a project admin makes an upload token for the CI, and
// the CI reports the build's start and end with it.
func ExampleProject_StartBuild() {
	url, token, stop := exampleServer()
	defer stop()
	ctx := context.Background()

	admin, err := client.New(url, token)
	if err != nil {
		log.Fatal(err)
	}
	upload, err := admin.Project("acme", "web").CreateUploadToken(ctx, "ci")
	if err != nil {
		log.Fatal(err)
	}

	ci, err := client.New(url, upload.Token)
	if err != nil {
		log.Fatal(err)
	}
	web := ci.Project("acme", "web")
	b, err := web.StartBuild(ctx, client.NewBuild{Type: "analysis", BranchName: "main",
		CommitSHA: "5d1e6f0c9a8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e", Status: "running"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b.Type, b.Status)
	exit := 0
	b, err = web.SetBuildStatus(ctx, b.ID, client.BuildStatus{Status: "succeeded", ExitCode: &exit})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b.Status)
	// Output:
	// analysis running
	// succeeded
}

// A refusal of the server is an *Error with the API's error body.
func ExampleError() {
	url, token, stop := exampleServer()
	defer stop()

	c, err := client.New(url, token, client.WithRetries(0))
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.Project("acme", "nope").UploadTokens(context.Background())
	var refusal *client.Error
	if errors.As(err, &refusal) {
		fmt.Println(refusal.StatusCode, refusal.Errors[0].Title)
	}
	// Output:
	// 404 Not Found
}

// Report an upload's progress, here only its end.
func ExampleWithProgress() {
	url, token, stop := exampleServer()
	defer stop()

	c, err := client.New(url, token, client.WithProgress(func(p client.Progress) {
		if p.Done {
			fmt.Printf("%s: sent %d of %d bytes\n", p.Name, p.Sent, p.Total)
		}
	}))
	if err != nil {
		log.Fatal(err)
	}
	report := client.Bytes("cover.out", []byte("mode: set\nexample.com/m/a.go:1.1,2.2 1 1\n"))
	_, err = c.Project("acme", "web").UploadCoverage(context.Background(), report, client.CoverageOptions{
		CommitSHA: "5d1e6f0c9a8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e", Branch: "main", ModulePath: "example.com/m",
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// cover.out: sent 41 of 41 bytes
}

// Read a file's source as the server keeps it, at a branch's latest commit.
func ExampleClient_FileSource() {
	url, token, stop := exampleServer()
	defer stop()

	c, err := client.New(url, token)
	if err != nil {
		log.Fatal(err)
	}
	text, err := c.FileSource(context.Background(), "acme", "web", "main", "cmd/hello/main.go")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(text))
	_, err = c.FileSource(context.Background(), "acme", "web", "main", "cmd/hello/other.go")
	var refused *client.Error
	if errors.As(err, &refused) {
		fmt.Println(refused.StatusCode)
	}
	// Output:
	// package main
	//
	// func main() { println("hello") }
	// 404
}

// A build started as submitted succeeds: FinishBuild moves it to running
// first. A build that has ended takes no other final status.
func ExampleProject_FinishBuild() {
	url, token, stop := exampleServer()
	defer stop()
	ctx := context.Background()

	c, err := client.New(url, token, client.WithRetries(0))
	if err != nil {
		log.Fatal(err)
	}
	web := c.Project("acme", "web")
	b, err := web.StartBuild(ctx, client.NewBuild{Type: "analysis", BranchName: "main",
		CommitSHA: "5d1e6f0c9a8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e", Status: "submitted"})
	if err != nil {
		log.Fatal(err)
	}
	b, err = web.FinishBuild(ctx, b.ID, client.BuildStatus{Status: "succeeded"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b.Status, *b.Conclusion)
	if again, err := web.FinishBuild(ctx, b.ID, client.BuildStatus{Status: "succeeded"}); err == nil {
		fmt.Println("again:", again.Status)
	}
	_, err = web.FinishBuild(ctx, b.ID, client.BuildStatus{Status: "failed"})
	var refusal *client.Error
	if errors.As(err, &refusal) {
		fmt.Println("failed afterwards:", refusal.StatusCode)
	}
	// Output:
	// succeeded succeeded
	// again: succeeded
	// failed afterwards: 409
}
