package plumb

import (
	"testing"
	"time"
)

func TestBuildApply(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	code := 2
	b := Build{ID: "b1", Status: "submitted", SubmittedAt: t0}
	// Before the submission, a report counts at the submission.
	at, changed, err := b.Apply(BuildUpdate{Status: "running", At: t0.Add(-time.Minute)})
	if err != nil || !changed || !at.Equal(t0) || b.StartedAt == nil || !b.StartedAt.Equal(t0) {
		t.Fatalf("running: at %v changed %v err %v started %v", at, changed, err, b.StartedAt)
	}
	if _, changed, err := b.Apply(BuildUpdate{Status: "running", At: t0.Add(time.Hour)}); err != nil || changed || !b.StartedAt.Equal(t0) {
		t.Fatalf("running again: changed %v err %v started %v, want no change", changed, err, b.StartedAt)
	}
	at, changed, err = b.Apply(BuildUpdate{Status: "failed", ExitCode: &code, At: t0.Add(90 * time.Second)})
	if err != nil || !changed || b.FinishedAt == nil || !b.FinishedAt.Equal(at) || b.Conclusion == nil || *b.Conclusion != "failed" || *b.ExitCode != 2 {
		t.Fatalf("failed: %+v, err %v", b, err)
	}
	if _, _, err := b.Apply(BuildUpdate{Status: "running"}); ErrorCode(err) != ECONFLICT {
		t.Fatalf("an ended build moved: %v", err)
	}
	s := Build{ID: "b2", Status: "running"}
	if _, _, err := s.Apply(BuildUpdate{Status: "skipped"}); ErrorCode(err) != ECONFLICT {
		t.Fatalf("running became skipped: %v", err)
	}
	if _, _, err := s.Apply(BuildUpdate{Status: "paused"}); ErrorCode(err) != EINVALID {
		t.Fatalf("unknown status: %v", err)
	}
	if _, _, err := s.Apply(BuildUpdate{Status: "skipped"}); s.Status != "running" || err == nil {
		t.Fatalf("a refused update changed the build: %+v", s)
	}
}
