package api

import (
	"bytes"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/plumbhq/plumb/internal/protoerr"
)

// The server's limits on a request head, which the answers of the
// connection layer (internal/protoerr) name.
const (
	maxHeaderBytes    = 64 << 10
	readHeaderTimeout = 10 * time.Second
	// readTimeout bounds the reading of a whole request (an upload's report
	// extends it).
	readTimeout = 60 * time.Second
)

// NewHTTPServer is the http.Server for the API: its timeouts, and the
// hooks that WrapListener's connections need. Serve it on
// WrapListener(listener), and only there: the connection layer is what
// turns the errors Go's server writes by itself into the spec's error body
// (internal/protoerr).
func NewHTTPServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return protoerr.Configure(&http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          errorLog,
	}, errorAnswer)
}

// errorAnswer is the spec's error body for the connection layer's answers.
func errorAnswer(h http.Header, status int, detail string) []byte {
	setErrorHeaders(h)
	var body bytes.Buffer
	encodeErrorBody(&body, status, []string{detail})
	return body.Bytes()
}

// WrapListener returns a listener whose connections notice a request head
// that has both Transfer-Encoding and Content-Length (the server then closes
// such a connection after its response), and answer the requests Go's
// server refuses before any handler runs with the spec's error body.
func WrapListener(l net.Listener) net.Listener { return protoerr.WrapListener(l) }

// closeIfAmbiguous asks the server to close the connection after this
// response when a request head on it had both framing fields.
func closeIfAmbiguous(w http.ResponseWriter, r *http.Request) { protoerr.CloseIfAmbiguous(w, r) }
