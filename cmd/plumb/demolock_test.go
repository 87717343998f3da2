//go:build linux || darwin

package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/dblock"
	"github.com/plumbhq/plumb/internal/proctest"
)

// plumbProcess is a plumb command running as a process of its own.
type plumbProcess struct {
	cmd            *exec.Cmd
	stdin          io.WriteCloser
	stdout, stderr *proctest.Log
	done           chan struct{}
	err            error
}

func startPlumb(t *testing.T, bin string, args ...string) *plumbProcess {
	t.Helper()
	p := &plumbProcess{cmd: exec.Command(bin, args...), stdout: &proctest.Log{}, stderr: &proctest.Log{}, done: make(chan struct{})}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PLUMB_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.stop(t) })
	return p
}

// stop ends the process with SIGTERM (SIGKILL after a minute).
func (p *plumbProcess) stop(t *testing.T) {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Errorf("%v did not stop within a minute of SIGTERM", p.cmd.Args)
	}
}

// wait waits for the process to end (two minutes at most) and returns its
// error.
func (p *plumbProcess) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-p.done:
		return p.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("%v still runs after two minutes\nstdout:\n%s\nstderr:\n%s", p.cmd.Args, p.stdout, p.stderr)
		return nil
	}
}

// waitFor waits until re matches the process's stdout or stderr.
func (p *plumbProcess) waitFor(t *testing.T, re *regexp.Regexp) []string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if m := re.FindStringSubmatch(p.stdout.String() + p.stderr.String()); m != nil {
			return m
		}
		select {
		case <-p.done:
			t.Fatalf("%v ended (%v) before printing %q\nstdout:\n%s\nstderr:\n%s", p.cmd.Args, p.err, re, p.stdout, p.stderr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v: no %q after two minutes\nstdout:\n%s\nstderr:\n%s", p.cmd.Args, re, p.stdout, p.stderr)
		}
	}
}

// refused runs a plumb command that must fail without building anything,
// and returns its stderr.
func refused(t *testing.T, bin string, args ...string) string {
	t.Helper()
	p := startPlumb(t, bin, args...)
	p.stdin.Close()
	if err := p.wait(t); err == nil {
		t.Fatalf("%v succeeded; want it refused\nstdout:\n%s\nstderr:\n%s", args, p.stdout, p.stderr)
	}
	if strings.Contains(p.stderr.String(), "building the demo dataset") {
		t.Errorf("%v built the demo dataset before it was refused:\n%s", args, p.stderr)
	}
	return p.stderr.String()
}

