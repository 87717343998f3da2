package demo

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/dataset"
)

// The demo's pull requests, on acme/web-shop: the changes CI uploads for
// them (with `plumb upload coverage` and `plumb analyze` in a pull-request
// build), which the dataset does not carry, so `plumb demo` puts them after
// the import (PutPullRequests). They are derived from the generated
// document, so they are as deterministic as it is:
//
//   - #40, merged: an older default-branch commit against the one before,
//     changed lines partly missed;
//   - #41, open, failing its gate: the feature branch's latest analysis
//     against the default-branch commit it branched from, its new files
//     added whole (patch coverage under 80 %, findings of its own);
//   - #42, open, passing: the default branch's latest commit that brings no
//     new finding against the one before, changed lines all covered;
//   - #43, open: a head with coverage only (no analysis), the one commit the
//     demo adds for it (pullCoverageBranch), its sources kept.
//
// acme/web-shop has a fake GitHub connection (DemoCodeHost) and the
// pull_request webhook deliveries GitHub would have sent (PullHooks): they
// give each pull request its title, author and state.

const (
	pullProject        = "web-shop"
	pullCoverageBranch = "fix/cart-rounding"
	pullCoverageNumber = 43
	pullMaxFiles       = 6
	pullMaxRange       = 12
)

// PullRequest is one demo pull request's uploaded change.
type PullRequest struct {
	ProjectID  string
	Change     compare.Change
	UploadedAt time.Time
}

// addPullCoverage adds the coverage of the coverage-only pull request's
// head: the latest default-branch commit's reports (and sources), as that
// branch's CI uploads them an hour and a half before now. It runs after every other
// record, so the IDs of those do not change.
func (g *generator) addPullCoverage() {
	pid := g.projs[pullProject]
	var latest []dataset.Coverage
	for _, c := range g.doc.Coverage {
		if c.ProjectID != pid || c.Branch == "" || c.Branch == pullCoverageBranch {
			continue
		}
		if len(latest) > 0 && c.CommitSHA != latest[0].CommitSHA && c.UploadedAt.After(latest[0].UploadedAt) {
			latest = latest[:0]
		}
		if len(latest) == 0 || c.CommitSHA == latest[0].CommitSHA || c.UploadedAt.After(latest[0].UploadedAt) {
			latest = append(latest, c)
		}
	}
	r := newStream("pulls", pullProject)
	sha := sha40(r)
	at := g.now.Add(-90 * time.Minute)
	var added []dataset.Coverage
	for _, c := range latest {
		c.ID, c.CommitSHA, c.Branch, c.GitTag, c.PullRequest, c.UploadedAt = g.newID(at), sha, pullCoverageBranch, "", pullCoverageNumber, at
		added = append(added, c)
		at = at.Add(time.Minute)
	}
	// The records go after the project's own (the document's order is by
	// project, then time), and its source commit, the same tree as the
	// commit it copies, among the project's by SHA.
	end := 0
	for i, c := range g.doc.Coverage {
		if c.ProjectID == pid {
			end = i + 1
		}
	}
	g.doc.Coverage = slices.Insert(g.doc.Coverage, end, added...)
	if len(latest) == 0 {
		return
	}
	for _, sc := range g.doc.SourceCommits {
		if sc.ProjectID == pid && sc.CommitSHA == latest[0].CommitSHA {
			sc.CommitSHA, sc.CreatedAt = sha, added[0].UploadedAt.Add(-time.Minute)
			at := len(g.doc.SourceCommits)
			for i, o := range g.doc.SourceCommits {
				if o.ProjectID == pid && o.CommitSHA > sha {
					at = i
					break
				}
				if o.ProjectID == pid {
					at = i + 1
				}
			}
			g.doc.SourceCommits = slices.Insert(g.doc.SourceCommits, at, sc)
			return
		}
	}
}

