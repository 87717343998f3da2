// Package cognitive measures functions: cognitive complexity (G. Ann
// Campbell, "Cognitive Complexity", SonarSource 2017-2023), parameters,
// length and nesting depth. Go is scored on its syntax tree, as
// github.com/uudashr/gocognit does; the other languages by a token-based
// scorer following the same definition (tokens.go). docs/analyze.md has
// the rules, worked examples and the differences from other tools.
package cognitive

import "github.com/plumbhq/plumb/analyze/token"

// Function is one function, method or (for token-scored languages) named
// or anonymous function body.
type Function struct {
	Name       string `json:"name"`
	Line       int    `json:"line"`
	EndLine    int    `json:"endLine"`
	Params     int    `json:"params"`
	Complexity int    `json:"complexity"`
	Nesting    int    `json:"nesting"` // deepest nesting of control-flow blocks
}

// SonarJS, when set, makes the token scorer follow eslint-plugin-sonarjs'
// two choices that differ from the definition's text, for comparisons:
// no increment for runs of || or ?? (only && runs count) and none for
// recursion. Tests set it; the analysis never does.
var SonarJS bool

// Analyze measures the functions of a file in language (a name of package
// lang): none for a language without a scorer here; an error when a Go
// file does not parse.
func Analyze(language string, src []byte) ([]Function, error) {
	if language == "Go" {
		fns, _, err := goFunctions(src)
		return fns, err
	}
	if sx := syntaxFor(language); sx != nil {
		return tokenFunctions(language, sx, src), nil
	}
	return nil, nil
}

// AnalyzeLexed is Analyze for a file already lexed with the syntax of
// package token for language (so that clone detection and the scorer
// share one lexing); ok is false when the language is not scored on
// those tokens (Go, or none), or the file is too large to score at once.
func AnalyzeLexed(language string, src []byte, toks []token.Token) (fns []Function, ok bool) {
	sx := syntaxFor(language)
	if sx == nil || len(src) >= 4*chunkTokens {
		return nil, false
	}
	return scoreTokens(language, src, toks), true
}