var (
	demoRunning   = regexp.MustCompile(`Plumb demo is running at (http://(\S+)) `)
	demoToken     = regexp.MustCompile(`(?m)^    (plb_\S+)$`)
	serveListens  = regexp.MustCompile(`msg="plumb listening" addr=(\S+)`)
	workspacesGet = func(t *testing.T, base, token string) int {
		t.Helper()
		req, _ := http.NewRequest("GET", base+"/workspaces", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s/workspaces: %v", base, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
)

// A second plumb demo never deletes the database of a running demo, of a
// plumb serve on the demo's file, or of any process that has it open: it
// says which process (and address) holds it, before doing any work. With
// real processes, as a user runs them (issue 19 item 2).
func TestSecondDemoLeavesADatabaseInUseAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds plumb and runs several demos")
	}
	bin := filepath.Join(t.TempDir(), "plumb")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := t.TempDir()
	dbPath := filepath.Join(data, "demo.db")

	// A demo runs.
	a := startPlumb(t, bin, "demo", "--addr", "127.0.0.1:0", "--data", data, "--log-level", "warn")
	m := a.waitFor(t, demoRunning)
	base, addr := m[1], m[2]
	token := a.waitFor(t, demoToken)[1]
	if code := workspacesGet(t, base, token); code != http.StatusOK {
		t.Fatalf("the first demo answers %d", code)
	}
	aPid := strconv.Itoa(a.cmd.Process.Pid)
	holder := "pid " + aPid + " (plumb demo on " + addr + ")"

	// A second demo on the same address: the address is taken, and the
	// message names the demo that holds the database there.
	out := refused(t, bin, "demo", "--addr", addr, "--data", data)
	if !strings.Contains(out, "already in use") || !strings.Contains(out, holder) {
		t.Errorf("second demo on the same address said:\n%s\nwant 'already in use' and %q", out, holder)
	}
	// On another address, the same folder: the database is in use.
	out = refused(t, bin, "demo", "--addr", "127.0.0.1:0", "--data", data)
	if !strings.Contains(out, dbPath+" is in use by "+holder) || !strings.Contains(out, "left alone") {
		t.Errorf("second demo on another address said:\n%s\nwant %q", out, dbPath+" is in use by "+holder)
	}
	// plumb serve on the demo's file: one server per SQLite file.
	out = refused(t, bin, "serve", "--addr", "127.0.0.1:0", "--database", "sqlite:"+dbPath)
	if !strings.Contains(out, "in use by "+holder) {
		t.Errorf("plumb serve on the demo's database said:\n%s", out)
	}
	// The first demo is untouched.
	if code := workspacesGet(t, base, token); code != http.StatusOK {
		t.Fatalf("after the refused commands the first demo answers %d", code)
	}
	for _, f := range []string{dbPath, dbPath + "-wal", dbPath + "-shm"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the running demo's %s: %v", f, err)
		}
	}
	a.stop(t)

	// plumb serve on the demo's file holds it in turn.
	s := startPlumb(t, bin, "serve", "--addr", "127.0.0.1:0", "--database", "sqlite:"+dbPath, "--log-level", "info")
	sAddr := s.waitFor(t, serveListens)[1]
	out = refused(t, bin, "demo", "--addr", "127.0.0.1:0", "--data", data)
	if want := fmt.Sprintf("%s is in use by pid %d (plumb serve on %s)", dbPath, s.cmd.Process.Pid, sAddr); !strings.Contains(out, want) {
		t.Errorf("demo beside plumb serve said:\n%s\nwant %q", out, want)
	}
	if code := workspacesGet(t, "http://"+sAddr, token); code != http.StatusOK {
		t.Fatalf("plumb serve on the demo's database answers %d after the refused demo", code)
	}
	s.stop(t)

	// A process with the file open and no lock (an administration command
	// waiting for its password on stdin): SQLite's own locks tell.
	pw := startPlumb(t, bin, "user", "password", "demo", "--database", "sqlite:"+dbPath)
	deadline := time.Now().Add(time.Minute)
	for dblock.OpenBy(dbPath) == "" {
		if time.Now().After(deadline) {
			t.Fatalf("plumb user password never opened the database\n%s", pw.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	out = refused(t, bin, "demo", "--addr", "127.0.0.1:0", "--data", data)
	if want := fmt.Sprintf("%s is open in pid %d", dbPath, pw.cmd.Process.Pid); !strings.Contains(out, want) {
		t.Errorf("demo beside an open administration command said:\n%s\nwant %q", out, want)
	}
	if _, err := io.WriteString(pw.stdin, "a new password\n"); err != nil {
		t.Fatal(err)
	}
	pw.stdin.Close()
	if err := pw.wait(t); err != nil || !strings.Contains(pw.stdout.String(), "set the web sign-in password of user demo") {
		t.Fatalf("plumb user password: %v\nstdout:\n%s\nstderr:\n%s", err, pw.stdout, pw.stderr)
	}

	// With nobody holding it, a demo starts afresh: a new database, where
	// the old token is unknown.
	g := startPlumb(t, bin, "demo", "--addr", "127.0.0.1:0", "--data", data, "--log-level", "warn")
	gBase := g.waitFor(t, demoRunning)[1]
	if code := workspacesGet(t, gBase, token); code != http.StatusUnauthorized {
		t.Errorf("the old demo's token on the fresh demo: %d, want 401", code)
	}
	if code := workspacesGet(t, gBase, g.waitFor(t, demoToken)[1]); code != http.StatusOK {
		t.Errorf("the fresh demo's token: %d", code)
	}
	g.stop(t)
	if err := g.wait(t); err != nil {
		t.Errorf("the demo on SIGTERM: %v\n%s", err, g.stderr)
	}
}