// PullRequests derives the demo's pull requests from its document.
func PullRequests(doc *dataset.Document) []PullRequest {
	var pid string
	for _, p := range doc.Projects {
		if p.Key == pullProject {
			pid = p.ID
		}
	}
	var main, feature []dataset.Snapshot
	for _, s := range doc.Snapshots {
		switch {
		case s.ProjectID != pid:
		case s.Branch == "main":
			main = append(main, s)
		default:
			feature = append(feature, s)
		}
	}
	byTime := func(ss []dataset.Snapshot) {
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].AnalyzedAt.Before(ss[j].AnalyzedAt) })
	}
	byTime(main)
	byTime(feature)
	n := len(main)
	if pid == "" || n < 4 || len(feature) == 0 {
		return nil
	}
	hits := map[string]map[string][]int64{} // commit → path → union of the tags' hits
	var covHead string
	var covAt time.Time
	for _, c := range doc.Coverage {
		if c.ProjectID != pid {
			continue
		}
		if c.Branch == pullCoverageBranch {
			covHead, covAt = c.CommitSHA, c.UploadedAt
		}
		m := hits[c.CommitSHA]
		if m == nil {
			m = map[string][]int64{}
			hits[c.CommitSHA] = m
		}
		for _, f := range c.Files {
			m[f.Path] = unionHits(m[f.Path], f.Hits)
		}
	}
	change := func(number int, branch string, base, head dataset.Snapshot, headSHA string, wantMissed bool) compare.Change {
		ch := compare.Change{CommitSHA: headSHA, Branch: branch, BaseCommitSHA: base.CommitSHA, BaseBranch: "main", PullRequestNumber: &number}
		for _, f := range head.Files {
			if len(ch.Files) == pullMaxFiles {
				break
			}
			h, ok := hits[headSHA][f.Path]
			if !ok {
				continue
			}
			if rs := pickLines(h, wantMissed); len(rs) > 0 {
				ch.Files = append(ch.Files, compare.FileChange{Path: f.Path, Status: "modified", AddedLines: rs})
			}
		}
		return ch
	}
	// The passing one: the latest commit that brings no new high or
	// security finding.
	k := n - 1
	for k > 3 && !noNewFinding(main[k-1], main[k]) {
		k--
	}
	var out []PullRequest
	merged := change(40, "chore/upgrade-router", main[k-3], main[k-2], main[k-2].CommitSHA, true)
	out = append(out, PullRequest{pid, merged, main[k-2].AnalyzedAt.Add(-20 * time.Minute)})

	head := feature[len(feature)-1]
	base := main[0]
	for _, s := range main {
		if !s.AnalyzedAt.After(head.AnalyzedAt) {
			base = s
		}
	}
	failing := compare.Change{CommitSHA: head.CommitSHA, Branch: head.Branch, BaseCommitSHA: base.CommitSHA, BaseBranch: "main", PullRequestNumber: ptr(41)}
	for _, p := range sortedKeys(hits[head.CommitSHA]) {
		if _, inBase := hits[base.CommitSHA][p]; !inBase {
			failing.Files = append(failing.Files, compare.FileChange{Path: p, Status: "added",
				AddedLines: []compare.LineRange{{Start: 1, End: len(hits[head.CommitSHA][p])}}})
		}
	}
	out = append(out, PullRequest{pid, failing, head.AnalyzedAt.Add(-5 * time.Minute)})

	passing := change(42, "fix/price-format", main[k-1], main[k], main[k].CommitSHA, false)
	out = append(out, PullRequest{pid, passing, main[k].AnalyzedAt.Add(-20 * time.Minute)})

	if covHead != "" {
		cov := change(pullCoverageNumber, pullCoverageBranch, main[n-1], main[n-1], covHead, false)
		cov.CommitSHA = covHead
		out = append(out, PullRequest{pid, cov, covAt})
	}
	return out
}

// PullStore is what PutPullRequests writes to (the store).
type PullStore interface {
	PutChange(ctx context.Context, projectID string, ch compare.Change, at time.Time) error
	PutCodeHost(ctx context.Context, projectID string, t codehost.Target, at time.Time) error
	ApplyHook(ctx context.Context, d codehost.HookDelivery, applied, unknown int) (status int, err error)
}

// DemoCodeHost is acme/web-shop's code-host connection in the demo: GitHub
// through an App the demo server does not have, at a loopback address
// nothing listens on, so the demo never calls out (a delivery is recorded
// as failed; "test connection" answers that the host cannot be reached).
var DemoCodeHost = codehost.Target{Kind: codehost.GitHub, BaseURL: "http://127.0.0.1:9/fake-github-for-the-demo", Repository: "acme/web-shop"}

