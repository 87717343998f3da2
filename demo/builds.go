package demo

import (
	"sort"
	"strconv"
	"time"

	"github.com/plumbhq/plumb/dataset"
)

// Build sources as CI reports them.
const (
	sourceActions = "github_actions"
	sourceWebhook = "webhook"
	sourceCLI     = "cli"
)

// Why builds fail, by type, with the exit code that goes with it.
var failures = map[string][]struct {
	code   int
	reason string
}{
	"analysis": {
		{1, "golangci-lint exited with status 1: typecheck errors, see the build log"},
		{124, "Analysis timed out after 30m0s"},
		{137, "The analysis container was killed: out of memory (limit 4 GiB)"},
		{128, "Checkout failed: reference is not a tree"},
		{2, "eslint exited with status 2: configuration error in .eslintrc.cjs"},
	},
	"format": {
		{1, "prettier --check found 4 unformatted files"},
		{1, "gofmt -l listed 2 files"},
	},
	"ssh": {
		{255, "SSH session ended with exit status 255"},
		{130, "SSH session interrupted"},
	},
	"coverage_setup": {
		{1, "No coverage report found at coverage.out"},
		{2, "Coverage report could not be parsed: unexpected end of file"},
	},
}

var skipReasons = []string{
	"No analyzable changes since the last analysis",
	"Superseded by a newer commit on the same branch",
	"Skipped by [skip ci] in the commit message",
}

var rejectReasons = []string{
	"Commit author is not a member of the workspace",
	"Concurrent build limit reached for this workspace",
	"The branch is excluded by the project's branch filter",
}

// otherBranches are short-lived branches builds run on, besides the default
// and feature branches.
var otherBranches = []string{"fix/flaky-tests", "chore/update-ci", "refactor/error-handling", "fix/timeouts", "chore/bump-deps"}

// dependabot is the dependency bump branch and message of a project, by its
// dependency file.
func dependabot(h *history, latest int) (branch, message string) {
	state := h.states[latest]
	switch {
	case has(state, "go.sum"):
		return "dependabot/go_modules/golang.org/x/net-0.23.0", "Bump golang.org/x/net from 0.15.0 to 0.23.0"
	case has(state, "package-lock.json"), has(state, "web/package-lock.json"):
		return "dependabot/npm_and_yarn/braces-3.0.3", "Bump braces from 3.0.2 to 3.0.3"
	default:
		return "dependabot/pip/requests-2.32.0", "Bump requests from 2.28.2 to 2.32.0"
	}
}

func has(state map[string]dataset.File, p string) bool {
	_, ok := state[p]
	return ok
}

