package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/plumbhq/plumb"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/plumbhq/plumb/dataset"
)

// The enums of the spec (shared/spec/code-quality-api.md), written out here
// so that the demo is checked against the spec, not against itself.
var (
	specCategories = []string{"bug", "vulnerability", "structure", "duplication", "security_hotspot", "performance",
		"documentation", "type_check", "style", "anti_pattern", "accessibility", "dead_code", "lint", "secret", "dependency_alert"}
	specLevels        = []string{"high", "medium", "low", "note", "fmt"}
	specIssueStatuses = []string{"open", "ignored"}
	specBuildTypes    = []string{"analysis", "format", "ssh", "coverage_setup"}
	specBuildStatuses = []string{"submitted", "starting", "running", "succeeded", "failed", "skipped", "rejected"}
)

const testToken = "plb_DemoDemoDemoDemoDemoDemoDemoDemoDemoDemo"

// testNows are the times the invariants are checked at: an ordinary day, a
// time with a fraction of a second in another zone, and a new year.
var testNows = []time.Time{
	time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
	time.Date(2026, 7, 15, 8, 30, 59, 999_000_000, time.FixedZone("CEST", 2*3600)),
	time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC),
}

var mainProjects = []string{"web-shop", "payments-api"}

func TestGenerateIsDeterministic(t *testing.T) {
	now := testNows[0]
	a := Generate(now, testToken)
	b := Generate(now, testToken)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two calls with the same inputs differ")
	}
	ja, jb := mustJSON(t, a), mustJSON(t, b)
	if !bytes.Equal(ja, jb) {
		t.Fatal("two calls with the same inputs marshal differently")
	}
	// Only the second and the zone of now count.
	c := Generate(now.Add(737*time.Millisecond).In(time.FixedZone("X", -7*3600)), testToken)
	if !bytes.Equal(ja, mustJSON(t, c)) {
		t.Fatal("a fraction of a second or another zone changes the document")
	}
	// The token is carried as given and changes nothing else.
	d := Generate(now, "other")
	d.Tokens[0].Token = testToken
	if !bytes.Equal(ja, mustJSON(t, d)) {
		t.Fatal("the token changes more than the demo token")
	}
	// A later now moves the whole dataset along.
	e := Generate(now.Add(day), testToken)
	if bytes.Equal(ja, mustJSON(t, e)) {
		t.Fatal("a different now gives the same document")
	}
}

func TestDocumentSize(t *testing.T) {
	for _, now := range testNows {
		n := len(mustJSON(t, Generate(now, testToken)))
		t.Logf("%s: %d bytes", now.Format(time.RFC3339), n)
		// Every analysis carries its issues (about 60,000 in all, 60% of
		// the bytes); a year of coverage is most of the rest.
		if n > 40<<20 {
			t.Errorf("%s: the document is %d bytes, over 40 MiB", now, n)
		}
	}
}

func TestInvariants(t *testing.T) {
	for _, now := range testNows {
		t.Run(now.Format("2006-01-02"), func(t *testing.T) {
			c := newChecker(t, now, Generate(now, testToken))
			c.checkHeader()
			c.checkUsers()
			c.checkWorkspaces()
			c.checkProjects()
			c.checkApplications()
			c.checkComponents()
			c.checkSnapshots()
			c.checkIssues()
			c.checkBuilds()
			c.checkCoverage()
			c.checkUniqueIDs()
		})
	}
}

func TestVisibility(t *testing.T) {
	doc := Generate(testNows[0], testToken)
	var demo string
	for _, u := range doc.Users {
		if u.Login == DemoLogin {
			demo = u.ID
		}
	}
	roles := map[string]string{}
	for _, w := range doc.Workspaces {
		for _, m := range w.Members {
			if m.UserID == demo {
				roles[w.Key] = m.Role
			}
		}
	}
	want := map[string]string{"acme": "admin", "globex": "member"}
	if !reflect.DeepEqual(roles, want) {
		t.Errorf("the demo user's roles are %v, want %v (and no initech)", roles, want)
	}
	if len(doc.Workspaces) != 3 || doc.Workspaces[2].Key != "initech" {
		t.Errorf("the third workspace should be initech")
	}
}

// checker checks one document made at now.
type checker struct {
	t        *testing.T
	now      time.Time
	doc      dataset.Document
	users    map[string]dataset.User
	ws       map[string]dataset.Workspace
	projects map[string]dataset.Project
	snaps    map[string]dataset.Snapshot
	// states[snapshot ID] is the default-branch tree at that snapshot.
	states map[string]map[string]dataset.File
	// commits[project ID + commit] is the tree at a default-branch commit.
	commits map[string]map[string]dataset.File
}

