// Package jsonstream holds what the streaming JSON readers (the SimpleCov,
// Istanbul and SARIF readers, format detection) share over encoding/json's
// token API: skipping a value without holding it, and naming a token in an
// error message.
//
// It imports only the standard library.
package jsonstream

import (
	"encoding/json"
	"errors"
	"fmt"
)

// A TokenFunc reads the next token: a json.Decoder's Token method, or a
// reader's own wrapper of it that words or counts its errors.
type TokenFunc func() (json.Token, error)

// Skip reads one whole value through next, token by token, holding none of
// it.
func Skip(next TokenFunc) error { return skip(next, 0) }

// SkipRest reads the rest of an array or object whose opening delimiter has
// been read, its closing delimiter included.
func SkipRest(next TokenFunc) error { return skip(next, 1) }

// errUnbalanced says a closing delimiter came where no array or object was
// open (a json.Decoder reports this as a syntax error first).
var errUnbalanced = errors.New("jsonstream: a closing delimiter with no array or object open")

func skip(next TokenFunc, depth int) error {
	for {
		t, err := next()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		switch {
		case depth < 0:
			return errUnbalanced
		case depth == 0:
			return nil
		}
	}
}

// Kind names a token's JSON kind for an error message: "an object", "an
// array", "a string", "a number", "a boolean" or "null"; a closing
// delimiter is quoted ("'}'").
func Kind(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		switch v {
		case '{':
			return "an object"
		case '[':
			return "an array"
		}
		return "'" + v.String() + "'"
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", t)
}

// Describe names a token for an error message with its value where the
// value helps: "the string \"x\"" (cut after 40 characters), "the number
// 3", "true"; the kind for the others, as Kind words it.
func Describe(t json.Token) string {
	switch v := t.(type) {
	case string:
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return fmt.Sprintf("the string %q", v)
	case json.Number:
		return "the number " + string(v)
	case float64:
		return fmt.Sprintf("the number %v", v)
	case bool:
		return fmt.Sprintf("%t", v)
	}
	return Kind(t)
}
