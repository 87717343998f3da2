package coverage

// LCOV tracefiles (geninfo(1) "TRACEFILE FORMAT"), as written by lcov,
// c8/nyc/istanbul, llvm-cov export -format=lcov, kcov, grcov, …:
//
//	TN:<test name>
//	SF:<path of the source file>
//	FN:<line>,<name>  FNDA:<count>,<name>  FNF:  FNH:       (functions: ignored)
//	BRDA:<line>,<block>,<branch>,<taken>  BRF:  BRH:       (branches; summaries ignored)
//	DA:<line>,<count>[,<checksum>]                         (line hits)
//	LF:<lines found>  LH:<lines hit>                       (summaries: ignored)
//	end_of_record
//
// The reader streams: one bufio buffer for the whole report and, per record,
// its DA lines (sparse: one entry per DA record, whatever its line number).
// Each record is emitted at its end_of_record, with freshly allocated lines
// since Emit may keep them.
//
// Branches: each BRDA record is one branch of its line, covered when taken
// is a count above 0 ("-": its condition never ran, or 0: not taken); a
// line's figures are its BRDA records counted (so a BRDA given twice counts
// twice, as a line's DA counts add up). <block> and <branch> are not
// interpreted (lcov 2 may write an expression there), so only the first and
// the last field are read, and a BRDA names at least four fields.
//
// Rules: lines without a DA record are not coverable (-1); a line given twice
// in one record has its counts added; TN, FN, FNDA, FNF, FNH, BRF, BRH,
// LF, LH, VER and any other "KEY:…" record are ignored, as are empty lines and
// "#" comments; anything else is an error, as is DA before SF, a field that is
// not a decimal integer, a line number below 1 or above maxLine, a negative
// count, a BRDA before SF or whose taken is neither "-" nor a count, and a
// record left open: an SF before the open record's
// end_of_record, or the report's end inside a record (a report cut short
// would otherwise be stored as if whole). A stray end_of_record, closing
// nothing, is ignored.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
)

// lcovBufSize is the read buffer; it is also the longest SF or DA line
// accepted (longer lines of ignored records are skipped in pieces).
const lcovBufSize = 1 << 20

func parseLCOV(r io.Reader, opt Options, emit Emit) error {
	br := bufio.NewReaderSize(r, lcovBufSize)
	var (
		lineNo int
		path   string                                         // mapped path of the open record
		open   bool                                           // an SF record is open
		opened int                                            // the report line of its SF
		hits   = lineMap{combine: addHits, sumBranches: true} // its hits
	)
	fail := func(msg string, args ...any) error {
		return &ParseError{Format: LCOV, Line: lineNo, Msg: fmt.Sprintf(msg, args...)}
	}
	flush := func() error {
		if !open {
			return nil
		}
		f := hits.file(path)
		open, path = false, ""
		return emit(f)
	}
	for {
		line, err := br.ReadSlice('\n')
		if err = lineRead(line, err, &lineNo); err == io.EOF {
			break
		}
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: only ignored records may be
			// that long; skip the rest of it.
			if bytes.HasPrefix(line, []byte("SF:")) || bytes.HasPrefix(line, []byte("DA:")) || bytes.HasPrefix(line, []byte("BRDA:")) {
				return fail("expected a line shorter than %d bytes", lcovBufSize)
			}
			if !lcovIsRecordKey(line) {
				return fail("expected a record KEY:value or end_of_record")
			}
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		line = lcovTrim(line)
		switch {
		case len(line) == 0 || line[0] == '#':
		case len(line) > 3 && line[0] == 'D' && line[1] == 'A' && line[2] == ':':
			if !open {
				return fail("expected SF:<path> before DA")
			}
			n, c, msg := lcovParseDA(line[3:])
			if msg != "" {
				return fail("%s", msg)
			}
			hits.add(n, c)
		case len(line) >= 3 && line[0] == 'S' && line[1] == 'F' && line[2] == ':':
			if open {
				return fail("expected end_of_record before the next SF: the record of %q (SF at line %d) is not closed", path, opened)
			}
			p, ok := MapPath(string(line[3:]), opt)
			if !ok {
				return fail("expected SF:<path of a file in the repository>, got %q", lcovQuote(line))
			}
			path, open, opened = p, true, lineNo
		case len(line) > 5 && string(line[:5]) == "BRDA:":
			if !open {
				return fail("expected SF:<path> before BRDA")
			}
			n, taken, msg := lcovParseBRDA(line[5:])
			if msg != "" {
				return fail("%s", msg)
			}
			hits.branch(n, 1, taken)
		case string(line) == "end_of_record":
			if err := flush(); err != nil {
				return err
			}
		case lcovIsRecordKey(line):
			// TN, FN, FNDA, FNF, FNH, BRDA, BRF, BRH, LF, LH, VER, …
		default:
			return fail("expected a record KEY:value or end_of_record, got %q", lcovQuote(line))
		}
		if err == io.EOF {
			break
		}
	}
	if open {
		return fail("expected end_of_record: the report ends inside the record of %q (SF at line %d); was it cut short?", path, opened)
	}
	return nil
}

