package api

import (
	"bytes"
	"context"
	"log"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// The connection layer under the handler. Go's HTTP server accepts a
// request with both Transfer-Encoding: chunked and Content-Length: it drops
// Content-Length, reads the chunked body, and keeps the connection for the
// next request. RFC 9112 §6.1 asks a server to close the connection after
// answering such a request (a proxy in front may have framed the body by
// Content-Length: what follows the chunked body is then a smuggled request).
// The server removes Content-Length before the handler sees the request, so
// the connection watches the request heads itself.

// NewHTTPServer is the http.Server for the API: its timeouts, and the
// connection context that WrapListener's connections need. Serve it on
// WrapListener(listener).
func NewHTTPServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          errorLog,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if wc, ok := c.(*watchedConn); ok {
				return context.WithValue(ctx, connKey, wc)
			}
			return ctx
		},
	}
}

// WrapListener returns a listener whose connections notice a request head
// that has both Transfer-Encoding and Content-Length; the server then closes
// such a connection after its response.
func WrapListener(l net.Listener) net.Listener { return &watchingListener{l} }

type watchingListener struct{ net.Listener }

func (l *watchingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &watchedConn{Conn: c}, nil
}

const connKey ctxKey = 2

// watchedConn scans the bytes it reads for header lines. It cannot tell a
// header block from a body, so a body line that looks like one of the two
// fields may close a connection that could have stayed open: a harmless
// error, where the opposite one is not.
type watchedConn struct {
	net.Conn
	// line: the start of the current line (enough to name a field).
	line []byte
	// In the current block (since the last empty line): the fields seen.
	te, cl bool
	// ambiguous: some request head had both fields.
	ambiguous atomic.Bool
}

func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	for _, b := range p[:n] {
		c.scan(b)
	}
	return n, err
}

func (c *watchedConn) scan(b byte) {
	if b == '\n' {
		line := bytes.TrimRight(c.line, "\r")
		switch {
		case len(line) == 0:
			// An empty line ends a header block.
			if c.te && c.cl {
				c.ambiguous.Store(true)
			}
			c.te, c.cl = false, false
		case hasFieldName(line, "transfer-encoding"):
			c.te = true
		case hasFieldName(line, "content-length"):
			c.cl = true
		}
		c.line = c.line[:0]
		return
	}
	if len(c.line) < 32 {
		c.line = append(c.line, b)
	}
}

func hasFieldName(line []byte, name string) bool {
	return len(line) > len(name) && bytes.EqualFold(line[:len(name)], []byte(name)) &&
		(line[len(name)] == ':' || line[len(name)] == ' ' || line[len(name)] == '\t')
}

// closeIfAmbiguous asks the server to close the connection after this
// response when a request head on it had both framing fields.
func closeIfAmbiguous(w http.ResponseWriter, r *http.Request) {
	if c, ok := r.Context().Value(connKey).(*watchedConn); ok && c.ambiguous.Load() {
		w.Header().Set("Connection", "close")
	}
}
