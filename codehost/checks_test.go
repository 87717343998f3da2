package codehost

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func manyAnnotations(n int) []Annotation {
	as := make([]Annotation, n)
	levels := []string{AnnotationNotice, AnnotationWarning, AnnotationFailure}
	for i := range as {
		as[i] = Annotation{Path: fmt.Sprintf("pkg/f%03d.go", i%200), StartLine: i + 1, EndLine: i + 2, Level: levels[i%3], Message: "Changed lines not covered"}
	}
	SortAnnotations(as)
	return as
}

func checkFixture(t *testing.T) (*Client, Target, *fakeGitHub, *[]time.Duration, time.Time) {
	key, _ := testKey(t)
	now := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	srv, f := newFakeGitHub(t, &key.PublicKey, 77, func() time.Time { return now })
	var waits []time.Duration
	c := &Client{Now: func() time.Time { return now }, Sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}}
	return c, Target{Kind: GitHub, BaseURL: srv.URL, Repository: "acme/web", Token: "ghs_test"}, f, &waits, now
}

// startRun creates a check run on the fake.
func startRun(t *testing.T, c *Client, tg Target) int64 {
	t.Helper()
	id, err := c.StartCheckRun(context.Background(), tg, "abc1234abc1234abc1234abc1234abc1234abc12", "https://plumb.example.com/w/acme/web/pulls/7")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestCheckRunWith5000AnnotationsIn100Requests(t *testing.T) {
	c, tg, f, _, _ := checkFixture(t)
	ctx := context.Background()
	id := startRun(t, c, tg)
	run := CheckRun{HeadSHA: "abc1234abc1234abc1234abc1234abc1234abc12", Conclusion: "failure", Title: "Quality gate failed", Summary: "## Plumb", Annotations: manyAnnotations(5000)}
	var states []CheckState
	err := c.CompleteCheckRun(ctx, tg, CheckState{RunID: id}, run, func(st CheckState) error {
		states = append(states, st)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.patches) != 100 {
		t.Fatalf("%d PATCH requests, want 100", len(f.patches))
	}
	total := 0
	for i, n := range f.patches {
		if n > AnnotationsPerRequest || n == 0 {
			t.Fatalf("request %d carried %d annotations, want 1 to 50", i, n)
		}
		total += n
	}
	if total != 5000 {
		t.Errorf("%d annotations sent, want 5000", total)
	}
	if got := f.runs[id]; len(got) != 2 || got[1] != "completed:failure" {
		t.Errorf("run statuses = %q, want in_progress then completed:failure (completed with the last batch only)", got)
	}
	if last := states[len(states)-1]; !last.Completed || last.Sent != 5000 || len(states) != 100 {
		t.Errorf("progress: %d states, last %+v; want 100 ending completed with 5000 sent", len(states), last)
	}
}

func TestCheckRunWithoutAnnotationsCompletesInOneRequest(t *testing.T) {
	c, tg, f, _, _ := checkFixture(t)
	id := startRun(t, c, tg)
	err := c.CompleteCheckRun(context.Background(), tg, CheckState{RunID: id}, CheckRun{Conclusion: "neutral", Title: "No gate", Summary: "No data"}, func(CheckState) error { return nil })
	if err != nil || len(f.patches) != 1 || f.runs[id][1] != "completed:neutral" {
		t.Errorf("err %v, patches %v, statuses %q; want one completing PATCH", err, f.patches, f.runs[id])
	}
}

// TestCheckRunWaitsOutRateLimits: GitHub's primary limit (403,
// x-ratelimit-remaining 0, x-ratelimit-reset) and secondary limit (429,
// retry-after) are waited out and the request sent again.
func TestCheckRunWaitsOutRateLimits(t *testing.T) {
	c, tg, f, waits, now := checkFixture(t)
	ctx := context.Background()
	id := startRun(t, c, tg)
	f.limited = []http.Header{
		{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(now.Add(90*time.Second).Unix(), 10)}},
		{"Retry-After": {"30"}},
	}
	f.status = []int{http.StatusForbidden, http.StatusTooManyRequests}
	err := c.CompleteCheckRun(ctx, tg, CheckState{RunID: id}, CheckRun{Conclusion: "success", Title: "t", Summary: "s", Annotations: manyAnnotations(120)}, func(CheckState) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{90 * time.Second, 30 * time.Second}; len(*waits) != 2 || (*waits)[0] != want[0] || (*waits)[1] != want[1] {
		t.Errorf("waits = %v, want %v", *waits, want)
	}
	if len(f.patches) != 3 || f.runs[id][1] != "completed:success" {
		t.Errorf("patches %v, statuses %q; want 3 batches (50, 50, 20), completed", f.patches, f.runs[id])
	}
}

// TestCheckRunResumesWhereItStopped: a run interrupted (here, the wait for
// the rate limit cut short) keeps its progress; completing it again from
// that state sends only the rest.
func TestCheckRunResumesWhereItStopped(t *testing.T) {
	c, tg, f, _, _ := checkFixture(t)
	ctx := context.Background()
	id := startRun(t, c, tg)
	run := CheckRun{Conclusion: "failure", Title: "t", Summary: "s", Annotations: manyAnnotations(230)}
	kept := CheckState{RunID: id, Digest: run.Digest()}
	stopped := errors.New("server stopping")
	c.Sleep = func(context.Context, time.Duration) error { return stopped }
	calls := 0
	err := c.CompleteCheckRun(ctx, tg, kept, run, func(st CheckState) error {
		kept = st
		if calls++; calls == 2 {
			f.limited = []http.Header{{"Retry-After": {"60"}}}
			f.status = []int{http.StatusTooManyRequests}
		}
		return nil
	})
	if !errors.Is(err, stopped) || !strings.Contains(err.Error(), "429") {
		t.Fatalf("err = %v, want the refusal and the interrupted wait", err)
	}
	if kept.Sent != 100 || kept.Completed {
		t.Fatalf("kept %+v, want 100 sent, not completed", kept)
	}
	c.Sleep = nil
	if err := c.CompleteCheckRun(ctx, tg, kept, run, func(st CheckState) error { kept = st; return nil }); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, n := range f.patches {
		sum += n
	}
	if sum != 230 || !kept.Completed || f.runs[id][1] != "completed:failure" {
		t.Errorf("sent %d in %v, kept %+v; want each of the 230 once, completed", sum, f.patches, kept)
	}
}

func TestSortAnnotationsBySeverity(t *testing.T) {
	as := []Annotation{
		{Path: "b.go", StartLine: 3, Level: AnnotationNotice},
		{Path: "a.go", StartLine: 9, Level: AnnotationWarning},
		{Path: "c.go", StartLine: 1, Level: AnnotationFailure},
		{Path: "a.go", StartLine: 2, Level: AnnotationWarning},
	}
	SortAnnotations(as)
	got := ""
	for _, a := range as {
		got += fmt.Sprintf("%s:%d ", a.Path, a.StartLine)
	}
	if got != "c.go:1 a.go:2 a.go:9 b.go:3 " {
		t.Errorf("order = %q", got)
	}
}
