package coverage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The qlty format is the original hosted service's generic coverage format
// (docs.qlty.sh, "Qlty Format"): JSON Lines, one object per line,
// {"path": "<file>", "hits": ["<n>", …]}, where hits[i] is line i+1 as a
// string: "-1" not coverable (excluded), "0" missed, n > 0 hit n times.
// Plumb also takes the hits as JSON integers. Blank lines are skipped;
// other members of an object are ignored.

// qltyLine is one line of a qlty report.
type qltyLine struct {
	Path *string           `json:"path"`
	Hits []json.RawMessage `json:"hits"`
}

func parseQlty(r io.Reader, opt Options, emit Emit) error {
	return parseQltyLines(r, opt, emit, true)
}

// qltyFile reads one line; a non-empty string is what is wrong with it.
// Without needHits, a line with no "hits" is a file of no lines.
func qltyFile(text []byte, opt Options, needHits bool) (File, string) {
	var l qltyLine
	if err := json.Unmarshal(text, &l); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return File{}, fmt.Sprintf(`expected {"path": "<file>", "hits": ["<count>", …]}: %s is a JSON %s`, typ.Field, typ.Value)
		}
		return File{}, fmt.Sprintf(`expected one JSON object {"path": "<file>", "hits": ["<count>", …]} per line: %v`, err)
	}
	if l.Path == nil {
		return File{}, `the object has no "path"`
	}
	p, ok := MapPath(*l.Path, opt)
	if !ok {
		return File{}, fmt.Sprintf("path %q is not a file in the repository", *l.Path)
	}
	if l.Hits == nil && needHits {
		return File{}, fmt.Sprintf(`%s: the object has no "hits" array`, p)
	}
	if len(l.Hits) > maxLine {
		return File{}, fmt.Sprintf("%s: %d hits; at most %d lines are accepted", p, len(l.Hits), maxLine)
	}
	hits := make([]int64, len(l.Hits))
	for i, h := range l.Hits {
		v := string(h)
		if u, err := strconv.Unquote(v); err == nil && len(h) > 0 && h[0] == '"' {
			v = u
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < -1 {
			return File{}, fmt.Sprintf("%s: hits[%d] is %s; a hit count is \"-1\" (not coverable), \"0\" (missed) or a positive count", p, i, h)
		}
		hits[i] = n
	}
	return File{Path: p, Hits: hits}, ""
}
