package dataset

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
)

// Canonical returns doc as an export of the database it imports into would
// give it back, given that doc is valid:
//
//   - times in UTC, whole seconds; nil lists empty;
//   - a plaintext token (user or upload token) replaced by its hash;
//   - users and tokens by creation time, then id; workspaces by key
//     (case-insensitive, then exact, then id), members by user id; projects by
//     workspace (in that order), key; admin ids sorted; upload tokens by
//     project (in project order), creation time, id; applications by
//     workspace, name, id, project ids sorted; builds by project (in project
//     order), submission time, id; build events by build (in build order),
//     seq; issue states by project, fingerprint; components by project, name,
//     id; idempotency keys by project, key;
//   - snapshots and coverage uploads in document order (the order they were
//     added); a snapshot's issues in listing order (SortIssues), an empty
//     status "open";
//   - a default-branch snapshot that enters the metric history lists in files
//     only the files whose base figures changed (or that are new), sorted by
//     path, and in removed the sorted paths of files it removed; any other
//     snapshot lists neither;
//   - the hits of every (project, commit, coverage tag, path) merged into the
//     first upload of that (project, commit, coverage tag), files sorted by
//     path; later uploads of it list no files; an empty coverage tag is
//     "default";
//   - a state for every fingerprint of the snapshots' issues: the status of
//     its last issue in document order, unless issueStates gives one.
//
// The input is not modified.
func Canonical(in *Document) *Document {
	d := &Document{Format: Format, Version: Version}
	d.Users = canonicalUsers(in.Users)
	d.Tokens = canonicalTokens(in.Tokens)
	d.Workspaces = canonicalWorkspaces(in.Workspaces)
	workspaceOrder := positions(d.Workspaces, func(w *Workspace) string { return w.ID })
	d.Projects = canonicalProjects(in.Projects, workspaceOrder)
	projectOrder := positions(d.Projects, func(p *Project) string { return p.ID })
	defaultBranch := map[string]string{}
	for _, p := range d.Projects {
		defaultBranch[p.ID] = p.DefaultBranch
	}
	d.UploadTokens = canonicalUploadTokens(in.UploadTokens, projectOrder)
	d.Applications = canonicalApplications(in.Applications, workspaceOrder)
	d.Builds = canonicalBuilds(in.Builds, projectOrder)
	d.BuildEvents = canonicalBuildEvents(in.BuildEvents, positions(d.Builds, func(b *Build) string { return b.ID }))
	d.Snapshots = canonicalSnapshots(in.Snapshots, defaultBranch)
	d.IssueStates = canonicalIssueStates(d.Snapshots, in.IssueStates, projectOrder)
	d.Coverage = canonicalCoverage(in.Coverage)
	d.Components = canonicalComponents(in.Components, projectOrder)
	d.IdempotencyKeys = canonicalIdempotencyKeys(in.IdempotencyKeys, projectOrder)
	d.SourceBlobs, d.SourceCommits = canonicalSources(in.SourceBlobs, in.SourceCommits, projectOrder)
	return d
}

func canonicalUsers(in []User) []User {
	users := cloneSlice(in)
	for i := range users {
		u := &users[i]
		u.CreatedAt = utc(u.CreatedAt)
		if u.UpdatedAt.IsZero() {
			u.UpdatedAt = u.CreatedAt
		}
		u.UpdatedAt = utc(u.UpdatedAt)
		u.DisabledAt = utcPtr(u.DisabledAt)
	}
	sort.SliceStable(users, func(i, j int) bool {
		return lessTimeID(users[i].CreatedAt, users[i].ID, users[j].CreatedAt, users[j].ID)
	})
	return users
}

func canonicalTokens(in []Token) []Token {
	tokens := cloneSlice(in)
	for i := range tokens {
		t := &tokens[i]
		t.Hash, t.Token = canonicalHash(t.Hash, t.Token)
		t.CreatedAt, t.LastUsedAt, t.RevokedAt = utc(t.CreatedAt), utcPtr(t.LastUsedAt), utcPtr(t.RevokedAt)
	}
	sort.SliceStable(tokens, func(i, j int) bool {
		return lessTimeID(tokens[i].CreatedAt, tokens[i].ID, tokens[j].CreatedAt, tokens[j].ID)
	})
	return tokens
}

// canonicalHash is a token record's hash and token as exported: a plaintext
// token replaced by its hash.
func canonicalHash(hash, token string) (string, string) {
	if token != "" {
		return plumb.HashToken(token), ""
	}
	return hash, token
}

