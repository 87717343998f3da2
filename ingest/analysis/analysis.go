// Package analysis reads the analysis upload format (docs/ingest.md,
// "Analysis"): one JSON object with the commit (commitSha, branch,
// analyzedAt, fullTree), the files' figures (files), the paths removed
// (removed), the duplicated blocks (clones) and embedded SARIF logs (sarif). The API reads uploads with
// Read; plumb upload analysis reads its --stats file, the files and removed
// lists alone, with ReadStats. Both stream: the document is read token by
// token and each list element decoded on its own, so memory holds one
// element at a time, whatever the document's size; embedded SARIF logs are
// skipped and their places reported, for the caller to parse them from
// there.
//
// It imports no other Plumb package.
package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// File is one file's figures.
type File struct {
	Path            string `json:"path"`
	Lines           int64  `json:"lines"`
	LOC             int64  `json:"loc"`
	Complexity      int64  `json:"complexity"`
	DuplicatedLines int64  `json:"duplicatedLines"`
}

// Place is where one copy of a duplicated block is: lines StartLine to
// EndLine (1-based, inclusive) of Path.
type Place struct {
	Path      string `json:"path"`
	StartLine int64  `json:"startLine"`
	EndLine   int64  `json:"endLine"`
}

// Clone is one duplicated block, as the analyzer reports it: an earlier
// copy (A), a later one (B) and the block's length in lines.
type Clone struct {
	A     Place `json:"a"`
	B     Place `json:"b"`
	Lines int64 `json:"lines"`
}

// Head holds the scalar members of an upload ("" and nil when absent or
// null).
type Head struct {
	CommitSHA  string
	Branch     string
	AnalyzedAt string
	FullTree   *bool
}

// Handler receives the lists' elements as they are read; i is the element's
// index in its list. A nil func receives nothing. An error a func returns
// stops the reading and is returned as it is.
type Handler struct {
	List    func(name string) error // a list ("files", "removed", "clones" or "sarif") begins; not called for a null one
	File    func(i int, f File) error
	Removed func(i int, path string) error
	Clone   func(i int, c Clone) error
	// SARIF receives where an embedded log is in the input: from the end of
	// the token before it (separators included) to its end. The log was
	// skipped; it is well-formed JSON once the whole document has been read.
	SARIF func(i int, start, end int64) error
	End   func(name string) error // a list ends
}

// ShapeError is a document that is not JSON of the format's shape; Err says
// where and why.
type ShapeError struct{ Err error }

func (e *ShapeError) Error() string { return e.Err.Error() }
func (e *ShapeError) Unwrap() error { return e.Err }

func shapef(format string, args ...any) error { return &ShapeError{fmt.Errorf(format, args...)} }

// ErrTrailingData is a document with more data after its JSON value.
var ErrTrailingData = errors.New("more data follows the JSON value")

type reader struct {
	dec  *json.Decoder
	h    Handler
	head Head
}

func newReader(r io.Reader, h Handler) *reader {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	return &reader{dec: dec, h: h}
}

// Read reads an analysis upload from r. Offsets given to h.SARIF count
// from r's first byte.
func Read(r io.Reader, h Handler) (Head, error) {
	a := newReader(r, h)
	t, err := a.token()
	if err != nil {
		return Head{}, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return Head{}, shapef("the analysis must start with %q, got %v", json.Delim('{'), t)
	}
	err = a.members(func(key string) error {
		switch key {
		case "commitSha", "branch", "analyzedAt":
			var v *string
			if err := a.dec.Decode(&v); err != nil {
				return shapef("field %s: %w", key, err)
			}
			if v != nil {
				*map[string]*string{"commitSha": &a.head.CommitSHA, "branch": &a.head.Branch, "analyzedAt": &a.head.AnalyzedAt}[key] = *v
			}
			return nil
		case "fullTree":
			if err := a.dec.Decode(&a.head.FullTree); err != nil {
				return shapef("field fullTree: %w", err)
			}
			return nil
		case "files", "removed", "clones", "sarif":
			return a.list(key)
		}
		return shapef("json: unknown field %q", key)
	})
	return a.head, err
}

