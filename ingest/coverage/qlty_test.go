package coverage

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestQlty(t *testing.T) {
	tests := []struct {
		name, in string
		want     []File
		err      string
	}{
		{"strings", `{"path":"src/a.go","hits":["-1","0","3"]}` + "\n", []File{{Path: "src/a.go", Hits: []int64{-1, 0, 3}}}, ""},
		{"integers and CRLF, no final newline", "{\"path\":\"a.go\",\"hits\":[1,-1]}\r\n{\"path\":\"./b/../c.go\",\"hits\":[]}",
			[]File{{Path: "a.go", Hits: []int64{1, -1}}, {Path: "c.go", Hits: []int64{}}}, ""},
		{"blank lines and other members", "\n  \n{\"hits\":[\"2\"],\"extra\":{\"x\":[1]},\"path\":\"x.py\"}\n\n", []File{{Path: "x.py", Hits: []int64{2}}}, ""},
		{"no path", `{"hits":["1"]}`, nil, `qlty report at line 1: the object has no "path"`},
		{"no hits", "\n" + `{"path":"a.go"}`, nil, `qlty report at line 2: a.go: the object has no "hits" array`},
		{"hits not an array", `{"path":"a.go","hits":"1"}`, nil, "qlty report at line 1: expected"},
		{"bad count", `{"path":"a.go","hits":["1","x"]}`, nil, `qlty report at line 1: a.go: hits[1] is "x"`},
		{"below -1", `{"path":"a.go","hits":["-2"]}`, nil, `hits[0] is "-2"`},
		{"fraction", `{"path":"a.go","hits":[1.5]}`, nil, `hits[0] is 1.5;`},
		{"escaping path", `{"path":"../etc/passwd","hits":["1"]}`, nil, `path "../etc/passwd" is not a file in the repository`},
		{"not JSON", "{\"path\":\"a.go\",\"hits\":[\"1\"]}\nSF:a.go\n", nil, "qlty report at line 2: expected one JSON object"},
		{"two objects on a line", `{"path":"a","hits":[]} {"path":"b","hits":[]}`, nil, "qlty report at line 1: expected one JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := parseFiles(Qlty, tt.in, Options{})
			if tt.err != "" {
				var pe *ParseError
				if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want a ParseError containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(files, tt.want) {
				t.Errorf("files %+v, want %+v", files, tt.want)
			}
		})
	}
	// Path mapping applies.
	files, err := parseFiles(Qlty, `{"path":"/build/src/a.go","hits":["1"]}`, Options{StripPrefix: "/build", AddPrefix: "web"})
	if err != nil || len(files) != 1 || files[0].Path != "web/src/a.go" {
		t.Errorf("mapped: %+v %v", files, err)
	}
}

func TestDetectQlty(t *testing.T) {
	for _, head := range []string{
		`{"path":"a.go","hits":["1"]}`,
		"\ufeff  " + `{"hits":["1","0"],"path":"a.go"}` + "\n" + `{"path":"b.go","hits":[]}`,
		`{"other":{"x":[1,{"y":2}]},"path":"a.go","hits":["1"`, // cut short
	} {
		if f, err := Detect([]byte(head)); f != Qlty || err != nil {
			t.Errorf("Detect(%.40q) = %q, %v; want qlty", head, f, err)
		}
	}
	// Istanbul (paths as keys, objects with a "path" member) stays Istanbul.
	ist := `{"/app/a.js":{"path":"/app/a.js","statementMap":{},"fnMap":{},"branchMap":{},"s":{},"f":{},"b":{}}}`
	if f, err := Detect([]byte(ist)); f != Istanbul || err != nil {
		t.Errorf("Istanbul detected as %q, %v", f, err)
	}
	for _, head := range []string{`{"path":"a.go","hits":"1"}`, `{"path":1,"hits":[]}`, `{"hits":[]}`} {
		if f, _ := Detect([]byte(head)); f == Qlty {
			t.Errorf("Detect(%q) = qlty", head)
		}
	}
}

// The fixture testdata/qlty/coverage.jsonl is the LCOV fixture (written by
// lcov, see testdata/lcov/README.md) in the qlty format, as a converter
// following the format's public specification writes it: both give the same
// hits. PLUMB_UPDATE_QLTY_FIXTURE=1 rewrites it from the LCOV fixture.
func TestQltyFixtureMatchesLCOV(t *testing.T) {
	raw, err := os.ReadFile("testdata/lcov/coverage.info")
	if err != nil {
		t.Fatal(err)
	}
	lcovFiles, err := parseFiles(LCOV, string(raw), Options{})
	if err != nil {
		t.Fatal(err)
	}
	merged := mergeByPath(lcovFiles)
	if os.Getenv("PLUMB_UPDATE_QLTY_FIXTURE") == "1" {
		var b strings.Builder
		for _, f := range merged {
			hits := make([]string, len(f.Hits))
			for i, h := range f.Hits {
				hits[i] = fmt.Sprint(h)
			}
			line, _ := json.Marshal(map[string]any{"path": f.Path, "hits": hits})
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.WriteFile("testdata/qlty/coverage.jsonl", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q, err := os.ReadFile("testdata/qlty/coverage.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Detect(q); f != Qlty || err != nil {
		t.Fatalf("fixture detected as %q, %v", f, err)
	}
	qltyFiles, err := parseFiles(Qlty, string(q), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(qltyFiles) == 0 || !reflect.DeepEqual(qltyFiles, merged) {
		t.Errorf("qlty fixture gives %d files, LCOV %d; they differ", len(qltyFiles), len(merged))
	}
}

// mergeByPath merges records of the same path (the store's rule: the larger
// count wins per line, as coverage of the same tests), in first-seen order.
func mergeByPath(files []File) []File {
	var out []File
	at := map[string]int{}
	for _, f := range files {
		i, ok := at[f.Path]
		if !ok {
			at[f.Path] = len(out)
			out = append(out, File{Path: f.Path, Hits: append([]int64{}, f.Hits...)})
			continue
		}
		h := out[i].Hits
		for len(h) < len(f.Hits) {
			h = append(h, -1)
		}
		for j, v := range f.Hits {
			if v > h[j] {
				h[j] = v
			}
		}
		out[i].Hits = h
	}
	return out
}

func FuzzQlty(f *testing.F) {
	if data, err := os.ReadFile("testdata/qlty/coverage.jsonl"); err == nil {
		f.Add(string(data))
	}
	f.Add(`{"path":"a.go","hits":["1","-1","0"]}` + "\n" + `{"path":"b","hits":[2]}`)
	f.Add(`{"path":"a","hits":["99999999999999999999"]}`)
	f.Add("\n\n{\"path\":\"../x\"}\r\n")
	f.Fuzz(func(t *testing.T, input string) {
		files, err := parseFiles(Qlty, input, Options{StripPrefix: "x", AddPrefix: "p"})
		checkFiles(t, files)
		for _, file := range files {
			if !strings.HasPrefix(file.Path, "p/") {
				t.Fatalf("path %q lacks the added prefix", file.Path)
			}
		}
		checkParseError(t, err)
	})
}
