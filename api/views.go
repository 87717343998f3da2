package api

import (
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
)

// The views are the v1 objects exactly as the spec's resource tables list
// them, in the same field order (CSV columns follow it).

func ts(t time.Time) string { return t.UTC().Truncate(time.Second).Format("2006-01-02T15:04:05Z") }

func tsPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := ts(*t)
	return &s
}

type workspaceView = apiv1.Workspace

func newWorkspaceView(w plumb.Workspace) workspaceView {
	return workspaceView{ID: w.ID, Key: w.Key, AvatarURL: w.AvatarURL, ProviderURL: w.ProviderURL, CreatedAt: ts(w.CreatedAt), UpdatedAt: ts(w.UpdatedAt)}
}

type applicationView struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

type applicationCountView struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	ProjectCount int    `json:"projectCount"`
}

func newApplicationCountView(a plumb.Application) applicationCountView {
	return applicationCountView{ID: a.ID, Name: a.Name, Description: a.Description, ProjectCount: a.ProjectCount}
}

// issueView is apiv1.Issue with the fast JSON encoding of long lists
// (fastjson.go).
type issueView apiv1.Issue

type locationView = apiv1.IssueLocation

func newIssueView(i plumb.Issue) issueView {
	return issueView{ID: i.ID, Fingerprint: i.Fingerprint, Tool: i.Tool, RuleKey: i.RuleKey, Message: i.Message,
		Category: i.Category, Level: i.Level, Status: i.Status, DocumentationURL: i.DocumentationURL,
		Location: locationView{Path: i.Path, StartLine: i.StartLine, EndLine: i.EndLine}}
}

type buildListView = apiv1.BuildSummary

type buildView = apiv1.Build

func newBuildListView(b plumb.Build, now time.Time) buildListView {
	return buildListView{ID: b.ID, Type: b.Type, Status: b.Status, BranchName: b.BranchName, CommitSHA: b.CommitSHA,
		CommitMessage: b.CommitMessage, SubmittedAt: ts(b.SubmittedAt), FinishedAt: tsPtr(b.FinishedAt), QueueSeconds: b.QueueSeconds(now)}
}

func newBuildView(b plumb.Build, now time.Time) buildView {
	return buildView{BuildSummary: newBuildListView(b, now),
		StatusReason: b.StatusReason, Conclusion: b.Conclusion, ExitCode: b.ExitCode, Source: b.Source,
		PullRequestNumber: b.PullRequestNumber, CommitterLogin: b.CommitterLogin, StartedAt: tsPtr(b.StartedAt),
		ExecutionSeconds: b.ExecutionSeconds()}
}