func newChecker(t *testing.T, now time.Time, doc dataset.Document) *checker {
	c := &checker{t: t, now: now.UTC().Truncate(time.Second), doc: doc,
		users: map[string]dataset.User{}, ws: map[string]dataset.Workspace{}, projects: map[string]dataset.Project{},
		snaps: map[string]dataset.Snapshot{}, states: map[string]map[string]dataset.File{}, commits: map[string]map[string]dataset.File{}}
	for _, u := range doc.Users {
		c.users[u.ID] = u
	}
	for _, w := range doc.Workspaces {
		c.ws[w.ID] = w
	}
	for _, p := range doc.Projects {
		c.projects[p.ID] = p
	}
	for _, s := range doc.Snapshots {
		c.snaps[s.ID] = s
	}
	return c
}

func (c *checker) errorf(format string, args ...any) {
	c.t.Helper()
	c.t.Errorf(format, args...)
}

// when checks a timestamp: UTC, whole seconds, not in the future.
func (c *checker) when(what string, ts time.Time) {
	c.t.Helper()
	if ts.Location() != time.UTC || !ts.Equal(ts.Truncate(time.Second)) || ts.After(c.now) || ts.IsZero() {
		c.errorf("%s: bad time %v (now %v)", what, ts, c.now)
	}
}

func (c *checker) checkHeader() {
	if c.doc.Format != dataset.Format || c.doc.Version != dataset.Version {
		c.errorf("header %q %d", c.doc.Format, c.doc.Version)
	}
	// No list is null in JSON.
	v := reflect.ValueOf(c.doc)
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Slice && f.IsNil() {
			c.errorf("%s is nil", v.Type().Field(i).Name)
		}
	}
}

func (c *checker) checkUsers() {
	logins := map[string]bool{}
	for _, u := range c.doc.Users {
		c.when("user "+u.Login, u.CreatedAt)
		if u.Login == "" || u.Name == "" || logins[strings.ToLower(u.Login)] {
			c.errorf("user %+v: empty or duplicate", u)
		}
		if u.Email != u.Login+"@example.com" || u.ProviderURL != "https://github.com/"+u.Login || u.AvatarURL == "" || !u.UpdatedAt.Equal(u.CreatedAt) {
			c.errorf("user %s: profile %q %q %q updated %v", u.Login, u.Email, u.AvatarURL, u.ProviderURL, u.UpdatedAt)
		}
		logins[strings.ToLower(u.Login)] = true
	}
	if len(c.doc.Users) < 4 || len(c.doc.Users) > 5 || c.doc.Users[0].Login != DemoLogin || c.doc.Users[0].Name != DemoName {
		c.errorf("users: want demo first and 3 or 4 others, got %d", len(c.doc.Users))
	}
	hashes := map[string]bool{}
	demoTokens := 0
	for _, tk := range c.doc.Tokens {
		u, ok := c.users[tk.UserID]
		if !ok {
			c.errorf("token %s: unknown user", tk.ID)
			continue
		}
		c.when("token", tk.CreatedAt)
		if tk.CreatedAt.Before(u.CreatedAt) {
			c.errorf("token %s made before its user", tk.ID)
		}
		for _, ts := range []*time.Time{tk.LastUsedAt, tk.RevokedAt} {
			if ts != nil {
				c.when("token", *ts)
				if ts.Before(tk.CreatedAt) {
					c.errorf("token %s used or revoked before it was made", tk.ID)
				}
			}
		}
		if u.Login == DemoLogin {
			demoTokens++
			if tk.Token != testToken || tk.Hash != "" {
				c.errorf("demo token: want the plaintext token and no hash, got %+v", tk)
			}
			continue
		}
		if tk.Token != "" || len(tk.Hash) != 64 || !isHex(tk.Hash) || hashes[tk.Hash] {
			c.errorf("token %s: want a unique hex SHA-256 hash and no plaintext", tk.ID)
		}
		hashes[tk.Hash] = true
	}
	if demoTokens != 1 {
		c.errorf("demo user has %d tokens, want 1", demoTokens)
	}
}

