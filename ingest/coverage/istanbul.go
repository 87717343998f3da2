package coverage

// Istanbul's coverage-final.json (the "json" reporter of nyc, c8, jest,
// vitest, karma-coverage, …): one object per file, keyed by its path:
//
//	{"/abs/src/lib/cart.js": {
//	   "path": "/abs/src/lib/cart.js",
//	   "statementMap": {"0": {"start": {"line": 2, "column": 0}, "end": {…}}, …},
//	   "s": {"0": 3, …},
//	   "fnMap": {…}, "f": {…}, "branchMap": {…}, "b": {…}, …}, …}
//
// Hits follow istanbul-lib-coverage's FileCoverage.getLineCoverage (3.2.2),
// which every istanbul line summary (nyc's and c8's text-summary "Lines",
// json-summary, lcov's DA lines, clover) is computed from: each statement
// listed in "s" counts on the line its location starts on, and a line's hits are the largest count among the
// statements starting on it. Lines where no statement starts are not
// coverable (-1). Statements marked "skip" are counted like the others, as
// that function does. fnMap, f and any other member are skipped.
//
// Branches follow FileCoverage.getBranchCoverageByLine, which istanbul's
// clover and lcov reporters use: each branch of "branchMap" sits on its
// "line", else its location's start line; its arms are its counts in "b",
// each covered when above 0; a line's figures add up the branches on it. A file wrapped as {"data": {…}} (a FileCoverage serialised as it
// is) is read as its data.
//
// Paths: the file's "path" member, else its key; absolute in the tools'
// output, so users give the project root as Options.StripPrefix. MapPath
// applies StripPrefix and AddPrefix.
//
// The reader streams (encoding/json tokens): only the current file's
// statement start lines and counts are held.
//
// Errors: malformed JSON, a top-level value or a file that is not an object,
// a file without "statementMap" or "s", a statement location without a
// start line from 1 to maxLine, a count that is not a whole number, a count
// for a statement "statementMap" does not have (getLineCoverage skips it;
// Plumb refuses the report, whose counts and map do not belong together,
// rather than store part of it as if whole), likewise counts in "b" for a
// branch "branchMap" does not have, a branch without a line, and a "b"
// entry that is not an array of whole numbers are ParseErrors naming the
// report line and the JSON path of the value, e.g. $["/app/src/a.js"].s["3"].

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/plumbhq/plumb/internal/jsonstream"
)

func parseIstanbul(r io.Reader, opt Options, emit Emit) error {
	j := newSimplecovJSON(Istanbul, r)
	t, err := j.token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return j.fail(`expected a JSON object of files {"/path/file.js": {"path": …, "statementMap": …, "s": …}}, got %s`, jsonstream.Describe(t))
	}
	err = j.members(func(key string) error {
		f, err := istanbulFile(j, key, 0)
		if err != nil {
			return err
		}
		p, ok := MapPath(f.Path, opt)
		if !ok {
			return j.fail("expected a file inside the repository, got %q", f.Path)
		}
		f.Path = p
		return emit(f)
	})
	if err != nil {
		return err
	}
	return j.end()
}

// istanbulFile reads one file's coverage object; key is its key in the
// report, the path when the object has no "path".
func istanbulFile(j *simplecovJSON, key string, depth int) (File, error) {
	t, err := j.token()
	if err != nil {
		return File{}, err
	}
	if t != json.Delim('{') {
		return File{}, j.fail(`expected the file's coverage {"path": …, "statementMap": …, "s": …}, got %s`, jsonstream.Describe(t))
	}
	var (
		path      = key
		starts    map[string]int   // statement id → start line
		counts    map[string]int64 // statement id → count
		brLines   map[string]int   // branch id → line
		brCounts  map[string][]int64
		wrapped   *File
		members   int
		sawStarts bool
		sawCounts bool
	)
	err = j.members(func(k string) error {
		members++
		switch k {
		case "path":
			s, err := j.pathString()
			if err != nil {
				return err
			}
			if s != "" {
				path = s
			}
		case "statementMap":
			sawStarts = true
			starts, err = istanbulStatementMap(j)
			return err
		case "s":
			sawCounts = true
			var known map[string]int
			if sawStarts {
				known = starts
			}
			counts, err = istanbulCounts(j, known)
			return err
		case "branchMap":
			brLines, err = istanbulBranchMap(j)
			return err
		case "b":
			brCounts, err = istanbulBranchCounts(j)
			return err
		case "data":
			if depth > 0 {
				return j.skip()
			}
			f, err := istanbulFile(j, key, depth+1)
			if err != nil {
				return err
			}
			wrapped = &f
		default:
			return j.skip()
		}
		return nil
	})
	if err != nil {
		return File{}, err
	}
	if wrapped != nil && members == 1 {
		return *wrapped, nil
	}
	if !sawStarts {
		return File{}, j.fail(`expected "statementMap" in the file's coverage`)
	}
	if !sawCounts {
		return File{}, j.fail(`expected "s" (statement counts) in the file's coverage`)
	}
	// "s" before "statementMap": its ids are checked now, the first in
	// order named.
	ids := slices.Sorted(maps.Keys(counts))
	for _, id := range ids {
		if _, ok := starts[id]; !ok {
			j.pushKey("s")
			j.pushKey(id)
			err := j.fail("%s", istanbulUnknown(id))
			j.pop()
			j.pop()
			return File{}, err
		}
	}
	hits := lineMap{combine: maxHits, sumBranches: true}
	for id, c := range counts {
		if l, ok := starts[id]; ok {
			hits.add(l, c)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(brCounts)) {
		l, ok := brLines[id]
		if !ok {
			j.pushKey("b")
			j.pushKey(id)
			err := j.fail(`expected counts for a branch of "branchMap", got some for branch %q, which it does not have`, id)
			j.pop()
			j.pop()
			return File{}, err
		}
		covered := 0
		for _, c := range brCounts[id] {
			if c > 0 {
				covered++
			}
		}
		hits.branch(l, len(brCounts[id]), covered)
	}
	return hits.file(path), nil
}

// istanbulBranchMap reads {"<id>": {"line": N, "loc": {"start": {"line":
// N, …}, …}, …}, …} into each branch's line: its "line", else its
// location's start line (getBranchCoverageByLine's rule).
func istanbulBranchMap(j *simplecovJSON) (map[string]int, error) {
	t, err := j.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, j.fail(`expected an object of branches {"0": {"loc": …, "locations": […]}, …}, got %s`, jsonstream.Describe(t))
	}
	lines := map[string]int{}
	err = j.members(func(id string) error {
		t, err := j.token()
		if err != nil {
			return err
		}
		if t != json.Delim('{') {
			return j.fail(`expected a branch {"loc": {"start": {"line": …}}, "locations": […]}, got %s`, jsonstream.Describe(t))
		}
		line, start := 0, 0
		err = j.members(func(k string) error {
			switch k {
			case "line":
				t, err := j.token()
				if err != nil || t == nil || t == json.Number("0") {
					return err // absent: the location's line
				}
				line, err = istanbulLine(j, t)
				return err
			case "loc":
				start, err = istanbulStart(j)
				return err
			}
			return j.skip()
		})
		if err != nil {
			return err
		}
		if line == 0 {
			line = start
		}
		if line == 0 {
			return j.fail(`expected the branch's line {"line": …} or {"loc": {"start": {"line": …}}}`)
		}
		lines[id] = line
		return nil
	})
	return lines, err
}

