package demo

import (
	"math/rand/v2"
	"sort"
	"time"

	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/dataset"
)

// projectRun is what one project's parts share while it is generated.
type projectRun struct {
	def      *projectDef
	id       string
	hist     *history
	snaps    []dataset.Snapshot // default-branch snapshots, oldest first
	features []dataset.Snapshot // feature-branch snapshots, oldest first
	featBase []int              // the default-branch snapshot each feature snapshot branched from
}

// addProject generates one project with its snapshots, issues, builds,
// coverage and components.
func (g *generator) addProject(def *projectDef) {
	if g.projs == nil {
		g.projs = map[string]string{}
	}
	r := newStream("project", def.key)
	times := g.snapshotTimes(r, def.schedule)
	created := g.now.Add(-time.Duration(def.daysAgo)*day - secs(r, 0, 86399))
	if first := times[0].Add(-day); created.After(first) {
		created = first
	}
	pr := &projectRun{def: def, id: g.newID(created)}
	g.projs[def.key] = pr.id
	admins := []string{}
	for _, a := range def.admins {
		admins = append(admins, g.users[a])
	}
	g.doc.Projects = append(g.doc.Projects, dataset.Project{
		ID: pr.id, WorkspaceID: g.ws[def.workspace], Key: def.key, DefaultBranch: def.defaultBranch,
		ComponentsEnabled: def.componentsEnabled,
		CreatedAt:         created, UpdatedAt: between(r, created.Add(day), g.now.Add(-3*day)),
		AdminIDs: admins, QualityGate: demoGate(def.key, g.now.Add(-7*day)),
	})

	// The default branch: a tree evolving through its snapshots.
	n := len(times)
	// How much of a year the history spans: a young project changed less
	// since its first analysis than one analysed for a year.
	years := min(1, times[n-1].Sub(times[0]).Hours()/(365*24))
	pr.hist = evolve(newStream("tree", def.key), parseTree(def.tree), n, years)
	fs := findings(newStream("issues", def.key), def, pr.hist, n, years)
	// Every snapshot carries the issues open at it, so that the history of
	// every metric is the project's (issues appear and are fixed over the
	// year), not zero until the last weeks.
	for i, at := range times {
		var present []*finding
		for _, f := range fs {
			if !f.branchOnly && f.from <= i && i < f.to && pr.hist.alive(f.path, i) {
				present = append(present, f)
			}
		}
		state := pr.hist.states[i]
		pr.snaps = append(pr.snaps, dataset.Snapshot{
			ID: g.newID(at), ProjectID: pr.id, Branch: def.defaultBranch, CommitSHA: sha40(r), AnalyzedAt: at,
			Files: pr.hist.changed[i], Removed: pr.hist.removed[i],
			Issues: g.issueList(at, present, func(p string) int64 { return state[p].Lines }),
		})
	}

	// The feature branch: a few analyses over the last days, issues only.
	if fd := def.feature; fd != nil {
		start := g.now.Add(-10 * day)
		if t := pr.snaps[0].AnalyzedAt.Add(time.Hour); start.Before(t) {
			start = t
		}
		end := g.now.Add(-2 * time.Hour)
		step := end.Sub(start) / time.Duration(fd.snapshots)
		for k := 0; k < fd.snapshots; k++ {
			at := between(r, start.Add(time.Duration(k)*step), start.Add(time.Duration(k+1)*step))
			base := 0
			for i := 0; i < n && !pr.snaps[i].AnalyzedAt.After(at); i++ {
				base = i
			}
			var present []*finding
			for _, f := range fs {
				switch {
				case f.branchOnly:
					if f.branchFrom <= k {
						present = append(present, f)
					}
				case f.from <= base && base < f.to && pr.hist.alive(f.path, base) && !(f.fixedOnBranch && k > 0):
					present = append(present, f)
				}
			}
			state := pr.hist.states[base]
			lines := func(p string) int64 {
				if l, ok := fd.files[p]; ok {
					return l
				}
				return state[p].Lines
			}
			pr.features = append(pr.features, dataset.Snapshot{
				ID: g.newID(at), ProjectID: pr.id, Branch: fd.branch, CommitSHA: sha40(r), AnalyzedAt: at,
				Files: []dataset.File{}, Removed: []string{}, Issues: g.issueList(at, present, lines),
			})
			pr.featBase = append(pr.featBase, base)
		}
	}
	all := append(append([]dataset.Snapshot{}, pr.snaps...), pr.features...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].AnalyzedAt.Before(all[j].AnalyzedAt) })
	g.doc.Snapshots = append(g.doc.Snapshots, all...)

	// Issue states: the status of every fingerprint that shows anywhere (a
	// fingerprint's status belongs to it across snapshots).
	shown := map[string]bool{}
	for _, s := range all {
		for _, is := range s.Issues {
			shown[is.Fingerprint] = true
		}
	}
	var states []dataset.IssueState
	for _, f := range fs {
		if shown[f.fingerprint] {
			status := "open"
			if f.ignored {
				status = "ignored"
			}
			states = append(states, dataset.IssueState{ProjectID: pr.id, Fingerprint: f.fingerprint, Status: status})
		}
	}
	sort.Slice(states, func(i, j int) bool { return states[i].Fingerprint < states[j].Fingerprint })
	g.doc.IssueStates = append(g.doc.IssueStates, states...)

	g.addBuilds(pr)
	if def.coverage {
		g.addCoverage(pr)
	}
	g.addComponents(pr)
	g.addSources(pr)
}

