package coverage

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/plumbhq/plumb"
)

// istanbulSummary is the "lines" total of an istanbul json-summary report
// (coverage-summary.json), the numbers text-summary prints as "Lines".
type istanbulSummary map[string]struct {
	Lines struct {
		Total   int `json:"total"`
		Covered int `json:"covered"`
		Skipped int `json:"skipped"`
	} `json:"lines"`
}

func readIstanbulSummary(t *testing.T, name string) istanbulSummary {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var s istanbulSummary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

const istanbulFixtureRoot = "/tmp/plumb-fixture/js"

// checkIstanbulFixture checks files, read from a report of the Istanbul
// fixture's project made by tool, against the tool's summary (the file
// summary): the project's files, each with the summary's covered and total
// lines. It returns the summary.
func checkIstanbulFixture(t *testing.T, tool string, files map[string][]int64, summary string) istanbulSummary {
	t.Helper()
	sum := readIstanbulSummary(t, summary)
	want := []string{"src/index.js", "src/lib/cart.js", "src/lib/money.js", "src/unused.js"}
	wantPaths(t, files, want)
	for _, p := range want {
		if _, err := os.Stat(filepath.Join("testdata/istanbul/project", p)); err != nil {
			t.Errorf("%s is not a file of the fixture's project: %v", p, err)
		}
		lines := sum[istanbulFixtureRoot+"/"+p].Lines
		if c, m := countLines(files[p]); c != lines.Covered || c+m != lines.Total {
			t.Errorf("%s: Plumb %d covered / %d lines, %s %d / %d", p, c, c+m, tool, lines.Covered, lines.Total)
		}
	}
	return sum
}

// TestIstanbulRealTools: coverage-final.json made by nyc and c8 (see
// testdata/istanbul/make.sh) gives the covered and missed lines the tools'
// own summaries (coverage-summary.json, the "Lines" of text-summary) report,
// in total and per file, at the repository paths of the fixture's sources.
func TestIstanbulRealTools(t *testing.T) {
	for _, tool := range []string{"nyc", "c8"} {
		t.Run(tool, func(t *testing.T) {
			dir := filepath.Join("testdata/istanbul", tool)
			files := parseFixture(t, Istanbul, filepath.Join(dir, "coverage-final.json"), Options{StripPrefix: istanbulFixtureRoot})
			sum := checkIstanbulFixture(t, tool, files, filepath.Join(dir, "coverage-summary.json"))
			c, m := countFiles(files)
			total := sum["total"].Lines
			if c != total.Covered || c+m != total.Total || total.Skipped != 0 {
				t.Errorf("Plumb %d covered, %d missed; %s Lines %d/%d", c, m, tool, total.Covered, total.Total)
			}
			t.Logf("%s Lines %d/%d; Plumb %d covered + %d missed", tool, total.Covered, total.Total, c, m)
		})
	}
}

// TestIstanbulLinesMatchTool compares line by line with the tool's own
// per-line output: istanbul's clover reporter writes getLineCoverage's count
// for every line, from the same run (read here with a plain xml.Unmarshal,
// not Plumb's Clover reader). The nyc fixture has lines holding statements
// with different counts (`if (this.frozen) throw …`), so this pins the
// maximum rule.
func TestIstanbulLinesMatchTool(t *testing.T) {
	for _, tool := range []string{"nyc", "c8"} {
		t.Run(tool, func(t *testing.T) {
			files := parseFixture(t, Istanbul, filepath.Join("testdata/istanbul", tool, "coverage-final.json"), Options{})
			b, err := os.ReadFile(filepath.Join("testdata/clover", tool, "clover.xml"))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Files []struct {
					Path  string `xml:"path,attr"`
					Lines []struct {
						Num   int   `xml:"num,attr"`
						Count int64 `xml:"count,attr"`
					} `xml:"line"`
				} `xml:"project>package>file"`
			}
			if err := xml.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Files) != len(files) {
				t.Fatalf("clover has %d files, Plumb %d", len(doc.Files), len(files))
			}
			for _, f := range doc.Files {
				want := []int64{}
				for _, l := range f.Lines {
					for len(want) < l.Num {
						want = append(want, -1)
					}
					want[l.Num-1] = l.Count
				}
				got := files[strings.TrimPrefix(f.Path, "/")]
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\nPlumb %v\ntool  %v", f.Path, got, want)
				}
			}
		})
	}
}

