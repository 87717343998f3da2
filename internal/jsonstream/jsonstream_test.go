package jsonstream

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSkip: Skip reads exactly one value, whatever its kind, and the
// decoder goes on with the next one.
func TestSkip(t *testing.T) {
	for _, doc := range []string{
		`1 "next"`,
		`"a" "next"`,
		`null "next"`,
		`[] "next"`,
		`{} "next"`,
		`[1, [2, {"a": [3]}], {"b": {}}] "next"`,
		`{"a": {"b": [1, 2, {"c": null}]}, "d": "e"} "next"`,
	} {
		dec := json.NewDecoder(strings.NewReader(doc))
		if err := Skip(dec.Token); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if tok, err := dec.Token(); err != nil || tok != "next" {
			t.Errorf("%s: after Skip got %v, %v; want the next value", doc, tok, err)
		}
	}
}

// TestSkipRest: SkipRest reads the rest of an open array or object, its
// closing delimiter included.
func TestSkipRest(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"a": [1, {"b": 2}], "c": {}} "next"`))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("got %v, %v", tok, err)
	}
	if tok, err := dec.Token(); err != nil || tok != "a" {
		t.Fatalf("got %v, %v", tok, err)
	}
	if err := SkipRest(dec.Token); err != nil {
		t.Fatal(err)
	}
	if tok, err := dec.Token(); err != nil || tok != "next" {
		t.Errorf("after SkipRest got %v, %v; want the next value", tok, err)
	}
}

// TestSkipErrors: a malformed or cut value is the decoder's error, and a
// closing delimiter with nothing open is an error too.
func TestSkipErrors(t *testing.T) {
	for _, doc := range []string{`[1, 2`, `{"a": }`, `{"a" 1}`, ``} {
		dec := json.NewDecoder(strings.NewReader(doc))
		if err := Skip(dec.Token); err == nil {
			t.Errorf("%q: Skip gave no error", doc)
		}
	}
	toks := []json.Token{json.Delim(']')}
	next := func() (json.Token, error) { t := toks[0]; toks = toks[1:]; return t, nil }
	if err := Skip(next); err != errUnbalanced {
		t.Errorf("a lone ] gave %v, want errUnbalanced", err)
	}
}

func TestKindAndDescribe(t *testing.T) {
	long := strings.Repeat("x", 45)
	for _, c := range []struct {
		tok            json.Token
		kind, describe string
	}{
		{json.Delim('{'), "an object", "an object"},
		{json.Delim('['), "an array", "an array"},
		{json.Delim('}'), "'}'", "'}'"},
		{"ab", "a string", `the string "ab"`},
		{long, "a string", `the string "` + long[:40] + `…"`},
		{json.Number("3"), "a number", "the number 3"},
		{2.5, "a number", "the number 2.5"},
		{true, "a boolean", "true"},
		{nil, "null", "null"},
	} {
		if got := Kind(c.tok); got != c.kind {
			t.Errorf("Kind(%#v) = %q, want %q", c.tok, got, c.kind)
		}
		if got := Describe(c.tok); got != c.describe {
			t.Errorf("Describe(%#v) = %q, want %q", c.tok, got, c.describe)
		}
	}
}
