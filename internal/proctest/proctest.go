// Package proctest is the process harness of the process-level tests (e2e/
// and deploy/): it builds the plumb binary, runs plumb commands, starts a
// child process keeping its output, waits for a log line or an HTTP answer,
// and stops the process. Its Log, a buffer safe for concurrent writers, also
// holds in-process servers' logs in the api and web tests.
//
// It imports only the standard library.
package proctest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Log is a bytes.Buffer safe for a process's (or a server's) writers and
// the test reading it.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is all that was written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Env is the environment of the plumb processes the tests start: the test's
// own without any PLUMB_* variable, which would change what is tested (the
// tests pass flags).
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PLUMB_") {
			env = append(env, kv)
		}
	}
	return env
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// BuildPlumb builds ./cmd/plumb into the file out, with env added to the
// test's environment (e.g. CGO_ENABLED=0), within five minutes. It must run
// inside this module.
func BuildPlumb(out string, env ...string) error {
	// go test puts its own toolchain's bin first on PATH.
	goTool, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("the go command is not on PATH: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", out, "github.com/plumbhq/plumb/cmd/plumb")
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%sgo build ./cmd/plumb: %v\n%s", strings.Join(append(env, ""), " "), err, b)
	}
	return nil
}

// Run runs the plumb binary bin with args (an administration command, say)
// to completion within timeout, in Env, and returns its standard output. A
// failure ends t, showing both outputs.
func Run(t testing.TB, timeout time.Duration, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = Env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// A Process is a started child process whose output is kept.
type Process struct {
	Name string
	Cmd  *exec.Cmd
	Log  *Log // its standard output and error
	Done chan struct{}
	Err  error // the result of Wait, once Done is closed
}

// Start starts cmd (its Stdout and Stderr are set to the Process's Log;
// SysProcAttr is the caller's). Name is what errors call it. The caller
// stops it (Stop, Kill), e.g. in a cleanup.
func Start(name string, cmd *exec.Cmd) (*Process, error) {
	p := &Process{Name: name, Cmd: cmd, Log: &Log{}, Done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.Log, p.Log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %v", name, err)
	}
	go func() {
		p.Err = cmd.Wait()
		close(p.Done)
	}()
	return p, nil
}

// Exited reports whether the process has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.Done:
		return true
	default:
		return false
	}
}

// ErrKilled says a process did not stop in time after the signal and was
// killed.
var ErrKilled = errors.New("killed")

// Stop sends sig and waits up to grace for the process to exit, and returns
// Wait's result; after grace it kills the process (its whole group when it
// was started with Setpgid) and returns an error wrapping ErrKilled. On a
// process that has exited already it returns Wait's result.
func (p *Process) Stop(sig syscall.Signal, grace time.Duration) error {
	if p.Exited() {
		return p.Err
	}
	_ = p.Cmd.Process.Signal(sig)
	select {
	case <-p.Done:
		return p.Err
	case <-time.After(grace):
	}
	p.Kill()
	return fmt.Errorf("%s did not stop within %v of %v: %w", p.Name, grace, sig, ErrKilled)
}

// Kill kills the process at once (SIGKILL, to its whole group when it was
// started with Setpgid), as a crash would, and waits for it.
func (p *Process) Kill() {
	if p.Exited() {
		return
	}
	kill(p.Cmd)
	<-p.Done
}

// WaitLog polls the log every 20 ms for re until timeout, and returns the
// match and its submatches; it fails early if the process exits.
func (p *Process) WaitLog(re *regexp.Regexp, timeout time.Duration) ([]string, error) {
	deadline := time.Now().Add(timeout)
	for {
		if m := re.FindStringSubmatch(p.Log.String()); m != nil {
			return m, nil
		}
		select {
		case <-p.Done:
			return nil, fmt.Errorf("%s exited before logging %q (%v):\n%s", p.Name, re, p.Err, p.Log.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: no %q after %v:\n%s", p.Name, re, timeout, p.Log.String())
		}
	}
}

// WaitHTTP polls url with GET until it answers 200 or timeout has passed;
// it fails early if the process exits.
func (p *Process) WaitHTTP(url string, timeout time.Duration) error {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil}}
	deadline := time.Now().Add(timeout)
	for {
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		if p.Exited() {
			return fmt.Errorf("%s exited before %s answered 200 (%v):\n%s", p.Name, url, p.Err, p.Log.String())
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %s did not answer 200 within %v (%v):\n%s", p.Name, url, timeout, err, p.Log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Listening is the line plumb serve logs once it listens; its submatch is
// the address.
var Listening = regexp.MustCompile(`msg="plumb listening" addr=(\S+)`)
