//go:build !linux

package pkgrec

func helper() int { // 0
	return 2
}

// helper2 calls helper, resolved to the one of this file: no cycle.
func helper2() int { // 0
	return helper()
}
