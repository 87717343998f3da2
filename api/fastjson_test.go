package api

import (
	"encoding/json"
	"testing"
)

// The fast encoder must produce exactly what encoding/json produces, so NDJSON
// rows equal the objects of the JSON form.
func TestIssueViewAppendJSONMatchesEncodingJSON(t *testing.T) {
	one, two := 1, 7
	cases := []issueView{
		{ID: "a", Fingerprint: "f", Tool: "eslint", RuleKey: "no-unused", Message: "plain", Category: "lint", Level: "low", Status: "open",
			Location: locationView{Path: "src/a.ts"}},
		{ID: "b", Fingerprint: "f2", Tool: "gosec", RuleKey: "G101", Message: "quote \" backslash \\ <html> & tab\t nl\n ünï 漢 \u2028",
			Category: "secret", Level: "high", Status: "ignored", DocumentationURL: "https://x.test/?a=1&b=<2>",
			Location: locationView{Path: "dir with space/ß.go", StartLine: &one, EndLine: &two}},
		{ID: "c", Location: locationView{Path: "p", StartLine: &two}},
		{ID: "d", Message: string([]byte{0xff, 'x'}), Location: locationView{Path: "p", EndLine: &one}},
	}
	for _, c := range cases {
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.appendJSON(nil); string(got) != string(want) {
			t.Errorf("appendJSON:\n got %s\nwant %s", got, want)
		}
	}
}

func FuzzIssueViewAppendJSON(f *testing.F) {
	f.Add("msg", "path/a.go", "https://d", 3)
	f.Fuzz(func(t *testing.T, msg, path, doc string, line int) {
		v := issueView{ID: msg, Message: msg, DocumentationURL: doc, Location: locationView{Path: path, StartLine: &line}}
		want, _ := json.Marshal(v)
		if got := v.appendJSON(nil); string(got) != string(want) {
			t.Fatalf("got %s want %s", got, want)
		}
	})
}
