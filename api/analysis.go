package api

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/ingest/coverage"
	"github.com/plumbhq/plumb/ingest/sarif"
	"github.com/plumbhq/plumb/sqlstore"
)

// analysisReader reads an analysis upload (docs/ingest.md) as a stream of
// JSON tokens: each file entry is decoded on its own and goes to the
// snapshot's spool, each embedded SARIF log is skipped and its place in the
// received report noted; once the whole document has been read, each log
// is parsed from there (readLogs). Memory holds a file entry or a finding at
// a time, never the document or the snapshot.
type analysisReader struct {
	dec    *json.Decoder
	mapOpt coverage.Options
	opt    sarif.Options
	q      *query // problems with field values, reported together
	sp     *sqlstore.SnapshotSpool

	head    analysisUpload // the scalar members
	logs    []logRange     // the embedded SARIF logs' places in the report
	nFiles  int
	nIssues int
}

// logRange is where an embedded SARIF log is in the report: from the end
// of the token before it (separators included) to its end.
type logRange struct{ start, end int64 }

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
		return a.sp.AddFile(plumb.FileFigures{Path: p, Lines: f.Lines, LOC: f.LOC, Complexity: f.Complexity, DuplicatedLines: f.DuplicatedLines})
	}
	return nil
}

func (a *analysisReader) removedPath(i int) error {
	var s string
	if err := a.dec.Decode(&s); err != nil {
		return &errShape{fmt.Errorf("removed[%d]: %w", i, err)}
	}
	if p, ok := analysisPath(a.q, fmt.Sprintf("removed[%d]", i), s, a.mapOpt); ok {
		return a.sp.AddRemoved(p)
	}
	return nil
}

// sarifLog notes where an embedded log is and skips it.
func (a *analysisReader) sarifLog(i int) error {
	start := a.dec.InputOffset()
	if err := skipValue(a.dec); err != nil {
		return &errShape{fmt.Errorf("sarif[%d]: %w", i, err)}
	}
	a.logs = append(a.logs, logRange{start, a.dec.InputOffset()})
	return nil
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

// readLogs parses the embedded SARIF logs from the received report (the
// whole document has been read: the logs are well-formed JSON) into the
// spool.
func (a *analysisReader) readLogs(report io.ReaderAt) error {
	for i, l := range a.logs {
		r := bufio.NewReaderSize(io.NewSectionReader(report, l.start, l.end-l.start), 64<<10)
		// The separators before the log are not part of it.
		for {
			c, err := r.ReadByte()
			if err != nil {
				break
			}
			if !strings.ContainsRune(" \t\r\n,", rune(c)) {
				r.UnreadByte()
				break
			}
		}
		prefix := fmt.Sprintf("sarif[%d]: ", i)
		err := sarif.ParseEach(r, a.opt, func(is plumb.Issue) error {
			a.nIssues++
			if err := checkIssueText(prefix, is); err != nil {
				return err
			}
			return a.sp.AddIssue(is)
		})
		var se *sarif.ParseError
		if errors.As(err, &se) {
			return plumb.Errorf(plumb.EINVALID, "%s%v", prefix, err)
		} else if err != nil {
			return err
		}
	}
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