// ReadStats reads the lists of an analysis alone: {"files":[…],"removed":[…]}
// or just the files array, as plumb upload analysis --stats takes them. It
// refuses what the upload would be refused for early: a list given twice,
// an empty path.
func ReadStats(r io.Reader, h Handler) error {
	seen := map[string]bool{}
	checked := h
	checked.List = func(name string) error {
		if seen[name] {
			return shapef("field %q appears twice", name)
		}
		seen[name] = true
		return call(h.List, name)
	}
	checked.File = func(i int, f File) error {
		if strings.TrimSpace(f.Path) == "" {
			return shapef("files[%d]: path is required", i)
		}
		return call2(h.File, i, f)
	}
	checked.Removed = func(i int, p string) error {
		if strings.TrimSpace(p) == "" {
			return shapef("removed[%d]: empty path", i)
		}
		return call2(h.Removed, i, p)
	}
	a := newReader(r, checked)
	t, err := a.token()
	if err != nil {
		return err
	}
	switch t {
	case json.Delim('['):
		if err := a.elements("files"); err != nil {
			return err
		}
		return a.end()
	case json.Delim('{'):
		return a.members(func(key string) error {
			if key != "files" && key != "removed" {
				return shapef("unknown field %q: the stats are {\"files\":[…],\"removed\":[…]} or just the files array", key)
			}
			return a.list(key)
		})
	}
	return shapef("the stats must be a JSON object {\"files\":[…],\"removed\":[…]} or an array of files")
}

func (a *reader) token() (json.Token, error) {
	t, err := a.dec.Token()
	if err != nil {
		return nil, &ShapeError{err}
	}
	return t, nil
}

// members reads an object's members after its '{', then checks that
// nothing follows the object.
func (a *reader) members(member func(key string) error) error {
	for a.dec.More() {
		t, err := a.token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		if err := member(key); err != nil {
			return err
		}
	}
	if _, err := a.token(); err != nil { // the closing brace
		return err
	}
	return a.end()
}

// end checks that nothing follows the document's value.
func (a *reader) end() error {
	if _, err := a.dec.Token(); err != io.EOF {
		return ErrTrailingData
	}
	return nil
}

// list reads an array member (null is an empty one).
func (a *reader) list(name string) error {
	t, err := a.token()
	if err != nil || t == nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return shapef("field %s must be an array, got %v", name, t)
	}
	return a.elements(name)
}

// elements reads the elements of a list whose '[' was just read, and its ']'.
func (a *reader) elements(name string) error {
	if err := call(a.h.List, name); err != nil {
		return err
	}
	for i := 0; a.dec.More(); i++ {
		if err := a.element(name, i); err != nil {
			return err
		}
	}
	if _, err := a.token(); err != nil { // ']'
		return err
	}
	return call(a.h.End, name)
}

func (a *reader) element(list string, i int) error {
	switch list {
	case "files":
		var f File
		if err := a.dec.Decode(&f); err != nil {
			return shapef("files[%d]: %w", i, err)
		}
		return call2(a.h.File, i, f)
	case "removed":
		var p string
		if err := a.dec.Decode(&p); err != nil {
			return shapef("removed[%d]: %w", i, err)
		}
		return call2(a.h.Removed, i, p)
	case "clones":
		var c Clone
		if err := a.dec.Decode(&c); err != nil {
			return shapef("clones[%d]: %w", i, err)
		}
		return call2(a.h.Clone, i, c)
	}
	start := a.dec.InputOffset()
	if err := skipValue(a.dec); err != nil {
		return shapef("sarif[%d]: %w", i, err)
	}
	if a.h.SARIF == nil {
		return nil
	}
	return a.h.SARIF(i, start, a.dec.InputOffset())
}

func call(f func(string) error, name string) error {
	if f == nil {
		return nil
	}
	return f(name)
}

func call2[T any](f func(int, T) error, i int, v T) error {
	if f == nil {
		return nil
	}
	return f(i, v)
}

// skipValue reads one JSON value token by token, holding none of it.
func skipValue(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); ok && (d == '{' || d == '[') {
		for dec.More() {
			if d == '{' { // the member's name
				if _, err := dec.Token(); err != nil {
					return err
				}
			}
			if err := skipValue(dec); err != nil {
				return err
			}
		}
		_, err = dec.Token() // the closing delimiter
	}
	return err
}
