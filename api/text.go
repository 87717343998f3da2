package api

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
)

// The text rule at the edge (docs/api.md, "Text"): every text a request
// brings in (path parameter, query parameter, JSON body field, report path,
// SARIF string, Idempotency-Key) must be valid UTF-8 without a NUL character.
// PostgreSQL cannot store either, so such text is refused here, on every
// backend alike, with a 400 that names where it was found.

// badText reports whether s cannot be stored as text.
func badText(s string) bool {
	return strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s)
}

// badName reports whether s cannot be a name (a file path, a branch, tag or
// coverage tag, a tool, rule key or fingerprint, an Idempotency-Key): text
// that breaks the text rule, or that holds a Unicode noncharacter
// (U+FDD0–U+FDEF, and U+FFFE and U+FFFF of every plane). Noncharacters are
// for a program's internal use; no tool names a file with one, XML refuses
// them and HTML parsers flag them, so a name holding one is refused rather
// than stored and shown. Free text (a message, a commit message) may hold
// them.
func badName(s string) bool { return badText(s) || noncharacter(s) >= 0 }

// noncharacter returns the first noncharacter in s, or -1.
func noncharacter(s string) rune {
	for i := 0; i < len(s); i++ {
		if s[i] < 0xEF {
			continue // noncharacters are encoded from 0xEF on
		}
		r, _ := utf8.DecodeRuneInString(s[i:])
		if r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE {
			return r
		}
	}
	return -1
}

// nameProblem describes why the name s was refused, for a detail naming
// what.
func nameProblem(what, s string) string {
	if badText(s) {
		return textProblem(what, s)
	}
	return fmt.Sprintf("%s contains the Unicode noncharacter U+%04X, which is not accepted in names (file paths, branches, tags, tools, rule keys, fingerprints, keys).",
		what, noncharacter(s))
}

// textProblem describes why s was refused, for a detail naming what.
func textProblem(what, s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Sprintf("%s contains a NUL character (\\u0000), which is not accepted in text.", what)
	}
	return fmt.Sprintf("%s is not valid UTF-8 text.", what)
}

// checkJSONText walks a JSON value and reports the first string (member
// name or value) that breaks the text rule, naming it by its JSON path under
// name.
func checkJSONText(name string, raw json.RawMessage) string {
	if !utf8.Valid(raw) {
		// encoding/json would silently turn the bad bytes into U+FFFD.
		return fmt.Sprintf("Field %s is not valid UTF-8 text.", name)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return ""
	}
	return walkJSONText(name, v)
}

func walkJSONText(path string, v any) string {
	switch v := v.(type) {
	case string:
		if badText(v) {
			return textProblem("Field "+path, v)
		}
	case []any:
		for i, e := range v {
			if p := walkJSONText(fmt.Sprintf("%s[%d]", path, i), e); p != "" {
				return p
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if badText(k) {
				return textProblem(fmt.Sprintf("A member name in field %s", path), k)
			}
			if p := walkJSONText(path+"."+k, v[k]); p != "" {
				return p
			}
		}
	}
	return ""
}

// checkObjectText applies the text rule to every member of a JSON object.
func checkObjectText(obj map[string]json.RawMessage) error {
	var problems []string
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if badText(k) {
			problems = append(problems, textProblem(fmt.Sprintf("The member name %q", k), k))
			continue
		}
		if p := checkJSONText(k, obj[k]); p != "" {
			problems = append(problems, p)
		}
	}
	return plumb.Invalid(problems)
}

// utf8Reader passes a JSON report through and fails at the first byte that
// is not UTF-8 (RFC 8259 §8.1), which encoding/json would otherwise replace
// silently.
type utf8Reader struct {
	r       io.Reader
	pending []byte // an incomplete rune at the end of the last read
	off     int64
	failed  error // the refusal, kept for parsers that hide their reader's errors
}

// errNotUTF8 is the utf8Reader's refusal; the upload answers 400 with it.
type errNotUTF8 struct{ off int64 }

func (e *errNotUTF8) Error() string {
	return fmt.Sprintf("The report is not valid UTF-8 text (at byte %d); JSON reports must be UTF-8.", e.off)
}

func (u *utf8Reader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	start := u.off - int64(len(u.pending)) // offset of the first unchecked byte
	chk := p[:n]
	if len(u.pending) > 0 {
		// A rune split between two reads (rare): check it whole.
		chk = append(u.pending, chk...)
	}
	u.off += int64(n)
	for i := 0; i < len(chk); {
		if chk[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(chk[i:])
		if r == utf8.RuneError && size <= 1 {
			if !utf8.FullRune(chk[i:]) && err == nil {
				u.pending = append([]byte(nil), chk[i:]...)
				return n, nil
			}
			u.failed = &errNotUTF8{start + int64(i)}
			return 0, u.failed
		}
		i += size
	}
	u.pending = nil
	return n, err
}
