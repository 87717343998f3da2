package plumb

import "time"

// LoginLimit is one counter of failed password sign-ins. The first Free
// failures leave the next attempt free; from then on the k-th failure makes
// the next attempt wait Base·2^(k−Free), at most Max.
type LoginLimit struct {
	Key       string
	Free      int
	Base, Max time.Duration
}

// Delay is how long the n-th failure makes the next attempt wait.
func (l LoginLimit) Delay(n int) time.Duration {
	if n < l.Free {
		return 0
	}
	d := l.Base
	for i := l.Free; i < n && d < l.Max; i++ {
		d *= 2
	}
	return min(d, l.Max)
}

// LoginAttempt is what one password sign-in counts against.
type LoginAttempt struct {
	// Pair is the counter of the login and the client address together,
	// always counted.
	Pair LoginLimit
	// Wide are the looser counters (the login alone, the address alone).
	// They are not counted for a pair that signed in within Known.
	Wide  []LoginLimit
	Known time.Duration
	// Forget: a counter with no attempt for this long starts again at zero.
	Forget time.Duration
}

// LoginReservation is the answer to ReserveLoginAttempt: the counters
// reserved (to give back if the sign-in succeeds), or, when refused, how
// long until every counter is open again.
type LoginReservation struct {
	Keys []string
	Wait time.Duration // > 0: refused, nothing counted
}
