// Package text is measured by `go test -coverprofile` for Plumb's fixture.
package text

import (
	"strings"

	"example.com/plumbfixture/geom"
)

// Shout is covered by text's test.
func Shout(s string) string {
	return strings.ToUpper(s) + "!"
}

// Width is covered, and calls into geom (so -coverpkg=./... counts geom
// blocks from this package's test binary too).
func Width(s string) int {
	return geom.Abs(-len(s))
}

// Pad is never called.
func Pad(s string, n int) string {
	for len(s) < n {
		s += " "
	}
	return s
}
