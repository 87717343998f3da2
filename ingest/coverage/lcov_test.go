package coverage

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Helpers shared by the LCOV, Go and Cobertura tests (prefixed: the package
// has other formats' files and tests by other hands).

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
	return File{Path: f.Path, Hits: f.Dense()}
}

// lcovTestParse parses input and returns the files emitted, in order.
func lcovTestParse(f Format, input string, opt Options) ([]File, error) {
	var files []File
	err := Parse(strings.NewReader(input), f, opt, func(file File) error {
		file = dense(file)
		if len(file.Hits) == 0 {
			file.Hits = nil
		}
		files = append(files, file)
		return nil
	})
	return files, err
}

// lcovTestCheck asserts the invariants every emitted file satisfies.
func lcovTestCheck(t testing.TB, files []File) {
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

// lcovTestWantErr asserts err is a *ParseError at line with msg in its text.
func lcovTestWantErr(t *testing.T, err error, format Format, line int, msg string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want a *ParseError", err, err)
	}
	if pe.Format != format || pe.Line != line || !strings.Contains(pe.Error(), msg) {
		t.Fatalf("err = %q (format %s, line %d), want format %s, line %d, containing %q", pe.Error(), pe.Format, pe.Line, format, line, msg)
	}
}

// lcovTestCounts totals covered (> 0) and missed (0) lines, merging files
// emitted more than once line by line as the store does.
func lcovTestCounts(files []File) (covered, missed int, perFile map[string][2]int) {
	merged := map[string][]int64{}
	for _, f := range files {
		m := merged[f.Path]
		for len(m) < len(f.Hits) {
			m = append(m, -1)
		}
		for i, h := range f.Hits {
			switch {
			case h < 0:
			case m[i] < 0:
				m[i] = h
			default:
				m[i] += h
			}
		}
		merged[f.Path] = m
	}
	perFile = map[string][2]int{}
	for p, hits := range merged {
		var c, m int
		for _, h := range hits {
			switch {
			case h > 0:
				c++
			case h == 0:
				m++
			}
		}
		perFile[p] = [2]int{c, m}
		covered += c
		missed += m
	}
	return covered, missed, perFile
}

func TestParseLCOV(t *testing.T) {
	tests := []struct {
		name  string
		input string
		opt   Options
		want  []File
	}{{
		name: "every record kind",
		input: "VER:2.0-1\nTN:unit\nSF:/build/src/a.c\nFN:1,main\nFNDA:1,main\nFNF:1\nFNH:1\n" +
			"DA:1,1\nDA:2,0,Xr4CQsWuuHUXIsmqmwxXyQ\nBRDA:2,0,0,1\nBRDA:2,0,1,-\nBRF:2\nBRH:1\nDA:4,12\nLF:3\nLH:2\n" +
			"FNL:0,1,3\nFNA:0,1,main\nMCDC:1,2,t,1,0,x\n# a comment\n\nend_of_record\n" +
			"TN:\nSF:/build/src/b.c\nDA:3,0\nend_of_record\n",
		opt: Options{StripPrefix: "/build"},
		want: []File{
			{Path: "src/a.c", Hits: []int64{1, 0, -1, 12}},
			{Path: "src/b.c", Hits: []int64{-1, -1, 0}},
		},
	}, {
		name:  "CRLF, spaces and a missing final newline",
		input: "TN:\r\nSF:src/a.c\r\n  DA:2,3  \r\nDA:1,0\r\nend_of_record",
		want:  []File{{Path: "src/a.c", Hits: []int64{0, 3}}},
	}, {
		name:  "a line given twice adds up",
		input: "SF:a.c\nDA:1,2\nDA:1,3\nDA:2,0\nDA:2,0\nend_of_record\n",
		want:  []File{{Path: "a.c", Hits: []int64{5, 0}}},
	}, {
		name:  "counts saturate",
		input: "SF:a.c\nDA:1,9223372036854775807\nDA:1,5\nend_of_record\n",
		want:  []File{{Path: "a.c", Hits: []int64{math.MaxInt64}}},
	}, {
		name:  "a stray end_of_record closes nothing",
		input: "SF:a.c\nDA:1,1\nend_of_record\nend_of_record\nSF:b.c\nDA:1,0\nend_of_record\n",
		want:  []File{{Path: "a.c", Hits: []int64{1}}, {Path: "b.c", Hits: []int64{0}}},
	}, {
		name:  "a record without DA and a file in two records",
		input: "SF:a.c\nLF:0\nend_of_record\nSF:b.c\nDA:1,1\nend_of_record\nSF:b.c\nDA:1,2\nend_of_record\n",
		want:  []File{{Path: "a.c"}, {Path: "b.c", Hits: []int64{1}}, {Path: "b.c", Hits: []int64{2}}},
	}, {
		name:  "out of order lines",
		input: "SF:a.c\nDA:5,1\nDA:2,7\nend_of_record\n",
		want:  []File{{Path: "a.c", Hits: []int64{-1, 7, -1, -1, 1}}},
	}, {
		name:  "paths: backslashes, ./, add prefix",
		input: "SF:.\\src\\win.c\nDA:1,1\nend_of_record\nSF:./lib//x.c\nDA:1,0\nend_of_record\n",
		opt:   Options{AddPrefix: "native"},
		want:  []File{{Path: "native/src/win.c", Hits: []int64{1}}, {Path: "native/lib/x.c", Hits: []int64{0}}},
	}, {
		name:  "strip prefix leaves other paths",
		input: "SF:/home/ci/repo/a.c\nDA:1,1\nend_of_record\nSF:/usr/include/stdio.h\nDA:1,0\nend_of_record\n",
		opt:   Options{StripPrefix: "/home/ci/repo/"},
		want:  []File{{Path: "a.c", Hits: []int64{1}}, {Path: "usr/include/stdio.h", Hits: []int64{0}}},
	}, {
		name:  "empty report",
		input: "",
	}, {
		name:  "TN only",
		input: "TN:\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lcovTestParse(LCOV, tt.input, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %v\nwant %v", got, tt.want)
			}
			lcovTestCheck(t, got)
		})
	}
}

