package plumb

import "time"

// Delivery is the outcome of the latest delivery of a commit's results to
// its code host.
type Delivery struct {
	CommitSHA string
	State     string // delivered or failed
	Attempts  int
	Detail    string // the last error, for people
	CommentID string
	At        time.Time
}

// UnfinishedCheckRun is a check run left in progress: its project, head
// commit and pull request.
type UnfinishedCheckRun struct {
	ProjectID, HeadSHA string
	PullRequest        int
}
