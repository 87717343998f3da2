package source

import (
	"bytes"
	"unicode/utf8"
)

// IsBinary reports whether a content is binary, by the rule `plumb analyze`
// leaves binary files out with (package analyze calls it): git's rule, a
// NUL byte in the first 8000 bytes, or Perl's -B test on the first block,
// which cloc applies.
func IsBinary(b []byte) bool {
	head := b
	if len(head) > 8000 {
		head = head[:8000]
	}
	return bytes.IndexByte(head, 0) >= 0 || perlBinary(b)
}

// perlBinary is Perl's -B file test, which cloc applies to each file: on
// the first block (512 bytes), a file is text when the block is valid
// UTF-8 (a character cut at the block's end allowed) with some non-ASCII
// byte, else binary when it holds a NUL or when more than a third of its
// bytes are odd: neither printable ASCII, nor white space other than the
// vertical tab, nor backspace or escape.
func perlBinary(b []byte) bool {
	if len(b) > 512 {
		b = b[:512]
	}
	if len(b) == 0 {
		return false // empty files are left out on their own
	}
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii && validUTF8Prefix(b) {
		return false
	}
	odd := 0
	for _, c := range b {
		switch {
		case c == 0:
			return true
		case c >= 0x20 && c <= 0x7e, c == '\t', c == '\n', c == '\f', c == '\r', c == '\b', c == 0x1b:
		default:
			odd++
		}
	}
	return odd*3 > len(b)
}

// validUTF8Prefix reports whether b is valid UTF-8 but for a character
// cut short at its end.
func validUTF8Prefix(b []byte) bool {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			// a truncated sequence at the very end is allowed
			if len(b)-i < utf8.UTFMax && !utf8.FullRune(b[i:]) {
				return true
			}
			return false
		}
		i += n
	}
	return true
}
