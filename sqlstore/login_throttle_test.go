package sqlstore

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

func ltAttempt(pair string, wide ...plumb.LoginLimit) plumb.LoginAttempt {
	return plumb.LoginAttempt{Pair: plumb.LoginLimit{Key: pair, Free: 3, Base: time.Second, Max: 10 * time.Second},
		Wide: wide, Known: 30 * 24 * time.Hour, Forget: 24 * time.Hour}
}

func ltFailures(t *testing.T, db *DB, key string) int {
	t.Helper()
	var n int
	if err := db.read.QueryRowContext(context.Background(), `SELECT failures FROM login_throttle WHERE key = $1`, key).Scan(&n); err != nil {
		t.Fatalf("failures of %s: %v", key, err)
	}
	return n
}

func ltReserve(t *testing.T, db *DB, a plumb.LoginAttempt) plumb.LoginReservation {
	t.Helper()
	res, err := db.ReserveLoginAttempt(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The delays of a counter at their boundaries: Free failures are free, then
// 1 s, 2 s, 4 s, 8 s, then the cap (10 s) for good; an attempt refused while
// a delay runs counts nothing; a whole day without an attempt starts the
// counter again.
func TestLoginThrottleDelays(t *testing.T) {
	clk := testclock.New(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	db := dOpenDSN(t, sqltest.DSN(t), clk.Now)
	a := ltAttempt("p")
	for i := 1; i <= 3; i++ {
		if res := ltReserve(t, db, a); res.Wait != 0 || len(res.Keys) != 1 {
			t.Fatalf("free attempt %d: %+v", i, res)
		}
	}
	for n, want := range []time.Duration{1, 2, 4, 8, 10, 10, 10} {
		want *= time.Second
		if res := ltReserve(t, db, a); res.Wait != want {
			t.Fatalf("after failure %d: wait %v, want %v", 3+n, res.Wait, want)
		}
		clk.Advance(want - time.Millisecond)
		if res := ltReserve(t, db, a); res.Wait != time.Millisecond {
			t.Fatalf("after failure %d, 1 ms early: %+v", 3+n, res)
		}
		if got := ltFailures(t, db, "p"); got != 3+n {
			t.Fatalf("refused attempts were counted: %d failures, want %d", got, 3+n)
		}
		clk.Advance(time.Millisecond)
		if res := ltReserve(t, db, a); res.Wait != 0 {
			t.Fatalf("after failure %d, on time: %+v", 3+n, res)
		}
		if a.Pair.Delay(3+n+1) != min(time.Second<<(n+1), 10*time.Second) {
			t.Fatalf("LoginLimit.Delay(%d) = %v", 3+n+1, a.Pair.Delay(3+n+1))
		}
	}
	// A day without an attempt: free again.
	before := ltFailures(t, db, "p")
	clk.Advance(24*time.Hour - time.Millisecond)
	if res := ltReserve(t, db, a); res.Wait != 0 || ltFailures(t, db, "p") != before+1 {
		t.Fatalf("a millisecond short of a day: %+v, %d failures; want the count to go on from %d", res, ltFailures(t, db, "p"), before)
	}
	clk.Advance(24 * time.Hour)
	for i := 1; i <= 3; i++ {
		if res := ltReserve(t, db, a); res.Wait != 0 {
			t.Fatalf("free attempt %d after a day: %+v", i, res)
		}
	}
	if got := ltFailures(t, db, "p"); got != 3 {
		t.Fatalf("failures after a day: %d, want 3", got)
	}
}

// A counter that refuses leaves the others untouched (all or none); a
// sign-in gives its reservation back and exempts its pair from the wide
// counters for Known.
func TestLoginThrottleWideAndKnown(t *testing.T) {
	clk := testclock.New(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	db := dOpenDSN(t, sqltest.DSN(t), clk.Now)
	wide := plumb.LoginLimit{Key: "w", Free: 2, Base: time.Minute, Max: time.Hour}
	ltReserve(t, db, ltAttempt("p1", wide))
	ltReserve(t, db, ltAttempt("p2", wide))
	res := ltReserve(t, db, ltAttempt("p3", wide))
	if res.Wait != time.Minute {
		t.Fatalf("third attempt on the wide counter: %+v, want a one-minute wait", res)
	}
	var n int
	if err := db.read.QueryRowContext(t.Context(), `SELECT count(*) FROM login_throttle WHERE key = 'p3'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("a refused attempt counted on another counter: %d rows, %v", n, err)
	}

	// p1 signs in (after a free attempt); it gives its reservation back.
	a1 := ltAttempt("p1", wide)
	clk.Advance(time.Minute)
	res = ltReserve(t, db, a1)
	if res.Wait != 0 || len(res.Keys) != 2 {
		t.Fatalf("p1's second attempt: %+v", res)
	}
	if err := db.LoginSucceeded(t.Context(), a1, res); err != nil {
		t.Fatal(err)
	}
	if ltFailures(t, db, "p1") != 1 || ltFailures(t, db, "w") != 2 {
		t.Fatalf("after a sign-in: p1 %d, w %d failures; want 1 and 2", ltFailures(t, db, "p1"), ltFailures(t, db, "w"))
	}
	// The wide counter is closed for others, not for the known pair.
	if res := ltReserve(t, db, ltAttempt("p4", wide)); res.Wait == 0 {
		t.Fatal("the wide counter let p4 in")
	}
	if res := ltReserve(t, db, a1); res.Wait != 0 || len(res.Keys) != 1 {
		t.Fatalf("the known pair was held by the wide counter: %+v", res)
	}
	// Known for 30 days; then the wide counter applies again.
	clk.Advance(30*24*time.Hour + time.Millisecond)
	ltReserve(t, db, ltAttempt("p5", wide))
	ltReserve(t, db, ltAttempt("p6", wide))
	if res := ltReserve(t, db, a1); res.Wait == 0 {
		t.Fatal("the pair was still exempt after 30 days")
	}

	// Pruning deletes the forgotten counters, not a recent sign-in's.
	clk.Advance(25 * time.Hour)
	a7 := ltAttempt("p7")
	if err := db.LoginSucceeded(t.Context(), a7, ltReserve(t, db, a7)); err != nil {
		t.Fatal(err)
	}
	clk.Advance(25 * time.Hour)
	gone, err := db.PruneLoginThrottle(t.Context(), 24*time.Hour, 30*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	left, err := queryRecords(t.Context(), db.read, `SELECT key FROM login_throttle ORDER BY key`, nil, scanString)
	if err != nil {
		t.Fatal(err)
	}
	if gone != 5 || len(left) != 1 || left[0] != "p7" {
		t.Fatalf("pruned %d, left %v; want 5 pruned (p1, p2, p5, p6, w) and p7 left", gone, left)
	}
}

// Parallel attempts on two stores sharing one database (two replicas): no
// more reservations pass than the counter allows.
func TestLoginThrottleParallel(t *testing.T) {
	clk := testclock.New(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	dsn := sqltest.DSN(t)
	dbs := []*DB{dOpenDSN(t, dsn, clk.Now), dOpenDSN(t, dsn, clk.Now)}
	a := ltAttempt("p", plumb.LoginLimit{Key: "w", Free: 100, Base: time.Second, Max: time.Minute})
	var mu sync.Mutex
	passed := 0
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := dbs[i%2].ReserveLoginAttempt(context.Background(), a)
			if err != nil {
				t.Error(err)
				return
			}
			if res.Wait == 0 {
				mu.Lock()
				passed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if passed != 3 || ltFailures(t, dbs[0], "p") != 3 || ltFailures(t, dbs[1], "w") != 3 {
		t.Fatalf("%d of 40 parallel attempts passed (p %d, w %d failures); want 3", passed, ltFailures(t, dbs[0], "p"), ltFailures(t, dbs[1], "w"))
	}
}

// A refused attempt waits for the longest delay among its counters, not the
// first one that refused; a known pair's wait is its own counter's alone.
func TestLoginThrottleWaitIsTheLongest(t *testing.T) {
	clk := testclock.New(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	db := dOpenDSN(t, sqltest.DSN(t), clk.Now)
	wide := plumb.LoginLimit{Key: "w", Free: 1, Base: time.Minute, Max: time.Hour}
	a := plumb.LoginAttempt{Pair: plumb.LoginLimit{Key: "p", Free: 1, Base: time.Second, Max: time.Hour}, Wide: []plumb.LoginLimit{wide},
		Known: time.Hour, Forget: 24 * time.Hour}
	if res := ltReserve(t, db, a); res.Wait != 0 {
		t.Fatalf("first attempt: %+v", res)
	}
	// "p" sorts first and refuses (1 s); "w" holds for a minute.
	if res := ltReserve(t, db, a); res.Wait != time.Minute {
		t.Fatalf("second attempt: wait %v, want 1m", res.Wait)
	}
	clk.Advance(time.Second)
	res := ltReserve(t, db, plumb.LoginAttempt{Pair: plumb.LoginLimit{Key: "k", Free: 1, Base: time.Second, Max: time.Hour}, Wide: []plumb.LoginLimit{wide},
		Known: time.Hour, Forget: 24 * time.Hour})
	if res.Wait != 59*time.Second {
		t.Fatalf("another pair: wait %v, want 59s", res.Wait)
	}
	// A known pair is not held by the wide counter, nor told its wait.
	if err := db.LoginSucceeded(t.Context(), a, plumb.LoginReservation{}); err != nil {
		t.Fatal(err)
	}
	if res := ltReserve(t, db, a); res.Wait != 0 {
		t.Fatalf("known pair after its delay: %+v", res)
	}
	if res := ltReserve(t, db, a); res.Wait != 2*time.Second {
		t.Fatalf("known pair during its delay: wait %v, want 2s (its own)", res.Wait)
	}
}
