package plumb

import (
	"crypto/sha256"
	"encoding/hex"
)

// MergeHits merges two coverage reports of the same file for the same commit
// and coverage tag, line by line: hit counts add up, a line coverable (>= 0)
// in either report is coverable, and the longer report sets the length.
func MergeHits(a, b []int64) []int64 {
	if len(b) > len(a) {
		a, b = b, a
	}
	out := make([]int64, len(a))
	copy(out, a)
	for i, h := range b {
		switch {
		case h < 0:
		case out[i] < 0:
			out[i] = h
		default:
			out[i] += h
		}
	}
	return out
}

// HashToken is the only form in which an API token is stored: the hex
// SHA-256 of its secret.
func HashToken(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}