// addBuilds adds a project's builds: one for each analysis of the last
// months, others of every type and outcome, and, for the main projects,
// some still queued or running.
func (g *generator) addBuilds(pr *projectRun) {
	def := pr.def
	r := newStream("builds", def.key)
	since := g.now.Add(-time.Duration(def.buildDays) * day)
	latest := len(pr.snaps) - 1
	depBranch, depMessage := dependabot(pr.hist, latest)

	branches := []string{}
	if def.feature != nil {
		branches = append(branches, def.feature.branch)
	}
	branches = append(branches, otherBranches...)
	branches = append(branches, depBranch)
	prNumbers := map[string]int{}
	next := def.firstPR
	for _, b := range branches {
		next += 1 + r.IntN(6)
		prNumbers[b] = next
	}

	var list []dataset.Build
	newBuild := func(typ, branch string, submitted time.Time) dataset.Build {
		b := dataset.Build{
			ProjectID: pr.id, Type: typ, BranchName: branch, CommitSHA: sha40(r), SubmittedAt: submitted,
			CommitMessage: def.messages[r.IntN(len(def.messages))], Source: sourceActions,
			CommitterLogin: def.committers[r.IntN(len(def.committers))],
		}
		switch x := r.Float64(); {
		case typ == "ssh" || typ == "format" && x < 0.5:
			b.Source = sourceCLI
		case x < 0.2:
			b.Source = sourceWebhook
		}
		if n, ok := prNumbers[branch]; ok {
			b.PullRequestNumber = ptr(n)
		}
		if branch == depBranch {
			b.CommitMessage, b.CommitterLogin = depMessage, "dependabot[bot]"
		} else if branch == def.defaultBranch && r.Float64() < 0.3 {
			other := branches[r.IntN(len(branches))]
			b.CommitMessage = "Merge pull request #" + strconv.Itoa(prNumbers[other]) + " from " + def.workspace + "/" + other
		}
		return b
	}
	finish := func(b *dataset.Build, status string, started, finished time.Time) {
		b.Status = status
		b.StartedAt, b.FinishedAt = ptr(started), ptr(finished)
		b.Conclusion = ptr(status)
		if status == "succeeded" {
			b.ExitCode = ptr(0)
			return
		}
		f := failures[b.Type][r.IntN(len(failures[b.Type]))]
		b.ExitCode, b.StatusReason = ptr(f.code), ptr(f.reason)
	}
	execution := func(typ string) time.Duration {
		switch typ {
		case "analysis":
			return secs(r, 95, 1100)
		case "ssh":
			return secs(r, 120, 3600)
		default:
			return secs(r, 20, 240)
		}
	}

	// The analyses behind the snapshots.
	for _, s := range append(append([]dataset.Snapshot{}, pr.snaps...), pr.features...) {
		if s.AnalyzedAt.Before(since) {
			continue
		}
		finished := s.AnalyzedAt.Add(secs(r, 2, 40))
		started := finished.Add(-execution("analysis"))
		b := newBuild("analysis", s.Branch, started.Add(-secs(r, 3, 150)))
		b.CommitSHA, b.SnapshotID = s.CommitSHA, s.ID
		finish(&b, "succeeded", started, finished)
		list = append(list, b)
	}

	// Others, of every type and outcome; the first three make sure each
	// project has a failed, a skipped and a rejected analysis.
	for i := 0; i < def.builds; i++ {
		typ := "analysis"
		switch x := r.Float64(); {
		case i < 3:
		case x < 0.25:
			typ = "format"
		case x < 0.5:
			typ = "coverage_setup"
		case x < 0.65:
			typ = "ssh"
		}
		var status string
		switch x := r.Float64(); {
		case i < 3:
			status = []string{"failed", "skipped", "rejected"}[i]
		case typ == "analysis" && x < 0.4 || typ != "analysis" && x < 0.2:
			status = "failed"
		case typ == "analysis" && x < 0.7 || typ != "analysis" && x < 0.25:
			status = "skipped"
		case typ == "analysis" || x < 0.3:
			status = "rejected"
		default:
			status = "succeeded"
		}
		branch := def.defaultBranch
		if r.Float64() < 0.55 {
			branch = branches[r.IntN(len(branches))]
		}
		submitted := between(r, since, g.now.Add(-3*time.Hour))
		b := newBuild(typ, branch, submitted)
		switch status {
		case "skipped", "rejected":
			b.Status = status
			b.FinishedAt = ptr(submitted.Add(secs(r, 1, 300)))
			reasons := skipReasons
			if status == "rejected" {
				reasons = rejectReasons
			}
			b.StatusReason = ptr(reasons[r.IntN(len(reasons))])
		default:
			started := submitted.Add(secs(r, 3, 240))
			finished := started.Add(execution(typ))
			if status == "failed" && r.Float64() < 0.5 {
				finished = started.Add(secs(r, 5, 90)) // failed early
			}
			finish(&b, status, started, finished)
		}
		list = append(list, b)
	}

	// Work in progress: the main projects are busy right now.
	if def.coverage {
		running := newBuild("analysis", def.defaultBranch, g.now.Add(-secs(r, 8*60, 25*60)))
		running.Status = "running"
		running.StartedAt = ptr(running.SubmittedAt.Add(secs(r, 5, 90)))
		list = append(list, running)

		branch := def.defaultBranch
		if def.feature != nil {
			branch = def.feature.branch
		}
		starting := newBuild("analysis", branch, g.now.Add(-secs(r, 60, 300)))
		starting.Status = "starting"
		starting.StatusReason = ptr("Waiting for an available runner")
		list = append(list, starting)

		submitted := newBuild("coverage_setup", def.defaultBranch, g.now.Add(-secs(r, 5, 50)))
		submitted.Status = "submitted"
		list = append(list, submitted)
	}

	sort.SliceStable(list, func(i, j int) bool { return list[i].SubmittedAt.Before(list[j].SubmittedAt) })
	for i := range list {
		list[i].ID = g.newID(list[i].SubmittedAt)
	}
	sort.SliceStable(list, func(i, j int) bool {
		if a, b := list[i].SubmittedAt, list[j].SubmittedAt; !a.Equal(b) {
			return a.Before(b)
		}
		return list[i].ID < list[j].ID
	})
	g.doc.Builds = append(g.doc.Builds, list...)
	for _, b := range list {
		g.doc.BuildEvents = append(g.doc.BuildEvents, buildEvents(b)...)
	}
}

// buildEvents is the status history of a build as CI would have reported
// it: submitted, then starting or running, then its final status.
func buildEvents(b dataset.Build) []dataset.BuildEvent {
	events := []dataset.BuildEvent{{Status: "submitted", At: b.SubmittedAt}}
	switch {
	case b.Status == "starting":
		events = append(events, dataset.BuildEvent{Status: "starting", Reason: b.StatusReason, At: b.SubmittedAt.Add(2 * time.Second)})
	case b.StartedAt != nil:
		events = append(events, dataset.BuildEvent{Status: "running", At: *b.StartedAt})
	}
	if b.FinishedAt != nil {
		events = append(events, dataset.BuildEvent{Status: b.Status, Reason: b.StatusReason, At: *b.FinishedAt})
	}
	for i := range events {
		events[i].BuildID, events[i].Seq = b.ID, int64(i+1)
	}
	return events
}