func TestParseLCOVErrors(t *testing.T) {
	long := strings.Repeat("x", lcovBufSize+10)
	tests := []struct {
		name  string
		input string
		line  int
		msg   string
	}{
		{"DA before SF", "TN:\nDA:1,1\n", 2, "expected SF:<path> before DA"},
		{"DA after end_of_record", "SF:a.c\nDA:1,1\nend_of_record\nDA:2,1\n", 4, "expected SF:<path> before DA"},
		// A record left open: refused, not stored as if whole (issue 19 item 19).
		{"report ends inside a record", "SF:a.c\nDA:1,1\nend_of_record\nSF:b.c\nDA:2,1\n", 5,
			`expected end_of_record: the report ends inside the record of "b.c" (SF at line 4); was it cut short?`},
		{"report ends right after SF", "SF:a.c\nend_of_record\nSF:b.c", 3, `the report ends inside the record of "b.c" (SF at line 3)`},
		{"SF inside an open record", "SF:a.c\nDA:1,1\nSF:b.c\nDA:1,0\nend_of_record\n", 3,
			`expected end_of_record before the next SF: the record of "a.c" (SF at line 1) is not closed`},
		{"non-integer line", "SF:a.c\nDA:x,1\n", 2, "integer line number"},
		{"float line", "SF:a.c\nDA:1.5,1\n", 2, "integer line number"},
		{"no count", "SF:a.c\nDA:1\n", 2, "with a count after the line number"},
		{"empty count", "SF:a.c\nDA:1,\n", 2, "integer count"},
		{"non-integer count", "SF:a.c\nDA:1,1x\n", 2, "integer count"},
		{"float count", "SF:a.c\r\nDA:1,2.5\r\n", 2, "integer count"},
		{"line 0", "SF:a.c\nDA:0,1\n", 2, "line number of at least 1"},
		{"negative line", "SF:a.c\nDA:-3,1\n", 2, "line number of at least 1"},
		{"line too large", "SF:a.c\nDA:99999999999999999999999,1\n", 2, "line number of at most 4194304"},
		{"negative count", "SF:a.c\nDA:1,1\nDA:2,-1\n", 3, "count of at least 0"},
		{"count overflow", "SF:a.c\nDA:1,99999999999999999999\n", 2, "count that fits in 64 bits"},
		{"empty SF", "SF:a.c\nend_of_record\nSF:\n", 3, "expected SF:<path of a file in the repository>"},
		{"SF equal to the stripped prefix", "SF:/build\n", 1, "expected SF:<path"},
		{"not a record", "TN:\nSF:a.c\nhello world\n", 3, `expected a record KEY:value or end_of_record, got "hello world"`},
		{"JSON given as LCOV", "{\"a\": 1}\n", 1, "expected a record KEY:value"},
		{"long SF", "TN:\nSF:" + long + "\n", 2, "expected a line shorter than"},
		{"long garbage", "TN:\n" + long + "\n", 2, "expected a record KEY:value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := lcovTestParse(LCOV, tt.input, Options{StripPrefix: "/build"})
			lcovTestWantErr(t, err, LCOV, tt.line, tt.msg)
		})
	}
}

