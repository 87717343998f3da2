package coverage

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func parseExport(t testing.TB, input string) ([]File, error) {
	t.Helper()
	var files []File
	err := ParseQltyExport(strings.NewReader(input), Options{}, func(f File) error {
		files = append(files, f)
		return nil
	})
	return files, err
}

// The file_coverages members of the qlty CLI's zip, as its serializer writes
// them: every member it has (summary, tag, commitSha…), hits as strings, and
// no "hits" at all for a file without lines.
func TestParseQltyExport(t *testing.T) {
	defer func(n int) { qltyExportLineCap = n }(qltyExportLineCap)
	qltyExportLineCap = 1 << 20
	in := `{"buildId":"9001:2","path":"src/a.go","summary":{"covered":"1","missed":"1","omit":"1","total":"3"},"hits":["1","0","-1"],"tag":"unit","commitSha":"4f1c2a7","uploadedAt":"2026-03-02T10:00:00.123Z","branch":"main"}` + "\n" +
		`{"buildId":"9001:2","path":"./src/empty.go","summary":{"covered":"0","missed":"0","omit":"0","total":"0"},"commitSha":"4f1c2a7"}` + "\n"
	files, err := parseExport(t, in)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{{Path: "src/a.go", Hits: []int64{1, 0, -1}}, {Path: "src/empty.go", Hits: []int64{}}}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("files %+v, want %+v", files, want)
	}
	// The ordinary qlty format still wants its hits.
	if _, err := parseFiles(Qlty, `{"path":"a.go"}`, Options{}); err == nil || !strings.Contains(err.Error(), `no "hits"`) {
		t.Errorf("qlty format without hits: %v", err)
	}
	for name, tc := range map[string]struct{ in, err string }{
		"bad count":     {`{"path":"a.go","hits":["x"]}`, `line 1: a.go: hits[0] is "x"`},
		"no path":       {"\n" + `{"hits":["1"]}`, `line 2: the object has no "path"`},
		"escaping":      {`{"path":"../a.go","hits":["1"]}`, `not a file in the repository`},
		"not JSON":      {"{\"path\":\"a\"}\nnope", "line 2: expected one JSON object"},
		"line too long": {`{"path":"a.go","hits":[` + strings.Repeat(`"1",`, 1<<18) + `"1"]}`, "longer than"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseExport(t, tc.in)
			var pe *ParseError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err %v, want a ParseError containing %q", err, tc.err)
			}
		})
	}
	// A long line under the cap is read whole, across buffer refills.
	hits := strings.Repeat(`"2",`, 100000) + `"2"`
	files, err = parseExport(t, `{"path":"big.go","hits":[`+hits+`]}`+"\r\n"+`{"path":"b.go","hits":[1]}`)
	if err != nil || len(files) != 2 || len(files[0].Hits) != 100001 || files[1].Path != "b.go" {
		t.Errorf("long line: %d files, %v", len(files), err)
	}
}

func FuzzQltyExport(f *testing.F) {
	f.Add(`{"path":"a.go","summary":{"covered":"1"},"hits":["1","-1","0"]}` + "\n" + `{"path":"b"}`)
	f.Add(`{"path":"a","hits":["99999999999999999999"]}`)
	f.Add("\n\n{\"path\":\"../x\"}\r\n")
	f.Add(string(bytes.Repeat([]byte(`{"path":"x","hits":["1"]}`+"\n"), 3)))
	f.Fuzz(func(t *testing.T, input string) {
		files, err := parseExport(t, input)
		checkFiles(t, files)
		checkParseError(t, err)
	})
}
