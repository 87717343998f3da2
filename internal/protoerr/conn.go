package protoerr

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrorBody sets the headers of an error answer (Content-Type and the
// like) in h and returns its body, with one detail.
type ErrorBody func(h http.Header, status int, detail string) []byte

// config is what a server's connections answer with.
type config struct {
	body ErrorBody
	// readHeaderTimeout is the server's time for a head (named by 408).
	readHeaderTimeout time.Duration
	// headLimit is what Go's server reads of a request head before it
	// answers 431: MaxHeaderBytes plus 4096 bytes of slack.
	headLimit int
}

// Configure prepares srv, whose Handler, ReadHeaderTimeout and
// MaxHeaderBytes are set, for the connections of WrapListener, and returns
// it: its handler tells the connection when it takes a request and refuses
// what no route can serve; ConnContext and ConnState follow the
// connection's requests. Serve it on WrapListener(listener), and only
// there: the connections are what turn the errors Go's server writes by
// itself into body's error body.
func Configure(srv *http.Server, body ErrorBody) *http.Server {
	cf := &config{body: body, readHeaderTimeout: srv.ReadHeaderTimeout, headLimit: srv.MaxHeaderBytes + 4096}
	srv.Handler = cf.edgeHandler(srv.Handler)
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if wc, ok := c.(*watchedConn); ok {
			wc.cf = cf
			wc.edge.Store(true)
			return context.WithValue(ctx, connKey{}, wc)
		}
		return ctx
	}
	// A connection goes idle once a response is finished and the
	// request's body is drained: what it reads next is a new head.
	srv.ConnState = func(c net.Conn, state http.ConnState) {
		if wc, ok := c.(*watchedConn); ok && state == http.StateIdle {
			wc.awaitHead()
		}
	}
	return srv
}

// WrapListener returns a listener whose connections notice a request head
// that has both Transfer-Encoding and Content-Length (CloseIfAmbiguous),
// and, under a server prepared by Configure, answer the requests Go's
// server refuses before any handler runs with the error body.
func WrapListener(l net.Listener) net.Listener { return &watchingListener{l} }

type watchingListener struct{ net.Listener }

func (l *watchingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &watchedConn{Conn: c}, nil
}

type connKey struct{}

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

	// edge: the connection is served by a server Configure prepared, whose
	// handler reports when it takes a request. Only then does it answer
	// refusals itself (under another server, every response would look like
	// one written before any handler).
	edge atomic.Bool
	cf   *config // set with edge
	// handling: a handler has the current request. Until it does, what the
	// connection reads is a request head (kept in head, at most cf.headLimit
	// bytes, to name what is wrong with it) and what the server writes is
	// its own answer to a request it refused. mu guards head and the
	// connection's own writes; it is never held during a read.
	handling atomic.Bool
	mu       sync.Mutex
	head     []byte
	// answered: the connection wrote its own answer; the server's later
	// writes are dropped and its reads end.
	answered atomic.Bool
}

func (c *watchedConn) Read(p []byte) (int, error) {
	if c.answered.Load() {
		return 0, io.EOF
	}
	n, err := c.Conn.Read(p)
	c.scanAll(p[:n])
	if c.handling.Load() || !c.edge.Load() {
		return n, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.cf.headLimit - len(c.head); room > 0 {
		c.head = append(c.head, p[:min(n, room)]...)
	}
	if a := c.cf.unfinishedHead(c.head, err); a != nil && !c.handling.Load() && !c.answered.Load() {
		c.writeAnswer(a)
		return 0, io.EOF
	}
	return n, err
}

func (c *watchedConn) scanAll(p []byte) {
	for _, b := range p {
		c.scan(b)
	}
}

// Write passes the handlers' responses through. Before a handler has the
// request, a response of status 400 or more is the server's own refusal
// (text/plain, or an empty 417): it goes out as the spec's error body
// instead, with the same status (414 for a request line over the limit).
func (c *watchedConn) Write(p []byte) (int, error) {
	if c.handling.Load() || !c.edge.Load() {
		return c.Conn.Write(p)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answered.Load() {
		return len(p), nil
	}
	status, said, ok := serverRefusal(p)
	if !ok {
		return c.Conn.Write(p)
	}
	if err := c.writeAnswer(c.cf.refusalAnswer(status, said, c.head)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeAnswer writes one of the connection's own answers; c.mu is held.
func (c *watchedConn) writeAnswer(a *protocolError) error {
	c.answered.Store(true)
	_, err := c.Conn.Write(c.cf.response(a))
	return err
}

// CloseWrite lets the server half-close the connection after a 431, as it
// does on a bare TCP connection, so the answer is not lost to a reset.
func (c *watchedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// handlerStarted: a handler has the request; the head is no longer needed.
func (c *watchedConn) handlerStarted() {
	c.handling.Store(true)
	c.mu.Lock()
	c.head = nil
	c.mu.Unlock()
}

// awaitHead: the previous exchange is over; what comes next is a head.
func (c *watchedConn) awaitHead() {
	c.mu.Lock()
	c.head = nil
	c.mu.Unlock()
	c.handling.Store(false)
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

// CloseIfAmbiguous asks the server to close the connection after this
// response when a request head on it had both framing fields.
func CloseIfAmbiguous(w http.ResponseWriter, r *http.Request) {
	if c, ok := r.Context().Value(connKey{}).(*watchedConn); ok && c.ambiguous.Load() {
		w.Header().Set("Connection", "close")
	}
}

// edgeHandler tells the connection that a handler has the request, then
// answers, with the error body, what Go's server passes on but no route can
// serve: a request target that is not a path ("*" other than in OPTIONS *,
// which the server answers itself, or CONNECT's host:port) and HTTP/2's
// connection preface (h2c with prior knowledge), which this server does not
// speak.
func (cf *config) edgeHandler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := r.Context().Value(connKey{}).(*watchedConn); ok {
			c.handlerStarted()
		}
		var a *protocolError
		switch {
		case r.Method == "PRI" && r.RequestURI == "*":
			a = refuse(http.StatusHTTPVersionNotSupported, "This server does not speak HTTP/2 over plain TCP (h2c): send HTTP/1.1 requests.")
		case r.Method == http.MethodConnect && !strings.HasPrefix(r.RequestURI, "/"):
			a = refuse(http.StatusBadRequest, "This server is not a proxy and does not take CONNECT %s: send requests for its own paths, "+
				"for example GET /user.", quote(r.RequestURI))
		case !strings.HasPrefix(r.URL.Path, "/"):
			a = refuse(http.StatusBadRequest, "The request target %s is not a path: send a path starting with /, for example GET /user.", quote(r.RequestURI))
		}
		if a != nil {
			body := cf.body(w.Header(), a.status, a.detail)
			w.Header().Set("Connection", "close")
			w.WriteHeader(a.status)
			_, _ = w.Write(body)
			return
		}
		h.ServeHTTP(w, r)
	})
}
