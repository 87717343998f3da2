package sarif

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/plumbhq/plumb"
)

// FuzzParse: whatever the bytes, Parse does not panic, returns issues that
// satisfy every rule of the Issue resource or a *ParseError (never both),
// gives the same answer twice and the same answer through a reader that
// hands over one byte at a time.
//
//	go test ./ingest/sarif -run '^$' -fuzz FuzzParse -fuzztime 20s
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.sarif")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 20000 {
			f.Add(b)
		}
	}
	for _, s := range []string{
		sarifLog("x", `{"id": "R", "messageStrings": {"m": {"text": "{0} {{x}} {1}"}}}`, res(`"ruleId": "R", "message": {"id": "m", "arguments": ["a"]}`)),
		sarifLog("golangci-lint", "", res(`"ruleId": "gosec", "level": "error", "message": {"text": "G101: x"}, "suppressions": [{"kind": "inSource"}]`)),
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}, "extensions": [{"name": "e", "rules": [{"id": "A"}]}]},
			"originalUriBaseIds": {"R": {"uri": "file:///r/"}, "S": {"uri": "s/", "uriBaseId": "R"}},
			"artifacts": [{"location": {"uri": "a%20b.go", "uriBaseId": "S"}}],
			"results": [{"rule": {"index": 0, "toolComponent": {"index": 0}}, "message": {"text": "[t](1)"},
				"locations": [{"physicalLocation": {"artifactLocation": {"index": 0}, "region": {"startLine": 3, "endLine": 1}}}],
				"partialFingerprints": {"h": "1"}}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "R", "message": {}, "kind": "pass"}]}]}`,
		`{"version": "2.1.0", "runs": null}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [{"id": "A", "defaultConfiguration": {"level": "bad"}}]}}}]}`,
		"\xef\xbb\xbf{\"version\": \"2.1.0\", \"runs\": []}",
		`{"version": "2.1.0", "runs": []} x`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "R", "message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "C:\\a\\..\\..\\b.go"}, "region": {"startLine": "1"}}}]}]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		opt := Options{StripPrefix: "src", AddPrefix: "app", RepoRoot: "/r"}
		issues, err := Parse(bytes.NewReader(b), opt)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			if issues != nil {
				t.Fatal("issues and an error")
			}
			if pe.Msg == "" || pe.Line < 0 || pe.Column < 0 || pe.Offset < 0 || pe.Offset > int64(len(b)) {
				t.Fatalf("bad error %#v", pe)
			}
			if pe.Line > 0 {
				// Line and column agree with the offset (a BOM is not counted).
				doc := string(b)
				base := 0
				if strings.HasPrefix(doc, "\xef\xbb\xbf") {
					base = 3
				}
				lines := strings.Split(doc[base:pe.Offset], "\n")
				if len(lines) != pe.Line || len(lines[len(lines)-1])+1 != pe.Column {
					t.Fatalf("%s: offset %d is line %d column %d", pe, pe.Offset, len(lines), len(lines[len(lines)-1])+1)
				}
			}
		} else {
			for _, is := range issues {
				if msg := checkIssue(is); msg != "" {
					t.Fatalf("%s: %+v", msg, is)
				}
				if !strings.HasPrefix(is.Path, "app/") {
					t.Fatalf("path %q lacks AddPrefix", is.Path)
				}
			}
		}
		again, err2 := Parse(iotest.OneByteReader(bytes.NewReader(b)), opt)
		if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) || !reflect.DeepEqual(issues, again) {
			t.Fatalf("a second parse (one byte at a time) differs:\n%v\n%v", err, err2)
		}
		var each []plumb.Issue
		err3 := ParseEach(bytes.NewReader(b), opt, func(is plumb.Issue) error { each = append(each, is); return nil })
		if (err == nil) != (err3 == nil) || (err == nil && len(each) != len(issues)) {
			t.Fatal("ParseEach and Parse disagree")
		}
	})
}

// FuzzMapPath: a mapped path is always repository-relative and clean.
func FuzzMapPath(f *testing.F) {
	for _, s := range []string{"a.go", "./a/../b.go", `C:\x\y.go`, "/abs/p.go", "../x", "a//b/./c", "src", "src/a"} {
		f.Add(s, "src", "")
	}
	f.Fuzz(func(t *testing.T, p, strip, add string) {
		got, ok := mapPath(p, Options{StripPrefix: strip, AddPrefix: add})
		if !ok {
			return
		}
		if got == "" || strings.HasPrefix(got, "/") || strings.Contains(got, `\`) ||
			got == ".." || strings.HasPrefix(got, "../") || strings.Contains(got, "/../") || strings.HasPrefix(got, "./") {
			t.Fatalf("mapPath(%q, strip %q, add %q) = %q", p, strip, add, got)
		}
	})
}
