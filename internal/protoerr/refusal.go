package protoerr

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Refusals: requests that Go's HTTP server refuses before any handler
// runs. The server writes those answers itself, straight to the connection,
// as text/plain ("400 Bad Request", "431 Request Header Fields Too Large",
// "501 Not Implemented", "505 HTTP Version Not Supported") or as an empty
// 417. The contract asks for the spec's error body from every layer, so the
// connection (conn.go) recognises such a write and sends instead the error
// body with the same status and a detail that names what was wrong, found
// by reading the refused head again: Go's own text says little ("400 Bad
// Request" alone for a bad percent escape, a header line without a colon or
// two Host headers).
//
// The rules below follow Go's request reader (net/http readRequest and
// net/textproto) in its order, so the first problem named is the one Go
// stopped at. A head this code finds nothing wrong with still gets the
// error body, with a detail that lists what to check.

// protocolError is one of the connection's own answers.
type protocolError struct {
	status int
	detail string
}

func refuse(status int, format string, args ...any) *protocolError {
	return &protocolError{status: status, detail: fmt.Sprintf(format, args...)}
}

// response is the whole answer: the error body, its length, and
// Connection: close (the server closes the connection after it).
func (cf *config) response(a *protocolError) []byte {
	h := http.Header{}
	body := cf.body(h, a.status, a.detail)
	h.Set("Connection", "close")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", a.status, http.StatusText(a.status))
	h.Write(&b)
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// serverRefusal reports whether p, written before any handler had the
// request, is the server's refusal: a whole response of status 400 or more.
// said is the explanation Go put after the reason phrase, if any
// ("400 Bad Request: missing required Host header").
func serverRefusal(p []byte) (status int, said string, ok bool) {
	head, _, found := bytes.Cut(p, []byte("\r\n\r\n"))
	if !found || !bytes.HasPrefix(head, []byte("HTTP/1.")) {
		return 0, "", false
	}
	line, _, _ := bytes.Cut(head, []byte("\r\n"))
	_, rest, _ := bytes.Cut(line, []byte(" "))
	code, reason, _ := bytes.Cut(rest, []byte(" "))
	status, err := strconv.Atoi(string(code))
	if err != nil || status < 400 || status > 599 || http.StatusText(status) == "" {
		return 0, "", false
	}
	_, said, _ = strings.Cut(string(reason), ": ")
	return status, said, true
}

// unfinishedHead answers a head that will never be complete: a TLS
// handshake sent to this plain-HTTP port (answered at once), or a head still
// incomplete when the read deadline passed (408). Otherwise nil: the server
// reads on, or drops an idle connection without an answer.
func (cf *config) unfinishedHead(head []byte, err error) *protocolError {
	// A TLS record: content type 22 (handshake), version 3.x.
	if len(head) >= 2 && head[0] == 0x16 && head[1] == 0x03 {
		return refuse(http.StatusBadRequest, "This server speaks plain HTTP and the client started a TLS handshake: "+
			"use http:// for this address, or reach the server through the proxy that terminates TLS for it.")
	}
	var ne net.Error
	if err == nil || !errors.As(err, &ne) || !ne.Timeout() {
		return nil
	}
	head = bytes.TrimLeft(head, "\r\n")
	if len(head) == 0 || headEnd(head) >= 0 {
		return nil
	}
	return refuse(http.StatusRequestTimeout, "The request's head (request line and header fields) did not arrive within %d seconds: "+
		"send the whole head at once, ending with an empty line.", int(cf.readHeaderTimeout/time.Second))
}

// headEnd is the offset just past the empty line that ends a head, or -1.
func headEnd(head []byte) int {
	for i := 0; i < len(head); i++ {
		if head[i] != '\n' {
			continue
		}
		rest := head[i+1:]
		if len(rest) > 0 && rest[0] == '\n' {
			return i + 2
		}
		if len(rest) > 1 && rest[0] == '\r' && rest[1] == '\n' {
			return i + 3
		}
	}
	return -1
}

// refusalAnswer is the error body for the server's refusal of head.
func (cf *config) refusalAnswer(status int, said string, head []byte) *protocolError {
	if a := cf.unfinishedHead(head, nil); a != nil {
		return a
	}
	switch status {
	case http.StatusRequestHeaderFieldsTooLarge:
		return cf.headTooLarge(head)
	case http.StatusHTTPVersionNotSupported:
		const speaks = "this server speaks HTTP/1.1 (and HTTP/1.0): send the request as HTTP/1.1."
		if _, _, proto, ok := requestLine(head); ok {
			return refuse(status, "The request's protocol is %s; "+speaks, quote(proto))
		}
		return refuse(status, "The request's protocol is not supported; "+speaks)
	case http.StatusNotImplemented:
		return unsupportedTransferEncoding(head)
	case http.StatusExpectationFailed:
		return refuse(status, "The request's Expect header %s is not supported: send Expect: 100-continue or no Expect header.",
			quote(strings.Join(parseHead(head).values("Expect"), ", ")))
	case http.StatusBadRequest:
		if a := badHead(head, said); a != nil {
			return a
		}
		return refuse(status, "The request is not valid HTTP/1.1: check the request line (METHOD /path HTTP/1.1), "+
			"the percent escapes and control characters in the URL, and the header lines (Name: value, one Host).")
	}
	if http.StatusText(status) == "" {
		status = http.StatusBadRequest
	}
	return refuse(status, "The server refused the request before reading it: %s.", http.StatusText(status))
}

// headTooLarge: the head passed Go's limit. When the request line is most of
// it, the answer is 414 URI Too Long, which tells the client what to
// shorten; otherwise 431.
func (cf *config) headTooLarge(head []byte) *protocolError {
	limit := cf.headLimit >> 10
	line, _, complete := bytes.Cut(head, []byte("\n"))
	if len(head) > 0 && (!complete || len(line) > len(head)/2) {
		return refuse(http.StatusRequestURITooLong, "The request's URL is too long: the request line and header fields may "+
			"take %d KiB together. Shorten the URL (fewer or shorter query parameters).", limit)
	}
	return refuse(http.StatusRequestHeaderFieldsTooLarge, "The request's header fields are too large: the request line and "+
		"header fields may take %d KiB together. Send fewer or shorter header fields.", limit)
}

func unsupportedTransferEncoding(head []byte) *protocolError {
	te := parseHead(head).values("Transfer-Encoding")
	const fix = "send the body with a Content-Length, or with Transfer-Encoding: chunked alone " +
		"(to compress a report, send it with Content-Encoding: gzip)."
	if len(te) > 1 {
		return refuse(http.StatusNotImplemented, "The request has %d Transfer-Encoding header fields: %s", len(te), fix)
	}
	return refuse(http.StatusNotImplemented, "The request's Transfer-Encoding %s is not supported: %s", quote(strings.Join(te, ", ")), fix)
}

// badHead names the first thing wrong with a head that Go refused with 400.
func badHead(raw []byte, said string) *protocolError {
	const bad = http.StatusBadRequest
	head := bytes.TrimLeft(raw, "\r\n")
	if len(head) == 0 {
		if len(raw) == 0 {
			return nil
		}
		return refuse(bad, "The request is an empty line: send a request line (for example GET /user HTTP/1.1) first.")
	}
	// Go skips empty lines before a request only after a POST; elsewhere an
	// empty first line is the fault when nothing after it is.
	afterEmptyLine := len(head) < len(raw)
	method, target, proto, ok := requestLine(head)
	if !bytes.Contains(head, []byte("\n")) {
		return refuse(bad, "The request ended inside its request line %s: send METHOD /path HTTP/1.1 and a line break.", quote(string(head)))
	}
	if !ok {
		line, _, _ := bytes.Cut(head, []byte("\n"))
		return refuse(bad, "The request line %s is not METHOD, target and version separated by single spaces, "+
			"for example GET /user HTTP/1.1.", quote(string(bytes.TrimRight(line, "\r"))))
	}
	if !isToken(method) {
		return refuse(bad, "The method %s is not valid: a method is a token such as GET or POST.", quote(method))
	}
	if _, _, ok := http.ParseHTTPVersion(proto); !ok {
		if strings.Contains(proto, " ") {
			i := strings.LastIndexByte(proto, ' ')
			return refuse(bad, "The request target %s contains a space: percent-encode spaces in a URL as %%20.", quote(target+" "+proto[:i]))
		}
		return refuse(bad, "The request's protocol version %s is malformed: send HTTP/1.1.", quote(proto))
	}
	if a := badTarget(method, target); a != nil {
		return a
	}
	h := parseHead(head)
	if h.problem != nil {
		return h.problem
	}
	if a := badFields(h, said); a != nil {
		return a
	}
	if !h.complete {
		return refuse(bad, "The request ended inside its header: end the header with an empty line (CRLF CRLF).")
	}
	if afterEmptyLine {
		return refuse(bad, "The request starts with an empty line: send the request line (for example GET /user HTTP/1.1) first.")
	}
	return nil
}

// requestLine splits a head's first line as Go does: at the first two
// spaces.
func requestLine(head []byte) (method, target, proto string, ok bool) {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	s := string(bytes.TrimSuffix(line, []byte("\r")))
	method, rest, ok1 := strings.Cut(s, " ")
	target, proto, ok2 := strings.Cut(rest, " ")
	return method, target, proto, ok1 && ok2
}

// badTarget names what url.ParseRequestURI refuses in a request target.
func badTarget(method, target string) *protocolError {
	const bad = http.StatusBadRequest
	for i := 0; i < len(target); i++ {
		if c := target[i]; c < 0x20 || c == 0x7f {
			return refuse(bad, "The request target %s contains the control character 0x%02X: percent-encode it (%%%02X).", quote(target), c, c)
		}
	}
	raw := target
	if method == http.MethodConnect && !strings.HasPrefix(raw, "/") {
		raw = "http://" + raw
	}
	_, err := url.ParseRequestURI(raw)
	if err == nil {
		return nil
	}
	var escape url.EscapeError
	var host url.InvalidHostError
	switch {
	case errors.As(err, &escape):
		return refuse(bad, "The request target %s has an invalid percent escape %s: %% must be followed by two hexadecimal digits "+
			"(write a literal %% as %%25).", quote(target), quote(string(escape)))
	case errors.As(err, &host):
		return refuse(bad, "The request target %s names an invalid host %s.", quote(target), quote(string(host)))
	case strings.Contains(err.Error(), "invalid port"):
		return refuse(bad, "The request target %s has an invalid port: a port is a number.", quote(target))
	case strings.Contains(err.Error(), "invalid URI for request"):
		return refuse(bad, "The request target %s is not a path starting with / (nor an absolute URL).", quote(target))
	}
	why := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) {
		why = ue.Err.Error()
	}
	return refuse(bad, "The request target %s is not a valid URL: %s.", quote(target), why)
}