func validKey(k string) bool {
	if len(k) < 3 || len(k) > 100 {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

func (c *checker) checkWorkspaces() {
	keys := map[string]bool{}
	for _, w := range c.doc.Workspaces {
		c.when("workspace", w.CreatedAt)
		c.when("workspace", w.UpdatedAt)
		if w.UpdatedAt.Before(w.CreatedAt) || !validKey(w.Key) || keys[strings.ToLower(w.Key)] {
			c.errorf("workspace %+v", w)
		}
		keys[strings.ToLower(w.Key)] = true
		if w.AvatarURL != "https://github.com/"+w.Key+".png" || w.ProviderURL != "https://github.com/"+w.Key {
			c.errorf("workspace %s: URLs %s %s", w.Key, w.AvatarURL, w.ProviderURL)
		}
		if w.ApplicationsEnabled != (w.Key == "acme") {
			c.errorf("workspace %s: applications enabled %v", w.Key, w.ApplicationsEnabled)
		}
		seen := map[string]bool{}
		admins := 0
		for _, m := range w.Members {
			if _, ok := c.users[m.UserID]; !ok || seen[m.UserID] || m.Role != "admin" && m.Role != "member" {
				c.errorf("workspace %s: member %+v", w.Key, m)
			}
			if m.Role == "admin" {
				admins++
			}
			seen[m.UserID] = true
		}
		if admins == 0 {
			c.errorf("workspace %s has no admin", w.Key)
		}
	}
	if len(c.doc.Workspaces) != 3 {
		c.errorf("%d workspaces, want 3", len(c.doc.Workspaces))
	}
}

func (c *checker) checkProjects() {
	keys := map[string]bool{}
	otherAdmin, master := false, false
	for _, p := range c.doc.Projects {
		w, ok := c.ws[p.WorkspaceID]
		if !ok {
			c.errorf("project %s: unknown workspace", p.Key)
		}
		c.when("project", p.CreatedAt)
		c.when("project", p.UpdatedAt)
		if p.UpdatedAt.Before(p.CreatedAt) || p.CreatedAt.Before(w.CreatedAt) || !validKey(p.Key) || keys[w.Key+"/"+strings.ToLower(p.Key)] {
			c.errorf("project %+v", p)
		}
		keys[w.Key+"/"+strings.ToLower(p.Key)] = true
		if p.DefaultBranch == "master" {
			master = true
		} else if p.DefaultBranch != "main" {
			c.errorf("project %s: default branch %q", p.Key, p.DefaultBranch)
		}
		if p.AdminIDs == nil {
			c.errorf("project %s: nil admins", p.Key)
		}
		for _, a := range p.AdminIDs {
			if _, ok := c.users[a]; !ok {
				c.errorf("project %s: unknown admin %s", p.Key, a)
			}
			if c.users[a].Login != DemoLogin {
				otherAdmin = true
			}
		}
		if slices.Contains(mainProjects, p.Key) && !p.ComponentsEnabled {
			c.errorf("project %s: components not enabled", p.Key)
		}
	}
	if n := len(c.doc.Projects); n < 6 || n > 8 {
		c.errorf("%d projects, want 6 to 8", n)
	}
	if !otherAdmin || !master {
		c.errorf("want a project administered by another user and one on master")
	}
}

func (c *checker) checkApplications() {
	names := map[string]bool{}
	for _, a := range c.doc.Applications {
		w, ok := c.ws[a.WorkspaceID]
		if !ok || !w.ApplicationsEnabled {
			c.errorf("application %s: workspace unknown or without applications", a.Name)
		}
		c.when("application", a.CreatedAt)
		if a.CreatedAt.Before(w.CreatedAt) || a.Name == "" || names[strings.ToLower(a.Name)] || len(a.ProjectIDs) == 0 {
			c.errorf("application %+v", a)
		}
		names[strings.ToLower(a.Name)] = true
		for _, id := range a.ProjectIDs {
			if p, ok := c.projects[id]; !ok || p.WorkspaceID != a.WorkspaceID {
				c.errorf("application %s: project %s not in its workspace", a.Name, id)
			}
		}
	}
	if len(c.doc.Applications) != 3 {
		c.errorf("%d applications, want 3", len(c.doc.Applications))
	}
}

func (c *checker) checkComponents() {
	names := map[string]bool{}
	perProject := map[string]int{}
	for _, cp := range c.doc.Components {
		p, ok := c.projects[cp.ProjectID]
		if !ok || !p.ComponentsEnabled {
			c.errorf("component %s: project unknown or without components", cp.Name)
		}
		if _, ok := c.users[cp.CreatorID]; !ok {
			c.errorf("component %s: unknown creator", cp.Name)
		}
		c.when("component", cp.CreatedAt)
		c.when("component", cp.UpdatedAt)
		key := cp.ProjectID + "/" + strings.ToLower(cp.Name)
		if cp.UpdatedAt.Before(cp.CreatedAt) || cp.CreatedAt.Before(p.CreatedAt) || names[key] || len(cp.Name) > 100 || cp.Name == "" || len(cp.PathGlobs) == 0 {
			c.errorf("component %+v", cp)
		}
		names[key] = true
		perProject[p.Key]++
		for _, g := range cp.PathGlobs {
			if g == "" || strings.ContainsAny(g, ",\r\n") {
				c.errorf("component %s: glob %q", cp.Name, g)
			}
		}
	}
	for _, k := range mainProjects {
		if perProject[k] < 3 {
			c.errorf("project %s has %d components", k, perProject[k])
		}
	}
}

// checkSnapshots checks the snapshots and rebuilds the default-branch trees.
func (c *checker) checkSnapshots() {
	byProject := map[string][]dataset.Snapshot{}
	for _, s := range c.doc.Snapshots {
		byProject[s.ProjectID] = append(byProject[s.ProjectID], s)
	}
	for _, p := range c.doc.Projects {
		list := byProject[p.ID]
		if len(list) == 0 {
			c.errorf("project %s has no snapshot", p.Key)
			continue
		}
		tree := map[string]dataset.File{}
		first := true
		var last dataset.Snapshot
		features := 0
		for i, s := range list {
			c.when("snapshot", s.AnalyzedAt)
			if s.AnalyzedAt.Before(p.CreatedAt) || i > 0 && s.AnalyzedAt.Before(list[i-1].AnalyzedAt) {
				c.errorf("snapshot %s of %s: out of order or before its project", s.ID, p.Key)
			}
			if !isSHA(s.CommitSHA) || s.Files == nil || s.Removed == nil || s.Issues == nil {
				c.errorf("snapshot %s: bad commit or nil list", s.ID)
			}
			if s.Branch != p.DefaultBranch {
				features++
				if len(s.Files) > 0 || len(s.Removed) > 0 {
					c.errorf("snapshot %s on %s lists files", s.ID, s.Branch)
				}
				continue
			}
			next := make(map[string]dataset.File, len(tree))
			for k, v := range tree {
				next[k] = v
			}
			for _, r := range s.Removed {
				if _, ok := next[r]; !ok {
					c.errorf("snapshot %s removes %q, which is not there", s.ID, r)
				}
				delete(next, r)
			}
			for j, f := range s.Files {
				if j > 0 && s.Files[j-1].Path >= f.Path {
					c.errorf("snapshot %s: files out of order at %q", s.ID, f.Path)
				}
				if f.Lines <= 0 || f.LOC < 0 || f.LOC >= f.Lines || f.Complexity < 0 || f.DuplicatedLines < 0 || f.DuplicatedLines > f.Lines {
					c.errorf("snapshot %s: implausible figures %+v", s.ID, f)
				}
				if old, ok := tree[f.Path]; ok && old == f {
					c.errorf("snapshot %s lists %q unchanged", s.ID, f.Path)
				}
				next[f.Path] = f
			}
			if first && (len(s.Removed) > 0 || len(s.Files) == 0) {
				c.errorf("the first snapshot of %s must list every file", p.Key)
			}
			first = false
			tree = next
			c.states[s.ID] = tree
			c.commits[p.ID+s.CommitSHA] = tree
			last = s
		}
		if n := len(tree); n < 60 || n > 300 {
			c.errorf("project %s has %d files, want 60 to 300", p.Key, n)
		}
		if slices.Contains(mainProjects, p.Key) {
			if age := c.now.Sub(last.AnalyzedAt); age > day {
				c.errorf("project %s: latest analysis is %v old", p.Key, age)
			}
			// A year of analyses, at least every two weeks, each with
			// its issues (TestHistoryHasNoCliff checks what they add up
			// to).
			n, gap := 0, time.Duration(0)
			var prev time.Time
			for _, s := range list {
				if s.Branch != p.DefaultBranch {
					continue
				}
				if n > 0 {
					gap = max(gap, s.AnalyzedAt.Sub(prev))
				}
				if len(s.Issues) == 0 {
					c.errorf("project %s: the analysis of %v has no issues", p.Key, s.AnalyzedAt)
				}
				n, prev = n+1, s.AnalyzedAt
			}
			if n < 30 || gap > 14*day || list[0].AnalyzedAt.After(c.now.Add(-330*day)) {
				c.errorf("project %s: want a year of analyses at least every two weeks, got %d from %v, %v apart at most", p.Key, n, list[0].AnalyzedAt, gap)
			}
		}
		if p.Key == "web-shop" && (features < 2 || features > 3) {
			c.errorf("web-shop has %d feature-branch snapshots", features)
		}
	}
}

// toolCategories are the categories each tool's findings may have.
var toolCategories = map[string][]string{
	"gosec":         {"vulnerability", "security_hotspot"},
	"gitleaks":      {"secret"},
	"eslint":        {"style", "lint", "bug", "type_check", "structure", "accessibility", "duplication", "dead_code"},
	"ruff":          {"style", "lint", "bug", "dead_code", "anti_pattern", "vulnerability", "security_hotspot", "structure", "documentation", "performance", "type_check"},
	"staticcheck":   {"bug", "dead_code", "performance", "style", "anti_pattern"},
	"golangci-lint": {"bug", "dead_code", "anti_pattern", "documentation", "structure", "duplication", "style", "performance"},
	"semgrep":       {"vulnerability", "security_hotspot"},
	"trivy":         {"dependency_alert", "vulnerability", "security_hotspot", "lint", "documentation", "performance"},
	"shellcheck":    {"bug", "anti_pattern"},
}

func (c *checker) checkIssues() {
	ignored := map[string]map[string]bool{} // project → ignored fingerprints
	for _, st := range c.doc.IssueStates {
		if _, ok := c.projects[st.ProjectID]; !ok || st.Status != "ignored" && st.Status != "open" {
			c.errorf("issue state %+v", st)
		}
		if st.Status != "ignored" {
			continue
		}
		if ignored[st.ProjectID] == nil {
			ignored[st.ProjectID] = map[string]bool{}
		}
		if ignored[st.ProjectID][st.Fingerprint] {
			c.errorf("issue state %s twice", st.Fingerprint)
		}
		ignored[st.ProjectID][st.Fingerprint] = true
	}
	used := map[string]bool{}
	latest := map[string]dataset.Snapshot{}
	tools := map[string]bool{}
	for _, s := range c.doc.Snapshots {
		p := c.projects[s.ProjectID]
		if s.Branch == p.DefaultBranch {
			latest[p.Key] = s
		}
		tree := c.states[s.ID]
		fps := map[string]bool{}
		for i, is := range s.Issues {
			tools[is.Tool] = true
			if !slices.Contains(specCategories, is.Category) || !slices.Contains(specLevels, is.Level) || !slices.Contains(specIssueStatuses, is.Status) {
				c.errorf("issue %+v: value outside the spec", is)
			}
			if cats, ok := toolCategories[is.Tool]; !ok || !slices.Contains(cats, is.Category) {
				c.errorf("issue %s: tool %s with category %s", is.ID, is.Tool, is.Category)
			}
			if is.RuleKey == "" || is.Message == "" || is.Path == "" {
				c.errorf("issue %+v: empty field", is)
			}
			if is.DocumentationURL != "" && !strings.HasPrefix(is.DocumentationURL, "https://") {
				c.errorf("issue %s: documentation URL %q", is.ID, is.DocumentationURL)
			}
			if fp := fingerprintOf(is); is.Fingerprint != fp || fps[fp] {
				c.errorf("issue %s: fingerprint %s is not the hash of what it is, or is repeated", is.ID, is.Fingerprint)
			}
			fps[is.Fingerprint] = true
			if (is.Status == "ignored") != ignored[s.ProjectID][is.Fingerprint] {
				c.errorf("issue %s: status %s disagrees with the issue states", is.ID, is.Status)
			}
			used[s.ProjectID+is.Fingerprint] = true
			if (is.StartLine == nil) != (is.EndLine == nil) {
				c.errorf("issue %s: start line without end line", is.ID)
			}
			if is.StartLine != nil {
				if *is.StartLine < 1 || *is.EndLine < *is.StartLine {
					c.errorf("issue %s: lines %d-%d", is.ID, *is.StartLine, *is.EndLine)
				}
				if f, ok := tree[is.Path]; ok && int64(*is.EndLine) > f.Lines {
					c.errorf("issue %s: line %d past the end of %s (%d lines)", is.ID, *is.EndLine, is.Path, f.Lines)
				}
			}
			if tree != nil {
				if _, ok := tree[is.Path]; !ok {
					c.errorf("issue %s: path %q not in the tree of its snapshot", is.ID, is.Path)
				}
			}
			if is.Category == "dependency_alert" && is.StartLine != nil {
				c.errorf("issue %s: dependency alert with lines", is.ID)
			}
			if i > 0 && !issueBefore(s.Issues[i-1], is) {
				c.errorf("snapshot %s: issues out of order at %d", s.ID, i)
			}
		}
	}
	for _, st := range c.doc.IssueStates {
		if !used[st.ProjectID+st.Fingerprint] {
			c.errorf("issue state %s matches no issue", st.Fingerprint)
		}
	}
	for _, tool := range []string{"eslint", "golangci-lint", "staticcheck", "gosec", "semgrep", "trivy", "gitleaks", "ruff"} {
		if !tools[tool] {
			c.errorf("no issue from %s", tool)
		}
	}
	if n := len(latest["web-shop"].Issues); n != 1000 {
		c.errorf("web-shop has %d current issues, want 1000", n)
	}
	if n := len(latest["payments-api"].Issues); n != 600 {
		c.errorf("payments-api has %d current issues, want 600", n)
	}
	total, ign, noDoc, noLines := 0, 0, 0, 0
	for _, s := range latest {
		for _, is := range s.Issues {
			total++
			if is.Status == "ignored" {
				ign++
			}
			if is.DocumentationURL == "" {
				noDoc++
			}
			if is.StartLine == nil {
				noLines++
			}
		}
	}
	if total < 2500 || total > 5000 {
		c.errorf("%d current issues in all, want a few thousand", total)
	}
	if share := float64(ign) / float64(total); share < 0.05 || share > 0.11 {
		c.errorf("%.3f of the current issues are ignored, want about 0.08", share)
	}
	if noDoc == 0 || noDoc > total/4 || noLines == 0 || noLines > total/10 {
		c.errorf("%d issues without documentation and %d without lines, of %d", noDoc, noLines, total)
	}
}

func fingerprintOf(is dataset.Issue) string {
	sum := sha256.Sum256([]byte(is.Tool + "\x00" + is.RuleKey + "\x00" + is.Path + "\x00" + is.Message))
	return hex.EncodeToString(sum[:])
}

// issueBefore reports whether a may come before b: path, then start line
// (none first), then rule key.
func issueBefore(a, b dataset.Issue) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if lineOf(a.StartLine) != lineOf(b.StartLine) {
		return lineOf(a.StartLine) < lineOf(b.StartLine)
	}
	return a.RuleKey <= b.RuleKey
}

func (c *checker) checkBuilds() {
	statuses := map[string]map[string]bool{}
	types := map[string]bool{}
	count := map[string]int{}
	var newest time.Time
	for _, b := range c.doc.Builds {
		p, ok := c.projects[b.ProjectID]
		if !ok {
			c.errorf("build %s: unknown project", b.ID)
			continue
		}
		count[p.Key]++
		if statuses[p.Key] == nil {
			statuses[p.Key] = map[string]bool{}
		}
		statuses[p.Key][b.Status] = true
		types[b.Type] = true
		if !slices.Contains(specBuildTypes, b.Type) || !slices.Contains(specBuildStatuses, b.Status) {
			c.errorf("build %s: type %q status %q", b.ID, b.Type, b.Status)
		}
		if b.BranchName == "" || !isSHA(b.CommitSHA) || b.CommitMessage == "" || b.CommitterLogin == "" {
			c.errorf("build %+v: missing branch, commit or committer", b)
		}
		if !slices.Contains([]string{"github_actions", "webhook", "cli"}, b.Source) {
			c.errorf("build %s: source %q", b.ID, b.Source)
		}
		if b.PullRequestNumber != nil && (*b.PullRequestNumber <= 0 || b.BranchName == p.DefaultBranch) {
			c.errorf("build %s: pull request %d on %s", b.ID, *b.PullRequestNumber, b.BranchName)
		}
		c.when("build submitted", b.SubmittedAt)
		if b.SubmittedAt.After(newest) {
			newest = b.SubmittedAt
		}
		started, finished := b.StartedAt != nil, b.FinishedAt != nil
		if started {
			c.when("build started", *b.StartedAt)
			if b.StartedAt.Before(b.SubmittedAt) {
				c.errorf("build %s started before it was submitted", b.ID)
			}
		}
		if finished {
			c.when("build finished", *b.FinishedAt)
			if b.FinishedAt.Before(b.SubmittedAt) || started && b.FinishedAt.Before(*b.StartedAt) {
				c.errorf("build %s finished before it began", b.ID)
			}
		}
		switch b.Status {
		case "submitted", "starting":
			if started || finished || b.Conclusion != nil || b.ExitCode != nil {
				c.errorf("queued build %s has progress: %+v", b.ID, b)
			}
		case "running":
			if !started || finished || b.Conclusion != nil || b.ExitCode != nil {
				c.errorf("running build %s: %+v", b.ID, b)
			}
		case "succeeded", "failed":
			if !started || !finished || b.Conclusion == nil || *b.Conclusion != b.Status || b.ExitCode == nil || (*b.ExitCode == 0) != (b.Status == "succeeded") {
				c.errorf("finished build %s: %+v", b.ID, b)
			}
			if b.Status == "failed" && b.StatusReason == nil {
				c.errorf("failed build %s has no reason", b.ID)
			}
		case "skipped", "rejected":
			if started || !finished || b.Conclusion != nil || b.ExitCode != nil || b.StatusReason == nil || *b.StatusReason == "" {
				c.errorf("%s build %s: %+v", b.Status, b.ID, b)
			}
		}
		if b.SnapshotID != "" {
			s, ok := c.snaps[b.SnapshotID]
			if !ok || s.ProjectID != b.ProjectID || s.CommitSHA != b.CommitSHA || s.Branch != b.BranchName || b.Type != "analysis" || b.Status != "succeeded" {
				c.errorf("build %s points at snapshot %s that does not match it", b.ID, b.SnapshotID)
			}
		}
	}
	if age := c.now.Sub(newest); age > time.Hour {
		c.errorf("the newest build is %v old", age)
	}
	for _, k := range mainProjects {
		if count[k] < 30 || count[k] > 60 {
			c.errorf("project %s has %d builds, want 30 to 60", k, count[k])
		}
		for _, s := range specBuildStatuses {
			if !statuses[k][s] {
				c.errorf("project %s has no %s build", k, s)
			}
		}
	}
	for _, p := range c.doc.Projects {
		if count[p.Key] < 12 {
			c.errorf("project %s has %d builds", p.Key, count[p.Key])
		}
	}
	for _, ty := range specBuildTypes {
		if !types[ty] {
			c.errorf("no %s build", ty)
		}
	}
	c.checkBuildEvents()
}

func (c *checker) checkCoverage() {
	perProject := map[string]int{}
	tags := map[string][]string{} // project + commit → coverage tags
	release, feature := false, false
	for _, cv := range c.doc.Coverage {
		p, ok := c.projects[cv.ProjectID]
		if !ok {
			c.errorf("coverage %s: unknown project", cv.ID)
			continue
		}
		perProject[p.Key]++
		c.when("coverage", cv.UploadedAt)
		if cv.Branch == "" && cv.GitTag == "" || !isSHA(cv.CommitSHA) || len(cv.Files) == 0 {
			c.errorf("coverage %s: no ref, bad commit or no file", cv.ID)
		}
		key := cv.ProjectID + cv.CommitSHA
		if slices.Contains(tags[key], cv.CoverageTag) {
			c.errorf("coverage %s: tag %s twice for one commit", cv.ID, cv.CoverageTag)
		}
		tags[key] = append(tags[key], cv.CoverageTag)
		if cv.GitTag == "v1.4.0" {
			release = true
		}
		tree, onDefault := c.commits[key]
		if cv.Branch != p.DefaultBranch {
			feature = true
			if onDefault {
				c.errorf("coverage %s: a default-branch commit uploaded for %s", cv.ID, cv.Branch)
			}
		} else if !onDefault {
			c.errorf("coverage %s: commit %s is no analysed commit of %s", cv.ID, cv.CommitSHA, p.DefaultBranch)
		}
		covered := 0
		for i, f := range cv.Files {
			if i > 0 && cv.Files[i-1].Path >= f.Path {
				c.errorf("coverage %s: files out of order", cv.ID)
			}
			if onDefault {
				if tf, ok := tree[f.Path]; !ok || int64(len(f.Hits)) != tf.Lines {
					c.errorf("coverage %s: %s has %d hits for %d lines", cv.ID, f.Path, len(f.Hits), tf.Lines)
				}
			} else if len(f.Hits) == 0 {
				c.errorf("coverage %s: %s has no hits", cv.ID, f.Path)
			}
			for _, h := range f.Hits {
				if h < -1 {
					c.errorf("coverage %s: hit %d", cv.ID, h)
					break
				}
				if h > 0 {
					covered++
				}
			}
		}
		if covered == 0 {
			c.errorf("coverage %s covers nothing", cv.ID)
		}
	}
	for key, ts := range tags {
		if len(ts) != 2 {
			c.errorf("commit %s has coverage tags %v, want unit and integration", key, ts)
		}
	}
	for _, k := range mainProjects {
		// Every analysed commit of the year: over 30.
		if perProject[k] < 2*30 {
			c.errorf("project %s has %d coverage uploads", k, perProject[k])
		}
	}
	if !release || !feature {
		c.errorf("want coverage for the release v1.4.0 and for the feature branch")
	}
}

// checkUniqueIDs checks that every ID is a UUIDv7 and none is used twice:
// the ID of every record in the document's lists, and in the lists inside
// them (a snapshot's issues).
func (c *checker) checkUniqueIDs() {
	seen := map[string]bool{}
	var walk func(what string, v reflect.Value)
	walk = func(what string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Slice:
			for i := range v.Len() {
				walk(what, v.Index(i))
			}
		case reflect.Struct:
			if f := v.FieldByName("ID"); f.IsValid() && f.Kind() == reflect.String {
				id := f.String()
				u, err := uuid.Parse(id)
				if err != nil || u.Version() != 7 || u.Variant() != uuid.RFC4122 || u.String() != id || seen[id] {
					c.errorf("%s ID %q: not a fresh UUIDv7 (%v)", what, id, err)
				}
				seen[id] = true
			}
			for i := range v.NumField() {
				if f := v.Field(i); f.Kind() == reflect.Slice {
					walk(v.Type().Field(i).Name, f)
				}
			}
		}
	}
	walk("document", reflect.ValueOf(c.doc))
	if len(seen) < len(c.doc.Users)+len(c.doc.Projects)+len(c.doc.Snapshots) {
		c.errorf("only %d IDs checked", len(seen))
	}
}