// lcovParseDA reads "<line>,<count>[,<checksum>]" and returns the line
// number, the count, and a message saying what was expected when malformed.
func lcovParseDA(b []byte) (line int, count int64, msg string) {
	const want = "expected DA:<line>,<count>[,<checksum>]"
	i := 0
	var n int64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if n > (maxLine+9)/10 {
			n = maxLine + 1 // too large; keep scanning digits
			continue
		}
		n = n*10 + int64(b[i]-'0')
	}
	switch {
	case i == 0 && len(b) > 0 && b[0] == '-':
		return 0, 0, want + " with a line number of at least 1"
	case i > 0 && i == len(b):
		return 0, 0, want + " with a count after the line number"
	case i == 0 || b[i] != ',':
		return 0, 0, want + " with an integer line number"
	}
	if n < 1 {
		return 0, 0, want + " with a line number of at least 1"
	}
	if n > maxLine {
		return 0, 0, fmt.Sprintf("%s with a line number of at most %d", want, maxLine)
	}
	i++
	j := i
	var c int64
	for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
		d := int64(b[j] - '0')
		if c > (math.MaxInt64-d)/10 {
			return 0, 0, want + " with a count that fits in 64 bits"
		}
		c = c*10 + d
	}
	if j == i || (j < len(b) && b[j] != ',') {
		if j == i && j < len(b) && b[j] == '-' {
			return 0, 0, want + " with a count of at least 0"
		}
		return 0, 0, want + " with an integer count"
	}
	return int(n), c, ""
}

// lcovParseBRDA reads "<line>,<block>,<branch>,<taken>" and returns the
// line number, 1 when the branch was taken (0 when not, or "-"), and a
// message saying what was expected when malformed.
func lcovParseBRDA(b []byte) (line, taken int, msg string) {
	const want = "expected BRDA:<line>,<block>,<branch>,<taken>"
	if bytes.Count(b, []byte(",")) < 3 {
		return 0, 0, want + " (four fields)"
	}
	first := bytes.IndexByte(b, ',')
	last := bytes.LastIndexByte(b, ',')
	n, ok := goCoverUint(b[:first], maxLine)
	if !ok || n < 1 {
		return 0, 0, fmt.Sprintf("%s with a line number from 1 to %d, got %q", want, maxLine, lcovQuote(b[:first]))
	}
	t := b[last+1:]
	if string(t) == "-" {
		return int(n), 0, ""
	}
	c, ok := goCoverUint(t, math.MaxInt64)
	if !ok {
		return 0, 0, fmt.Sprintf(`%s with taken "-" or a count of at least 0, got %q`, want, lcovQuote(t))
	}
	if c > 0 {
		return int(n), 1, ""
	}
	return int(n), 0, ""
}

// lcovIsRecordKey reports whether b starts with KEY: (letters, digits and
// underscores, starting with a letter).
func lcovIsRecordKey(b []byte) bool {
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
		case i > 0 && (c >= '0' && c <= '9' || c == '_'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// lcovTrim removes surrounding spaces, tabs and line ends.
func lcovTrim(b []byte) []byte {
	for len(b) > 0 {
		if c := b[len(b)-1]; c == '\n' || c == '\r' || c == ' ' || c == '\t' {
			b = b[:len(b)-1]
			continue
		}
		break
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// lcovQuote shortens a report line for an error message.
func lcovQuote(b []byte) string {
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
