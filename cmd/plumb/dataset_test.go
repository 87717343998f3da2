package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/internal/proctest"
)

func noEnv(string) string { return "" }

var (
	curlHeader = regexp.MustCompile(`-H (?:"([^"]*)"|'([^']*)')`)
	curlURL    = regexp.MustCompile(`'(https?://[^']*)'`)
)

// curlCommand is one curl command of the demo banner.
type curlCommand struct {
	line    string
	url     string
	headers [][2]string
}

func parseCurls(t *testing.T, out string) []curlCommand {
	t.Helper()
	var cmds []curlCommand
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "curl ") {
			continue
		}
		c := curlCommand{line: line}
		m := curlURL.FindAllStringSubmatch(line, -1)
		if len(m) != 1 {
			t.Fatalf("curl command without exactly one quoted URL: %s", line)
		}
		c.url = m[0][1]
		for _, h := range curlHeader.FindAllStringSubmatch(line, -1) {
			v := h[1] + h[2]
			name, value, ok := strings.Cut(v, ": ")
			if !ok {
				t.Fatalf("malformed header %q in %s", v, line)
			}
			c.headers = append(c.headers, [2]string{name, value})
		}
		// Nothing else on the line: no flag the test would ignore.
		rest := curlURL.ReplaceAllString(curlHeader.ReplaceAllString(strings.TrimPrefix(line, "curl "), ""), "")
		if strings.TrimSpace(rest) != "" {
			t.Fatalf("curl command has parts the test does not understand (%q): %s", rest, line)
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// startDemo runs `plumb demo` on a free port and waits for its banner.
func startDemo(t *testing.T, data string) (banner string, stop func() error) {
	t.Helper()
	banner, stop, _ = startDemoWithStderr(t, data)
	return banner, stop
}

// startDemoWithStderr is startDemo that also returns the demo's stderr so far.
func startDemoWithStderr(t *testing.T, data string) (banner string, stop func() error, stderrText func() string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := &proctest.Log{}, &proctest.Log{}
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"demo", "--addr", "127.0.0.1:0", "--data", data, "--log-level", "warn"}, noEnv, strings.NewReader(""), stdout, stderr)
	}()
	deadline := time.After(2 * time.Minute)
	for !strings.Contains(stdout.String(), "Press Ctrl+C to stop.") {
		select {
		case err := <-errc:
			cancel()
			t.Fatalf("demo ended before its banner: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
		case <-deadline:
			cancel()
			t.Fatalf("no banner after two minutes\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	var once sync.Once
	var stopErr error
	return stdout.String(), func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-errc:
			case <-time.After(time.Minute):
				stopErr = errors.New("demo did not stop within a minute of its context ending")
			}
		})
		return stopErr
	}, stderr.String
}

// do runs one parsed curl command with net/http.
func (c curlCommand) do(t *testing.T) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", c.url, nil)
	if err != nil {
		t.Fatalf("%s: %v", c.line, err)
	}
	for _, h := range c.headers {
		req.Header.Set(h[0], h[1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", c.line, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: %v", c.line, err)
	}
	return resp, body
}

// The demo prints three curl commands that work as printed against its data,
// and stops gracefully when its context ends; a second start replaces the
// database (and the token) of the first.
func TestDemoServesWhatItPrints(t *testing.T) {
	data := t.TempDir()
	banner, stop := startDemo(t, data)
	cmds := parseCurls(t, banner)
	if len(cmds) != 3 {
		t.Fatalf("%d curl commands in the banner, want 3:\n%s", len(cmds), banner)
	}
	for _, c := range cmds {
		resp, body := c.do(t)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s\n→ %d %s", c.line, resp.StatusCode, body)
			continue
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
			rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
			if err != nil || len(rows) < 2 {
				t.Errorf("%s\n→ CSV with %d rows (%v), want a header and data:\n%.500s", c.line, len(rows), err, body)
			}
			continue
		}
		var doc struct {
			Data []json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(body, &doc); err != nil || len(doc.Data) == 0 {
			t.Errorf("%s\n→ no data (%v):\n%.500s", c.line, err, body)
		}
		if strings.Contains(c.url, "/series") && !bytes.Contains(body, []byte(`"points":[{`)) {
			t.Errorf("%s\n→ a series without points:\n%.500s", c.line, body)
		}
	}
	if !strings.Contains(banner, "acme") || !strings.Contains(banner, "web-shop") {
		t.Errorf("the banner does not list the demo's workspaces and projects:\n%s", banner)
	}
	if err := stop(); err != nil {
		t.Fatalf("demo returned %v after its context ended, want nil (graceful shutdown)", err)
	}
	if _, err := os.Stat(filepath.Join(data, "demo.db")); err != nil {
		t.Fatalf("no demo database in --data: %v", err)
	}

	// Again: the command is repeatable, and the old token is gone with the
	// old database.
	banner2, stop2 := startDemo(t, data)
	defer stop2()
	cmds2 := parseCurls(t, banner2)
	if resp, body := cmds2[0].do(t); resp.StatusCode != http.StatusOK {
		t.Errorf("second start: %s → %d %s", cmds2[0].line, resp.StatusCode, body)
	}
	old := cmds[0]
	old.url = cmds2[0].url
	if resp, _ := old.do(t); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the first start's token still works after a restart: %d", resp.StatusCode)
	}
	if err := stop2(); err != nil {
		t.Fatalf("second demo: %v", err)
	}
}

