//go:build linux

package pkgrec

// helper is declared twice (build tags); a call by name from another file
// reaches the one of the last file in name order (helper_b.go), which
// makes no call, so neither helper is on a cycle.
func helper() int { // 0
	return helper2()
}
