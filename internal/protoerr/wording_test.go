package protoerr

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestGoWording fails when the running Go's net/http (or net/url) no
// longer says what this package matches: the status lines Go's server
// writes for the requests it refuses itself, the texts after a 400's reason
// phrase, the slack it reads beyond MaxHeaderBytes, and the errors of
// url.ParseRequestURI. A new Go version that changes them needs refusal.go
// (serverRefusal, badFields, badTarget, Configure's headLimit) to follow.
func TestGoWording(t *testing.T) {
	const maxHeader = 1 << 10
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }),
		MaxHeaderBytes:    maxHeader,
		ReadHeaderTimeout: 5 * time.Second,
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	// statusLine sends a raw head on a new connection and reads the first
	// line of the answer.
	statusLine := func(head string) string {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte(head)); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Fatalf("%q: reading the answer: %v", head, err)
		}
		return strings.TrimRight(line, "\r\n")
	}
	pad := func(n int) string { return "X-Pad: " + strings.Repeat("a", n) + "\r\n" }
	for _, tc := range []struct{ head, want string }{
		{"GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 400 Bad Request: missing required Host header"},
		{"GET / HTTP/1.1\r\nHost: a b\r\n\r\n", "HTTP/1.1 400 Bad Request: malformed Host header"},
		// net/textproto refuses a control character in a value before the
		// server's "invalid header value" check can (badFields keeps that
		// case for a Go that lets it through; parseHead names the byte).
		{"GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x7fb\r\n\r\n", "HTTP/1.1 400 Bad Request"},
		{"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", "HTTP/1.1 400 Bad Request"},
		{"GET / HTTP/2.0\r\nHost: x\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version"},
		{"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", "HTTP/1.1 501 Not Implemented"},
		{"GET / HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n", "HTTP/1.1 417 Expectation Failed"},
		// MaxHeaderBytes plus 4096 bytes of slack (Configure's headLimit).
		{"GET / HTTP/1.1\r\nHost: x\r\n" + pad(maxHeader+4096-200) + "\r\n", "HTTP/1.1 204 No Content"},
		{"GET / HTTP/1.1\r\nHost: x\r\n" + pad(maxHeader+4096+200) + "\r\n", "HTTP/1.1 431 Request Header Fields Too Large"},
	} {
		if got := statusLine(tc.head); got != tc.want {
			t.Errorf("%.60q: Go's server answered %q, want %q", tc.head, got, tc.want)
		}
	}

	for target, want := range map[string]string{
		"http://host:port/": "invalid port",
		"a/b":               "invalid URI for request",
	} {
		if _, err := url.ParseRequestURI(target); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("url.ParseRequestURI(%q) = %v, want an error saying %q", target, err, want)
		}
	}
}