// PutPullRequests records the demo's pull requests in st: their changes,
// acme/web-shop's (fake) code-host connection, and the pull_request
// webhook deliveries GitHub would have sent for them (PullHooks), applied as
// POST /hooks/github applies them, so the pull requests have titles,
// authors and states (#40 merged) and the settings page lists deliveries.
func PutPullRequests(ctx context.Context, doc *dataset.Document, st PullStore) error {
	prs := PullRequests(doc)
	for _, pr := range prs {
		if err := st.PutChange(ctx, pr.ProjectID, pr.Change, pr.UploadedAt); err != nil {
			return err
		}
	}
	if len(prs) == 0 {
		return nil
	}
	if err := st.PutCodeHost(ctx, prs[0].ProjectID, DemoCodeHost, prs[0].UploadedAt.Add(-48*time.Hour)); err != nil {
		return err
	}
	for _, d := range PullHooks(prs) {
		// As the webhook handler answers: 204 applied, 202 for a
		// repository no project is connected to.
		if _, err := st.ApplyHook(ctx, d, 204, 202); err != nil {
			return err
		}
	}
	return nil
}

// pullHookFacts are what the demo's webhooks say of each pull request.
var pullHookFacts = map[int]struct{ title, author string }{
	40:                 {"Upgrade the router", "linus"},
	41:                 {"Checkout redesign", "demo"},
	42:                 {"Format prices with the locale's separators", "linus"},
	pullCoverageNumber: {"Round cart totals once", "demo"},
}

// PullHooks are the pull_request deliveries GitHub would have sent for the
// demo's pull requests, oldest first: opened two hours before its upload,
// synchronize with the uploaded head a minute before it, and for #40
// closed as merged an hour after it. Their ids are fixed, so they are as
// deterministic as the pull requests.
func PullHooks(prs []PullRequest) []codehost.HookDelivery {
	var out []codehost.HookDelivery
	for _, pr := range prs {
		n := *pr.Change.PullRequestNumber
		f := pullHookFacts[n]
		hook := func(seq int, action string, at time.Duration, state string, merged bool) codehost.HookDelivery {
			return codehost.HookDelivery{ID: fmt.Sprintf("de000000-0000-4000-8000-%08d%04d", n, seq), Event: "pull_request", Action: action,
				Repository: DemoCodeHost.Repository, At: pr.UploadedAt.Add(at),
				PullRequest: &codehost.PullRequest{Number: n, Title: f.title, Author: f.author, BaseBranch: pr.Change.BaseBranch,
					HeadBranch: pr.Change.Branch, HeadSHA: pr.Change.CommitSHA, State: state, Merged: merged, UpdatedAt: pr.UploadedAt.Add(at)}}
		}
		out = append(out, hook(1, "opened", -2*time.Hour, "open", false), hook(2, "synchronize", -time.Minute, "open", false))
		if n == 40 {
			out = append(out, hook(3, "closed", time.Hour, "closed", true))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// noNewFinding reports whether head brings no finding the default gate
// fails on (a high or security one) that base lacks.
func noNewFinding(base, head dataset.Snapshot) bool {
	had := map[string]bool{}
	for _, is := range base.Issues {
		had[is.Fingerprint] = true
	}
	for _, is := range head.Issues {
		if !had[is.Fingerprint] && (is.Level == "high" || plumb.IsSecurityCategory(is.Category)) {
			return false
		}
	}
	return true
}

// unionHits merges two tags' hits of a file: covered when either hit it.
func unionHits(a, b []int64) []int64 {
	out := make([]int64, max(len(a), len(b)))
	for i := range out {
		out[i] = -1
		for _, h := range [][]int64{a, b} {
			if i < len(h) && h[i] >= 0 {
				out[i] = max(out[i], 0) + h[i]
			}
		}
	}
	return out
}

// pickLines chooses a file's changed lines: up to two runs of coverable
// lines, all hit, or (wantMissed) each holding a missed line.
func pickLines(h []int64, wantMissed bool) []compare.LineRange {
	var out []compare.LineRange
	for i := 0; i < len(h) && len(out) < 2; i++ {
		if h[i] < 0 {
			continue
		}
		j := i
		missed := false
		for j < len(h) && h[j] >= 0 && j-i < pullMaxRange {
			if h[j] == 0 {
				missed = true
			}
			j++
		}
		if missed == wantMissed {
			out = append(out, compare.LineRange{Start: i + 1, End: j})
		}
		i = j
	}
	return out
}