// badFields names the first header field Go refuses, in the order Go
// checks them: each line's form, then Host, names and values, then the
// body's framing.
func badFields(h *headFields, said string) *protocolError {
	const bad = http.StatusBadRequest
	switch hosts := h.values("Host"); {
	case len(hosts) > 1:
		return refuse(bad, "The request has %d Host header fields: send exactly one.", len(hosts))
	case said == "missing required Host header":
		return refuse(bad, "An HTTP/1.1 request needs a Host header field naming the server, for example Host: plumb.example.com.")
	case said == "malformed Host header":
		return refuse(bad, "The Host header %s is not a valid host: send the server's name or address, optionally with :port.", quote(strings.Join(hosts, ", ")))
	}
	for _, f := range h.fields {
		if strings.Contains(f.name, " ") {
			return refuse(bad, "The header field name %s is not valid: a field name is letters, digits and !#$%%&'*+-.^_`|~ "+
				"with no space, followed directly by a colon.", quote(f.name))
		}
	}
	lengths := h.values("Content-Length")
	for _, l := range lengths[min(1, len(lengths)):] {
		if strings.TrimSpace(l) != strings.TrimSpace(lengths[0]) {
			return refuse(bad, "The request has Content-Length header fields with different values (%s): send one.", quote(strings.Join(lengths, ", ")))
		}
	}
	if len(lengths) > 0 {
		if _, err := strconv.ParseUint(strings.TrimSpace(lengths[0]), 10, 63); err != nil {
			return refuse(bad, "The Content-Length %s is not valid: it is the body's size in bytes, a whole number of 0 or more.", quote(lengths[0]))
		}
	}
	if te := h.values("Transfer-Encoding"); len(te) == 1 && strings.EqualFold(te[0], "chunked") {
		for _, t := range h.values("Trailer") {
			for _, name := range strings.Split(t, ",") {
				switch http.CanonicalHeaderKey(strings.TrimSpace(name)) {
				case "Transfer-Encoding", "Trailer", "Content-Length":
					return refuse(bad, "The Trailer header announces %s, which a trailer may not carry: remove it from Trailer.", quote(strings.TrimSpace(name)))
				}
			}
		}
	}
	if said == "invalid header value" {
		return refuse(bad, "A header field value contains a control character: remove it, or percent-encode it.")
	}
	return nil
}

