// Package protoerr answers, with the API's JSON error body, the requests
// Go's HTTP server refuses before any handler runs.
//
// Why it exists: net/http reads a request head itself and, when it finds
// something wrong (a bad request line or header field, a head over
// MaxHeaderBytes, an unsupported Transfer-Encoding, Expect or HTTP
// version), writes its own answer straight to the connection: "400 Bad
// Request", "431 Request Header Fields Too Large", "501 Not Implemented",
// "505 HTTP Version Not Supported" as text/plain, or an empty 417. No
// handler, middleware or ErrorLog sees these requests, and http.Server
// offers no hook to change these answers (Go 1.26: conn.serve formats them
// with fmt.Fprintf on the raw connection). Plumb's contract asks for the
// spec's error body from every layer, so the connections of WrapListener
// keep the head being read and, until a handler takes the request,
// recognise a response of status 400 or more as the server's refusal and
// send instead the error body with the same status and a detail naming
// what was wrong, found by reading the refused head again (refusal.go).
//
// The Go wording it depends on (go.mod: go 1.26): the status line
// "HTTP/1.1 <code> <reason>[: <text>]" the server writes, the texts
// "missing required Host header" and "malformed Host header" after a 400's
// reason ("invalid header value" too, though Go 1.26's net/textproto
// refuses such a value first, with no text), the 4096 bytes of slack net/http
// reads beyond MaxHeaderBytes before answering 431, and url.ParseRequestURI's
// "invalid port" and "invalid URI for request". wording_test.go fails when
// the running Go's net/http says otherwise.
//
// The same connections watch request heads for both Transfer-Encoding and
// Content-Length. Go's server accepts such a request: it drops
// Content-Length, reads the chunked body, and keeps the connection for the
// next request. RFC 9112 §6.1 asks a server to close the connection after
// answering it (a proxy in front may have framed the body by
// Content-Length: what follows the chunked body is then a smuggled
// request). The server removes Content-Length before the handler sees the
// request, so the connection notices it itself and CloseIfAmbiguous asks
// for the close.
package protoerr