func canonicalWorkspaces(in []Workspace) []Workspace {
	workspaces := cloneSlice(in)
	for i := range workspaces {
		w := &workspaces[i]
		w.CreatedAt, w.UpdatedAt = utc(w.CreatedAt), utc(w.UpdatedAt)
		w.Members = cloneSlice(w.Members)
		sort.SliceStable(w.Members, func(i, j int) bool { return w.Members[i].UserID < w.Members[j].UserID })
	}
	sort.SliceStable(workspaces, func(i, j int) bool {
		return lessName(workspaces[i].Key, workspaces[i].ID, workspaces[j].Key, workspaces[j].ID)
	})
	return workspaces
}

func canonicalProjects(in []Project, workspaceOrder map[string]int) []Project {
	projects := cloneSlice(in)
	for i := range projects {
		p := &projects[i]
		p.CreatedAt, p.UpdatedAt = utc(p.CreatedAt), utc(p.UpdatedAt)
		p.AdminIDs = sortedStrings(p.AdminIDs)
		if p.BadgeToken != nil {
			b := *p.BadgeToken
			b.CreatedAt = utc(b.CreatedAt)
			p.BadgeToken = &b
		}
		if p.QualityGate != nil {
			g := *p.QualityGate
			g.UpdatedAt = utc(g.UpdatedAt)
			p.QualityGate = &g
		}
	}
	sortByParent(projects, workspaceOrder, func(p *Project) string { return p.WorkspaceID }, func(a, b *Project) bool {
		return lessName(a.Key, a.ID, b.Key, b.ID)
	})
	return projects
}

func canonicalUploadTokens(in []UploadToken, projectOrder map[string]int) []UploadToken {
	tokens := cloneSlice(in)
	for i := range tokens {
		t := &tokens[i]
		t.Hash, t.Token = canonicalHash(t.Hash, t.Token)
		t.CreatedAt, t.LastUsedAt, t.RevokedAt = utc(t.CreatedAt), utcPtr(t.LastUsedAt), utcPtr(t.RevokedAt)
	}
	sortByParent(tokens, projectOrder, func(t *UploadToken) string { return t.ProjectID }, func(a, b *UploadToken) bool {
		return lessTimeID(a.CreatedAt, a.ID, b.CreatedAt, b.ID)
	})
	return tokens
}

func canonicalApplications(in []Application, workspaceOrder map[string]int) []Application {
	apps := cloneSlice(in)
	for i := range apps {
		a := &apps[i]
		a.CreatedAt = utc(a.CreatedAt)
		a.ProjectIDs = sortedStrings(a.ProjectIDs)
	}
	sortByParent(apps, workspaceOrder, func(a *Application) string { return a.WorkspaceID }, func(a, b *Application) bool {
		return lessName(a.Name, a.ID, b.Name, b.ID)
	})
	return apps
}

func canonicalBuilds(in []Build, projectOrder map[string]int) []Build {
	builds := cloneSlice(in)
	for i := range builds {
		b := &builds[i]
		b.SubmittedAt, b.StartedAt, b.FinishedAt = utc(b.SubmittedAt), utcPtr(b.StartedAt), utcPtr(b.FinishedAt)
	}
	sortByParent(builds, projectOrder, func(b *Build) string { return b.ProjectID }, func(a, b *Build) bool {
		return lessTimeID(a.SubmittedAt, a.ID, b.SubmittedAt, b.ID)
	})
	return builds
}

func canonicalBuildEvents(in []BuildEvent, buildOrder map[string]int) []BuildEvent {
	events := cloneSlice(in)
	for i := range events {
		events[i].At = utc(events[i].At)
	}
	sortByParent(events, buildOrder, func(e *BuildEvent) string { return e.BuildID }, func(a, b *BuildEvent) bool { return a.Seq < b.Seq })
	return events
}

// canonicalSnapshots replays each project's default branch, in document
// order, to keep in each snapshot's files only the changes (see
// branchHistory).
func canonicalSnapshots(in []Snapshot, defaultBranch map[string]string) []Snapshot {
	histories := map[string]*branchHistory{}
	out := make([]Snapshot, len(in))
	for i := range in {
		s := in[i]
		s.AnalyzedAt = utc(s.AnalyzedAt)
		s.Issues = canonicalIssues(s.Issues)
		h := histories[s.ProjectID]
		if h == nil {
			h = &branchHistory{files: map[string]File{}}
			histories[s.ProjectID] = h
		}
		files, removed, fullTree := s.Files, s.Removed, s.FullTree
		s.Files, s.Removed, s.FullTree = []File{}, []string{}, false
		switch {
		case s.Branch != defaultBranch[s.ProjectID]:
			// Other branches keep issues only.
		case !h.any || !s.AnalyzedAt.Before(h.latest):
			s.Files, s.Removed = h.measure(s.AnalyzedAt, files, removed)
		default:
			s.Files, s.FullTree = h.backfill(s.AnalyzedAt, files, removed, fullTree), true
		}
		out[i] = s
	}
	return out
}

