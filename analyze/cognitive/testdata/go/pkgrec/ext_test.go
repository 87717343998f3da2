package pkgrec_test

// Odd in another package of the same directory: not the Odd of package
// pkgrec, so no cycle with Even.
func Even(n int) bool { // 0
	return Odd(n)
}

func Odd(n int) bool { return n%2 == 1 } // 0
