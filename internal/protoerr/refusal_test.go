package protoerr

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Whatever head a client sends, and whatever Go's server said of it, the
// connection's answer is a status of 400 or more with a one-sentence detail
// and never a panic (the head is hostile input; the HTTP tests of each kind
// are in cmd/plumb/protocolerrors_test.go).
func FuzzRefusalAnswer(f *testing.F) {
	cf := testConfig()
	for _, seed := range []string{
		"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nTrailer: Content-Length\r\n\r\n",
		"\r\n\r\nG(T /a\x01 FOO\r\n X: \x00\r\n",
		"\x16\x03\x01",
		"",
	} {
		for _, said := range []string{"", "missing required Host header", "malformed Host header", "invalid header name", "invalid header value", "unsupported protocol version"} {
			f.Add(seed, said, 400)
		}
		f.Add(seed, "", 431)
		f.Add(seed, "", 501)
		f.Add(seed, "", 505)
		f.Add(seed, "", 417)
	}
	f.Fuzz(func(t *testing.T, head, said string, status int) {
		if status < 400 || status > 599 {
			return
		}
		a := cf.refusalAnswer(status, said, []byte(head))
		if a.status < 400 || http.StatusText(a.status) == "" || !strings.HasSuffix(a.detail, ".") || strings.Count(a.detail, "\n") > 0 {
			t.Fatalf("answer %d %q", a.status, a.detail)
		}
		if got, _, ok := serverRefusal(cf.response(a)); !ok || got != a.status {
			t.Fatalf("the answer does not read back: %d %v", got, ok)
		}
	})
}

// testConfig is a server's configuration with a plain JSON error body.
func testConfig() *config {
	return &config{
		body: func(h http.Header, status int, detail string) []byte {
			h.Set("Content-Type", "application/json")
			b, _ := json.Marshal(map[string]any{"status": status, "detail": detail})
			return b
		},
		readHeaderTimeout: 10 * time.Second,
		headLimit:         64<<10 + 4096,
	}
}