func TestNewIDCarriesItsTime(t *testing.T) {
	g := &generator{ids: newStream("test")}
	at := time.Date(2026, 3, 1, 12, 34, 56, 0, time.UTC)
	u := uuid.MustParse(g.newID(at))
	sec, nsec := u.Time().UnixTime()
	if got := time.Unix(sec, nsec).UTC(); !got.Equal(at) {
		t.Errorf("the ID's time is %v, want %v", got, at)
	}
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}

func isSHA(s string) bool { return len(s) == 40 && isHex(s) && strings.ToLower(s) == s }

func mustJSON(t *testing.T, doc dataset.Document) []byte {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func BenchmarkGenerate(b *testing.B) {
	now := testNows[0]
	for b.Loop() {
		Generate(now, testToken)
	}
}

// TestDocumentIsCanonical checks that the demo is already in the form an
// export of it would take: the canonical order, changed files only, one
// upload per commit and coverage tag. Only the demo token differs: an export
// carries its hash.
func TestDocumentIsCanonical(t *testing.T) {
	doc := Generate(testNows[0], testToken)
	want := mustJSON(t, *dataset.Canonical(&doc))
	doc.Tokens = slices.Clone(doc.Tokens)
	for i := range doc.Tokens {
		if doc.Tokens[i].Token != "" {
			doc.Tokens[i].Hash, doc.Tokens[i].Token = plumb.HashToken(doc.Tokens[i].Token), ""
		}
	}
	if got := mustJSON(t, doc); !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(0, i-200)
		t.Fatalf("the demo is not canonical; first difference at byte %d:\n got …%s…\nwant …%s…",
			i, got[lo:min(len(got), i+200)], want[lo:min(len(want), i+200)])
	}
}

