package e2e

// The documentation's shell examples run as printed. A code block (indented
// or fenced) that follows the line
//
//	<!-- docs-test: run -->
//
// in README.md or docs/*.md is run by bash against a fresh "plumb demo",
// from a scratch git checkout of a small Go module, with "plumb" on PATH and
// curl failing on HTTP errors (-f). Only the documentation's placeholders
// are replaced (docPlaceholders below); every other character runs as
// printed. Besides, every curl command in the documentation whose URL has
// brackets must pass -g (curl reads [ ] as a glob otherwise).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/internal/testtool"
)

const docsMarker = "<!-- docs-test: run -->"

// docBlock is one marked code block.
type docBlock struct {
	where string // file:line
	text  string
}

// markedBlocks returns the code blocks that follow the marker in the
// Markdown file at path.
func markedBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var blocks []docBlock
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != docsMarker {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		var body []string
		start := j + 1
		switch {
		case j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "```"):
			for j++; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```"); j++ {
				body = append(body, lines[j])
			}
			start++
		case j < len(lines) && (strings.HasPrefix(lines[j], "    ") || strings.HasPrefix(lines[j], "\t")):
			for ; j < len(lines) && (strings.HasPrefix(lines[j], "    ") || strings.HasPrefix(lines[j], "\t") || strings.TrimSpace(lines[j]) == ""); j++ {
				l := strings.TrimPrefix(lines[j], "\t")
				if l == lines[j] {
					l = strings.TrimPrefix(l, "    ")
				}
				body = append(body, l)
			}
		default:
			t.Fatalf("%s:%d: %s is not followed by a code block", path, i+1, docsMarker)
		}
		blocks = append(blocks, docBlock{where: fmt.Sprintf("%s:%d", filepath.Base(path), start), text: strings.Join(body, "\n")})
		i = j
	}
	return blocks
}

// docFiles are the documentation files: README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join("..", "README.md")}, files...)
}

// Every curl command in the documentation whose arguments have [ or ] passes
// -g (--globoff), or curl fails with "bad range in URL".
func TestDocsCurlBrackets(t *testing.T) {
	globoff := regexp.MustCompile(`(^|\s)(-g|--globoff)(\s|$)`)
	for _, path := range docFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i := 0; i < len(lines); i++ {
			cmd, first := lines[i], i+1
			for strings.HasSuffix(strings.TrimSpace(cmd), `\`) && i+1 < len(lines) {
				i++
				cmd = strings.TrimSuffix(strings.TrimSpace(cmd), `\`) + " " + strings.TrimSpace(lines[i])
			}
			k := strings.Index(cmd, "curl ")
			if k < 0 {
				continue
			}
			args := cmd[k:]
			if strings.ContainsAny(args, "[]") && strings.Contains(args, "http") && !globoff.MatchString(args) {
				t.Errorf("%s:%d: curl with brackets needs -g (or %%5B %%5D): %s", filepath.Base(path), first, strings.TrimSpace(cmd))
			}
		}
	}
}

// docPlaceholders are the documentation's stand-ins and what the test puts
// in their place.
func docPlaceholders(base, token, uploadToken string) *strings.Replacer {
	return strings.NewReplacer(
		"https://plumb.example.com", base,
		"http://127.0.0.1:8080", base,
		"plbu_...", uploadToken,
		"plb_...", token,
		"my-org/my-repo", "acme/infra", // the CI example's uploads leave web-shop's data alone; infra's default branch is main
	)
}

// staticcheck is the version the CI example runs in the test: .ci/run's
// STATICCHECK_VERSION, whatever staticcheck is on PATH.
const staticcheckPkg, staticcheckVersion = "honnef.co/go/tools/cmd/staticcheck", "v0.8.2"

// cartGo is the scratch module's one file: staticcheck v0.8.2 reports
// SA4006 on line 5 (the value of n is overwritten before use).
const cartGo = "package shop\n\n// Total adds the prices.\nfunc Total(prices ...int) int {\n\tn := len(prices)\n\tn = 0\n\tfor _, p := range prices {\n\t\tn += p\n\t}\n\treturn n\n}\n"

// staticcheckFixture is what staticcheck v0.8.2 -f sarif reports on cartGo
// (its rule list shortened to the one rule): the stand-in's output when the
// pinned version cannot be built here (no module proxy).
const staticcheckFixture = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Staticcheck","version":"2026.2.2","rules":[{"id":"SA4006"}]}},"results":[{"ruleId":"SA4006","level":"error","message":{"text":"this value of n is never used"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"cart.go"},"region":{"startLine":5,"startColumn":2}}}]}]}]}`

// pinnedStaticcheck puts the pinned staticcheck into dir, first on the
// examples' PATH: built once into the test tools' cache, or, when it cannot
// be built here (and not under CI), a stand-in printing its recorded output.
func pinnedStaticcheck(t *testing.T, dir string) {
	t.Helper()
	bin, err := testtool.TryGoInstall(staticcheckPkg, staticcheckVersion)
	if err == nil {
		if err := os.Symlink(bin, filepath.Join(dir, "staticcheck")); err != nil {
			t.Fatal(err)
		}
		return
	}
	if testtool.CI() {
		t.Fatalf("staticcheck %s for the CI example: %v", staticcheckVersion, err)
	}
	t.Logf("staticcheck %s cannot be built here, so a stand-in prints its recorded output: %v", staticcheckVersion, err)
	writeFiles(t, dir, map[string]string{"staticcheck": "#!/bin/sh\ncat <<'EOF'\n" + staticcheckFixture + "\nEOF\n"})
	if err := os.Chmod(filepath.Join(dir, "staticcheck"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The marked shell examples of README.md and docs/*.md run as printed
// against the demo.
func TestDocsExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the documentation's examples against a demo server")
	}
	for _, tool := range []struct{ name, install string }{{"bash", "apt-get install -y bash"}, {"curl", "apt-get install -y curl"}, {"git", "apt-get install -y git"}, {"go", "install Go"}} {
		testtool.Need(t, tool.name, "the documentation examples need it ("+tool.install+")")
	}
	var blocks []docBlock
	for _, path := range docFiles(t) {
		blocks = append(blocks, markedBlocks(t, path)...)
	}
	if len(blocks) < 3 {
		t.Fatalf("only %d marked examples; README.md marks its API and CI examples with %s", len(blocks), docsMarker)
	}

	bin := plumbBinary(t)
	binDir := filepath.Dir(bin)
	demo := startDemo(t, bin)

	// A scratch checkout of a small Go module, as a CI job has.
	work := t.TempDir()
	writeFiles(t, work, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"cart.go":      cartGo,
		"cart_test.go": "package shop\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif Total(1, 2) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
	})
	env := docsEnv(binDir)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"-c", "user.name=Docs", "-c", "user.email=docs@example.com", "commit", "-q", "-m", "shop"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = work, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// The CI example's staticcheck is the pinned one, whatever is on PATH.
	tools := t.TempDir()
	pinnedStaticcheck(t, tools)
	env = docsEnv(tools + string(os.PathListSeparator) + binDir)

	// The project's upload token, made as the README says (the demo user is
	// admin of acme).
	upload := runDocShell(t, work, env, "upload token", fmt.Sprintf("plumb upload-token create --name docs --url %s --token %s --project acme/infra", demo.base, demo.token))
	uploadToken := strings.TrimSpace(upload)
	if !strings.HasPrefix(uploadToken, "plbu_") {
		t.Fatalf("upload token: %q", upload)
	}
	rep := docPlaceholders(demo.base, demo.token, uploadToken)
	for _, b := range blocks {
		script := "set -euo pipefail\ncurl() { command curl -fsS \"$@\"; }\n" + rep.Replace(b.text) + "\n"
		out := runDocShell(t, work, env, b.where, script)
		t.Logf("%s: ran, %d bytes of output", b.where, len(out))
	}
	// The CI example finished its build: the latest build of the project
	// succeeded.
	out := runDocShell(t, work, env, "check", fmt.Sprintf(`curl -fsS -H "Authorization: Bearer %s" '%s/gh/acme/projects/infra/builds?page%%5Blimit%%5D=1'`, demo.token, demo.base))
	if !strings.Contains(out, `"status":"succeeded"`) || !strings.Contains(out, `"branchName":"main"`) {
		t.Errorf("the latest build after the README's CI example: %s", out)
	}
	// Its plumb analyze measured the checkout: cart.go has 11 lines, 9 of
	// code, complexity 1 (the loop); staticcheck's finding came with it.
	out = runDocShell(t, work, env, "check", fmt.Sprintf(`curl -fsS -H "Authorization: Bearer %s" '%s/gh/acme/projects/infra/files?path=cart.go'`, demo.token, demo.base))
	var metrics struct {
		Data []struct {
			Key   string
			Value any
		}
	}
	got := map[string]any{}
	if err := json.Unmarshal([]byte(out), &metrics); err != nil {
		t.Fatalf("cart.go's metrics: %v: %s", err, out)
	}
	for _, m := range metrics.Data {
		got[m.Key] = m.Value
	}
	if got["LOC"] != 9.0 || got["CMPLX"] != 1.0 || got["FILES"] != 1.0 {
		t.Errorf("cart.go's metrics after the README's CI example: %v, want LOC 9, CMPLX 1", got)
	}
	out = runDocShell(t, work, env, "check", fmt.Sprintf(`curl -fsS -H "Authorization: Bearer %s" '%s/gh/acme/projects/infra/issues?path=cart.go'`, demo.token, demo.base))
	if !strings.Contains(out, "SA4006") || !strings.Contains(out, "this value of n is never used") {
		t.Errorf("staticcheck's finding is not among the project's issues after the README's CI example: %s", out)
	}
}

// docsEnv is a clean environment for the examples: PATH (binDirs first),
// HOME and the Go settings, no CI provider's variables, no PLUMB_*.
func docsEnv(binDirs string) []string {
	env := []string{"PATH=" + binDirs + string(os.PathListSeparator) + os.Getenv("PATH"), "LANG=C.UTF-8"}
	for _, k := range []string{"HOME", "TMPDIR", "GOCACHE", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN", "GONOSUMDB", "GOSUMDB", "GOPRIVATE"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// runDocShell runs script with bash in dir and returns its stdout; a
// failure fails the test with both outputs.
func runDocShell(t *testing.T, dir string, env []string, where, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n--- script\n%s\n--- stdout\n%s\n--- stderr\n%s", where, err, script, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// demoServer is a running "plumb demo".
type demoServer struct{ base, token string }

var (
	demoURL   = regexp.MustCompile(`Plumb demo is running at (\S+)`)
	demoToken = regexp.MustCompile(`\n    (plb_\S+)\n`)
)

// startDemo runs "plumb demo" on a free port until t ends.
func startDemo(t *testing.T, bin string) demoServer {
	t.Helper()
	cmd := exec.Command(bin, "demo", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--log-level", "warn")
	cmd.Env = proctest.Env()
	proctest.DieWithTest(cmd)
	p, err := proctest.Start("plumb demo", cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop(syscall.SIGINT, 30*time.Second) })
	out := p.Log
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		s := out.String()
		if u, tok := demoURL.FindStringSubmatch(s), demoToken.FindStringSubmatch(s); u != nil && tok != nil && strings.Contains(s, "Press Ctrl+C") {
			return demoServer{base: u[1], token: tok[1]}
		}
		time.Sleep(50 * time.Millisecond)
	}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	var last []string
	for sc.Scan() {
		last = append(last, sc.Text())
	}
	t.Fatalf("plumb demo did not start:\n%s", strings.Join(last, "\n"))
	return demoServer{}
}
