// Package jsonstream holds what the streaming JSON readers (the SimpleCov,
// Istanbul and SARIF readers, format detection) share over encoding/json's
// token API: skipping a value without holding it.
//
// It imports only the standard library.
package jsonstream

import (
	"encoding/json"
	"errors"
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
