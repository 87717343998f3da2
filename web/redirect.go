package web

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Where sign-in leads: the `next` of /login and of single sign-on, by the
// rule of docs/web.md ("Where sign-in leads"). A target is followed only
// when it is a path of this site however a browser reads it; anything else
// leads to "/".
//
// Browsers do more to a Location than url.Parse does: they drop tabs and
// newlines anywhere, strip leading and trailing control characters and
// spaces, read a backslash as a slash, and resolve "." and ".." segments, so
// "/\t/evil.example" and "/\\evil.example" go to another host, and
// "/.//evil.example" to a path that reads as one. So a target must be
// printable ASCII with no space and no backslash as written; url.Parse must
// find no scheme, host or user in it; and as written and after each layer of
// percent-decoding, its path must neither start with two slashes nor have a
// dot segment, and the decoded text must hold no control, format or
// whitespace character other than the space, and no backslash. A target
// still encoded after two layers is refused.

const maxNextLength = 2048

// localPath returns next when it is a path of this site by that rule, else "/".
func localPath(next string) string {
	if isLocalPath(next) {
		return next
	}
	return "/"
}

func isLocalPath(next string) bool {
	if next == "" || len(next) > maxNextLength || next[0] != '/' {
		return false
	}
	for i := 0; i < len(next); i++ {
		if c := next[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return false
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" || !strings.HasPrefix(u.Path, "/") {
		return false
	}
	// The path as written, and as each layer of percent-decoding reads it.
	path, query := next, ""
	if i := strings.IndexAny(next, "?#"); i >= 0 {
		path, query = next[:i], next[i:]
	}
	for layer := 0; ; layer++ {
		if strings.HasPrefix(path, "//") || hasDotSegment(path) {
			return false
		}
		dp, err1 := url.PathUnescape(path)
		dq, err2 := url.PathUnescape(query)
		if err1 != nil || err2 != nil {
			return false
		}
		if dp == path && dq == query {
			return true
		}
		if layer == 2 || !plainText(dp) || !plainText(dq) {
			return false
		}
		path, query = dp, dq
	}
}

// hasDotSegment reports whether a path has a "." or ".." segment.
func hasDotSegment(path string) bool {
	for _, seg := range strings.Split(path, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// plainText reports whether decoded text is valid UTF-8 without control,
// format (zero-width, bidirectional) or whitespace characters other than the
// space (names of components and files may hold spaces), and no backslash.
func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == '\\' || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || (unicode.IsSpace(r) && r != ' ') {
			return false
		}
	}
	return true
}
