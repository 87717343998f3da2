// Package geom is measured by `go test -coverprofile` for Plumb's fixture.
package geom

// Abs is fully covered.
func Abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Clamp's upper branch is never taken.
func Clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi { // the line ends one block (ran) and starts one (did not)
		return hi
	}
	return v
}

// Sum uses a closure.
func Sum(xs []int) int {
	total := 0
	add := func(x int) {
		total += x
	}
	for _, x := range xs {
		add(x)
	}
	return total
}

// Noop has no statements: no coverable line.
func Noop() {}

// Unused is never called.
func Unused(s string) int {
	n := 0
	for range s {
		n++
	}
	return n
}
