package coverage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

const simplecovFixtureRoot = "/tmp/plumb-fixture/ruby"

// TestSimpleCovRealTool: the .resultset.json SimpleCov 0.22 wrote for two
// test commands (testdata/simplecov/make.sh) gives, once the store has added
// the two commands' files, the covered and missed lines SimpleCov itself
// computed for the merged result (summary.json, from its result object; the
// percentage also in its .last_run.json), in total and per file.
func TestSimpleCovRealTool(t *testing.T) {
	const dir = "testdata/simplecov"
	files := parseFixture(t, SimpleCov, filepath.Join(dir, ".resultset.json"), Options{StripPrefix: simplecovFixtureRoot})
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		CommandName  string `json:"command_name"`
		CoveredLines int    `json:"covered_lines"`
		MissedLines  int    `json:"missed_lines"`
		Files        []struct {
			Filename     string `json:"filename"`
			CoveredLines int    `json:"covered_lines"`
			MissedLines  int    `json:"missed_lines"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.CommandName != "part-a, part-b" {
		t.Fatalf("the fixture should merge two commands, SimpleCov merged %q", sum.CommandName)
	}
	want := []string{"lib/shop/cart.rb", "lib/shop/money.rb", "lib/shop/unused.rb"}
	wantPaths(t, files, want)
	if len(sum.Files) != len(want) {
		t.Fatalf("SimpleCov summarised %d files", len(sum.Files))
	}
	for _, f := range sum.Files {
		p := strings.TrimPrefix(f.Filename, simplecovFixtureRoot+"/")
		if _, err := os.Stat(filepath.Join(dir, "project", p)); err != nil {
			t.Errorf("%s is not a file of the fixture's project: %v", p, err)
		}
		if c, m := countLines(files[p]); c != f.CoveredLines || m != f.MissedLines {
			t.Errorf("%s: Plumb %d covered, %d missed; SimpleCov %d, %d", p, c, m, f.CoveredLines, f.MissedLines)
		}
	}
	c, m := countFiles(files)
	if c != sum.CoveredLines || m != sum.MissedLines {
		t.Errorf("Plumb %d covered, %d missed; SimpleCov covered_lines=%d missed_lines=%d", c, m, sum.CoveredLines, sum.MissedLines)
	}
	b, err = os.ReadFile(filepath.Join(dir, ".last_run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var last struct {
		Result struct {
			Line float64 `json:"line"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &last); err != nil {
		t.Fatal(err)
	}
	// SimpleCov floors the percentage to two decimals.
	if pct := math.Floor(float64(c)*10000/float64(c+m)) / 100; pct != last.Result.Line {
		t.Errorf("Plumb %.2f%%, SimpleCov's .last_run.json %.2f%%", pct, last.Result.Line)
	}
	t.Logf("SimpleCov covered_lines=%d missed_lines=%d (%.2f%%); Plumb %d covered + %d missed", sum.CoveredLines, sum.MissedLines, last.Result.Line, c, m)
}

