//go:build unix

package proctest

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func start(t *testing.T, script string) *Process {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p, err := Start("sh", cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

// TestStopAndWaitLog: WaitLog sees a line the process writes; Stop returns
// Wait's result for a process that stops on the signal, and ErrKilled for
// one that ignores it (its whole group is killed).
func TestStopAndWaitLog(t *testing.T) {
	p := start(t, `echo "msg=\"plumb listening\" addr=127.0.0.1:1234"; exec sleep 30`)
	m, err := p.WaitLog(Listening, 10*time.Second)
	if err != nil || m[1] != "127.0.0.1:1234" {
		t.Fatalf("WaitLog: %q, %v", m, err)
	}
	if err := p.Stop(syscall.SIGTERM, 10*time.Second); err == nil || errors.Is(err, ErrKilled) {
		t.Errorf("Stop of a process that dies on SIGTERM: %v, want its exit status", err)
	}
	if !p.Exited() {
		t.Error("not exited after Stop")
	}

	p = start(t, `trap '' TERM; echo ready; sleep 30 & wait; sleep 30`)
	if _, err := p.WaitLog(regexp.MustCompile("ready"), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(syscall.SIGTERM, 200*time.Millisecond); !errors.Is(err, ErrKilled) {
		t.Errorf("Stop of a process that ignores SIGTERM: %v, want ErrKilled", err)
	}
}

// TestWaitFailsWhenTheProcessExits: the waits end early, with the log, when
// the process exits.
func TestWaitFailsWhenTheProcessExits(t *testing.T) {
	p := start(t, `echo goodbye`)
	if _, err := p.WaitLog(regexp.MustCompile("never"), time.Minute); err == nil || !regexp.MustCompile("(?s)exited.*goodbye").MatchString(err.Error()) {
		t.Errorf("WaitLog: %v, want an error saying it exited, with its log", err)
	}
	if err := p.WaitHTTP("http://127.0.0.1:1/", time.Minute); err == nil {
		t.Error("WaitHTTP of an exited process gave no error")
	}
}

// TestWaitHTTP: WaitHTTP waits for a 200, and gives up after the timeout.
func TestWaitHTTP(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	p := start(t, `exec sleep 30`)
	if err := p.WaitHTTP(srv.URL, 10*time.Second); err != nil || n.Load() != 3 {
		t.Errorf("WaitHTTP: %v after %d requests, want nil after 3", err, n.Load())
	}
	n.Store(-1 << 30)
	if err := p.WaitHTTP(srv.URL, 100*time.Millisecond); err == nil {
		t.Error("WaitHTTP of a server answering 503 gave no error")
	}
}

// TestLogAndEnv: Log keeps what is written; Env drops PLUMB_* variables.
func TestLogAndEnv(t *testing.T) {
	var l Log
	l.Write([]byte("a"))
	l.Write([]byte("b"))
	if l.String() != "ab" {
		t.Errorf("Log: %q", l.String())
	}
	t.Setenv("PLUMB_X", "1")
	t.Setenv("OTHER_X", "1")
	var plumb, other bool
	for _, kv := range Env() {
		plumb = plumb || kv == "PLUMB_X=1"
		other = other || kv == "OTHER_X=1"
	}
	if plumb || !other {
		t.Errorf("Env: PLUMB_X kept %v, OTHER_X kept %v", plumb, other)
	}
}