// istanbulBranchCounts reads {"<id>": [count, …], …}, each arm's count.
func istanbulBranchCounts(j *simplecovJSON) (map[string][]int64, error) {
	t, err := j.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, j.fail(`expected an object of branch counts {"0": [1, 0], …}, got %s`, jsonstream.Describe(t))
	}
	counts := map[string][]int64{}
	err = j.members(func(id string) error {
		t, err := j.token()
		if err != nil {
			return err
		}
		if t != json.Delim('[') {
			return j.fail(`expected an array of counts, one per arm of the branch, got %s`, jsonstream.Describe(t))
		}
		arms := []int64{}
		err = j.elements(func(t json.Token) error {
			num, ok := t.(json.Number)
			c, whole := simplecovWhole(num)
			if !ok || !whole {
				return j.fail("expected a whole number of hits, got %s", jsonstream.Describe(t))
			}
			arms = append(arms, c)
			return nil
		})
		counts[id] = arms
		return err
	})
	return counts, err
}

// istanbulLine reads a line number token.
func istanbulLine(j *simplecovJSON, t json.Token) (int, error) {
	num, ok := t.(json.Number)
	v, err := strconv.ParseUint(string(num), 10, 63)
	if !ok || err != nil || v < 1 || v > maxLine {
		return 0, j.fail("expected a line number from 1 to %d, got %s", maxLine, jsonstream.Describe(t))
	}
	return int(v), nil
}

// istanbulStart reads a location {"start": {"line": N, …}, "end": …} and
// returns its start line (0 when it has none).
func istanbulStart(j *simplecovJSON) (int, error) {
	t, err := j.token()
	if err != nil {
		return 0, err
	}
	if t != json.Delim('{') {
		return 0, j.fail(`expected a location {"start": {"line": …, "column": …}, "end": {…}}, got %s`, jsonstream.Describe(t))
	}
	line := 0
	err = j.members(func(k string) error {
		if k != "start" {
			return j.skip()
		}
		t, err := j.token()
		if err != nil {
			return err
		}
		if t != json.Delim('{') {
			return j.fail(`expected a position {"line": …, "column": …}, got %s`, jsonstream.Describe(t))
		}
		return j.members(func(k string) error {
			if k != "line" {
				return j.skip()
			}
			t, err := j.token()
			if err != nil {
				return err
			}
			line, err = istanbulLine(j, t)
			return err
		})
	})
	return line, err
}

// istanbulStatementMap reads {"<id>": {"start": {"line": N, …}, …}, …}.
func istanbulStatementMap(j *simplecovJSON) (map[string]int, error) {
	t, err := j.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, j.fail(`expected an object of statement locations {"0": {"start": {"line": …}, …}, …}, got %s`, jsonstream.Describe(t))
	}
	starts := map[string]int{}
	err = j.members(func(id string) error {
		line, err := istanbulStart(j)
		if err != nil {
			return err
		}
		if line == 0 {
			return j.fail(`expected the statement's start line {"start": {"line": …}}`)
		}
		starts[id] = line
		return nil
	})
	return starts, err
}

// istanbulUnknown says what is wrong with a count for a statement the file's
// statementMap does not have.
func istanbulUnknown(id string) string {
	return fmt.Sprintf(`expected a count for a statement of "statementMap", got one for statement %q, which it does not have`, id)
}

// istanbulCounts reads {"<id>": count, …}; with known (the statementMap
// read before), an id it does not have is an error there.
func istanbulCounts(j *simplecovJSON, known map[string]int) (map[string]int64, error) {
	t, err := j.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, j.fail(`expected an object of statement counts {"0": 3, …}, got %s`, jsonstream.Describe(t))
	}
	counts := map[string]int64{}
	err = j.members(func(id string) error {
		c, err := j.wholeCount()
		if err != nil {
			return err
		}
		if _, ok := known[id]; known != nil && !ok {
			return j.fail("%s", istanbulUnknown(id))
		}
		counts[id] = c
		return nil
	})
	return counts, err
}