func TestSimpleCov(t *testing.T) {
	const resultset = `{
  "rspec": {
    "coverage": {
      "/app/lib/a.rb": {
        "lines": [null, 1, 0, null, 12],
        "branches": {"[:if, 0, 2, 4, 2, 20]": {"[:then, 1, 2, 4, 2, 10]": 1, "[:else, 2, 2, 4, 2, 20]": 0}}
      },
      "/app/lib/b.rb": {"lines": []}
    },
    "timestamp": 1700000000
  },
  "cucumber": {
    "timestamp": 1700000001,
    "coverage": {
      "/app/lib/a.rb": {"lines": [null, 2, 1, null, 0], "methods": {}}
    }
  }
}`
	const line = `{"x": {"coverage": {"/a.rb": {"lines": [%s]}}}}`
	runParseCases(t, SimpleCov, []parseCase{
		{
			name: ".resultset.json: every command's files in order (the store adds them up), branch figures read, methods and timestamp skipped",
			in:   resultset,
			opt:  Options{StripPrefix: "/app"},
			want: []File{
				{Path: "lib/a.rb", Hits: []int64{-1, 1, 0, -1, 12}, Branches: []plumb.LineBranches{{Line: 2, Total: 2, Covered: 1}}},
				{Path: "lib/b.rb", Hits: []int64{}},
				{Path: "lib/a.rb", Hits: []int64{-1, 2, 1, -1, 0}},
			},
		},
		{
			name: "legacy .resultset.json (before SimpleCov 0.18): lines arrays",
			in:   `{"RSpec": {"coverage": {"/app/lib/a.rb": [null, 3, 0]}, "timestamp": 1400000000}}`,
			opt:  Options{StripPrefix: "/app", AddPrefix: "gem"},
			want: []File{{Path: "gem/lib/a.rb", Hits: []int64{-1, 3, 0}}},
		},
		{
			name: `simplecov_json_formatter's coverage.json ("ignored": a line of a :nocov: block, not coverable)`,
			in:   `{"meta": {"simplecov_version": "0.22.0"}, "coverage": {"/app/lib/a.rb": {"lines": [1, null, 0, "ignored", "ignored"], "branches": []}, "/app/lib/b.rb": [0]}, "groups": {"Models": {"lines": {"covered_percent": 50}}}, "total": {"lines": {"covered": 1}}, "errors": {}}`,
			opt:  Options{StripPrefix: "/app"},
			want: []File{{Path: "lib/a.rb", Hits: []int64{1, -1, 0, -1, -1}}, {Path: "lib/b.rb", Hits: []int64{0}}},
		},
		{
			name: `a command named "coverage"`,
			in:   `{"coverage": {"timestamp": 1, "coverage": {"/app/a.rb": {"lines": [2]}}}}`,
			opt:  Options{StripPrefix: "/app"},
			want: []File{{Path: "a.rb", Hits: []int64{2}}},
		},
		{
			name: "simplecov-json's coverage.json: lines arrays and lines objects, filename before or after coverage",
			in: `{"timestamp": 1700000000, "command_name": "RSpec",
 "files": [
  {"filename": "/app/lib/a.rb", "covered_percent": 50.0, "coverage": [null, 1, 0], "covered_strength": 0.5, "covered_lines": 1, "lines_of_code": 2},
  {"coverage": {"lines": [4], "branches": []}, "filename": "/app/lib/b.rb"}
 ],
 "metrics": {"covered_percent": 66.6, "covered_strength": 1.6, "covered_lines": 2, "total_lines": 3},
 "groups": {}}`,
			opt:  Options{StripPrefix: "/app"},
			want: []File{{Path: "lib/a.rb", Hits: []int64{-1, 1, 0}}, {Path: "lib/b.rb", Hits: []int64{4}}},
		},
		{
			name: "an empty resultset, byte order mark",
			in:   "\xEF\xBB\xBF {} ",
		},

		{name: "empty input", in: ``, err: `simplecov report at line 1 ($): expected more JSON: the report ends early`},
		{name: "not an object", in: `"x"`, err: `simplecov report at line 1 ($): expected a JSON object: a SimpleCov .resultset.json ({"<command>": {"coverage": {…}}}) or coverage.json ({"coverage": {…}} or {"files": […]}), got the string "x"`},
		{name: "malformed JSON", in: "{\"a\": {\n\"coverage\": {\"/a.rb\": [1,, 2]}}}", err: `simplecov report at line 2 ($.a.coverage["/a.rb"]): expected well-formed JSON: invalid character ',' looking for beginning of value`},
		{name: "truncated", in: `{"a": {"coverage": {"/a.rb": {"lines": [1`, err: `simplecov report at line 1 ($.a.coverage["/a.rb"].lines): expected more JSON: the report ends early`},
		{name: "trailing data", in: "{}\n]", err: `simplecov report at line 2 ($): expected well-formed JSON: invalid character ']' looking for beginning of value`},
		{name: "command not an object", in: `{"rspec": [1]}`, err: `simplecov report at line 1 ($.rspec): expected a command's entry {"coverage": {…}, "timestamp": …}, got an array`},
		{name: "command without coverage", in: `{"rspec": {"timestamp": 1}}`, err: `simplecov report at line 1 ($.rspec): expected "coverage" in the command's entry {"coverage": {…}, "timestamp": …}`},
		{name: `command named "coverage" without coverage`, in: `{"coverage": {"timestamp": 1}}`, err: `simplecov report at line 1 ($.coverage): expected "coverage" in the command's entry {"coverage": {…}, "timestamp": …}`},
		{name: "top-level coverage not an object", in: `{"coverage": 3}`, err: `simplecov report at line 1 ($.coverage): expected an object of files {"/path/file.rb": {"lines": […]}}, got the number 3`},
		{name: "coverage not an object", in: `{"rspec": {"coverage": []}}`, err: `simplecov report at line 1 ($.rspec.coverage): expected an object of files {"/path/file.rb": {"lines": […]}}, got an array`},
		{name: "file coverage of the wrong type", in: `{"rspec": {"coverage": {"/a.rb": 7}}}`, err: `simplecov report at line 1 ($.rspec.coverage["/a.rb"]): expected the file's coverage {"lines": [null, 1, 0, …]} or [null, 1, 0, …], got the number 7`},
		{name: "file coverage without lines", in: `{"rspec": {"coverage": {"/a.rb": {"branches": {}}}}}`, err: `simplecov report at line 1 ($.rspec.coverage["/a.rb"]): expected "lines" in the file's coverage {"lines": [null, 1, 0, …]}`},
		{name: "lines not an array", in: `{"rspec": {"coverage": {"/a.rb": {"lines": null}}}}`, err: `simplecov report at line 1 ($.rspec.coverage["/a.rb"].lines): expected an array of line hits [null, 1, 0, …], got null`},
		{name: "file path that is no file", in: `{"rspec": {"coverage": {"/app": [1]}}}`, opt: Options{StripPrefix: "/app"}, err: `simplecov report at line 1 ($.rspec.coverage["/app"]): expected a file inside the repository, got "/app"`},
		{name: "negative hits", in: fmtLine(line, `null, -1`), err: `simplecov report at line 1 ($.x.coverage["/a.rb"].lines[1]): expected null, "ignored" or a whole number of hits for line 2, got the number -1`},
		{name: "fractional hits", in: fmtLine(line, `0.5`), err: `simplecov report at line 1 ($.x.coverage["/a.rb"].lines[0]): expected null, "ignored" or a whole number of hits for line 1, got the number 0.5`},
		{name: "string hits", in: fmtLine(line, `1, "skipped"`), err: `simplecov report at line 1 ($.x.coverage["/a.rb"].lines[1]): expected null, "ignored" or a whole number of hits for line 2, got the string "skipped"`},
		{name: "array hits", in: fmtLine(line, `[1]`), err: `simplecov report at line 1 ($.x.coverage["/a.rb"].lines[0]): expected null, "ignored" or a whole number of hits for line 1, got an array`},
		{name: "files element not an object", in: `{"files": [3]}`, err: `simplecov report at line 1 ($.files[0]): expected a file {"filename": …, "coverage": …}, got the number 3`},
		{name: "files element without filename", in: `{"files": [{"coverage": [1]}]}`, err: `simplecov report at line 1 ($.files[0]): expected "filename" in the file`},
		{name: "files element without coverage", in: `{"files": [{"filename": "/a.rb"}, {}]}`, err: `simplecov report at line 1 ($.files[0]): expected "coverage" in the file`},
		{name: "filename not a string", in: `{"files": [{"filename": 1}]}`, err: `simplecov report at line 1 ($.files[0].filename): expected the file's path as a string, got the number 1`},
		{name: "filename that is no file", in: `{"files": [{"filename": "", "coverage": []}]}`, err: `simplecov report at line 1 ($.files[0].filename): expected a file inside the repository, got ""`},
		{name: "files element with bad lines", in: "{\"files\": [\n{\"filename\": \"/a.rb\",\n \"coverage\": {\"lines\": [\n1,\ntrue]}}]}", err: `simplecov report at line 5 ($.files[0].coverage.lines[1]): expected null, "ignored" or a whole number of hits for line 2, got true`},
	})
	checkEmitError(t, SimpleCov, resultset)
}

