//go:build unix

// Package deploy_test runs the shipped nginx configuration,
// deploy/nginx/plumb.conf, in front of real plumb replicas.
//
// The test needs an nginx binary (Debian: apt-get install nginx-light, or
// nginx); without one it skips saying so, or fails under CI=true. It always runs one replica on SQLite; with
// PLUMB_TEST_POSTGRES_URL set (and psql installed) it also runs two replicas
// on a fresh PostgreSQL database, and stops one of them under load.
package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/internal/testtool"
)

// The shipped configuration is the template: the test only swaps addresses,
// certificate and log paths, so what runs here is what operators install.
const confPath = "nginx/plumb.conf"

func TestNginxInFrontOfReplicas(t *testing.T) {
	nginx := findNginx(t)
	if testing.Short() {
		t.Skip("builds plumb and starts nginx; skipped in -short mode")
	}
	tmpl, err := os.ReadFile(confPath)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildPlumb(t)

	t.Run("SQLite, one replica", func(t *testing.T) {
		db := "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
		token := seed(t, bin, db)
		replica := startReplica(t, bin, db)
		s := startNginx(t, nginx, string(tmpl), []string{replica.addr})
		s.token = token
		s.checkProxying(t)
		s.checkWrites(t)
		s.checkOwnErrors(t)

		stopReplica(t, replica)
		s.checkNoReplica(t)
	})

	t.Run("reads retried on 503, writes never", func(t *testing.T) {
		// The second upstream is a stand-in for a replica that lost its
		// database: it answers every request 503 with Plumb's error body.
		db := "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
		token := seed(t, bin, db)
		replica := startReplica(t, bin, db)
		sick := newSickReplica(t)
		s := startNginx(t, nginx, string(tmpl), []string{replica.addr, sick.addr})
		s.token = token

		// Writes: one that reached the sick replica gets its 503 and is not
		// sent on, so each POST was stored once or answered 503, never both.
		const posts = 10
		var created, refused int
		for i := range posts {
			body := []byte(fmt.Sprintf(`{"name":"app-%d"}`, i))
			resp, b := s.do(t, "POST", s.http+"/gh/ws-one/applications", map[string]string{"Content-Type": "application/json"}, body, true)
			switch resp.StatusCode {
			case http.StatusCreated:
				created++
			case http.StatusServiceUnavailable:
				refused++
			default:
				t.Fatalf("POST through nginx: %d\n%s", resp.StatusCode, b)
			}
		}
		_, b := s.mustGet(t, s.http+"/gh/ws-one/applications?page[limit]=100", nil, http.StatusOK)
		var apps struct {
			Data []json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(b, &apps); err != nil {
			t.Fatalf("GET /gh/ws-one/applications: %v\n%s", err, b)
		}
		stored := len(apps.Data)
		if sick.count("POST") == 0 || refused != sick.count("POST") || created != stored || created+refused != posts {
			t.Errorf("of %d POSTs: %d answered 201 and %d 503; %d applications were stored, the sick replica saw %d POSTs; want every POST sent to exactly one of them",
				posts, created, refused, stored, sick.count("POST"))
		}

		t.Logf("%d POSTs: %d stored by the replica, %d answered 503 by the sick one", posts, stored, refused)

		// Reads: a 503 is retried on the other replica, so every GET succeeds.
		for range 10 {
			s.mustGet(t, s.http+"/workspaces", nil, http.StatusOK)
		}
		if sick.count("GET") == 0 {
			t.Errorf("no GET reached the sick replica, so nothing was retried")
		}
	})

	t.Run("PostgreSQL, two replicas", func(t *testing.T) {
		admin := os.Getenv("PLUMB_TEST_POSTGRES_URL")
		if admin == "" {
			testtool.Missing(t, "set PLUMB_TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run two replicas on PostgreSQL behind nginx")
		}
		db := createDatabase(t, admin)
		// Both replicas start together on the empty database: migrations
		// run under an advisory lock, so neither may fail.
		var replicas [2]*replica
		var errs [2]error
		var wg sync.WaitGroup
		for i := range replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				replicas[i], errs[i] = launchReplica(t, bin, db)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		token := seed(t, bin, db)
		s := startNginx(t, nginx, string(tmpl), []string{replicas[0].addr, replicas[1].addr})
		s.token = token
		s.checkProxying(t)
		s.checkWrites(t)

		// nginx balances reads over both replicas.
		before := [2]int{replicas[0].served(), replicas[1].served()}
		for range 10 {
			s.mustGet(t, s.http+"/workspaces", nil, http.StatusOK)
		}
		for i, r := range replicas {
			if n := r.served() - before[i]; n == 0 {
				t.Errorf("replica %s served none of 10 reads through nginx; log:\n%s", r.addr, r.Log.String())
			}
		}

		// One replica stops (SIGTERM, as systemd and Docker stop it): it
		// exits 0, and every read and write goes on through the other.
		stopReplica(t, replicas[1])
		for i := range 20 {
			base := s.http
			if i%2 == 1 {
				base = s.https
			}
			s.mustGet(t, base+"/workspaces", nil, http.StatusOK)
		}
		s.createApplication(t, "after-stop")

		stopReplica(t, replicas[0])
		s.checkNoReplica(t)
	})
}

// findNginx returns the nginx binary, or ends the test with testtool.Missing.
func findNginx(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PLUMB_TEST_NGINX"); p != "" {
		return p
	}
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	// Debian puts nginx in /usr/sbin, which is not on every user's PATH.
	for _, p := range []string{"/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	testtool.Missing(t, "nginx is not installed: install it to run this test (Debian/Ubuntu: apt-get install nginx-light, or nginx), or set PLUMB_TEST_NGINX to its path")
	return ""
}

// buildPlumb builds the plumb binary the way docs/deploy.md and the
// Dockerfile do (CGO_ENABLED=0).
func buildPlumb(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		testtool.Missing(t, "the go command is not on PATH; it is needed to build plumb (install Go)")
	}
	bin := filepath.Join(t.TempDir(), "plumb")
	if err := proctest.BuildPlumb(bin, "CGO_ENABLED=0"); err != nil {
		t.Fatal(err)
	}
	return bin
}