// canonicalIssues is a snapshot's issues in listing order, an empty status
// "open".
func canonicalIssues(in []Issue) []Issue {
	issues := cloneSlice(in)
	for j := range issues {
		if issues[j].Status == "" {
			issues[j].Status = "open"
		}
	}
	SortIssues(issues)
	return issues
}

// measuredTree is the tree of one default-branch measurement.
type measuredTree struct {
	at    time.Time
	files map[string]File
}

// branchHistory is one project's default branch, replayed snapshot by
// snapshot.
type branchHistory struct {
	files  map[string]File // the latest measurement's tree
	latest time.Time       // its time
	any    bool            // whether there is one
	// history: the trees of the measurements so far, by time, for
	// snapshots that arrive after a newer one (their tree is written whole,
	// with fullTree).
	history []measuredTree
}

// measure applies a snapshot at least as new as the latest measurement and
// returns the files whose figures changed (or that are new), and the paths
// it removed, each sorted by path.
func (h *branchHistory) measure(at time.Time, files []File, removed []string) ([]File, []string) {
	h.any, h.latest = true, at
	listed := map[string]bool{}
	for _, f := range files {
		listed[f.Path] = true
	}
	changed, gone := []File{}, []string{}
	for _, p := range removed {
		if _, ok := h.files[p]; ok && !listed[p] {
			gone = append(gone, p)
			delete(h.files, p)
		}
	}
	for _, f := range files {
		if old, ok := h.files[f.Path]; !ok || old != f {
			changed = append(changed, f)
			h.files[f.Path] = f
		}
	}
	sort.Slice(changed, func(i, j int) bool { return changed[i].Path < changed[j].Path })
	sort.Strings(gone)
	h.history = append(h.history, measuredTree{at, maps.Clone(h.files)})
	return changed, gone
}

// backfill applies a snapshot older than the latest measurement: it enters
// the history at its time, its tree that of the measurement before it with
// its changes (or its own files, for a full tree). It returns that whole
// tree, sorted by path.
func (h *branchHistory) backfill(at time.Time, files []File, removed []string, fullTree bool) []File {
	pos := 0
	for pos < len(h.history) && !h.history[pos].at.After(at) {
		pos++
	}
	whole := map[string]File{}
	if !fullTree && pos > 0 {
		whole = maps.Clone(h.history[pos-1].files)
	}
	for _, p := range removed {
		delete(whole, p)
	}
	for _, f := range files {
		whole[f.Path] = f
	}
	h.history = slices.Insert(h.history, pos, measuredTree{at, whole})
	tree := []File{}
	for _, f := range whole {
		tree = append(tree, f)
	}
	sort.Slice(tree, func(i, j int) bool { return tree[i].Path < tree[j].Path })
	return tree
}

// canonicalIssueStates gives a state to every fingerprint of the snapshots'
// issues: importing a snapshot's issues records each issue's status as its
// fingerprint's state (the last one listed wins); the document's
// issueStates override those.
func canonicalIssueStates(snapshots []Snapshot, given []IssueState, projectOrder map[string]int) []IssueState {
	type fpKey struct{ project, fingerprint string }
	state := map[fpKey]string{}
	for _, s := range snapshots {
		for _, is := range s.Issues {
			state[fpKey{s.ProjectID, is.Fingerprint}] = is.Status
		}
	}
	for _, st := range given {
		state[fpKey{st.ProjectID, st.Fingerprint}] = st.Status
	}
	states := make([]IssueState, 0, len(state))
	for k, st := range state {
		states = append(states, IssueState{ProjectID: k.project, Fingerprint: k.fingerprint, Status: st})
	}
	sortByParent(states, projectOrder, func(st *IssueState) string { return st.ProjectID }, func(a, b *IssueState) bool {
		return a.Fingerprint < b.Fingerprint
	})
	return states
}

// canonicalCoverage merges the hits of each (project, commit, coverage tag)
// into its first upload.
func canonicalCoverage(in []Coverage) []Coverage {
	type key struct{ project, commit, tag string }
	first := map[key]int{}
	merged := map[int]map[string][]int64{}
	branches := map[int]map[string][]plumb.LineBranches{}
	out := make([]Coverage, len(in))
	for i := range in {
		c := in[i]
		c.UploadedAt = utc(c.UploadedAt)
		if c.CoverageTag == "" {
			c.CoverageTag = "default"
		}
		k := key{c.ProjectID, c.CommitSHA, c.CoverageTag}
		at, ok := first[k]
		if !ok {
			at = i
			first[k] = i
			merged[i] = map[string][]int64{}
			branches[i] = map[string][]plumb.LineBranches{}
		}
		for _, f := range c.Files {
			merged[at][f.Path] = plumb.MergeHits(merged[at][f.Path], f.Hits)
			if b := plumb.MergeBranches(branches[at][f.Path], f.Branches); len(b) > 0 {
				branches[at][f.Path] = b
			}
		}
		c.Files = []CoverageFile{}
		out[i] = c
	}
	for i, files := range merged {
		out[i].Files = coverageFiles(files, branches[i])
	}
	return out
}