func fmtLine(format, lines string) string { return strings.Replace(format, "%s", lines, 1) }

func FuzzSimpleCov(f *testing.F) {
	addSeeds(f, "testdata/simplecov", ".resultset.json")
	f.Add([]byte(`{"meta": {}, "coverage": {"/app/a.rb": {"lines": [null, 1]}, "/app/b.rb": [0]}}`))
	f.Add([]byte(`{"files": [{"filename": "/app/a.rb", "coverage": [null, 1, 0]}, {"coverage": {"lines": [2]}, "filename": "b.rb"}]}`))
	f.Add([]byte(`{"coverage": {"timestamp": 1, "coverage": {"/app/a.rb": {"lines": [2]}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzParse(t, SimpleCov, data, Options{StripPrefix: simplecovFixtureRoot})
	})
}

// TestJSONErrorLineInLargeReport: the report line of an error is right far
// into a report and after a value longer than the reader's buffers.
func TestJSONErrorLineInLargeReport(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\"rspec\": {\"coverage\": {\"/a.rb\": {\"lines\": [\n")
	for i := 0; i < 20000; i++ {
		b.WriteString("1,\n")
	}
	b.WriteString("-3]}}}}\n")
	err := Parse(strings.NewReader(b.String()), SimpleCov, Options{}, func(File) error { return nil })
	want := `simplecov report at line 20002 ($.rspec.coverage["/a.rb"].lines[20000]): expected null, "ignored" or a whole number of hits for line 20001, got the number -3`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}

	b.Reset()
	b.WriteString("{\"/a.js\": {\n\"inputSourceMap\": {\"mappings\": \"")
	b.WriteString(strings.Repeat("AAAA;", 50000))
	b.WriteString("\"},\n\"statementMap\": {},\n\"s\": {\"0\": \"x\"}}}")
	err = Parse(strings.NewReader(b.String()), Istanbul, Options{}, func(File) error { return nil })
	want = `istanbul report at line 4 ($["/a.js"].s["0"]): expected a whole number of hits, got the string "x"`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
}

// simplecovGenReport is a pretty-printed .resultset.json of about size
// bytes, as SimpleCov writes it (one value a line).
func simplecovGenReport(size int) []byte {
	var w bytes.Buffer
	w.WriteString("{\n  \"rspec\": {\n    \"coverage\": {\n")
	for f := 0; w.Len() < size; f++ {
		if f > 0 {
			w.WriteString(",\n")
		}
		fmt.Fprintf(&w, "      \"/ci/app/lib/f%d.rb\": {\n        \"lines\": [\n", f)
		for l := 0; l < 800; l++ {
			if l > 0 {
				w.WriteString(",\n")
			}
			if l%3 == 0 {
				w.WriteString("          null")
			} else {
				fmt.Fprintf(&w, "          %d", l%5)
			}
		}
		w.WriteString("\n        ]\n      }")
	}
	w.WriteString("\n    },\n    \"timestamp\": 1700000000\n  }\n}\n")
	return w.Bytes()
}

func BenchmarkParseSimpleCov(b *testing.B) { benchParse(b, SimpleCov, simplecovGenReport(16<<20)) }
