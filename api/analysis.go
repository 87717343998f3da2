package api

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/ingest/analysis"
	"github.com/plumbhq/plumb/ingest/coverage"
	"github.com/plumbhq/plumb/ingest/sarif"
)

// analysisReader reads an analysis upload (docs/ingest.md) with
// ingest/analysis, which streams it: each file entry goes to the snapshot's
// spool, each embedded SARIF log is skipped and its place in the received
// report noted; once the whole document has been read, each log is parsed
// from there (readLogs). Memory holds a file entry or a finding at a time,
// never the document or the snapshot.
type analysisReader struct {
	r      io.Reader // the upload
	mapOpt coverage.Options
	opt    sarif.Options
	q      *query // problems with field values, reported together
	sp     plumb.SnapshotSpool

	head    analysis.Head // the scalar members
	logs    []logRange    // the embedded SARIF logs' places in the report
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

func (a *analysisReader) read() error {
	head, err := analysis.Read(a.r, analysis.Handler{
		File: func(i int, f analysis.File) error {
			a.nFiles++
			if p, ok := analysisPath(a.q, fmt.Sprintf("files[%d].path", i), f.Path, a.mapOpt); ok {
				return a.sp.AddFile(plumb.FileFigures{Path: p, Lines: f.Lines, LOC: f.LOC, Complexity: f.Complexity, DuplicatedLines: f.DuplicatedLines})
			}
			return nil
		},
		Removed: func(i int, s string) error {
			if p, ok := analysisPath(a.q, fmt.Sprintf("removed[%d]", i), s, a.mapOpt); ok {
				return a.sp.AddRemoved(p)
			}
			return nil
		},
		Clone: func(i int, c analysis.Clone) error {
			var places [2]plumb.ClonePlace
			valid := true
			for side, p := range [2]analysis.Place{c.A, c.B} {
				field := fmt.Sprintf("clones[%d].%s.path", i, [2]string{"a", "b"}[side])
				path, ok := analysisPath(a.q, field, p.Path, a.mapOpt)
				valid = valid && ok
				places[side] = plumb.ClonePlace{Path: path, StartLine: clampInt(p.StartLine), EndLine: clampInt(p.EndLine)}
			}
			if !valid {
				return nil
			}
			return a.sp.AddClone(places[0], places[1], clampInt(c.Lines))
		},
		SARIF: func(_ int, start, end int64) error {
			a.logs = append(a.logs, logRange{start, end})
			return nil
		},
	})
	a.head = head
	if se, ok := errors.AsType[*analysis.ShapeError](err); ok {
		return &errShape{se.Err}
	} else if errors.Is(err, analysis.ErrTrailingData) {
		return plumb.Errorf(plumb.EINVALID, "The analysis must hold exactly one JSON object; more data follows it.")
	}
	return err
}

// clampInt is n as an int, a number past int's range its nearest bound
// (which the spool refuses as out of the file's lines, or keeps as it is).
func clampInt(n int64) int {
	return int(max(min(n, 1<<31-1), -1<<31))
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