func TestDemoRefusesDatabaseFlag(t *testing.T) {
	err := run(context.Background(), []string{"demo", "--database", "sqlite:x.db"}, noEnv, nil, io.Discard, io.Discard)
	if _, ok := err.(usageError); !ok {
		t.Fatalf("demo --database: %v, want a usage error", err)
	}
}

// fixture is a small dataset with a plaintext token and a plaintext upload
// token.
func fixture() *dataset.Document {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	user, ws, proj := "01900001-0000-7000-8000-000000000001", "01900002-0000-7000-8000-000000000001", "01900003-0000-7000-8000-000000000001"
	return &dataset.Document{Format: dataset.Format, Version: dataset.Version,
		Users:  []dataset.User{{ID: user, Login: "ada", Name: "Ada", CreatedAt: at}},
		Tokens: []dataset.Token{{ID: "01900004-0000-7000-8000-000000000001", UserID: user, Name: "ci", Token: "plb_fixture", CreatedAt: at}},
		Workspaces: []dataset.Workspace{{ID: ws, Key: "acme", AvatarURL: "a", ProviderURL: "p", CreatedAt: at, UpdatedAt: at,
			Members: []dataset.Member{{UserID: user, Role: "admin"}}}},
		Projects: []dataset.Project{{ID: proj, WorkspaceID: ws, Key: "web", DefaultBranch: "main", ComponentsEnabled: true, CreatedAt: at, UpdatedAt: at}},
		UploadTokens: []dataset.UploadToken{{ID: "01900009-0000-7000-8000-000000000001", ProjectID: proj, Name: "ci", Token: "plbu_fixture",
			CreatedBy: "cli", CreatedAt: at}},
		Builds: []dataset.Build{{ID: "0190000a-0000-7000-8000-000000000001", ProjectID: proj, Type: "analysis", Status: "running", BranchName: "main",
			CommitSHA: strings.Repeat("a", 40), SubmittedAt: at, StartedAt: &at}},
		BuildEvents: []dataset.BuildEvent{{BuildID: "0190000a-0000-7000-8000-000000000001", Seq: 1, Status: "submitted", At: at},
			{BuildID: "0190000a-0000-7000-8000-000000000001", Seq: 2, Status: "running", At: at}},
		Snapshots: []dataset.Snapshot{{ID: "01900005-0000-7000-8000-000000000001", ProjectID: proj, Branch: "main", CommitSHA: strings.Repeat("a", 40),
			AnalyzedAt: at, Files: []dataset.File{{Path: "a.go", Lines: 10, LOC: 8}},
			Issues: []dataset.Issue{{ID: "01900006-0000-7000-8000-000000000001", Fingerprint: "f", Tool: "vet", RuleKey: "r", Message: "m",
				Category: "bug", Level: "high", Status: "open", Path: "a.go"}}}},
		Coverage: []dataset.Coverage{{ID: "01900007-0000-7000-8000-000000000001", ProjectID: proj, CommitSHA: strings.Repeat("a", 40), Branch: "main",
			CoverageTag: "unit", UploadedAt: at, Files: []dataset.CoverageFile{{Path: "a.go", Hits: []int64{1, 0, -1}}}}},
		Components: []dataset.Component{{ID: "01900008-0000-7000-8000-000000000001", ProjectID: proj, Name: "all", PathGlobs: []string{"*"},
			CreatorID: user, CreatedAt: at, UpdatedAt: at}},
		IdempotencyKeys: []dataset.IdempotencyKey{{ProjectID: proj, Key: "run-1", RequestHash: strings.Repeat("b", 64), Status: 201, Body: "{}\n", CreatedAt: at}},
	}
}

func runOut(t *testing.T, stdin io.Reader, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	err := run(context.Background(), args, noEnv, stdin, &out, io.Discard)
	return out.String(), err
}

