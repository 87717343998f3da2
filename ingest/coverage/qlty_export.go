package coverage

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxQltyExportLine is the longest line of a qlty report Plumb reads (64 MiB: a
// file of 4 Mi lines, Plumb's most, with short hit counts), so that one line
// cannot take memory without bound.
const MaxQltyExportLine = 64 << 20

// qltyExportLineCap is MaxQltyExportLine (tests lower it).
var qltyExportLineCap = MaxQltyExportLine

// ParseQltyExport reads a file_coverages-NNN.jsonl member of the coverage.zip
// that "qlty coverage publish" builds: the qlty format (see parseQlty) as
// the qlty CLI's serializer writes it, which leaves out empty members, so a
// file with no lines has no "hits" (read as a file of no lines). Lines over
// MaxQltyExportLine bytes are refused.
func ParseQltyExport(r io.Reader, opt Options, emit Emit) error {
	return parseQltyLines(r, opt, emit, false)
}

// parseQltyLines reads a qlty report line by line (lines of at most
// MaxQltyExportLine bytes); without needHits a line with no "hits" is a file
// of no lines.
func parseQltyLines(r io.Reader, opt Options, emit Emit, needHits bool) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				if len(long)+len(line) > qltyExportLineCap {
					return &ParseError{Format: Qlty, Line: lineNo, Msg: fmt.Sprintf("the line is longer than %d bytes", qltyExportLineCap)}
				}
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if text := bytes.TrimSpace(line); len(text) > 0 {
			f, perr := qltyFile(text, opt, needHits)
			if perr != "" {
				return &ParseError{Format: Qlty, Line: lineNo, Msg: perr}
			}
			if eerr := emit(f); eerr != nil {
				return eerr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
}
