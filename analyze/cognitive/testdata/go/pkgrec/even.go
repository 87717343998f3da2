// Package pkgrec holds recursion cycles that go through several files of
// one package: gocognit scores a directory's files together.
package pkgrec

// Even and Odd (odd.go) call each other: each gets the recursion increment.
func Even(n int) bool { // if 1, recursion 1 = 2
	if n == 0 {
		return true
	}
	return Odd(n - 1)
}

// walk calls itself through a function value only: no recursion.
func walk(n int) int { // if 1 = 1
	f := walk
	if n > 0 {
		return f(n - 1)
	}
	return 0
}