// export → import → export through the command line reproduces the bytes.
func TestExportImportThroughRun(t *testing.T) {
	dir := t.TempDir()
	src, dst := "sqlite:"+filepath.Join(dir, "src.db"), "sqlite:"+filepath.Join(dir, "dst.db")
	var in bytes.Buffer
	if err := dataset.Encode(&in, fixture()); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "fixture.json")
	if err := os.WriteFile(file, in.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runOut(t, nil, "import", file, "--database", src)
	if err != nil || out != "imported 1 users, 1 tokens, 1 workspaces (1 members), 1 projects, 1 upload tokens, 0 applications, "+
		"1 builds (2 build events), 1 snapshots (1 issues), 0 issue states, 1 coverage uploads, 1 components, 1 idempotency keys\n" {
		t.Fatalf("import: %q %v", out, err)
	}
	e1, err := runOut(t, nil, "export", "--database", src)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	if strings.Contains(e1, "plb_fixture") || !strings.Contains(e1, `"hash":"`+plumb.HashToken("plb_fixture")+`"`) {
		t.Errorf("the export carries the plaintext token or lacks its hash")
	}
	if strings.Contains(e1, "plbu_fixture") || !strings.Contains(e1, `"hash":"`+plumb.HashToken("plbu_fixture")+`","createdBy":"cli"`) ||
		!strings.Contains(e1, "\n{\"buildId\":\"0190000a-0000-7000-8000-000000000001\",\"seq\":2,\"status\":\"running\",\"reason\":null,") ||
		!strings.Contains(e1, "\n\"idempotencyKeys\":[\n{\"projectId\":") {
		t.Errorf("the export lacks the upload token's hash, the build events or the idempotency key:\n%s", e1)
	}
	outFile := filepath.Join(dir, "backup.json")
	if msg, err := runOut(t, nil, "export", "--out", outFile, "--database", src); err != nil || !strings.Contains(msg, "exported the dataset to") {
		t.Fatalf("export --out: %q %v", msg, err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "backup.json")); err != nil || string(got) != e1 {
		t.Fatalf("export --out wrote %d bytes (%v), not the export", len(got), err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	if _, err := runOut(t, strings.NewReader(e1), "import", "-", "--database", dst); err != nil {
		t.Fatalf("import -: %v", err)
	}
	e2, err := runOut(t, nil, "export", "--database", dst)
	if err != nil || e2 != e1 {
		t.Fatalf("export of the copy differs from the first export (%v)", err)
	}

	// Refusals: a non-empty database, an invalid file, a missing argument.
	_, err = runOut(t, nil, "import", file, "--database", src)
	if plumb.ErrorCode(err) != plumb.ECONFLICT || exitCode(err) != 1 {
		t.Errorf("import into a non-empty database: %v", err)
	}
	bad := strings.Replace(in.String(), `"level":"high"`, `"level":"urgent"`, 1)
	_, err = runOut(t, strings.NewReader(bad), "import", "-", "--database", "sqlite:"+filepath.Join(dir, "empty.db"))
	if plumb.ErrorCode(err) != plumb.EINVALID || !strings.Contains(strings.Join(plumb.ErrorDetails(err), "\n"),
		`snapshots[0] (id 01900005-0000-7000-8000-000000000001): issues[0] (id 01900006-0000-7000-8000-000000000001): level "urgent" is not one of`) {
		t.Errorf("import of an invalid document: %v", err)
	}
	_, err = runOut(t, strings.NewReader("{"), "import", "-", "--database", "sqlite:"+filepath.Join(dir, "empty.db"))
	if plumb.ErrorCode(err) != plumb.EINVALID || !strings.Contains(err.Error(), "-: the dataset cannot be read") {
		t.Errorf("import of broken JSON: %v", err)
	}
	if _, err := runOut(t, nil, "import", "--database", dst); exitCode(err) != 2 {
		t.Errorf("import without a file: %v, want a usage error", err)
	}
	if _, err := runOut(t, nil, "export", "extra", "--database", dst); exitCode(err) != 2 {
		t.Errorf("export with an argument: %v, want a usage error", err)
	}
	if _, err := runOut(t, nil, "export", "--out", filepath.Join(dir, "no", "such", "dir", "x.json"), "--database", dst); err == nil {
		t.Errorf("export into a missing folder succeeded")
	}
}

// The demo says what it does while it builds the dataset, and an address in
// use names --addr (before any work is done).
func TestDemoProgressAndAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, cmd := range []string{"demo", "serve"} {
		var stderr bytes.Buffer
		args := []string{cmd, "--addr", ln.Addr().String(), "--log-level", "warn"}
		if cmd == "demo" {
			args = append(args, "--data", t.TempDir())
		} else {
			args = append(args, "--database", "sqlite:"+filepath.Join(t.TempDir(), "p.db"))
		}
		err := run(context.Background(), args, noEnv, strings.NewReader(""), io.Discard, &stderr)
		if err == nil || !strings.Contains(err.Error(), "already in use") || !strings.Contains(err.Error(), "--addr") {
			t.Errorf("%s on a taken address: %v", cmd, err)
		}
		if strings.Contains(stderr.String(), "building") {
			t.Errorf("%s built the dataset before finding the address taken: %s", cmd, stderr.String())
		}
	}

	_, stop, stderr := startDemoWithStderr(t, t.TempDir())
	defer stop()
	for _, want := range []string{"plumb demo: building the demo dataset", "plumb demo: loading ", "snapshots", "plumb demo: dataset ready in "} {
		if !strings.Contains(stderr(), want) {
			t.Errorf("demo progress lacks %q:\n%s", want, stderr())
		}
	}
}