// checkBuildEvents: every build has a status history that starts submitted
// at its submission, moves forward in time through statuses a build can
// take, starts running when it started, and ends with its status (and
// reason) when it ended.
func (c *checker) checkBuildEvents() {
	events := map[string][]dataset.BuildEvent{}
	for _, e := range c.doc.BuildEvents {
		events[e.BuildID] = append(events[e.BuildID], e)
	}
	next := map[string][]string{"submitted": {"starting", "running", "failed", "skipped", "rejected"}, "starting": {"running", "failed", "skipped", "rejected"},
		"running": {"succeeded", "failed"}}
	for _, b := range c.doc.Builds {
		ev := events[b.ID]
		delete(events, b.ID)
		if len(ev) == 0 || ev[0].Status != "submitted" || !ev[0].At.Equal(b.SubmittedAt) {
			c.errorf("build %s: history %+v does not start with its submission", b.ID, ev)
			continue
		}
		for i, e := range ev {
			if e.Seq != int64(i+1) {
				c.errorf("build %s: event %d has seq %d", b.ID, i, e.Seq)
			}
			if i > 0 && (!slices.Contains(next[ev[i-1].Status], e.Status) || e.At.Before(ev[i-1].At)) {
				c.errorf("build %s: %s at %s cannot follow %s at %s", b.ID, e.Status, e.At, ev[i-1].Status, ev[i-1].At)
			}
			if e.Status == "running" && (b.StartedAt == nil || !e.At.Equal(*b.StartedAt)) {
				c.errorf("build %s: running at %s, started at %v", b.ID, e.At, b.StartedAt)
			}
			c.when("build event", e.At)
		}
		last := ev[len(ev)-1]
		if last.Status != b.Status || !reflect.DeepEqual(last.Reason, b.StatusReason) && b.Status != "running" {
			c.errorf("build %s is %s (%v) but its history ends %s (%v)", b.ID, b.Status, b.StatusReason, last.Status, last.Reason)
		}
		if b.FinishedAt != nil && !last.At.Equal(*b.FinishedAt) {
			c.errorf("build %s finished at %s, its history ends at %s", b.ID, b.FinishedAt, last.At)
		}
	}
	for id := range events {
		c.errorf("events of unknown build %s", id)
	}
}
