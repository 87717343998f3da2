package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/plumbhq/plumb/cienv"
	"github.com/plumbhq/plumb/client"
)

// The change a pull request makes (cienv.Change) sent with coverage and
// analysis uploads (docs/pull-requests.md).

// changeFlags say against what the change is computed.
type changeFlags struct {
	Base     string `name:"base" placeholder:"REF" help:"Base of the change: a branch or commit (default: the pull request's target branch, detected on CI). The change is computed against its merge base with the commit."`
	NoChange bool   `name:"no-change" help:"Do not send the change (changed lines) with the upload."`
}

// sendChange computes and uploads the change of a pull request (or of the
// commit against --base). It never fails the upload it goes with: problems
// are warnings on stderr.
func sendChange(ctx context.Context, cl *client.Project, info cienv.Info, f changeFlags, stderr io.Writer) {
	base := f.Base
	if base == "" {
		base = info.BaseBranch
	}
	if f.NoChange || base == "" {
		return
	}
	baseSHA, files, err := cienv.Change(ciGitDir, base, info.Commit)
	if err != nil {
		fmt.Fprintf(stderr, "plumb: warning: the change was not sent (no patch coverage for this commit): %v\n", err)
		return
	}
	up := client.Change{CommitSHA: info.Commit, Branch: info.Branch, BaseCommitSHA: baseSHA, PullRequestNumber: info.PullRequest}
	if !cienv.IsHex(base) {
		up.BaseBranch = strings.TrimPrefix(base, "refs/heads/")
	}
	for _, fc := range files {
		uf := client.ChangedFile{Path: fc.Path, PreviousPath: fc.PreviousPath, Status: fc.Status}
		for _, r := range fc.AddedLines {
			uf.AddedLines = append(uf.AddedLines, [2]int{r.Start, r.End})
		}
		up.Files = append(up.Files, uf)
	}
	res, err := cl.UploadChange(ctx, up)
	if err != nil {
		fmt.Fprintf(stderr, "plumb: warning: the change was not sent (no patch coverage for this commit): %v\n", callError(err))
		return
	}
	fmt.Fprintf(stderr, "sent the change against %s (merge base %s): %d files, %d changed lines\n", base, short(baseSHA), res.Files, res.ChangedLines)
}
