package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Requests that Go's HTTP server refuses before Plumb's handler runs, sent
// as raw bytes over TCP to the server `plumb serve` builds: each one is
// answered with the spec's error body (application/json, the status as a
// string, the reason phrase as title, a detail naming the fault), and the
// connection is closed after the answer (issue 14 item 11; docs/api.md,
// "Errors before the API").
func TestProtocolErrorsAnswerWithErrorBody(t *testing.T) {
	addr, token := serveProtocolWorld(t)
	long := strings.Repeat("a", 70<<10)
	app := "POST /gh/acme/applications HTTP/1.1\r\nHost: plumb\r\nAuthorization: Bearer " + token + "\r\nContent-Type: application/json\r\n"
	cases := []struct {
		name   string
		req    string
		status int
		detail string // part of the detail
		// cut: the client stops sending (half-closes) after req.
		cut bool
		// handler: answered by Plumb's handler (with a request id), which
		// may keep the connection.
		handler bool
	}{
		// The request target.
		{"bad percent escape", "GET /gh/acme/applications/%zz HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, `invalid percent escape "%zz"`, false, false},
		{"truncated percent escape", "GET /user%4 HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, `invalid percent escape "%4"`, false, false},
		{"NUL in the path", "GET /gh/acme\x00/applications HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "control character 0x00", false, false},
		{"control character in the query", "GET /user?a=\x01 HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "control character 0x01", false, false},
		{"DEL in the path", "GET /us\x7fer HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "control character 0x7F", false, false},
		{"tab in the path", "GET /us\ter HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "control character 0x09", false, false},
		{"space in the path", "GET /gh/acme projects HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "contains a space", false, false},
		{"target without a slash", "GET user HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "not a path starting with /", false, false},
		{"asterisk target", "GET * HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, `target "*" is not a path`, false, false},
		{"CONNECT to a host", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 400, "not a proxy", false, false},
		{"absolute URL with a bad port", "GET http://plumb:port/user HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "invalid port", false, false},
		{"absolute URL with a bad host", "GET http://[::1/user HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "missing ']' in host", false, false},
		{"URL too long", "GET /user?q=" + long + " HTTP/1.1\r\nHost: plumb\r\n\r\n", 414, "URL is too long", false, false},
		// The request line.
		{"no version", "GET /user\r\nHost: plumb\r\n\r\n", 400, `request line "GET /user" is not METHOD, target and version`, false, false},
		{"invalid method", "G(T /user HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, `method "G(T" is not valid`, false, false},
		{"a fourth word", "GET /user HTTP/1.1 please\r\nHost: plumb\r\n\r\n", 400, "contains a space", false, false},
		{"empty request line", "\r\n", 400, "is an empty line", false, false},
		{"empty line first", "\r\nGET /user HTTP/1.1\r\nHost: plumb\r\n\r\n", 400, "starts with an empty line", false, false},
		{"request line cut short", "GET /us", 400, "ended inside its request line", true, false},
		{"head cut short", "GET /user HTTP/1.1\r\nHost: plumb\r\n", 400, "ended inside its header", true, false},
		// The protocol version.
		{"HTTP/0.9", "GET /user HTTP/0.9\r\nHost: plumb\r\n\r\n", 505, `"HTTP/0.9"`, false, false},
		{"HTTP/2.0 as text", "GET /user HTTP/2.0\r\nHost: plumb\r\n\r\n", 505, `"HTTP/2.0"`, false, false},
		{"HTTP/3.0", "GET /user HTTP/3.0\r\nHost: plumb\r\n\r\n", 505, `"HTTP/3.0"`, false, false},
		{"HTTP/2 preface (h2c)", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505, "h2c", false, false},
		{"unknown protocol", "GET /user FOO/1.1\r\nHost: plumb\r\n\r\n", 400, `version "FOO/1.1" is malformed`, false, false},
		{"lower-case version", "GET /user http/1.1\r\nHost: plumb\r\n\r\n", 400, `version "http/1.1" is malformed`, false, false},
		{"version without minor", "GET /user HTTP/1\r\nHost: plumb\r\n\r\n", 400, `version "HTTP/1" is malformed`, false, false},
		// Host.
		{"missing Host", "GET /user HTTP/1.1\r\nAccept: */*\r\n\r\n", 400, "needs a Host header", false, false},
		{"two Host fields", "GET /user HTTP/1.1\r\nHost: plumb\r\nHost: other\r\n\r\n", 400, "2 Host header fields", false, false},
		{"Host with a space", "GET /user HTTP/1.1\r\nHost: plumb example\r\n\r\n", 400, `Host header "plumb example" is not a valid host`, false, false},
		{"Host with a slash", "GET /user HTTP/1.1\r\nHost: plumb/x\r\n\r\n", 400, `Host header "plumb/x" is not a valid host`, false, false},
		// Header field names and values.
		{"space in a field name", "GET /user HTTP/1.1\r\nHost: plumb\r\nX Token: v\r\n\r\n", 400, `field name "X Token" is not valid`, false, false},
		{"space before the colon", "GET /user HTTP/1.1\r\nHost: plumb\r\nAccept : */*\r\n\r\n", 400, `field name "Accept " is not valid`, false, false},
		{"separator in a field name", "GET /user HTTP/1.1\r\nHost: plumb\r\nX(a): v\r\n\r\n", 400, `field name "X(a)" is not valid`, false, false},
		{"NUL in a field name", "GET /user HTTP/1.1\r\nHost: plumb\r\nX\x00: v\r\n\r\n", 400, `field name "X\x00" is not valid`, false, false},
		{"header line without colon", "GET /user HTTP/1.1\r\nHost: plumb\r\nAuthorization\r\n\r\n", 400, `"Authorization" has no colon`, false, false},
		{"header line without name", "GET /user HTTP/1.1\r\nHost: plumb\r\n: v\r\n\r\n", 400, "no field name", false, false},
		{"first header line indented", "GET /user HTTP/1.1\r\n Host: plumb\r\n\r\n", 400, "starts with white space", false, false},
		{"NUL in a value", "GET /user HTTP/1.1\r\nHost: plumb\r\nAuthorization: Bearer a\x00b\r\n\r\n", 400, `"Authorization" contains the control character 0x00`, false, false},
		{"control character in a value", "GET /user HTTP/1.1\r\nHost: plumb\r\nX-Request-Id: a\x01b\r\n\r\n", 400, "control character 0x01", false, false},
		{"bare CR in a value", "GET /user HTTP/1.1\r\nHost: plumb\r\nX-A: a\rb\r\n\r\n", 400, "control character 0x0D", false, false},
		{"DEL in a value", "GET /user HTTP/1.1\r\nHost: plumb\r\nX-A: a\x7fb\r\n\r\n", 400, "control character 0x7F", false, false},
		{"one huge header field", "GET /user HTTP/1.1\r\nHost: plumb\r\nX-A: " + long + "\r\n\r\n", 431, "header fields are too large", false, false},
		{"many header fields", "GET /user HTTP/1.1\r\nHost: plumb\r\n" + strings.Repeat("X-Filler: "+strings.Repeat("b", 30)+"\r\n", 2000) + "\r\n", 431, "header fields are too large", false, false},
		// Transfer-Encoding.
		{"gzip transfer coding", "POST /user HTTP/1.1\r\nHost: plumb\r\nTransfer-Encoding: gzip\r\n\r\n", 501, `Transfer-Encoding "gzip" is not supported`, false, false},
		{"identity transfer coding", "POST /user HTTP/1.1\r\nHost: plumb\r\nTransfer-Encoding: identity\r\n\r\n", 501, `"identity"`, false, false},
		{"chunked twice in one field", "POST /user HTTP/1.1\r\nHost: plumb\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 501, `"chunked, chunked"`, false, false},
		{"gzip then chunked", "POST /user HTTP/1.1\r\nHost: plumb\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501, `"gzip, chunked"`, false, false},
		{"two Transfer-Encoding fields", "POST /user HTTP/1.1\r\nHost: plumb\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501, "2 Transfer-Encoding header fields", false, false},
		// Content-Length and the body's framing.
		{"negative Content-Length", app + "Content-Length: -1\r\n\r\n", 400, `Content-Length "-1" is not valid`, false, false},
		{"word as Content-Length", app + "Content-Length: ten\r\n\r\n", 400, `Content-Length "ten" is not valid`, false, false},
		{"empty Content-Length", app + "Content-Length:\r\n\r\n", 400, `Content-Length "" is not valid`, false, false},
		{"signed Content-Length", app + "Content-Length: +2\r\n\r\n{}", 400, `Content-Length "+2" is not valid`, false, false},
		{"Content-Length over 2^63", app + "Content-Length: 99999999999999999999\r\n\r\n", 400, `"99999999999999999999" is not valid`, false, false},
		{"two different Content-Lengths", app + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{} ", 400, "different values", false, false},
		{"list as Content-Length", app + "Content-Length: 2, 3\r\n\r\n{} ", 400, `Content-Length "2, 3" is not valid`, false, false},
		{"forbidden trailer", app + "Transfer-Encoding: chunked\r\nTrailer: Content-Length\r\n\r\n0\r\n\r\n", 400, `Trailer header announces "Content-Length"`, false, false},
		// Expect.
		{"unknown expectation", "GET /user HTTP/1.1\r\nHost: plumb\r\nExpect: 200-ok\r\n\r\n", 417, `Expect header "200-ok" is not supported`, false, false},
		// Not HTTP at all.
		{"TLS handshake on the plain port", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + strings.Repeat("\x00", 32), 400, "TLS handshake", false, false},
		// Faults found by Plumb's handler once Go has passed the head on:
		// the same error body (the connection closes: the body was not read).
		{"body over --max-body-bytes", app + "Content-Length: 5000\r\n\r\n{\"name\":\"" + strings.Repeat("x", 4989) + "\"}", 413, "larger than", false, true},
		{"malformed chunk", app + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 400, "could not be read", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			conn := dialRaw(t, addr)
			if _, err := io.WriteString(conn, strings.ReplaceAll(c.req, "TOKEN", token)); err != nil {
				t.Fatal(err)
			}
			if c.cut {
				conn.(*net.TCPConn).CloseWrite()
			}
			res := wantErrorBody(t, bufio.NewReader(conn), conn, c.status, c.detail, !c.handler)
			if id := res.Header.Get("X-Request-Id"); c.handler != (id != "") {
				t.Errorf("request id %q: answered by the handler %v, want %v", id, id != "", c.handler)
			}
		})
	}
}

// A head that stops arriving is answered 408 once the server's header
// timeout (10 s) has passed, with the error body.
func TestProtocolErrorStalledHead(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the 10-second header timeout")
	}
	addr, _ := serveProtocolWorld(t)
	conn := dialRaw(t, addr)
	io.WriteString(conn, "GET /user HTTP/1.1\r\nHost: plu")
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	wantErrorBody(t, bufio.NewReader(conn), conn, http.StatusRequestTimeout, "did not arrive within 10 seconds", true)
}

// On a kept-alive connection the fault of a later request is named the same
// way (the connection reads each new head afresh), answers from handlers
// pass unchanged, and OPTIONS * (which Go answers itself) is no error.
func TestProtocolErrorAfterServedRequests(t *testing.T) {
	addr, token := serveProtocolWorld(t)
	conn := dialRaw(t, addr)
	br := bufio.NewReader(conn)
	for _, req := range []string{
		"GET /workspaces HTTP/1.1\r\nHost: plumb\r\nAuthorization: Bearer " + token + "\r\n\r\n",
		"OPTIONS * HTTP/1.1\r\nHost: plumb\r\n\r\n",
		"POST /gh/acme/applications HTTP/1.1\r\nHost: plumb\r\nAuthorization: Bearer " + token + "\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{\"name\":\"a\"}",
	} {
		io.WriteString(conn, req)
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		if res.StatusCode >= 400 || res.Close {
			t.Fatalf("%q: %d (close %v)", req, res.StatusCode, res.Close)
		}
	}
	io.WriteString(conn, "GET /gh/acme/applications?name=%zz%gg HTTP/1.1\r\nHost: plumb\r\nAuthorization: Bearer "+token+"\r\n\r\n")
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	// The query's escapes are Plumb's to judge: a handler answer (it has
	// a request id), not the connection's.
	if res.StatusCode != http.StatusBadRequest || res.Header.Get("X-Request-Id") == "" || !strings.Contains(string(b), `"status":"400"`) {
		t.Fatalf("bad query escape: %d %v %s", res.StatusCode, res.Header, b)
	}
	io.WriteString(conn, "GET /user%zz HTTP/1.1\r\nHost: plumb\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	wantErrorBody(t, br, conn, http.StatusBadRequest, `The request target "/user%zz" has an invalid percent escape "%zz"`, true)
}

// serveProtocolWorld runs `plumb serve` (with a 1 KiB body limit) on a
// database holding user alice, admin of workspace acme (Applications
// enabled), and returns its address and alice's token.
func serveProtocolWorld(t *testing.T) (addr, token string) {
	t.Helper()
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	admin := func(args ...string) string {
		out, err := runOut(t, nil, append(args, "--database", dbURL)...)
		if err != nil {
			t.Fatalf("plumb %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	admin("user", "create", "alice")
	token = lastLine(admin("token", "create", "alice", "--name", "raw"))
	admin("workspace", "create", "acme", "--applications")
	admin("member", "add", "acme", "alice", "--role", "admin")
	return serveOn(t, dbURL, "--max-body-bytes", "1024"), token
}

func dialRaw(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	return conn
}

// wantErrorBody reads one response: status, the error body with one error
// whose detail contains detail, and when closes, Connection: close and
// then the end of the connection.
func wantErrorBody(t *testing.T, br *bufio.Reader, conn net.Conn, status int, detail string, closes bool) *http.Response {
	t.Helper()
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no HTTP response: %v", err)
	}
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	if res.StatusCode != status {
		t.Errorf("status %d, want %d: %s", res.StatusCode, status, raw)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	if res.Header.Get("Date") == "" || res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("headers %v lack Date, Cache-Control: no-store or nosniff", res.Header)
	}
	if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(raw)) {
		t.Errorf("Content-Length %q for a %d-byte body", cl, len(raw))
	}
	var body struct {
		Errors []struct{ Status, Title, Detail string } `json:"errors"`
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || len(body.Errors) != 1 {
		t.Fatalf("not the error body (%v): %s", err, raw)
	}
	e := body.Errors[0]
	if e.Status != strconv.Itoa(status) || e.Title != http.StatusText(status) || !strings.Contains(e.Detail, detail) ||
		!strings.HasSuffix(e.Detail, ".") {
		t.Errorf("error %+v, want status %q, title %q, a detail containing %q", e, strconv.Itoa(status), http.StatusText(status), detail)
	}
	if !closes {
		return res
	}
	if !res.Close {
		t.Errorf("no Connection: close (%v)", res.Header)
	}
	// The server closes the connection after the answer.
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := br.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("the connection is still open after the answer: read %d bytes, %v", n, err)
	}
	return res
}