func TestParseLCOVLongIgnoredLine(t *testing.T) {
	// A C++ function name can be long; records Plumb ignores may exceed the
	// buffer and are skipped.
	long := "FN:3," + strings.Repeat("templated<", lcovBufSize/5) + "\n"
	got, err := lcovTestParse(LCOV, "SF:a.cc\n"+long+"DA:3,1\nend_of_record\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []File{{Path: "a.cc", Hits: []int64{-1, -1, 1}}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestParseLCOVEmitError(t *testing.T) {
	stop := errors.New("store full")
	n := 0
	err := Parse(strings.NewReader("SF:a.c\nDA:1,1\nend_of_record\nSF:b.c\nDA:1,1\nend_of_record\n"), LCOV, Options{}, func(File) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Fatalf("err %v after %d files, want the emit error after 1", err, n)
	}
}

// lcovTestSummary reads "lines......: 75.0% (21 of 28 lines)" from
// `lcov --summary`.
func lcovTestSummary(t *testing.T, path string) (covered, valid int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`lines\.+: [0-9.]+% \((\d+) of (\d+) lines\)`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no lines summary in %q", path, data)
	}
	covered, _ = strconv.Atoi(string(m[1]))
	valid, _ = strconv.Atoi(string(m[2]))
	return covered, valid
}

// TestLCOVRealTool: testdata/lcov/coverage.info is lcov 1.16's capture of a C
// program built with gcc --coverage (testdata/lcov/make.sh); Plumb's covered
// and missed lines equal lcov's own summary.
func TestLCOVRealTool(t *testing.T) {
	data, err := os.ReadFile("testdata/lcov/coverage.info")
	if err != nil {
		t.Fatal(err)
	}
	files, err := lcovTestParse(LCOV, string(data), Options{StripPrefix: "/tmp/plumb-lcov-fixture"})
	if err != nil {
		t.Fatal(err)
	}
	lcovTestCheck(t, files)
	covered, missed, perFile := lcovTestCounts(files)
	wantCovered, wantValid := lcovTestSummary(t, "testdata/lcov/lcov-summary.txt")
	if covered != wantCovered || missed != wantValid-wantCovered {
		t.Fatalf("covered %d, missed %d; lcov --summary says %d of %d lines", covered, missed, wantCovered, wantValid)
	}
	// Per file, counted by hand from the DA records (this lcov writes no
	// LF/LH records).
	want := map[string][2]int{"calc.c": {11, 5}, "main.c": {10, 2}}
	if !reflect.DeepEqual(perFile, want) {
		t.Fatalf("per file %v, want %v", perFile, want)
	}
}

// lcovTestBigNumber finds a number of 6 digits or more.
var lcovTestBigNumber = regexp.MustCompile(`[0-9]{6}`)

func FuzzLCOV(f *testing.F) {
	if data, err := os.ReadFile("testdata/lcov/coverage.info"); err == nil {
		f.Add(string(data))
	}
	f.Add("TN:\nSF:a.c\nDA:1,1\nDA:3,0,abc\nDA:1,2\nBRDA:1,0,0,-\nend_of_record\nSF:b\nDA:2,1\n")
	f.Add("SF:/x/../y.c\r\nDA:4194304,0\r\nend_of_record")
	f.Add("DA:1,1\n")
	f.Fuzz(func(t *testing.T, input string) {
		if lcovTestBigNumber.MatchString(input) {
			t.Skip("line numbers above 99999 allocate up to 32 MiB per file and slow the fuzzer ten-fold; the unit tests cover the limits")
		}
		var files []File
		err := Parse(strings.NewReader(input), LCOV, Options{StripPrefix: "x", AddPrefix: "p"}, func(file File) error {
			files = append(files, file)
			return nil
		})
		lcovTestCheck(t, files)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Msg == "" {
				t.Fatalf("err %v: want a *ParseError with a line and a message", err)
			}
		}
	})
}