// plumbCLI runs one administration command against db.
func plumbCLI(t *testing.T, bin, db string, args ...string) string {
	t.Helper()
	return proctest.Run(t, time.Minute, bin, append(args, "--database", db)...)
}

// seed creates user alice with a token, admin of ws-one (Applications on)
// and member of ws-two, and returns the token.
func seed(t *testing.T, bin, db string) string {
	t.Helper()
	plumbCLI(t, bin, db, "user", "create", "alice", "--name", "Alice")
	out := plumbCLI(t, bin, db, "token", "create", "alice", "--name", "nginx-test")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	token := strings.TrimSpace(lines[len(lines)-1])
	if !strings.HasPrefix(token, "plb_") {
		t.Fatalf("plumb token create printed no token:\n%s", out)
	}
	plumbCLI(t, bin, db, "workspace", "create", "ws-one", "--applications")
	plumbCLI(t, bin, db, "workspace", "create", "ws-two")
	plumbCLI(t, bin, db, "member", "add", "ws-one", "alice", "--role", "admin")
	plumbCLI(t, bin, db, "member", "add", "ws-two", "alice")
	return token
}

// createDatabase creates an empty PostgreSQL database next to the one at
// admin (with psql) and returns its URL; it is dropped when the test ends.
func createDatabase(t *testing.T, admin string) string {
	t.Helper()
	psql, err := exec.LookPath("psql")
	if err != nil {
		testtool.Missing(t, "psql is not installed: the test creates its PostgreSQL database with it (apt-get install postgresql-client)")
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("PLUMB_TEST_POSTGRES_URL: %v", err)
	}
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := "plumb_nginx_" + hex.EncodeToString(b)
	run := func(sql string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", admin, "-c", sql).CombinedOutput()
		if err != nil {
			return fmt.Errorf("psql -c %q: %v\n%s", sql, err, out)
		}
		return nil
	}
	if err := run("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	// Registered before any replica starts, so it runs after they stopped.
	t.Cleanup(func() {
		if err := run("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			t.Error(err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// startProcess starts bin in its own process group, so that nginx's workers
// can be killed with their master if it does not stop in time; it is
// stopped when the test ends. It may be called from any goroutine.
func startProcess(t *testing.T, name, bin string, args []string, env []string) (*proctest.Process, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p, err := proctest.Start(name, cmd)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = p.Stop(syscall.SIGTERM, 40*time.Second) })
	return p, nil
}

type replica struct {
	*proctest.Process
	addr string
}

// launchReplica starts `plumb serve` on a port of its choosing and waits
// until it answers /readyz.
func launchReplica(t *testing.T, bin, db string) (*replica, error) {
	p, err := startProcess(t, "plumb serve", bin, []string{"serve", "--addr", "127.0.0.1:0", "--database", db, "--trust-host"}, proctest.Env())
	if err != nil {
		return nil, err
	}
	m, err := p.WaitLog(proctest.Listening, time.Minute)
	if err != nil {
		return nil, err
	}
	r := &replica{Process: p, addr: m[1]}
	if err := p.WaitHTTP("http://"+r.addr+"/readyz", 30*time.Second); err != nil {
		return nil, fmt.Errorf("replica %s not ready: %v", r.addr, err)
	}
	return r, nil
}

func startReplica(t *testing.T, bin, db string) *replica {
	t.Helper()
	r, err := launchReplica(t, bin, db)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// stopReplica stops a replica with SIGTERM and checks that it drained and
// exited 0.
func stopReplica(t *testing.T, r *replica) {
	t.Helper()
	if err := r.Stop(syscall.SIGTERM, 40*time.Second); err != nil {
		t.Fatalf("replica %s on SIGTERM: %v, want exit status 0; log:\n%s", r.addr, err, r.Log.String())
	}
}

// served counts the GET /workspaces requests the replica logged.
func (r *replica) served() int {
	return strings.Count(r.Log.String(), "method=GET path=/workspaces ")
}

// sickReplica answers everything 503, as a replica whose database is down
// does, and counts requests by method.
type sickReplica struct {
	addr string
	mu   sync.Mutex
	seen map[string]int
}

func newSickReplica(t *testing.T) *sickReplica {
	t.Helper()
	r := &sickReplica{seen: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		r.mu.Lock()
		r.seen[req.Method]++
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, `{"errors":[{"status":"503","title":"Service Unavailable","detail":"The database is not reachable."}]}`+"\n")
	}))
	t.Cleanup(srv.Close)
	r.addr = srv.Listener.Addr().String()
	return r
}

func (r *sickReplica) count(method string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen[method]
}

// site is nginx running the rendered configuration.
type site struct {
	http, https string // base URLs, e.g. http://127.0.0.1:PORT
	client      *http.Client
	token       string
}

// render turns the shipped configuration into one for this test: the
// replicas' addresses, loopback ports, a throwaway certificate, logs in dir.
// It fails if the shipped file no longer has what it replaces.
func render(t *testing.T, tmpl string, upstreams []string, httpPort, tlsPort int, dir, cert, key string) string {
	t.Helper()
	replace := func(s, old, new string) string {
		if n := strings.Count(s, old); n != 1 {
			t.Fatalf("%s: want %q exactly once, found it %d times: the test renders the shipped file by replacing it", confPath, old, n)
		}
		return strings.Replace(s, old, new, 1)
	}
	conf := tmpl
	if len(upstreams) == 1 {
		// One replica (SQLite): the second server line goes.
		re := regexp.MustCompile(`(?m)^[ \t]*server 127\.0\.0\.1:8082 [^\n]*\n`)
		if len(re.FindAllString(conf, -1)) != 1 {
			t.Fatalf("%s: want one `server 127.0.0.1:8082 …` line", confPath)
		}
		conf = re.ReplaceAllString(conf, "")
		conf = replace(conf, "server 127.0.0.1:8081 ", "server "+upstreams[0]+" ")
	} else {
		conf = replace(conf, "server 127.0.0.1:8081 ", "server "+upstreams[0]+" ")
		conf = replace(conf, "server 127.0.0.1:8082 ", "server "+upstreams[1]+" ")
	}
	conf = replace(conf, "listen 443 ssl;", fmt.Sprintf("listen 127.0.0.1:%d ssl;", tlsPort))
	conf = replace(conf, "listen [::]:443 ssl;", "# (IPv6 listener removed by the test)")
	conf = replace(conf, "listen 127.0.0.1:80;", fmt.Sprintf("listen 127.0.0.1:%d;", httpPort))
	conf = replace(conf, "/etc/plumb/tls/fullchain.pem", cert)
	conf = replace(conf, "/etc/plumb/tls/privkey.pem", key)
	if !strings.Contains(conf, "/var/log/nginx/") {
		t.Fatalf("%s: want logs under /var/log/nginx/", confPath)
	}
	return strings.ReplaceAll(conf, "/var/log/nginx/", dir+"/")
}

// startNginx renders the configuration, checks it with nginx -t and runs
// nginx in the foreground until the test ends.
func startNginx(t *testing.T, nginx, tmpl string, upstreams []string) *site {
	t.Helper()
	dir := t.TempDir()
	cert, key, pool := selfSignedCert(t, dir)
	for attempt := 1; ; attempt++ {
		httpPort, tlsPort := proctest.FreePort(t), proctest.FreePort(t)
		conf := render(t, tmpl, upstreams, httpPort, tlsPort, dir, cert, key)
		if err := os.WriteFile(filepath.Join(dir, "plumb.conf"), []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		user := ""
		if os.Geteuid() == 0 {
			// The temporary folders are root's alone; workers run as root too.
			user = "user root;"
		}
		main := fmt.Sprintf(`%s
worker_processes 1;
events { worker_connections 256; }
http {
    access_log %[2]s/access.log;
    client_body_temp_path %[2]s/client_body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    include %[2]s/plumb.conf;
}
`, user, dir)
		mainPath := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(mainPath, []byte(main), 0o644); err != nil {
			t.Fatal(err)
		}
		errorLog := filepath.Join(dir, "error.log")
		args := []string{"-p", dir + "/", "-c", mainPath, "-e", errorLog,
			"-g", fmt.Sprintf("daemon off; master_process on; pid %s/nginx.pid; error_log %s info;", dir, errorLog)}

		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		out, err := exec.CommandContext(ctx, nginx, append([]string{"-t"}, args...)...).CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("nginx -t: %v\n%s\nrendered %s:\n%s", err, out, confPath, conf)
		}

		p, err := startProcess(t, "nginx", nginx, args, os.Environ())
		if err != nil {
			t.Fatal(err)
		}
		s := &site{
			http:  fmt.Sprintf("http://127.0.0.1:%d", httpPort),
			https: fmt.Sprintf("https://127.0.0.1:%d", tlsPort),
			client: &http.Client{
				Timeout: 20 * time.Second,
				Transport: &http.Transport{
					Proxy:           nil, // loopback only, whatever the environment says
					TLSClientConfig: &tls.Config{RootCAs: pool},
				},
			},
		}
		err = waitListening(p, []int{httpPort, tlsPort}, 10*time.Second)
		if err == nil {
			return s
		}
		p.Stop(syscall.SIGQUIT, 10*time.Second)
		logText, _ := os.ReadFile(errorLog)
		if attempt < 3 && strings.Contains(string(logText)+p.Log.String(), "Address already in use") {
			continue // another process took a port between freePort and nginx
		}
		t.Fatalf("nginx did not start: %v\n%s\n%s", err, p.Log.String(), logText)
	}
}

func waitListening(p *proctest.Process, ports []int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for _, port := range ports {
		for {
			select {
			case <-p.Done:
				return fmt.Errorf("nginx exited: %v", p.Err)
			default:
			}
			c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("nothing listens on 127.0.0.1:%d after %v", port, timeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

// selfSignedCert writes a certificate for 127.0.0.1 and its key into dir.
func selfSignedCert(t *testing.T, dir string) (certPath, keyPath string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPath, keyPath = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return certPath, keyPath, pool
}

// do sends one request (with the token unless auth is false) and reads the
// whole response.
func (s *site) do(t *testing.T, method, url string, hdr map[string]string, body []byte, auth bool) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if auth {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return resp, b
}

func (s *site) mustGet(t *testing.T, url string, hdr map[string]string, status int) (*http.Response, []byte) {
	t.Helper()
	resp, b := s.do(t, "GET", url, hdr, nil, true)
	if resp.StatusCode != status {
		t.Fatalf("GET %s: %d, want %d\n%s", url, resp.StatusCode, status, b)
	}
	return resp, b
}

var nginxRequestID = regexp.MustCompile(`^[0-9a-f]{32}$`)

// checkProxying covers reads: headers both ways, Link headers with the
// address the client used, streamed exports, errors passed through.
func (s *site) checkProxying(t *testing.T) {
	t.Helper()
	// Health and readiness need no token.
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, b := s.do(t, "GET", s.http+path, nil, nil, false)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s through nginx: %d\n%s", path, resp.StatusCode, b)
		}
	}

	// A list: rate-limit headers pass through; nginx gives the request an id
	// that Plumb echoes.
	resp, b := s.mustGet(t, s.http+"/workspaces", nil, http.StatusOK)
	var list struct {
		Data []struct {
			Key string `json:"key"`
		} `json:"data"`
		Meta struct {
			HasMore bool `json:"hasMore"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatalf("GET /workspaces: %v\n%s", err, b)
	}
	if len(list.Data) != 2 || list.Data[0].Key != "ws-one" || list.Data[1].Key != "ws-two" || list.Meta.HasMore {
		t.Errorf("GET /workspaces through nginx: %s, want ws-one and ws-two, no more", b)
	}
	if got := resp.Header.Get("x-ratelimit-limit"); got != "5000" {
		t.Errorf("x-ratelimit-limit %q through nginx, want 5000", got)
	}
	for _, h := range []string{"x-ratelimit-remaining", "x-ratelimit-used", "x-ratelimit-reset"} {
		if _, err := strconv.Atoi(resp.Header.Get(h)); err != nil {
			t.Errorf("%s %q through nginx, want a number", h, resp.Header.Get(h))
		}
	}
	if got := resp.Header.Get("x-ratelimit-resource"); got != "core" {
		t.Errorf("x-ratelimit-resource %q through nginx, want core", got)
	}
	if id := resp.Header.Get("X-Request-Id"); !nginxRequestID.MatchString(id) {
		t.Errorf("X-Request-Id %q, want nginx's $request_id (32 hex digits)", id)
	}
	resp, _ = s.mustGet(t, s.http+"/workspaces", map[string]string{"X-Request-Id": "ci-run-42"}, http.StatusOK)
	if id := resp.Header.Get("X-Request-Id"); id != "ci-run-42" {
		t.Errorf("X-Request-Id %q, want the client's ci-run-42", id)
	}

	// Link headers name nginx's address and scheme. nginx sets
	// X-Forwarded-Proto itself: a client's own value does not get through.
	next := "/workspaces?page%5Blimit%5D=1&page%5Boffset%5D=1>; rel=\"next\""
	resp, _ = s.mustGet(t, s.http+"/workspaces?page[limit]=1", map[string]string{"X-Forwarded-Proto": "https"}, http.StatusOK)
	if got, want := resp.Header.Get("Link"), "<"+s.http+next; got != want {
		t.Errorf("Link over HTTP:\n got %s\nwant %s", got, want)
	}
	resp, _ = s.mustGet(t, s.https+"/workspaces?page[limit]=1", nil, http.StatusOK)
	if got, want := resp.Header.Get("Link"), "<"+s.https+next; got != want {
		t.Errorf("Link over HTTPS:\n got %s\nwant %s", got, want)
	}

	// Exports stream through: NDJSON and CSV, every row.
	resp, b = s.mustGet(t, s.https+"/workspaces", map[string]string{"Accept": "application/x-ndjson"}, http.StatusOK)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-ndjson") {
		t.Errorf("NDJSON export Content-Type %q", ct)
	}
	var keys []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var row struct {
			Key string `json:"key"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("NDJSON row %q: %v", sc.Text(), err)
		}
		keys = append(keys, row.Key)
	}
	if strings.Join(keys, ",") != "ws-one,ws-two" {
		t.Errorf("NDJSON export through nginx: %s", b)
	}
	resp, b = s.mustGet(t, s.http+"/workspaces", map[string]string{"Accept": "text/csv"}, http.StatusOK)
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") || len(lines) != 3 {
		t.Errorf("CSV export through nginx (%s): %s", resp.Header.Get("Content-Type"), b)
	}

	// Plumb's own errors pass through untouched.
	resp, b = s.do(t, "GET", s.http+"/workspaces", nil, nil, false)
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" || errorStatus(b) != "401" {
		t.Errorf("GET /workspaces without a token through nginx: %d %v\n%s", resp.StatusCode, resp.Header, b)
	}
}

// checkWrites covers a write through nginx and nginx's own body limit.
func (s *site) checkWrites(t *testing.T) {
	t.Helper()
	s.createApplication(t, "through-nginx")

	// One byte over client_max_body_size (1m = PLUMB_MAX_BODY_BYTES' default):
	// nginx answers 413 itself, in Plumb's error format.
	big := bytes.Repeat([]byte(" "), 1<<20+1)
	resp, b := s.do(t, "POST", s.http+"/gh/ws-one/applications", map[string]string{"Content-Type": "application/json"}, big, true)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || errorStatus(b) != "413" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Errorf("POST of 1 MiB + 1 byte through nginx: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
}

// checkOwnErrors: what nginx answers by itself (a malformed request, a
// request line or header too long, a method or protocol it refuses, plain
// HTTP to the TLS port) comes in Plumb's error format, never nginx's HTML
// page, so clients parse one shape (issue 19 item 8).
func (s *site) checkOwnErrors(t *testing.T) {
	t.Helper()
	httpAddr, tlsAddr := strings.TrimPrefix(s.http, "http://"), strings.TrimPrefix(s.https, "https://")
	long := strings.Repeat("a", 9000) // over large_client_header_buffers' 8k
	for _, c := range []struct {
		name, addr, request string
		status              int
	}{
		{"no Host header", httpAddr, "GET /workspaces HTTP/1.1\r\n\r\n", 400},
		{"a malformed request line", httpAddr, "GET /workspaces HTTP/1.1 extra\r\nHost: x\r\n\r\n", 400},
		{"a request line too long", httpAddr, "GET /" + long + " HTTP/1.1\r\nHost: x\r\n\r\n", 414},
		{"a header too long", httpAddr, "GET /workspaces HTTP/1.1\r\nHost: x\r\nX-Big: " + long + "\r\n\r\n", 431},
		{"TRACE", httpAddr, "TRACE /workspaces HTTP/1.1\r\nHost: x\r\n\r\n", 405},
		{"an unknown transfer encoding", httpAddr, "POST /workspaces HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"HTTP/2.0 on the HTTP/1 port", httpAddr, "GET /workspaces HTTP/2.0\r\nHost: x\r\n\r\n", 505},
		{"plain HTTP to the TLS port", tlsAddr, "GET /workspaces HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"the error pages' own URIs", httpAddr, "GET /_plumb/errors/400 HTTP/1.1\r\nHost: x\r\n\r\n", 404},
	} {
		resp, body := rawRequest(t, c.addr, c.request)
		if resp.StatusCode != c.status || errorStatus(body) != strconv.Itoa(c.status) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: %d %s, want %d in Plumb's error format\n%s", c.name, resp.StatusCode, resp.Header.Get("Content-Type"), c.status, body)
		}
	}
}

// rawRequest writes request as is to addr and reads the response.
func rawRequest(t *testing.T, addr, request string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%q: reading the response: %v", truncateText(request, 80), err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

func truncateText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// createApplication POSTs over HTTPS and checks the Location names nginx.
func (s *site) createApplication(t *testing.T, name string) {
	t.Helper()
	body := []byte(`{"name":"` + name + `"}`)
	resp, b := s.do(t, "POST", s.https+"/gh/ws-one/applications", map[string]string{"Content-Type": "application/json"}, body, true)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /gh/ws-one/applications through nginx: %d\n%s", resp.StatusCode, b)
	}
	if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, s.https+"/gh/ws-one/applications/") {
		t.Errorf("Location %q, want it under %s/gh/ws-one/applications/", loc, s.https)
	}
}

// checkNoReplica: with every replica stopped, reads and writes get nginx's
// 502 in Plumb's error format.
func (s *site) checkNoReplica(t *testing.T) {
	t.Helper()
	for _, req := range []struct {
		method, url string
		body        []byte
	}{
		{"GET", s.http + "/workspaces", nil},
		{"POST", s.https + "/gh/ws-one/applications", []byte(`{"name":"nobody-home"}`)},
	} {
		resp, b := s.do(t, req.method, req.url, map[string]string{"Content-Type": "application/json"}, req.body, true)
		if resp.StatusCode != http.StatusBadGateway || errorStatus(b) != "502" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s %s with no replica: %d %s\n%s", req.method, req.url, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
}

// errorStatus is the status of the first error in Plumb's error body, or
// "" if b is not one.
func errorStatus(b []byte) string {
	var e struct {
		Errors []struct {
			Status string `json:"status"`
			Title  string `json:"title"`
			Detail string `json:"detail"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(b, &e); err != nil || len(e.Errors) == 0 || e.Errors[0].Title == "" || e.Errors[0].Detail == "" {
		return ""
	}
	return e.Errors[0].Status
}