// snapshotTimes returns when a project was analysed on its default branch,
// oldest first.
func (g *generator) snapshotTimes(r *rand.Rand, s schedule) []time.Time {
	lo, hi := s.lastHours[0]*3600, s.lastHours[1]*3600
	t := g.now.Add(-secs(r, lo, hi))
	times := []time.Time{t}
	oldest := g.now.Add(-time.Duration(s.span) * day)
	for {
		var step time.Duration
		if s.every[0] == s.every[1] {
			step = time.Duration(s.every[0])*day + secs(r, -6*3600, 6*3600)
		} else {
			step = secs(r, s.every[0]*86400, s.every[1]*86400)
		}
		t = t.Add(-step)
		if s.count > 0 && len(times) >= s.count || s.count == 0 && t.Before(oldest) {
			break
		}
		times = append(times, t)
	}
	for i, j := 0, len(times)-1; i < j; i, j = i+1, j-1 {
		times[i], times[j] = times[j], times[i]
	}
	return times
}

// addComponents adds a project's components.
func (g *generator) addComponents(pr *projectRun) {
	r := newStream("components", pr.def.key)
	var list []dataset.Component
	for _, c := range pr.def.components {
		created := g.now.Add(-time.Duration(c.daysAgo)*day - secs(r, 0, 86399))
		updated := created
		if r.Float64() < 0.5 {
			updated = between(r, created, g.now.Add(-day))
		}
		list = append(list, dataset.Component{
			ID: g.newID(created), ProjectID: pr.id, Name: c.name, Description: c.description,
			PathGlobs: c.globs, CreatorID: g.users[c.creator], CreatedAt: created, UpdatedAt: updated,
		})
	}
	sort.SliceStable(list, func(i, j int) bool {
		if a, b := list[i].Name, list[j].Name; a != b {
			return dataset.LessName(a, b)
		}
		return list[i].ID < list[j].ID
	})
	g.doc.Components = append(g.doc.Components, list...)
}

// demoGate is the pull requests' project's own gate: the default with new
// security issues advisory (a team trying a scanner before it blocks on
// it), so its pages show an advisory condition failing; the other projects
// use the default gate.
func demoGate(key string, at time.Time) *dataset.QualityGate {
	if key != pullProject {
		return nil
	}
	g := compare.DefaultGate()
	g.Advisory = []string{"newSecurityIssues"}
	return &dataset.QualityGate{Conditions: g, UpdatedAt: at}
}