func TestIstanbul(t *testing.T) {
	const cart = `{"/app/src/cart.js": {"path": "/app/src/cart.js",
 "statementMap": {
  "0": {"start": {"line": 2, "column": 0}, "end": {"line": 2, "column": 30}},
  "1": {"start": {"line": 4, "column": 2}, "end": {"line": 4, "column": 9}},
  "2": {"start": {"line": 4, "column": 10}, "end": {"line": 4, "column": 40}},
  "3": {"start": {"line": 6, "column": 0}, "end": {"line": 7, "column": 1}},
  "4": {"start": {"line": 9, "column": 0}, "end": {"line": 9, "column": 1}, "skip": true}},
 "fnMap": {"0": {"name": "add", "decl": {"start": {"line": 3, "column": 9}, "end": {"line": 3, "column": 12}}, "loc": {"start": {"line": 3, "column": 0}, "end": {"line": 5, "column": 1}}, "line": 3}},
 "branchMap": {"0": {"loc": {"start": {"line": 4, "column": 2}, "end": {"line": 4, "column": 40}}, "type": "if", "locations": [{"start": {"line": 4, "column": 2}, "end": {"line": 4, "column": 40}}, {}], "line": 4}},
 "s": {"0": 1, "1": 3, "2": 0, "3": 0, "4": 0},
 "f": {"0": 3}, "b": {"0": [0, 3]},
 "_coverageSchema": "1a1c01bbd47fc00a2c39e90264f33305804495a9", "hash": "x", "contentHash": "y",
 "inputSourceMap": {"version": 3, "sources": ["cart.ts"], "names": [], "mappings": ";;AAAA"}}}`
	runParseCases(t, Istanbul, []parseCase{
		{
			name: "statements give line hits; the largest count of a line's statements wins; skip counts; fnMap, branchMap, f, b and the rest are skipped",
			in:   cart,
			want: []File{{Path: "app/src/cart.js", Hits: []int64{-1, 1, -1, 3, -1, 0, -1, -1, 0}, Branches: []plumb.LineBranches{{Line: 4, Total: 2, Covered: 1}}}},
		},
		{
			name: "StripPrefix and AddPrefix",
			in:   cart,
			opt:  Options{StripPrefix: "/app", AddPrefix: "web"},
			want: []File{{Path: "web/src/cart.js", Hits: []int64{-1, 1, -1, 3, -1, 0, -1, -1, 0}, Branches: []plumb.LineBranches{{Line: 4, Total: 2, Covered: 1}}}},
		},
		{
			name: "several files in order; path from the key when there is no path member; s before statementMap",
			in: `{
 "/app/b.js": {"s": {"0": 2}, "statementMap": {"0": {"start": {"line": 1, "column": 0}, "end": {"line": 1, "column": 5}}}, "fnMap": {}, "f": {}, "branchMap": {}, "b": {}},
 "/app/a.js": {"path": "", "statementMap": {"0": {"start": {"line": 3, "column": 0}, "end": {"line": 3, "column": 5}}}, "s": {"0": 0}}}`,
			opt: Options{StripPrefix: "/app"},
			want: []File{
				{Path: "b.js", Hits: []int64{2}},
				{Path: "a.js", Hits: []int64{-1, -1, 0}},
			},
		},
		{
			name: "the path member wins over the key (istanbul's reports use it)",
			in:   `{"a.js": {"path": "/app/lib/a.js", "statementMap": {}, "s": {}}}`,
			opt:  Options{StripPrefix: "/app"},
			want: []File{{Path: "lib/a.js", Hits: []int64{}}},
		},
		{
			name: "statements missing from s do not count (as getLineCoverage)",
			in: `{"/a.js": {"path": "/a.js",
 "statementMap": {"0": {"start": {"line": 1, "column": 0}, "end": {"line": 1, "column": 1}}, "1": {"start": {"line": 5, "column": 0}, "end": {"line": 5, "column": 1}}},
 "s": {"0": 4}}}`,
			want: []File{{Path: "a.js", Hits: []int64{4}}},
		},
		{
			name: `jest's {"data": {…}} wrapper (istanbuljs#458), with an end line of null`,
			in: `{"/app/m.js": {"data": {"path": "/app/m.js",
 "statementMap": {"0": {"start": {"line": 2, "column": 0}, "end": {"line": null, "column": -1}}},
 "fnMap": {}, "branchMap": {}, "s": {"0": 1}, "f": {}, "b": {}}}}`,
			opt:  Options{StripPrefix: "/app"},
			want: []File{{Path: "m.js", Hits: []int64{-1, 1}}},
		},
		{
			name: "a file with no statements",
			in:   `{"/app/empty.js": {"path": "/app/empty.js", "statementMap": {}, "fnMap": {}, "branchMap": {}, "s": {}, "f": {}, "b": {}}}`,
			want: []File{{Path: "app/empty.js", Hits: []int64{}}},
		},
		{
			name: "an empty report, a UTF-8 byte order mark and Windows paths",
			in:   "\xEF\xBB\xBF{\"C:\\\\ci\\\\src\\\\a.js\": {\"statementMap\": {\"0\": {\"start\": {\"line\": 1}}}, \"s\": {\"0\": 1}}}",
			opt:  Options{StripPrefix: "C:/ci"},
			want: []File{{Path: "src/a.js", Hits: []int64{1}}},
		},
		{name: "empty object", in: ` {} `},

		{name: "empty input", in: ``, err: `istanbul report at line 1 ($): expected more JSON: the report ends early`},
		{name: "not an object", in: `[1]`, err: `istanbul report at line 1 ($): expected a JSON object of files {"/path/file.js": {"path": …, "statementMap": …, "s": …}}, got an array`},
		{name: "malformed JSON", in: "{\n\"/a.js\": {\"s\": {\"0\" 1}}}", err: `istanbul report at line 2 ($["/a.js"].s["0"]): expected well-formed JSON: invalid character '1' after object key`},
		{name: "truncated", in: "{\"/a.js\": {\"statementMap\": {", err: `istanbul report at line 1 ($["/a.js"].statementMap): expected more JSON: the report ends early`},
		{name: "trailing data", in: `{} {}`, err: `istanbul report at line 1 ($): expected the end of the report after the top-level object, got an object`},
		{name: "file not an object", in: `{"/a.js": [1]}`, err: `istanbul report at line 1 ($["/a.js"]): expected the file's coverage {"path": …, "statementMap": …, "s": …}, got an array`},
		{name: "no statementMap", in: `{"/a.js": {"s": {}}}`, err: `istanbul report at line 1 ($["/a.js"]): expected "statementMap" in the file's coverage`},
		{name: "no s", in: `{"/a.js": {"statementMap": {}}}`, err: `istanbul report at line 1 ($["/a.js"]): expected "s" (statement counts) in the file's coverage`},
		{name: "path not a string", in: `{"/a.js": {"path": 3}}`, err: `istanbul report at line 1 ($["/a.js"].path): expected the file's path as a string, got the number 3`},
		{name: "no file path", in: `{"/": {"statementMap": {}, "s": {}}}`, err: `istanbul report at line 1 ($["/"]): expected a file inside the repository, got "/"`},
		{name: "the file path is the stripped prefix", in: `{"/app": {"statementMap": {}, "s": {}}}`, opt: Options{StripPrefix: "/app"}, err: `istanbul report at line 1 ($["/app"]): expected a file inside the repository, got "/app"`},
		{name: "statementMap not an object", in: `{"/a.js": {"statementMap": []}}`, err: `istanbul report at line 1 ($["/a.js"].statementMap): expected an object of statement locations {"0": {"start": {"line": …}, …}, …}, got an array`},
		{name: "location not an object", in: `{"/a.js": {"statementMap": {"0": 5}}}`, err: `istanbul report at line 1 ($["/a.js"].statementMap["0"]): expected a location {"start": {"line": …, "column": …}, "end": {…}}, got the number 5`},
		{name: "start not an object", in: `{"/a.js": {"statementMap": {"0": {"start": null}}}}`, err: `istanbul report at line 1 ($["/a.js"].statementMap["0"].start): expected a position {"line": …, "column": …}, got null`},
		{name: "no start", in: `{"/a.js": {"statementMap": {"0": {"end": {"line": 1}}}}}`, err: `istanbul report at line 1 ($["/a.js"].statementMap["0"]): expected the statement's start line {"start": {"line": …}}`},
		{name: "start line 0", in: `{"/a.js": {"statementMap": {"0": {"start": {"line": 0}}}}}`, err: `istanbul report at line 1 ($["/a.js"].statementMap["0"].start.line): expected a line number from 1 to 4194304, got the number 0`},
		{name: "start line too large", in: `{"/a.js": {"statementMap": {"0": {"start": {"line": 4194305}}}}}`, err: `istanbul report at line 1 ($["/a.js"].statementMap["0"].start.line): expected a line number from 1 to 4194304, got the number 4194305`},
		{name: "start line a string", in: `{"/a.js": {"statementMap": {"0": {"start": {"line": "3"}}}}}`, err: `istanbul report at line 1 ($["/a.js"].statementMap["0"].start.line): expected a line number from 1 to 4194304, got the string "3"`},
		{name: "s not an object", in: `{"/a.js": {"s": [0]}}`, err: `istanbul report at line 1 ($["/a.js"].s): expected an object of statement counts {"0": 3, …}, got an array`},
		{name: "negative count", in: `{"/a.js": {"s": {"0": -1}}}`, err: `istanbul report at line 1 ($["/a.js"].s["0"]): expected a whole number of hits, got the number -1`},
		{name: "fractional count", in: `{"/a.js": {"s": {"0": 1.5}}}`, err: `istanbul report at line 1 ($["/a.js"].s["0"]): expected a whole number of hits, got the number 1.5`},
		{name: "count not a number", in: `{"/a.js": {"s": {"0": true}}}`, err: `istanbul report at line 1 ($["/a.js"].s["0"]): expected a whole number of hits, got true`},
		{name: "an error on a later line", in: "{\"/a.js\": {\n\"statementMap\": {\"0\": {\"start\": {\"line\": 1}}, \"1\": {\"start\": {\"line\": 2}}},\n\"s\": {\n\"0\": 1,\n\"1\": \"x\"}}}",
			err: `istanbul report at line 5 ($["/a.js"].s["1"]): expected a whole number of hits, got the string "x"`},
		// A count for a statement the map does not have: the counts and the
		// map do not belong together; refused (issue 19 item 19), wherever
		// "s" comes.
		{name: "count of an unknown statement", in: "{\"/a.js\": {\n\"statementMap\": {\"0\": {\"start\": {\"line\": 1}}},\n\"s\": {\"0\": 4,\n\"7\": 9}}}",
			err: `istanbul report at line 4 ($["/a.js"].s["7"]): expected a count for a statement of "statementMap", got one for statement "7", which it does not have`},
		{name: "count of an unknown statement, s first", in: `{"/a.js": {"s": {"7": 9, "0": 4, "10": 1}, "statementMap": {"0": {"start": {"line": 1}}}}}`,
			err: `istanbul report at line 1 ($["/a.js"].s["10"]): expected a count for a statement of "statementMap", got one for statement "10", which it does not have`},
	})
	checkEmitError(t, Istanbul, cart)
}

