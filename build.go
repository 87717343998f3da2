package plumb

import (
	"strings"
	"time"
)

// Build types and statuses.
var (
	BuildTypes    = []string{"analysis", "format", "ssh", "coverage_setup"}
	BuildStatuses = []string{"submitted", "starting", "running", "succeeded", "failed", "skipped", "rejected"}
)

// Build is one CI or analysis run of a project.
type Build struct {
	ID                string
	ProjectID         string
	Type              string
	Status            string
	BranchName        string
	CommitSHA         string
	CommitMessage     string
	SubmittedAt       time.Time
	StartedAt         *time.Time
	FinishedAt        *time.Time
	StatusReason      *string
	Conclusion        *string
	ExitCode          *int
	Source            string
	PullRequestNumber *int
	CommitterLogin    string
	SnapshotID        string // the snapshot an analysis build produced, if any
}

// QueueSeconds is the time from submission to start; for a build that never
// started, to its finish, or to now while it is still queued.
func (b *Build) QueueSeconds(now time.Time) int64 {
	end := now
	switch {
	case b.StartedAt != nil:
		end = *b.StartedAt
	case b.FinishedAt != nil:
		end = *b.FinishedAt
	}
	if d := int64(end.Sub(b.SubmittedAt) / time.Second); d > 0 {
		return d
	}
	return 0
}

// ExecutionSeconds is the time from start to finish, nil until both are known.
func (b *Build) ExecutionSeconds() *int64 {
	if b.StartedAt == nil || b.FinishedAt == nil {
		return nil
	}
	d := int64(b.FinishedAt.Sub(*b.StartedAt) / time.Second)
	if d < 0 {
		d = 0
	}
	return &d
}

// BuildFilter selects a project's builds.
type BuildFilter struct {
	Status string
	Page   Page
}

// BuildUpdate is a status report for a build.
type BuildUpdate struct {
	Status       string
	StatusReason *string
	ExitCode     *int
	At           time.Time
}

// buildTransitions lists the statuses a build may move to from each status.
// Reporting the status a build already has is accepted and changes nothing.
var buildTransitions = map[string][]string{
	"submitted": {"starting", "running", "failed", "skipped", "rejected"},
	"starting":  {"running", "failed", "skipped", "rejected"},
	"running":   {"succeeded", "failed"},
	"succeeded": nil, "failed": nil, "skipped": nil, "rejected": nil,
}

// Apply moves the build to the update's status, recording when: StartedAt
// when it starts running, FinishedAt and the conclusion (succeeded or
// failed) when it ends, at the update's time (never before the submission).
// It returns that time, and changed false when the build already has the
// status. An unknown status is invalid, an impossible transition a conflict.
func (b *Build) Apply(u BuildUpdate) (at time.Time, changed bool, err error) {
	if _, ok := buildTransitions[u.Status]; !ok {
		return at, false, Errorf(EINVALID, "status must be one of %s, got %q", strings.Join(BuildStatuses, ", "), u.Status)
	}
	if u.Status == b.Status {
		return at, false, nil
	}
	if allowed := buildTransitions[b.Status]; !Contains(allowed, u.Status) {
		if len(allowed) == 0 {
			return at, false, Errorf(ECONFLICT, "Build %s has ended (%s); its status can no longer change.", b.ID, b.Status)
		}
		return at, false, Errorf(ECONFLICT, "Build %s is %s and cannot become %s; it can become %s.", b.ID, b.Status, u.Status, strings.Join(allowed, ", "))
	}
	at = u.At.UTC().Truncate(time.Second)
	if at.Before(b.SubmittedAt) {
		at = b.SubmittedAt
	}
	b.Status, b.StatusReason = u.Status, u.StatusReason
	switch u.Status {
	case "starting", "running":
		if b.StartedAt == nil && u.Status == "running" {
			b.StartedAt = &at
		}
	default: // terminal
		b.FinishedAt = &at
		if u.Status == "succeeded" || u.Status == "failed" {
			c := u.Status
			b.Conclusion = &c
		}
		b.ExitCode = u.ExitCode
	}
	return at, true, nil
}
