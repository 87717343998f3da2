package metric

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits of a component's path globs.
const (
	MaxGlobLength = 1000 // characters in one glob
	MaxGlobs      = 1000 // globs in one component
)

// Glob is a compiled component path glob.
//
// The rule: `*` matches any run of characters, including none and including
// `/`; every other character matches only itself (there is no `?`, no
// character class and no escape). A glob matches a repository-relative path
// when it matches the whole path. Matching is case-sensitive and compares
// bytes, so it is exact on UTF-8.
type Glob struct {
	pattern string
	star    bool     // the pattern has at least one `*`
	prefix  string   // literal before the first `*`
	suffix  string   // literal after the last `*`
	middle  []string // non-empty literals between stars, in order
	minLen  int      // bytes a path needs at least
}

// CompileGlob validates pattern (see ValidateGlob) and compiles it.
func CompileGlob(pattern string) (Glob, error) {
	if err := ValidateGlob(pattern); err != nil {
		return Glob{}, err
	}
	return newGlob(pattern), nil
}

// newGlob compiles any pattern, valid or not.
func newGlob(pattern string) Glob {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return Glob{pattern: pattern, minLen: len(pattern)}
	}
	g := Glob{
		pattern: pattern,
		star:    true,
		prefix:  parts[0],
		suffix:  parts[len(parts)-1],
	}
	g.minLen = len(g.prefix) + len(g.suffix)
	for _, p := range parts[1 : len(parts)-1] {
		if p != "" {
			g.middle = append(g.middle, p)
			g.minLen += len(p)
		}
	}
	return g
}

// String returns the pattern g was compiled from.
func (g Glob) String() string { return g.pattern }

// Match reports whether g matches the whole of path.
//
// It runs in time linear in len(path) for a fixed pattern and does not
// allocate: since `*` matches anything, taking the leftmost occurrence of each
// literal between stars is always right, so there is no backtracking.
func (g Glob) Match(path string) bool {
	if !g.star {
		return path == g.pattern
	}
	if len(path) < g.minLen || !strings.HasPrefix(path, g.prefix) || !strings.HasSuffix(path, g.suffix) {
		return false
	}
	rest := path[len(g.prefix) : len(path)-len(g.suffix)]
	for _, lit := range g.middle {
		i := strings.Index(rest, lit)
		if i < 0 {
			return false
		}
		rest = rest[i+len(lit):]
	}
	return true
}

// Matcher matches a path against a list of globs: a component's pathGlobs.
// The zero Matcher matches nothing.
type Matcher struct {
	globs []Glob
}

// CompileGlobs validates and compiles a list of globs. The error reports
// every invalid element (see ValidateGlobs).
func CompileGlobs(patterns []string) (Matcher, error) {
	if errs := ValidateGlobs(patterns); len(errs) > 0 {
		return Matcher{}, errors.Join(errs...)
	}
	m := Matcher{globs: make([]Glob, len(patterns))}
	for i, p := range patterns {
		m.globs[i] = newGlob(p)
	}
	return m, nil
}

// Match reports whether any of the globs matches the whole of path.
func (m Matcher) Match(path string) bool {
	for i := range m.globs {
		if m.globs[i].Match(path) {
			return true
		}
	}
	return false
}

// ValidateGlob checks one path glob: it must be 1 to MaxGlobLength characters
// of valid UTF-8 with no comma, carriage return or line feed. The error says
// what is wrong and what is accepted.
func ValidateGlob(s string) error {
	switch {
	case s == "":
		return errors.New(`path glob is empty; give a pattern such as "src/*" or "*.go"`)
	case !utf8.ValidString(s):
		return fmt.Errorf("path glob %q is not valid UTF-8", s)
	case utf8.RuneCountInString(s) > MaxGlobLength:
		return fmt.Errorf("path glob is %d characters long; the maximum is %d", utf8.RuneCountInString(s), MaxGlobLength)
	case strings.Contains(s, ","):
		return fmt.Errorf("path glob %q contains a comma, which is not allowed; put each glob in its own list element", s)
	case strings.ContainsAny(s, "\r\n"):
		return fmt.Errorf("path glob %q contains a line break (carriage return or line feed), which is not allowed; put each glob in its own list element", s)
	}
	return nil
}

// ValidateGlobs checks a list of path globs: it must have 1 to MaxGlobs
// elements, and every element must pass ValidateGlob. It returns one error per
// problem; each names the element as pathGlobs[i].
func ValidateGlobs(patterns []string) []error {
	if len(patterns) == 0 {
		return []error{errors.New(`pathGlobs is empty; give at least one path glob, such as "src/*"`)}
	}
	var errs []error
	if len(patterns) > MaxGlobs {
		errs = append(errs, fmt.Errorf("pathGlobs has %d elements; the maximum is %d", len(patterns), MaxGlobs))
	}
	for i, p := range patterns {
		if err := ValidateGlob(p); err != nil {
			errs = append(errs, fmt.Errorf("pathGlobs[%d]: %w", i, err))
		}
	}
	return errs
}