func FuzzIstanbul(f *testing.F) {
	addSeeds(f, "testdata/istanbul", "nyc/coverage-final.json", "c8/coverage-final.json")
	f.Add([]byte(`{"/a.js": {"data": {"statementMap": {"0": {"start": {"line": 2}}}, "s": {"0": 1}}}}`))
	f.Add([]byte(`{"a.js": {"path": "/x/a.js", "statementMap": {"0": {"start": {"line": 1, "column": 0}}, "1": {"start": {"line": 1}}}, "s": {"0": 0, "1": 2}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzParse(t, Istanbul, data, Options{StripPrefix: istanbulFixtureRoot})
	})
}

// istanbulGenReport is a coverage-final.json of about size bytes, as nyc
// writes it (one line, statements, functions and branches).
func istanbulGenReport(size int) []byte {
	var w bytes.Buffer
	w.WriteString("{")
	for f := 0; w.Len() < size; f++ {
		if f > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(&w, `"/ci/app/src/f%d.js":{"path":"/ci/app/src/f%d.js","statementMap":{`, f, f)
		for s := 0; s < 400; s++ {
			if s > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(&w, `"%d":{"start":{"line":%d,"column":4},"end":{"line":%d,"column":30}}`, s, s+1, s+1)
		}
		w.WriteString(`},"fnMap":{"0":{"name":"f","decl":{"start":{"line":1,"column":9},"end":{"line":1,"column":10}},"loc":{"start":{"line":1,"column":0},"end":{"line":400,"column":1}},"line":1}},"branchMap":{},"s":{`)
		for s := 0; s < 400; s++ {
			if s > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(&w, `"%d":%d`, s, s%4)
		}
		w.WriteString(`},"f":{"0":1},"b":{},"_coverageSchema":"1a1c01bbd47fc00a2c39e90264f33305804495a9","hash":"0"}`)
	}
	w.WriteString("}")
	return w.Bytes()
}

func BenchmarkParseIstanbul(b *testing.B) { benchParse(b, Istanbul, istanbulGenReport(16<<20)) }

// TestReaderErrorPassesThrough: an upload that breaks off (the reader
// fails) is not blamed on the report: the reader's error comes back as it is,
// not as a ParseError (400).
func TestReaderErrorPassesThrough(t *testing.T) {
	boom := errors.New("connection reset")
	for f, head := range map[Format]string{
		JaCoCo:    `<report><package name="a"><sourcefile name="A.java"><line nr="1" ci="1"/>`,
		Clover:    `<coverage><project><file path="/a.js"><line num="1" count="1" type="stmt"/>`,
		SimpleCov: `{"rspec": {"coverage": {"/a.rb": {"lines": [1, 0,`,
		Istanbul:  `{"/a.js": {"statementMap": {"0": {"start": {"line": 1}}}, "s": {"0":`,
	} {
		err := Parse(io.MultiReader(strings.NewReader(head), iotest.ErrReader(boom)), f, Options{}, func(File) error { return nil })
		if err != boom {
			t.Errorf("%s: Parse returned %v (%T), want the reader's error", f, err, err)
		}
	}
}