// coverageFiles lists merged hits and branch figures by path (nil hits
// empty).
func coverageFiles(hits map[string][]int64, branches map[string][]plumb.LineBranches) []CoverageFile {
	paths := make([]string, 0, len(hits))
	for p := range hits {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	files := []CoverageFile{}
	for _, p := range paths {
		h := hits[p]
		if h == nil {
			h = []int64{}
		}
		files = append(files, CoverageFile{Path: p, Hits: h, Branches: branches[p]})
	}
	return files
}

func canonicalComponents(in []Component, projectOrder map[string]int) []Component {
	components := cloneSlice(in)
	for i := range components {
		c := &components[i]
		c.CreatedAt, c.UpdatedAt = utc(c.CreatedAt), utc(c.UpdatedAt)
		c.PathGlobs = cloneSlice(c.PathGlobs)
	}
	sortByParent(components, projectOrder, func(c *Component) string { return c.ProjectID }, func(a, b *Component) bool {
		return lessName(a.Name, a.ID, b.Name, b.ID)
	})
	return components
}

func canonicalIdempotencyKeys(in []IdempotencyKey, projectOrder map[string]int) []IdempotencyKey {
	keys := cloneSlice(in)
	for i := range keys {
		keys[i].CreatedAt = utc(keys[i].CreatedAt)
	}
	sortByParent(keys, projectOrder, func(k *IdempotencyKey) string { return k.ProjectID }, func(a, b *IdempotencyKey) bool { return a.Key < b.Key })
	return keys
}

// positions maps the id of each record of list to its index (the last, for
// an id listed twice).
func positions[T any](list []T, id func(*T) string) map[string]int {
	at := make(map[string]int, len(list))
	for i := range list {
		at[id(&list[i])] = i
	}
	return at
}

// sortByParent sorts list stably by the position of each record's parent
// in order (a parent not in it counts as the first), then by less.
func sortByParent[T any](list []T, order map[string]int, parent func(*T) string, less func(a, b *T) bool) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := &list[i], &list[j]
		if pa, pb := order[parent(a)], order[parent(b)]; pa != pb {
			return pa < pb
		}
		return less(a, b)
	})
}

// SortIssues puts a snapshot's issues in listing order, the order Plumb
// stores and lists them in: by path, start line (an issue without one
// first), rule key, fingerprint; the sort is stable, so otherwise equal
// issues keep their order.
func SortIssues(is []Issue) {
	slices.SortStableFunc(is, func(a, b Issue) int {
		return plumb.CompareIssueOrder(a.Path, a.StartLine, a.RuleKey, a.Fingerprint, b.Path, b.StartLine, b.RuleKey, b.Fingerprint)
	})
}

// SortRecords puts the users, tokens, workspaces (and their members),
// projects (and their admins), upload tokens, applications (and their
// projects) and components of d in the canonical order that Canonical
// documents. Exporters use it for the small lists they hold in memory.
func SortRecords(d *Document) {
	c := Canonical(&Document{Users: d.Users, Tokens: d.Tokens, Workspaces: d.Workspaces, Projects: d.Projects,
		UploadTokens: d.UploadTokens, Applications: d.Applications, Components: d.Components})
	d.Users, d.Tokens, d.Workspaces, d.Projects, d.UploadTokens, d.Applications, d.Components =
		c.Users, c.Tokens, c.Workspaces, c.Projects, c.UploadTokens, c.Applications, c.Components
}

// LessName orders keys and names: ignoring case (simple Unicode case
// folding, as the store compares names), then exactly.
func LessName(a, b string) bool {
	la, lb := strings.ToLower(strings.ToUpper(a)), strings.ToLower(strings.ToUpper(b))
	if la != lb {
		return la < lb
	}
	return a < b
}

func lessName(a, aID, b, bID string) bool {
	if a != b {
		return LessName(a, b)
	}
	return aID < bID
}

func lessTimeID(a time.Time, aID string, b time.Time, bID string) bool {
	if !a.Equal(b) {
		return a.Before(b)
	}
	return aID < bID
}

func utc(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := utc(*t)
	return &v
}

// cloneSlice copies s; nil becomes an empty slice.
func cloneSlice[T any](s []T) []T {
	out := make([]T, len(s))
	copy(out, s)
	return out
}

func sortedStrings(s []string) []string {
	out := cloneSlice(s)
	sort.Strings(out)
	return out
}
