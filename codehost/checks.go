package codehost

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
)

// CheckName is the name of Plumb's check run.
const CheckName = "Plumb"

// Annotation levels of the Checks API.
const (
	AnnotationFailure = "failure"
	AnnotationWarning = "warning"
	AnnotationNotice  = "notice"
)

// AnnotationsPerRequest is the Checks API's limit of annotations in one
// request; MaxAnnotations, how many one run carries (the rest are counted in
// its summary).
const (
	AnnotationsPerRequest = 50
	MaxAnnotations        = 5000
)

// Annotation is a note on lines of a changed file.
type Annotation struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Level     string `json:"annotation_level"`
	Title     string `json:"title,omitempty"`
	Message   string `json:"message"`
}

var levelOrder = map[string]int{AnnotationFailure: 0, AnnotationWarning: 1, AnnotationNotice: 2}

// SortAnnotations orders annotations by severity, then path and line.
func SortAnnotations(as []Annotation) {
	sort.SliceStable(as, func(i, j int) bool {
		a, b := as[i], as[j]
		if levelOrder[a.Level] != levelOrder[b.Level] {
			return levelOrder[a.Level] < levelOrder[b.Level]
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.StartLine < b.StartLine
	})
}

// CheckRun is the outcome a completed check run shows.
type CheckRun struct {
	HeadSHA     string
	DetailsURL  string
	Conclusion  string // success, failure or neutral
	Title       string
	Summary     string       // Markdown
	Annotations []Annotation // in the order to send, at most MaxAnnotations
}

// Digest identifies a run's outcome, so an interrupted run resumes only
// with the same one.
func (r CheckRun) Digest() string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// CheckState is how far a head commit's check run got: its id, its pull
// request, the digest of the outcome being sent, how many annotations went,
// and whether it is completed.
type CheckState struct {
	RunID       int64
	PullRequest int // the pull request it is sent for (0: none)
	Digest      string
	Sent        int
	Completed   bool
}

// maxSummary is the Checks API's limit of an output's summary, in bytes.
const maxSummary = 65535

type checkOutput struct {
	Title       string       `json:"title"`
	Summary     string       `json:"summary"`
	Annotations []Annotation `json:"annotations"`
}

// StartCheckRun creates the check run of a head commit, in progress.
func (c *Client) StartCheckRun(ctx context.Context, t Target, headSHA, detailsURL string) (int64, error) {
	body := map[string]any{"name": CheckName, "head_sha": headSHA, "status": "in_progress",
		"output": map[string]string{"title": "Waiting for the comparison", "summary": "Plumb compares the head with its base once the uploads are in."}}
	if detailsURL != "" {
		body["details_url"] = detailsURL
	}
	var out struct {
		ID int64 `json:"id"`
	}
	if err := c.call(ctx, t, http.MethodPost, c.base(t)+"/repos/"+t.Repository+"/check-runs", body, &out); err != nil {
		return 0, err
	}
	if out.ID < 1 {
		return 0, fmt.Errorf("GitHub named no id for the check run of %s", headSHA)
	}
	return out.ID, nil
}

// CompleteCheckRun sends a run's annotations, 50 per request, starting
// after the st.Sent already sent, and completes it with the last batch (or
// alone without annotations). After each request it calls progress with the
// new state, which the caller keeps, so an interrupted run resumes where it
// stopped.
func (c *Client) CompleteCheckRun(ctx context.Context, t Target, st CheckState, run CheckRun, progress func(CheckState) error) error {
	u := c.base(t) + "/repos/" + t.Repository + "/check-runs/" + strconv.FormatInt(st.RunID, 10)
	summary := run.Summary
	if len(summary) > maxSummary {
		summary = truncateBytes(summary, maxSummary)
	}
	as := run.Annotations
	if len(as) > MaxAnnotations {
		as = as[:MaxAnnotations]
	}
	for !st.Completed {
		end := min(st.Sent+AnnotationsPerRequest, len(as))
		batch := as[min(st.Sent, end):end]
		body := map[string]any{"output": checkOutput{Title: run.Title, Summary: summary, Annotations: batch}}
		last := end == len(as)
		if last {
			body["status"] = "completed"
			body["conclusion"] = run.Conclusion
		}
		if run.DetailsURL != "" {
			body["details_url"] = run.DetailsURL
		}
		if err := c.call(ctx, t, http.MethodPatch, u, body, nil); err != nil {
			return err
		}
		st.Sent, st.Completed = end, last
		if err := progress(st); err != nil {
			return err
		}
	}
	return nil
}

// truncateBytes cuts s to at most n bytes on a rune boundary, ending with
// an ellipsis.
func truncateBytes(s string, n int) string {
	const ell = "…"
	cut := n - len(ell)
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + ell
}
