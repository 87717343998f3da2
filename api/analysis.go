package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/ingest/coverage"
	"github.com/plumbhq/plumb/ingest/sarif"
)

// analysisReader reads an analysis upload (docs/ingest.md) as a stream of
// JSON tokens: each file entry is decoded on its own and kept as the
// snapshot's figures, each embedded SARIF log is parsed and dropped as soon
// as it is read, so memory holds what the snapshot stores (its files and
// issues), not the document besides.
type analysisReader struct {
	dec    *json.Decoder
	mapOpt coverage.Options
	opt    sarif.Options
	q      *query // problems with field values, reported together

	head    analysisUpload // the scalar members
	files   []plumb.FileFigures
	removed []string
	issues  []plumb.Issue
	nFiles  int
}

// errShape is a document that is not an analysis.
type errShape struct{ err error }

func (e *errShape) Error() string {
	return fmt.Sprintf("The analysis is not valid JSON of the documented shape: %v.", e.err)
}

func shapef(format string, args ...any) error { return &errShape{fmt.Errorf(format, args...)} }

func (a *analysisReader) read() error {
	if err := a.delim('{', "the analysis"); err != nil {
		return err
	}
	for a.dec.More() {
		t, err := a.dec.Token()
		if err != nil {
			return &errShape{err}
		}
		key, _ := t.(string)
		switch key {
		case "commitSha", "branch", "analyzedAt":
			var v *string
			if err := a.dec.Decode(&v); err != nil {
				return &errShape{fmt.Errorf("field %s: %w", key, err)}
			}
			if v != nil {
				*map[string]*string{"commitSha": &a.head.CommitSHA, "branch": &a.head.Branch, "analyzedAt": &a.head.AnalyzedAt}[key] = *v
			}
		case "fullTree":
			if err := a.dec.Decode(&a.head.FullTree); err != nil {
				return &errShape{fmt.Errorf("field fullTree: %w", err)}
			}
		case "files":
			if err := a.array("files", a.file); err != nil {
				return err
			}
		case "removed":
			if err := a.array("removed", a.removedPath); err != nil {
				return err
			}
		case "sarif":
			if err := a.array("sarif", a.sarifLog); err != nil {
				return err
			}
		default:
			return shapef("json: unknown field %q", key)
		}
	}
	if _, err := a.dec.Token(); err != nil { // the closing brace
		return &errShape{err}
	}
	if _, err := a.dec.Token(); err != io.EOF {
		return plumb.Errorf(plumb.EINVALID, "The analysis must hold exactly one JSON object; more data follows it.")
	}
	return nil
}

func (a *analysisReader) delim(want json.Delim, what string) error {
	t, err := a.dec.Token()
	if err != nil {
		return &errShape{err}
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return shapef("%s must start with %q, got %v", what, want, t)
	}
	return nil
}

// array reads an array member (null is an empty one), calling each with
// the index of every element, which each decodes.
func (a *analysisReader) array(name string, each func(i int) error) error {
	t, err := a.dec.Token()
	if err != nil {
		return &errShape{err}
	}
	if t == nil {
		return nil
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return shapef("field %s must be an array, got %v", name, t)
	}
	for i := 0; a.dec.More(); i++ {
		if err := each(i); err != nil {
			return err
		}
	}
	_, err = a.dec.Token()
	if err != nil {
		return &errShape{err}
	}
	return nil
}

func (a *analysisReader) file(i int) error {
	var f analysisFile
	if err := a.dec.Decode(&f); err != nil {
		return &errShape{fmt.Errorf("files[%d]: %w", i, err)}
	}
	a.nFiles++
	if p, ok := analysisPath(a.q, fmt.Sprintf("files[%d].path", i), f.Path, a.mapOpt); ok {
		a.files = append(a.files, plumb.FileFigures{Path: p, Lines: f.Lines, LOC: f.LOC, Complexity: f.Complexity, DuplicatedLines: f.DuplicatedLines})
	}
	return nil
}

func (a *analysisReader) removedPath(i int) error {
	var s string
	if err := a.dec.Decode(&s); err != nil {
		return &errShape{fmt.Errorf("removed[%d]: %w", i, err)}
	}
	if p, ok := analysisPath(a.q, fmt.Sprintf("removed[%d]", i), s, a.mapOpt); ok {
		a.removed = append(a.removed, p)
	}
	return nil
}

func (a *analysisReader) sarifLog(i int) error {
	var doc json.RawMessage
	if err := a.dec.Decode(&doc); err != nil {
		return &errShape{fmt.Errorf("sarif[%d]: %w", i, err)}
	}
	issues, err := sarif.Parse(bytes.NewReader(doc), a.opt)
	if err != nil {
		return plumb.Errorf(plumb.EINVALID, "sarif[%d]: %v", i, err)
	}
	if err := checkIssuesText(fmt.Sprintf("sarif[%d]: ", i), issues); err != nil {
		return err
	}
	a.issues = append(a.issues, issues...)
	return nil
}

// analysisFailure turns a reading error into the response's error.
func analysisFailure(body *limitedBody, ur *utf8Reader, err error) error {
	var pe *plumb.Error
	switch {
	case body.exceeded:
		return tooLarge(body.limit)
	case ur.failed != nil:
		return plumb.Errorf(plumb.EINVALID, "%s", ur.failed.Error())
	case errors.As(err, &pe):
		return err
	}
	return plumb.Errorf(plumb.EINVALID, "%s", err.Error())
}
