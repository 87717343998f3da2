package api

import (
	"net/http"
	"strings"

	"github.com/plumbhq/plumb/api/apiv1"
)

// maxAnalysedCommits bounds the commits one GET …/analyses asks about, so
// its URL stays within what proxies accept (100 full SHAs: about 4 KiB).
const maxAnalysedCommits = 100

// analysedCommitsView answers GET …/analyses: which of the commits asked
// about already have an analysis on the branch (plumb analyze --history
// skips them), and the project's default branch.
type analysedCommitsView = apiv1.AnalysedCommits

type analysedCommitID = apiv1.AnalysedCommit

// handleAnalysedCommits lists, of the commits in commitSha (up to 100; none
// is valid and only names the branches), those with an analysis on branch
// (default: the project's default branch), each with its latest analysis.
func (s *Server) handleAnalysedCommits(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.ingestProject(r.Context(), c)
	if err != nil {
		return err
	}
	q := c.query
	branch, present := q.single("branch")
	branch = strings.TrimPrefix(strings.TrimSpace(branch), "refs/heads/")
	if present && branch == "" {
		q.fail("Query parameter branch must not be empty; leave it out for the default branch (%s).", p.DefaultBranch)
	}
	if branch == "" {
		branch = p.DefaultBranch
	}
	shas := dedupe(q.list("commitSha"))
	for i, sha := range shas {
		checkCommitSHA(q.fail, "Query parameter commitSha", sha)
		shas[i] = strings.ToLower(sha)
	}
	if len(shas) > maxAnalysedCommits {
		q.fail("Query parameter commitSha lists %d commits; ask about at most %d at a time.", len(shas), maxAnalysedCommits)
	}
	if err := q.err(); err != nil {
		return err
	}
	snaps, err := s.store.AnalysedCommits(r.Context(), p.ID, branch, shas)
	if err != nil {
		return err
	}
	out := analysedCommitsView{Branch: branch, DefaultBranch: p.DefaultBranch, Data: make([]analysedCommitID, len(snaps))}
	for i, sn := range snaps {
		out.Data[i] = analysedCommitID{ID: sn.ID, CommitSHA: sn.CommitSHA, AnalyzedAt: ts(sn.AnalyzedAt), Current: sn.Measured, History: sn.History}
	}
	return writeJSON(w, http.StatusOK, out)
}
