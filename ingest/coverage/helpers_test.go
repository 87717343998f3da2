package coverage

// The helpers every format's tests share: one set, where each format's tests
// had grown their own copy under their own prefix.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// dense returns a parsed file in the dense form (the tests compare hits
// that way), after checking its sparse form if it has one: lines ascending,
// each once, from 1 to Total, hits of at least 0.
func dense(f File) File {
	if !f.Sparse() {
		return f
	}
	prev := 0
	for _, l := range f.Lines {
		if l.Line <= prev || l.Line > f.Total || l.Hits < 0 {
			panic(fmt.Sprintf("%s: malformed sparse hits: line %d after %d (total %d), hits %d", f.Path, l.Line, prev, f.Total, l.Hits))
		}
		prev = l.Line
	}
	if f.Hits != nil {
		panic(fmt.Sprintf("%s: both forms", f.Path))
	}
	return File{Path: f.Path, Hits: f.Dense(), Branches: f.Branches}
}

// parseFiles parses input and returns the files emitted, in order, in the
// dense form.
func parseFiles(f Format, input string, opt Options) ([]File, error) {
	var files []File
	err := Parse(strings.NewReader(input), f, opt, func(file File) error {
		files = append(files, dense(file))
		return nil
	})
	return files, err
}

// readFixture parses the report file path of format f, checks the files'
// invariants and returns them in the dense form; any error fails the test.
func readFixture(t testing.TB, f Format, path string, opt Options) []File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files, err := parseFiles(f, string(data), opt)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	checkFiles(t, files)
	return files
}

// checkFiles asserts the invariants every emitted file satisfies.
func checkFiles(t testing.TB, files []File) {
	t.Helper()
	for _, f := range files {
		if f.Path == "" || strings.HasPrefix(f.Path, "/") || strings.HasPrefix(f.Path, "../") || f.Path == ".." {
			t.Fatalf("path %q is not repository-relative", f.Path)
		}
		for i, h := range f.Hits {
			if h < -1 {
				t.Fatalf("%s line %d: hits %d < -1", f.Path, i+1, h)
			}
		}
	}
}

// wantParseError asserts err is a *ParseError at line with msg in its text.
func wantParseError(t *testing.T, err error, format Format, line int, msg string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want a *ParseError", err, err)
	}
	if pe.Format != format || pe.Line != line || !strings.Contains(pe.Error(), msg) {
		t.Fatalf("err = %q (format %s, line %d), want format %s, line %d, containing %q", pe.Error(), pe.Format, pe.Line, format, line, msg)
	}
}

// lineCounts totals covered (> 0) and missed (0) lines, merging files
// emitted more than once as the store does (mergeFiles), in all and per file.
func lineCounts(files []File) (covered, missed int, perFile map[string][2]int) {
	perFile = map[string][2]int{}
	for p, hits := range mergeFiles(files) {
		c, m := countLines(hits)
		perFile[p] = [2]int{c, m}
		covered += c
		missed += m
	}
	return covered, missed, perFile
}

// mergeFiles merges the files' hits by path as the store does
// (plumb.MergeHits).
func mergeFiles(files []File) map[string][]int64 {
	merged := map[string][]int64{}
	for _, f := range files {
		merged[f.Path] = plumb.MergeHits(merged[f.Path], f.Hits)
	}
	return merged
}

// parseCase is one table case: a report and either the files it gives, in
// order, or the whole error message.
type parseCase struct {
	name string
	in   string
	opt  Options
	want []File
	err  string
}

// runParseCases parses each case's report as format f and checks the
// files or the error; also, if given, checks more of a case's files.
func runParseCases(t *testing.T, f Format, cases []parseCase, also ...func(t *testing.T, tc parseCase, got []File)) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseFiles(f, tc.in, tc.opt)
			if tc.err != "" {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error = %v (%T), want a *ParseError %q", err, err, tc.err)
				}
				if pe.Format != f {
					t.Errorf("ParseError.Format = %q, want %q", pe.Format, f)
				}
				if err.Error() != tc.err {
					t.Errorf("error\n got %s\nwant %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("files\n got %v\nwant %v", got, tc.want)
			}
			checkFiles(t, got)
			for _, check := range also {
				check(t, tc, got)
			}
			checkFiles(t, got)
		})
	}
}

