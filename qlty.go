package plumb

import "time"

// QltyInput is what Plumb keeps of a publish's metadata: the fields it has
// a place for.
type QltyInput struct {
	CommitSHA   string    `json:"commitSha"`
	Branch      string    `json:"branch,omitempty"`
	GitTag      string    `json:"gitTag,omitempty"`
	CoverageTag string    `json:"coverageTag"`
	PullRequest int       `json:"pullRequest,omitempty"`
	UploadedAt  time.Time `json:"uploadedAt"`
	// Parts is the totalPartsCount the publish declared (0: none); a
	// publish is a part when Multipart.
	Parts     int  `json:"parts,omitempty"`
	Multipart bool `json:"multipart,omitempty"`
}

// CoverageInput is the coverage upload the publish makes, with its id.
func (in QltyInput) CoverageInput(projectID, id string) CoverageInput {
	return CoverageInput{ID: id, ProjectID: projectID, CommitSHA: in.CommitSHA, Branch: in.Branch, GitTag: in.GitTag,
		CoverageTag: in.CoverageTag, PullRequest: in.PullRequest, UploadedAt: in.UploadedAt}
}

// QltyUpload is one publish: the upload id the CLI was given.
type QltyUpload struct {
	ID        string
	ProjectID string
	ReportID  string // a part's report; "" for a whole publish
	Input     QltyInput
	State     string // issued, received (a part, waiting), published
	CreatedAt time.Time
	ExpiresAt time.Time // the end of its upload URL
}

// QltyReport is where a multi-part report stands.
type QltyReport struct {
	ID          string
	CommitSHA   string
	CoverageTag string
	State       string // open, closed (being published), published
	Received    int    // parts received
	Expected    int    // the largest totalPartsCount a part declared; 0: until complete
	// Summary, once published by this call: the report's files and lines.
	Summary     *CoverageSummary
	PublishedAt *time.Time
}

// QltyStats counts what the qlty CLI's uploads hold: uploads, reports and
// part rows. After a sweep past every expiry, all three are zero.
type QltyStats struct {
	Uploads, Reports, PartFiles int64
}

// ErrQltyPublishing is the store's answer when another request is publishing
// a multi-part report now: the caller retries in a few seconds.
var ErrQltyPublishing = Errorf(ECONFLICT, "The report is being published by another request now; retry in a few seconds.")
