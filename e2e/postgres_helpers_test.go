package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/internal/testtool"
)

// pgServer is a throwaway PostgreSQL cluster: its own data folder, socket
// folder and loopback port, run as the postgres OS user when the tests run as
// root (initdb refuses root).
type pgServer struct {
	bin  string // folder of initdb, pg_ctl and postgres
	dir  string // holds data/, the socket and the log
	port int
	as   []string // command prefix running a program as the postgres user; empty when not root
}

// postgresBin finds the folder of initdb and pg_ctl, or ends t with
// testtool.Missing.
func postgresBin(t *testing.T) string {
	t.Helper()
	has := func(dir string) bool {
		return fileExists(filepath.Join(dir, "initdb")) && fileExists(filepath.Join(dir, "pg_ctl")) && fileExists(filepath.Join(dir, "postgres"))
	}
	if d := os.Getenv("PLUMB_TEST_PG_BIN"); d != "" {
		if !has(d) {
			t.Fatalf("PLUMB_TEST_PG_BIN=%s holds no initdb, pg_ctl and postgres", d)
		}
		return d
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil && has(filepath.Dir(p)) {
		return filepath.Dir(p)
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	// The newest major version first.
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi > vj
	})
	for _, d := range dirs {
		if has(d) {
			return d
		}
	}
	testtool.Missing(t, "no PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH or in /usr/lib/postgresql/*/bin; install PostgreSQL (apt-get install -y postgresql) or set PLUMB_TEST_PG_BIN to their folder to run this test")
	return ""
}

// startPostgres initialises and starts a throwaway PostgreSQL cluster; it is
// stopped and removed when t ends.
func startPostgres(t *testing.T) *pgServer {
	t.Helper()
	p := &pgServer{bin: postgresBin(t)}
	// Not t.TempDir: its parent folders are private to root, and the
	// postgres user must reach the data folder.
	dir, err := os.MkdirTemp("", "plumb-e2e-pg-")
	if err != nil {
		t.Fatal(err)
	}
	p.dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			testtool.Missing(t, "running as root and there is no postgres user to run initdb as (initdb refuses root; apt-get install -y postgresql creates it): %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			testtool.Missing(t, "cannot give %s to the postgres user: %v", dir, err)
		}
		if r, err := exec.LookPath("runuser"); err == nil {
			p.as = []string{r, "-u", "postgres", "--"}
		} else if _, err := exec.LookPath("setpriv"); err == nil {
			p.as = []string{"setpriv", "--reuid=" + u.Uid, "--regid=" + u.Gid, "--clear-groups", "--"}
		} else {
			testtool.Missing(t, "running as root without runuser or setpriv to run PostgreSQL as the postgres user (apt-get install -y util-linux)")
		}
	}
	out, err := p.run(60*time.Second, "initdb", "-D", p.data(), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
	if err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	p.port = proctest.FreePort(t)
	t.Cleanup(func() {
		// Immediate: the cluster is thrown away.
		if out, err := p.run(30*time.Second, "pg_ctl", "-D", p.data(), "-m", "immediate", "-w", "stop"); err != nil && p.running() {
			t.Errorf("stop PostgreSQL: %v\n%s", err, out)
		}
		if t.Failed() {
			b, _ := os.ReadFile(p.logFile())
			t.Logf("PostgreSQL log:\n%s", b)
		}
	})
	p.start(t)
	return p
}

func (p *pgServer) data() string    { return filepath.Join(p.dir, "data") }
func (p *pgServer) logFile() string { return filepath.Join(p.dir, "postgres.log") }

// dsn is the URL of the cluster's postgres database.
func (p *pgServer) dsn() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.port)
}

// run runs one of the PostgreSQL programs (as the postgres user if needed).
func (p *pgServer) run(timeout time.Duration, prog string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	argv := append(append(append([]string{}, p.as...), filepath.Join(p.bin, prog)), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = p.dir
	cmd.Env = proctest.Env()
	return cmd.CombinedOutput()
}

// start starts the cluster and waits until it accepts connections.
func (p *pgServer) start(t *testing.T) {
	t.Helper()
	opts := strings.Join([]string{
		"-p", strconv.Itoa(p.port), "-k", p.dir, "-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=50",
	}, " ")
	if out, err := p.run(60*time.Second, "pg_ctl", "-D", p.data(), "-l", p.logFile(), "-o", opts, "-w", "-t", "30", "start"); err != nil {
		b, _ := os.ReadFile(p.logFile())
		t.Fatalf("pg_ctl start: %v\n%s\nlog:\n%s", err, out, b)
	}
}

// stop stops the cluster in fast mode: connections are cut, the server
// shuts down cleanly.
func (p *pgServer) stop(t *testing.T) {
	t.Helper()
	if out, err := p.run(60*time.Second, "pg_ctl", "-D", p.data(), "-m", "fast", "-w", "-t", "30", "stop"); err != nil {
		t.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
}

// running reports whether the cluster's postmaster runs.
func (p *pgServer) running() bool {
	return fileExists(filepath.Join(p.data(), "postmaster.pid"))
}
