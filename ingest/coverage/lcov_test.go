package coverage

import (
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

func TestParseLCOV(t *testing.T) {
	tests := []parseCase{{
		name: "every record kind",
		in: "VER:2.0-1\nTN:unit\nSF:/build/src/a.c\nFN:1,main\nFNDA:1,main\nFNF:1\nFNH:1\n" +
			"DA:1,1\nDA:2,0,Xr4CQsWuuHUXIsmqmwxXyQ\nBRDA:2,0,0,1\nBRDA:2,0,1,-\nBRF:2\nBRH:1\nDA:4,12\nLF:3\nLH:2\n" +
			"FNL:0,1,3\nFNA:0,1,main\nMCDC:1,2,t,1,0,x\n# a comment\n\nend_of_record\n" +
			"TN:\nSF:/build/src/b.c\nDA:3,0\nend_of_record\n",
		opt: Options{StripPrefix: "/build"},
		want: []File{
			{Path: "src/a.c", Hits: []int64{1, 0, -1, 12}, Branches: []plumb.LineBranches{{Line: 2, Total: 2, Covered: 1}}},
			{Path: "src/b.c", Hits: []int64{-1, -1, 0}},
		},
	}, {
		name: "CRLF, spaces and a missing final newline",
		in:   "TN:\r\nSF:src/a.c\r\n  DA:2,3  \r\nDA:1,0\r\nend_of_record",
		want: []File{{Path: "src/a.c", Hits: []int64{0, 3}}},
	}, {
		name: "a line given twice adds up",
		in:   "SF:a.c\nDA:1,2\nDA:1,3\nDA:2,0\nDA:2,0\nend_of_record\n",
		want: []File{{Path: "a.c", Hits: []int64{5, 0}}},
	}, {
		name: "counts saturate",
		in:   "SF:a.c\nDA:1,9223372036854775807\nDA:1,5\nend_of_record\n",
		want: []File{{Path: "a.c", Hits: []int64{math.MaxInt64}}},
	}, {
		name: "a stray end_of_record closes nothing",
		in:   "SF:a.c\nDA:1,1\nend_of_record\nend_of_record\nSF:b.c\nDA:1,0\nend_of_record\n",
		want: []File{{Path: "a.c", Hits: []int64{1}}, {Path: "b.c", Hits: []int64{0}}},
	}, {
		name: "a record without DA and a file in two records",
		in:   "SF:a.c\nLF:0\nend_of_record\nSF:b.c\nDA:1,1\nend_of_record\nSF:b.c\nDA:1,2\nend_of_record\n",
		want: []File{{Path: "a.c", Hits: []int64{}}, {Path: "b.c", Hits: []int64{1}}, {Path: "b.c", Hits: []int64{2}}},
	}, {
		name: "out of order lines",
		in:   "SF:a.c\nDA:5,1\nDA:2,7\nend_of_record\n",
		want: []File{{Path: "a.c", Hits: []int64{-1, 7, -1, -1, 1}}},
	}, {
		name: "paths: backslashes, ./, add prefix",
		in:   "SF:.\\src\\win.c\nDA:1,1\nend_of_record\nSF:./lib//x.c\nDA:1,0\nend_of_record\n",
		opt:  Options{AddPrefix: "native"},
		want: []File{{Path: "native/src/win.c", Hits: []int64{1}}, {Path: "native/lib/x.c", Hits: []int64{0}}},
	}, {
		name: "strip prefix leaves other paths",
		in:   "SF:/home/ci/repo/a.c\nDA:1,1\nend_of_record\nSF:/usr/include/stdio.h\nDA:1,0\nend_of_record\n",
		opt:  Options{StripPrefix: "/home/ci/repo/"},
		want: []File{{Path: "a.c", Hits: []int64{1}}, {Path: "usr/include/stdio.h", Hits: []int64{0}}},
	}, {
		name: "empty report",
		in:   "",
	}, {
		name: "TN only",
		in:   "TN:\n",
	}}
	runParseCases(t, LCOV, tests)
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
			_, err := parseFiles(LCOV, tt.input, Options{StripPrefix: "/build"})
			wantParseError(t, err, LCOV, tt.line, tt.msg)
		})
	}
}

func TestParseLCOVLongIgnoredLine(t *testing.T) {
	// A C++ function name can be long; records Plumb ignores may exceed the
	// buffer and are skipped.
	long := "FN:3," + strings.Repeat("templated<", lcovBufSize/5) + "\n"
	got, err := parseFiles(LCOV, "SF:a.cc\n"+long+"DA:3,1\nend_of_record\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []File{{Path: "a.cc", Hits: []int64{-1, -1, 1}}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestParseLCOVEmitError(t *testing.T) {
	checkEmitError(t, LCOV, "SF:a.c\nDA:1,1\nend_of_record\nSF:b.c\nDA:1,1\nend_of_record\n")
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
	files := readFixture(t, LCOV, "testdata/lcov/coverage.info", Options{StripPrefix: "/tmp/plumb-lcov-fixture"})
	covered, missed, perFile := lineCounts(files)
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
		checkFiles(t, files)
		checkParseError(t, err)
	})
}