// headFields is a head's header section, read as net/textproto reads it.
type headFields struct {
	fields []headField
	// complete: the empty line that ends the head was read.
	complete bool
	// problem: the first line textproto refuses.
	problem *protocolError
}

type headField struct{ name, value string }

func (h *headFields) values(name string) []string {
	var vs []string
	for _, f := range h.fields {
		if strings.EqualFold(f.name, name) {
			vs = append(vs, f.value)
		}
	}
	return vs
}

// parseHead reads the header lines after the request line. Continuation
// lines (starting with a space or a tab) join the field before them, as
// textproto allows.
func parseHead(head []byte) *headFields {
	const bad = http.StatusBadRequest
	h := &headFields{}
	lines := strings.Split(string(head), "\n")
	if len(lines) < 2 {
		return h
	}
	lines = lines[1 : len(lines)-1] // the last piece has no line break: unfinished
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			h.complete = true
			return h
		}
		if line[0] == ' ' || line[0] == '\t' {
			if i == 0 {
				h.problem = refuse(bad, "The first header line %s starts with white space: a header field starts at the beginning of its line.", quote(line))
				return h
			}
			if n := len(h.fields); n > 0 {
				h.fields[n-1].value += " " + strings.TrimSpace(line)
			}
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			h.problem = refuse(bad, "The header line %s has no colon: write each header field as Name: value.", quote(line))
			return h
		}
		if name == "" {
			h.problem = refuse(bad, "The header line %s has no field name before its colon.", quote(line))
			return h
		}
		if !isToken(strings.ReplaceAll(name, " ", "")) {
			h.problem = refuse(bad, "The header field name %s is not valid: a field name is letters, digits and !#$%%&'*+-.^_`|~ "+
				"with no space, followed directly by a colon.", quote(name))
			return h
		}
		for j := 0; j < len(value); j++ {
			if c := value[j]; (c < 0x20 && c != '\t') || c == 0x7f {
				h.problem = refuse(bad, "The value of the header field %s contains the control character 0x%02X: remove it.", quote(name), c)
				return h
			}
		}
		h.fields = append(h.fields, headField{name: name, value: strings.TrimLeft(value, " \t")})
	}
	return h
}

// isToken: RFC 9110's token, the form of methods and field names.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// quote quotes what the client sent, cut to a readable length.
func quote(s string) string {
	const max = 100
	if len(s) > max {
		return strconv.Quote(s[:max]) + "…"
	}
	return strconv.Quote(s)
}
