package pkgrec

// Odd: see Even.
func Odd(n int) bool { // if 1, recursion 1 = 2
	if n == 0 {
		return false
	}
	return Even(n - 1)
}

// shadowed calls a local variable named like a function of the package:
// the parser resolves it to the variable, so there is no call of helper.
func shadowed() int { // 0
	helper := func() int { return 1 }
	return helper()
}