// checkEmitError checks that an Emit error stops the parser and comes
// back unchanged.
func checkEmitError(t *testing.T, f Format, report string) {
	t.Helper()
	stop := errors.New("store is full")
	calls := 0
	err := Parse(strings.NewReader(report), f, Options{}, func(File) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Errorf("Parse returned %v after %d emits, want the emit error after 1", err, calls)
	}
}

// parseFixture parses a fixture and merges its files by path as the store
// does (plumb.MergeHits).
func parseFixture(t *testing.T, f Format, name string, opt Options) map[string][]int64 {
	t.Helper()
	return mergeFiles(readFixture(t, f, name, opt))
}

// countLines is Plumb's covered (hits > 0) and missed (hits == 0) lines.
func countLines(hits ...[]int64) (covered, missed int) {
	for _, h := range hits {
		for _, v := range h {
			switch {
			case v > 0:
				covered++
			case v == 0:
				missed++
			}
		}
	}
	return covered, missed
}

// countFiles is countLines over all the files.
func countFiles(files map[string][]int64) (covered, missed int) {
	for _, h := range files {
		c, m := countLines(h)
		covered += c
		missed += m
	}
	return covered, missed
}

// sortedPaths is the files' paths in order.
func sortedPaths(files map[string][]int64) []string {
	var ps []string
	for p := range files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// wantPaths asserts that files are those of want (sorted), and no other.
func wantPaths(t *testing.T, files map[string][]int64, want []string) {
	t.Helper()
	if got := sortedPaths(files); !reflect.DeepEqual(got, want) {
		t.Fatalf("paths %v, want %v", got, want)
	}
}

// fuzzParse checks a parser's invariants on any input: no panic, a
// malformed report is a *ParseError of the format (never another error: the
// reader cannot fail), and every emitted file has a clean repository path
// and hits of at least -1.
func fuzzParse(t *testing.T, f Format, data []byte, opt Options) {
	emitted := 0
	err := Parse(bytes.NewReader(data), f, opt, func(file File) error {
		emitted++
		file = dense(file)
		if file.Path == "" || strings.HasPrefix(file.Path, "/") || strings.HasPrefix(file.Path, "../") || file.Path == ".." {
			t.Fatalf("bad path %q", file.Path)
		}
		if p, ok := MapPath(file.Path, Options{}); !ok || p != file.Path {
			t.Fatalf("path %q is not clean (MapPath gives %q, %v)", file.Path, p, ok)
		}
		if file.Hits == nil {
			t.Fatalf("%s: nil hits", file.Path)
		}
		if len(file.Hits) > maxLine {
			t.Fatalf("%s: %d lines", file.Path, len(file.Hits))
		}
		for i, h := range file.Hits {
			if h < -1 {
				t.Fatalf("%s line %d: hits %d", file.Path, i+1, h)
			}
		}
		return nil
	})
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Format != f {
			t.Fatalf("error %v (%T) is not a %s ParseError", err, err, f)
		}
		if pe.Msg == "" || !strings.HasPrefix(pe.Msg, "expected") {
			t.Fatalf("error message %q does not say what was expected", pe.Msg)
		}
	}
}

// checkParseError asserts what every parser's error is: nil, or a
// *ParseError with a report line and a message.
func checkParseError(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line < 1 || pe.Msg == "" {
		t.Fatalf("err %v: want a *ParseError with a line and a message", err)
	}
}

// addSeeds adds every file of a testdata directory to a fuzz corpus.
func addSeeds(f *testing.F, dir string, names ...string) {
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// errorCase is a broken report and the *ParseError it must give: its line
// and a part of its text.
type errorCase struct {
	name  string
	input string
	line  int
	msg   string
}

// runErrorCases parses each case's input as format f with opt and checks
// the error.
func runErrorCases(t *testing.T, f Format, opt Options, tests []errorCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFiles(f, tt.input, opt)
			wantParseError(t, err, f, tt.line, tt.msg)
		})
	}
}
