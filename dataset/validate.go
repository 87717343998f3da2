package dataset

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// maxProblems caps the problems Validate lists one by one.
const maxProblems = 50

// Validate checks a whole document, before anything of it is written, by the
// rules the store applies to what it writes (docs/dataset.md): every record
// on its own; ids (lower-case UUIDs, unique in their list); the references
// between records; and what is unique in the store: logins, keys and names
// (ignoring case as the store compares them), token hashes, paths within a
// snapshot or upload, fingerprints' states and idempotency keys per project.
// It returns nil for a valid document, otherwise an EINVALID error
// (*plumb.Error) whose details list every problem, up to 50 and then a count
// of the rest, each naming the record and the field:
//
//	builds[3] (id 0190…): status "done" is not one of submitted, starting, …
//
// The lists are checked in document order, each record's fields in the order
// of its type.
func (d *Document) Validate() error {
	v := newValidator()
	v.document(d)
	v.checkUsers(d.Users)
	v.checkTokens(d.Tokens)
	v.checkWorkspaces(d.Workspaces)
	v.checkProjects(d.Projects)
	v.checkUploadTokens(d.UploadTokens)
	v.checkApplications(d.Applications)
	v.checkSnapshots(d.Snapshots)
	v.checkBuilds(d.Builds)
	v.checkBuildEvents(d.BuildEvents)
	v.checkIssueStates(d.IssueStates)
	v.checkCoverage(d.Coverage)
	v.checkComponents(d.Components)
	v.checkIdempotencyKeys(d.IdempotencyKeys)
	v.checkSources(d.SourceBlobs, d.SourceCommits)
	return v.err()
}

// validator holds what one Validate has learnt so far: the problems, and the
// records later lists refer to.
type validator struct {
	problems
	users, workspaces, projects, snapshots, builds *idIndex
	projectWorkspace                               map[string]string // project id → its workspace id
	defaultBranch                                  map[string]string // project id → its default branch
	snapshotProject                                map[string]string // snapshot id → its project id (the last snapshot listed with it)
}

func newValidator() *validator {
	v := &validator{projectWorkspace: map[string]string{}, defaultBranch: map[string]string{}, snapshotProject: map[string]string{}}
	v.users, v.workspaces, v.projects = v.index("users"), v.index("workspaces"), v.index("projects")
	v.snapshots, v.builds = v.index("snapshots"), v.index("builds")
	return v
}

func (v *validator) document(d *Document) {
	if d.Format != Format {
		v.add("document", "format %q is not %q", d.Format, Format)
	}
	if d.Version < MinVersion || d.Version > Version {
		v.add("document", "version %d is not supported; this Plumb reads versions %d to %d", d.Version, MinVersion, Version)
	}
}

func (v *validator) checkUsers(users []User) {
	logins := seen{}
	for i, u := range users {
		rec := record("users", i, u.ID)
		v.users.add(rec, i, u.ID)
		if err := (&plumb.User{}).SetProfile(plumb.UserProfile{Email: &u.Email, AvatarURL: &u.AvatarURL, ProviderURL: &u.ProviderURL}); err != nil {
			v.add(rec, "%s", strings.Join(plumb.ErrorDetails(err), "; "))
		}
		if !u.UpdatedAt.IsZero() && u.UpdatedAt.Before(u.CreatedAt) {
			v.add(rec, "updatedAt %s is before createdAt %s", u.UpdatedAt.UTC().Format(time.RFC3339), u.CreatedAt.UTC().Format(time.RFC3339))
		}
		v.checkLogin(rec, i, u.Login, logins)
		v.requireTime(rec, "createdAt", u.CreatedAt)
		if u.PasswordHash != "" && (!strings.HasPrefix(u.PasswordHash, "$argon2id$") || strings.Count(u.PasswordHash, "$") != 5) {
			v.add(rec, "passwordHash is not an argon2id hash ($argon2id$v=19$m=…,t=…,p=…$salt$hash); a dataset never holds a password itself")
		}
	}
}

// checkLogin checks the login of users[i]: given, without surrounding white
// space, and unique ignoring (ASCII) case.
func (v *validator) checkLogin(rec string, i int, login string, logins seen) {
	if !v.requireText(rec, "login", login) {
		return
	}
	if strings.TrimSpace(login) != login {
		v.add(rec, "login %q has leading or trailing white space", login)
	}
	if j, dup := logins.first(plumb.FoldASCII(login), i); dup {
		v.add(rec, "login %q is also the login of users[%d]; logins are unique, ignoring case", login, j)
	}
}

func (v *validator) checkTokens(tokens []Token) {
	ids, hashes := v.index("tokens"), seen{}
	for i, t := range tokens {
		rec := record("tokens", i, t.ID)
		ids.add(rec, i, t.ID)
		v.users.ref(rec, "userId", t.UserID)
		v.requireText(rec, "name", t.Name)
		if hash := v.secretHash(rec, t.Hash, t.Token, ""); hash != "" {
			if j, dup := hashes.first(hash, i); dup {
				v.add(rec, "hash is also the hash of tokens[%d]; every token has its own secret", j)
			}
		}
		v.requireTime(rec, "createdAt", t.CreatedAt)
	}
}

func (v *validator) checkWorkspaces(workspaces []Workspace) {
	keys := seen{}
	for i, w := range workspaces {
		rec := record("workspaces", i, w.ID)
		v.workspaces.add(rec, i, w.ID)
		if err := plumb.ValidateKey("workspace", w.Key); err != nil {
			v.add(rec, "key: %s", strings.Join(plumb.ErrorDetails(err), "; "))
		} else if j, dup := keys.first(plumb.FoldASCII(w.Key), i); dup {
			v.add(rec, "key %q is also the key of workspaces[%d]; keys are unique, ignoring case", w.Key, j)
		}
		v.requireTime(rec, "createdAt", w.CreatedAt)
		v.requireTime(rec, "updatedAt", w.UpdatedAt)
		v.checkMembers(rec, w.Members)
	}
}

// checkMembers checks a workspace's members: known users, each once, with a
// role.
func (v *validator) checkMembers(rec string, members []Member) {
	users := seen{}
	for j, m := range members {
		mrec := fmt.Sprintf("%s: members[%d]", rec, j)
		if v.users.ref(mrec, "userId", m.UserID) {
			if k, dup := users.last(m.UserID, j); dup {
				v.add(mrec, "userId %q is also members[%d]; a user is a member once", m.UserID, k)
			}
		}
		v.checkEnum(mrec, "role", m.Role, []string{plumb.RoleMember, plumb.RoleAdmin})
	}
}

func (v *validator) checkProjects(projects []Project) {
	keys, badgeHashes := seen{}, seen{}
	for i, p := range projects {
		rec := record("projects", i, p.ID)
		v.projects.add(rec, i, p.ID)
		v.projectWorkspace[p.ID] = p.WorkspaceID
		v.defaultBranch[p.ID] = p.DefaultBranch
		v.workspaces.ref(rec, "workspaceId", p.WorkspaceID)
		if err := plumb.ValidateKey("project", p.Key); err != nil {
			v.add(rec, "key: %s", strings.Join(plumb.ErrorDetails(err), "; "))
		} else if j, dup := keys.first(p.WorkspaceID+"\x00"+plumb.FoldASCII(p.Key), i); dup {
			v.add(rec, "key %q is also the key of projects[%d] in the same workspace; keys are unique per workspace, ignoring case", p.Key, j)
		}
		v.requireText(rec, "defaultBranch", p.DefaultBranch)
		v.requireTime(rec, "createdAt", p.CreatedAt)
		v.requireTime(rec, "updatedAt", p.UpdatedAt)
		v.checkRefList(rec, "adminIds", v.users, p.AdminIDs, nil)
		if b := p.BadgeToken; b != nil {
			if !sha256Hex.MatchString(b.Hash) {
				v.add(rec, "badgeToken.hash %q is not a SHA-256 (64 lowercase hexadecimal characters); a dataset never holds the token itself", b.Hash)
			} else if j, dup := badgeHashes.first(b.Hash, i); dup {
				v.add(rec, "badgeToken.hash is also the badgeToken.hash of projects[%d]; every badge token has its own secret", j)
			}
			v.requireText(rec, "badgeToken.createdBy", b.CreatedBy)
			v.requireTime(rec, "badgeToken.createdAt", b.CreatedAt)
		}
		if g := p.QualityGate; g != nil {
			for _, problem := range g.Conditions.Validate() {
				v.add(rec, "qualityGate.conditions.%s", problem)
			}
			v.requireTime(rec, "qualityGate.updatedAt", g.UpdatedAt)
		}
	}
}

func (v *validator) checkUploadTokens(tokens []UploadToken) {
	ids, hashes := v.index("uploadTokens"), seen{}
	for i, t := range tokens {
		rec := record("uploadTokens", i, t.ID)
		ids.add(rec, i, t.ID)
		v.projects.ref(rec, "projectId", t.ProjectID)
		v.requireText(rec, "name", t.Name)
		if hash := v.secretHash(rec, t.Hash, t.Token, plumb.UploadTokenPrefix); hash != "" {
			if j, dup := hashes.first(hash, i); dup {
				v.add(rec, "hash is also the hash of uploadTokens[%d]; every upload token has its own secret", j)
			}
		}
		v.requireText(rec, "createdBy", t.CreatedBy)
		v.requireTime(rec, "createdAt", t.CreatedAt)
	}
}

func (v *validator) checkApplications(apps []Application) {
	ids, names := v.index("applications"), seen{}
	for i, a := range apps {
		rec := record("applications", i, a.ID)
		ids.add(rec, i, a.ID)
		v.workspaces.ref(rec, "workspaceId", a.WorkspaceID)
		if v.requireText(rec, "name", a.Name) {
			if j, dup := names.first(a.WorkspaceID+"\x00"+plumb.FoldName(a.Name), i); dup {
				v.add(rec, "name %q is also the name of applications[%d] in the same workspace; names are unique per workspace, ignoring case", a.Name, j)
			}
		}
		v.requireTime(rec, "createdAt", a.CreatedAt)
		v.checkRefList(rec, "projectIds", v.projects, a.ProjectIDs, func(field, id string) {
			if v.projectWorkspace[id] != a.WorkspaceID {
				v.add(rec, "%s %q is a project of another workspace", field, id)
			}
		})
	}
}

func (v *validator) checkSnapshots(snapshots []Snapshot) {
	issueIDs := map[string]string{} // issue id → the snapshot that lists it
	for i, s := range snapshots {
		rec := record("snapshots", i, s.ID)
		v.snapshots.add(rec, i, s.ID)
		v.snapshotProject[s.ID] = s.ProjectID
		knownProject := v.projects.ref(rec, "projectId", s.ProjectID)
		v.requireText(rec, "branch", s.Branch)
		v.requireText(rec, "commitSha", s.CommitSHA) // any commit reference, as the store takes for snapshots
		v.requireTime(rec, "analyzedAt", s.AnalyzedAt)
		v.checkRemoved(rec, s.Removed, v.checkFiles(rec, s.Files))
		if knownProject {
			v.checkFilesBranch(rec, s)
		}
		v.checkIssues(rec, s.Issues, issueIDs)
		v.checkClones(rec, s.Clones)
	}
}

// checkClones checks a snapshot's duplicated blocks: each place a path and
// a range of lines, each block at least a line long.
func (v *validator) checkClones(rec string, clones []Clone) {
	for j, c := range clones {
		crec := fmt.Sprintf("%s: clones[%d]", rec, j)
		if c.Lines < 1 {
			v.add(crec, "lines must be at least 1")
		}
		for side, p := range [2]ClonePlace{c.A, c.B} {
			name := [2]string{"a", "b"}[side]
			v.requireText(crec, name+".path", p.Path)
			if p.StartLine < 1 || p.EndLine < p.StartLine {
				v.add(crec, "%s lines %d-%d are not a range of lines (1 ≤ startLine ≤ endLine)", name, p.StartLine, p.EndLine)
			}
		}
	}
}

// checkFiles checks a snapshot's files and returns their paths.
func (v *validator) checkFiles(rec string, files []File) seen {
	paths := seen{}
	for j, f := range files {
		frec := fmt.Sprintf("%s: files[%d]", rec, j)
		v.checkPath(frec, j, f.Path, paths)
		if f.Lines < 0 || f.LOC < 0 || f.Complexity < 0 || f.DuplicatedLines < 0 {
			v.add(frec, "lines, loc, complexity and duplicatedLines must not be negative")
		}
		if f.LOC > f.Lines || f.DuplicatedLines > f.Lines {
			v.add(frec, "loc and duplicatedLines must not exceed lines (%d)", f.Lines)
		}
	}
	return paths
}

// checkPath checks the path of files[j] of a snapshot or coverage upload:
// given, and unique in its list.
func (v *validator) checkPath(frec string, j int, path string, paths seen) {
	if path == "" {
		v.add(frec, "path is required")
	} else if k, dup := paths.first(path, j); dup {
		v.add(frec, "path %q is also files[%d]", path, k)
	}
}

// checkRemoved checks a snapshot's removed paths: given, each once, and
// none of its files.
func (v *validator) checkRemoved(rec string, removed []string, files seen) {
	paths := seen{}
	for j, path := range removed {
		field := fmt.Sprintf("removed[%d]", j)
		k, dup := paths.last(path, j)
		switch {
		case path == "":
			v.add(rec, "%s: path is required", field)
		case dup:
			v.add(rec, "%s %q is also removed[%d]", field, path, k)
		default:
			if f, ok := files[path]; ok {
				v.add(rec, "%s %q is also files[%d]; a file is either changed or removed", field, path, f)
			}
		}
	}
}

// checkFilesBranch refuses files or removed paths on a snapshot of a
// branch other than its project's default branch: only default-branch
// snapshots keep them.
func (v *validator) checkFilesBranch(rec string, s Snapshot) {
	branch := v.defaultBranch[s.ProjectID]
	if branch == "" || s.Branch == "" || s.AnalyzedAt.IsZero() || s.Branch == branch {
		return
	}
	if len(s.Files) > 0 || len(s.Removed) > 0 {
		v.add(rec, "files and removed are kept only for the project's default branch %q; this snapshot is of branch %q and must list neither", branch, s.Branch)
	}
}

// checkIssues checks a snapshot's issues; issue ids are unique across the
// snapshots.
func (v *validator) checkIssues(rec string, issues []Issue, issueIDs map[string]string) {
	for j, is := range issues {
		irec := fmt.Sprintf("%s: %s", rec, record("issues", j, is.ID))
		if v.checkID(irec, is.ID) {
			if other, ok := issueIDs[is.ID]; ok {
				v.add(irec, "id is also the id of an issue of %s; ids are unique", other)
			} else {
				issueIDs[is.ID] = rec
			}
		}
		if msg := plumb.IssueProblem(plumb.Issue{Fingerprint: is.Fingerprint, Tool: is.Tool, RuleKey: is.RuleKey, Path: is.Path,
			Category: is.Category, Level: is.Level, Status: is.Status, StartLine: is.StartLine, EndLine: is.EndLine}); msg != "" {
			v.add(irec, "%s", msg)
		}
	}
}

func (v *validator) checkBuilds(builds []Build) {
	for i, b := range builds {
		rec := record("builds", i, b.ID)
		v.builds.add(rec, i, b.ID)
		knownProject := v.projects.ref(rec, "projectId", b.ProjectID)
		v.checkEnum(rec, "type", b.Type, plumb.BuildTypes)
		v.checkEnum(rec, "status", b.Status, plumb.BuildStatuses)
		if b.Conclusion != nil {
			v.checkEnum(rec, "conclusion", *b.Conclusion, []string{"succeeded", "failed"})
		}
		v.requireText(rec, "commitSha", b.CommitSHA) // any commit reference, as the store takes for builds
		v.requireTime(rec, "submittedAt", b.SubmittedAt)
		v.checkBuildTimes(rec, b)
		if b.SnapshotID != "" {
			v.checkBuildSnapshot(rec, b, knownProject)
		}
	}
}

// checkBuildTimes checks that a build started and finished after it was
// submitted, and finished after it started.
func (v *validator) checkBuildTimes(rec string, b Build) {
	if b.StartedAt != nil && b.StartedAt.Before(b.SubmittedAt) {
		v.add(rec, "startedAt %s is before submittedAt %s", b.StartedAt.UTC().Format(time.RFC3339), b.SubmittedAt.UTC().Format(time.RFC3339))
	}
	if b.FinishedAt != nil && (b.FinishedAt.Before(b.SubmittedAt) || b.StartedAt != nil && b.FinishedAt.Before(*b.StartedAt)) {
		v.add(rec, "finishedAt %s is before the build's submission or start", b.FinishedAt.UTC().Format(time.RFC3339))
	}
}

// checkBuildSnapshot checks the snapshot a build produced: one of the
// document's, of the build's project.
func (v *validator) checkBuildSnapshot(rec string, b Build, knownProject bool) {
	if project, ok := v.snapshotProject[b.SnapshotID]; !ok || !v.snapshots.has(b.SnapshotID) {
		v.add(rec, "snapshotId %q is not the id of any of the dataset's snapshots", b.SnapshotID)
	} else if knownProject && project != b.ProjectID {
		v.add(rec, "snapshotId %q is a snapshot of another project", b.SnapshotID)
	}
}

// checkBuildEvents checks the build events: a build's events are numbered
// 1, 2, 3… in the order they are listed.
func (v *validator) checkBuildEvents(events []BuildEvent) {
	nextSeq := map[string]int64{}
	for i, e := range events {
		rec := record("buildEvents", i, "")
		if v.builds.ref(rec, "buildId", e.BuildID) {
			want := nextSeq[e.BuildID] + 1
			if e.Seq != want {
				v.add(rec, "seq %d is not %d; the events of build %s are numbered 1, 2, 3… in the order they are listed", e.Seq, want, e.BuildID)
			}
			nextSeq[e.BuildID] = max(want, e.Seq)
		}
		v.checkEnum(rec, "status", e.Status, plumb.BuildStatuses)
		v.requireTime(rec, "at", e.At)
	}
}

func (v *validator) checkIssueStates(states []IssueState) {
	fingerprints := seen{}
	for i, st := range states {
		rec := record("issueStates", i, "")
		v.projects.ref(rec, "projectId", st.ProjectID)
		if v.requireText(rec, "fingerprint", st.Fingerprint) {
			if j, dup := fingerprints.first(st.ProjectID+"\x00"+st.Fingerprint, i); dup {
				v.add(rec, "fingerprint %q of this project is also issueStates[%d]", st.Fingerprint, j)
			}
		}
		v.checkEnum(rec, "status", st.Status, plumb.IssueStatuses)
	}
}

func (v *validator) checkCoverage(uploads []Coverage) {
	ids := v.index("coverage")
	for i, c := range uploads {
		rec := record("coverage", i, c.ID)
		ids.add(rec, i, c.ID)
		v.projects.ref(rec, "projectId", c.ProjectID)
		if !lowerHex.MatchString(c.CommitSHA) {
			v.add(rec, "commitSha %q is not a commit SHA (7 to 64 lowercase hexadecimal characters)", c.CommitSHA)
		}
		v.requireTime(rec, "uploadedAt", c.UploadedAt)
		v.checkCoverageFiles(rec, c.Files)
	}
}

// checkCoverageFiles checks an upload's files: paths given and unique, hits
// -1, 0 or more.
func (v *validator) checkCoverageFiles(rec string, files []CoverageFile) {
	paths := seen{}
	for j, f := range files {
		frec := fmt.Sprintf("%s: files[%d]", rec, j)
		v.checkPath(frec, j, f.Path, paths)
		for k, h := range f.Hits {
			if h < -1 {
				v.add(frec, "hits[%d] is %d; hits are -1 (not coverable), 0 (missed) or a positive count", k, h)
				break
			}
		}
		prev := 0
		for k, b := range f.Branches {
			if b.Line <= prev || b.Total < 1 || b.Total > plumb.MaxBranches || b.Covered < 0 || b.Covered > b.Total {
				v.add(frec, "branches[%d] is line %d, %d of %d branches covered; lines ascend from 1, each once, with 1 to %d branches and 0 to that many covered",
					k, b.Line, b.Covered, b.Total, plumb.MaxBranches)
				break
			}
			prev = b.Line
		}
	}
}

func (v *validator) checkComponents(components []Component) {
	ids, names := v.index("components"), seen{}
	for i, c := range components {
		rec := record("components", i, c.ID)
		ids.add(rec, i, c.ID)
		v.projects.ref(rec, "projectId", c.ProjectID)
		if v.requireText(rec, "name", c.Name) {
			if j, dup := names.first(c.ProjectID+"\x00"+plumb.FoldName(c.Name), i); dup {
				v.add(rec, "name %q is also the name of components[%d] in the same project; names are unique per project, ignoring case", c.Name, j)
			}
		}
		for _, err := range metric.ValidateGlobs(c.PathGlobs) {
			v.add(rec, "%v", err)
		}
		v.users.ref(rec, "creatorId", c.CreatorID)
		v.requireTime(rec, "createdAt", c.CreatedAt)
		v.requireTime(rec, "updatedAt", c.UpdatedAt)
	}
}

func (v *validator) checkIdempotencyKeys(keys []IdempotencyKey) {
	seenKeys := seen{}
	for i, k := range keys {
		rec := record("idempotencyKeys", i, "")
		v.projects.ref(rec, "projectId", k.ProjectID)
		if v.requireText(rec, "key", k.Key) {
			if j, dup := seenKeys.first(k.ProjectID+"\x00"+k.Key, i); dup {
				v.add(rec, "key %q of this project is also idempotencyKeys[%d]; keys are unique per project", k.Key, j)
			}
		}
		v.requireText(rec, "requestHash", k.RequestHash)
		if k.BodyHash != "" && !sha256Hex.MatchString(k.BodyHash) {
			v.add(rec, "bodyHash %q is not a SHA-256 (64 lowercase hexadecimal characters) or empty", k.BodyHash)
		}
		if k.Status < 100 || k.Status > 599 {
			v.add(rec, "status %d is not an HTTP status (100 to 599)", k.Status)
		}
		v.requireTime(rec, "createdAt", k.CreatedAt)
	}
}

// secretHash checks a token record's hash or token (exactly one is given; a
// token must start with prefix) and returns the hash to store, or "" after
// reporting the problem.
func (v *validator) secretHash(rec, hash, token, prefix string) string {
	switch {
	case hash != "" && token != "":
		v.add(rec, "hash and token are both given; give exactly one: hash (the stored SHA-256) or token (a plaintext secret, for fixtures)")
	case hash == "" && token == "":
		v.add(rec, "hash or token is required: hash (64 lowercase hexadecimal characters, the SHA-256 of the secret) or token (a plaintext secret, for fixtures)")
	case token != "" && !strings.HasPrefix(token, prefix):
		v.add(rec, "token does not start with %q; every upload token secret does", prefix)
	case token != "":
		return plumb.HashToken(token)
	case !sha256Hex.MatchString(hash):
		v.add(rec, "hash %q is not a SHA-256 (64 lowercase hexadecimal characters)", hash)
	default:
		return hash
	}
	return ""
}

// checkRefList checks a list field of references (adminIds, projectIds) to
// records of x: each one known and listed once; also, when not nil, adds
// the field's own rules for a known id.
func (v *validator) checkRefList(rec, name string, x *idIndex, ids []string, also func(field, id string)) {
	listed := seen{}
	for j, id := range ids {
		field := fmt.Sprintf("%s[%d]", name, j)
		if !x.ref(rec, field, id) {
			continue
		}
		if also != nil {
			also(field, id)
		}
		if k, dup := listed.last(id, j); dup {
			v.add(rec, "%s %q is also %s[%d]", field, id, name, k)
		}
	}
}

// lowerHex is a commit SHA as the store keeps coverage under it.
var lowerHex = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// sha256Hex is a hex SHA-256 as the store keeps token and body hashes.
var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (v *validator) requireTime(rec, field string, t time.Time) {
	if t.IsZero() {
		v.add(rec, "%s is required (an RFC 3339 time)", field)
	}
}

func (v *validator) requireText(rec, field, s string) bool {
	if strings.TrimSpace(s) == "" {
		v.add(rec, "%s is required", field)
		return false
	}
	return true
}

func (v *validator) checkEnum(rec, field, s string, values []string) {
	if !plumb.Contains(values, s) {
		v.add(rec, "%s %q is not one of %s", field, s, strings.Join(values, ", "))
	}
}

// checkID checks a record's id: given, and a UUID in the lower-case text
// form the store keeps (lookups lower-case a UUID argument).
func (v *validator) checkID(rec, id string) bool {
	switch {
	case id == "":
		v.add(rec, "id is required")
	case !plumb.IsUUID(id) || id != strings.ToLower(id):
		v.add(rec, "id %q is not a UUID in lower-case text form (8-4-4-4-12 hexadecimal digits)", id)
	default:
		return true
	}
	return false
}

// problems collects validation problems, keeping the first maxProblems.
type problems struct {
	list  []string
	total int
}

func (p *problems) add(record, format string, args ...any) {
	p.total++
	if len(p.list) < maxProblems {
		p.list = append(p.list, record+": "+fmt.Sprintf(format, args...))
	}
}

func (p *problems) err() error {
	list := p.list
	if p.total > len(list) {
		list = append(list, fmt.Sprintf("… and %d more problems (only the first %d are listed)", p.total-len(p.list), maxProblems))
	}
	return plumb.Invalid(list)
}

// record names the i-th record of a list for a problem: "builds[3] (id …)".
func record(list string, i int, id string) string {
	if id == "" {
		return fmt.Sprintf("%s[%d]", list, i)
	}
	return fmt.Sprintf("%s[%d] (id %s)", list, i, id)
}

// seen maps what must be unique in a list (a login, a key, a path…) to the
// index of a record that holds it.
type seen map[string]int

// first returns the index of the first earlier record that holds k, or
// notes record i as holding it.
func (s seen) first(k string, i int) (int, bool) {
	if j, ok := s[k]; ok {
		return j, true
	}
	s[k] = i
	return 0, false
}

// last returns the index of the latest earlier record that holds k, and
// notes record i as holding it.
func (s seen) last(k string, i int) (int, bool) {
	j, ok := s[k]
	s[k] = i
	return j, ok
}

// idIndex maps the ids of one list's records to their index, reporting
// missing, malformed and duplicate ids, and checks references to them.
type idIndex struct {
	v    *validator
	list string
	at   seen
}

func (v *validator) index(list string) *idIndex { return &idIndex{v: v, list: list, at: seen{}} }

// add notes the id of record i.
func (x *idIndex) add(rec string, i int, id string) {
	if !x.v.checkID(rec, id) {
		return
	}
	if j, dup := x.at.first(id, i); dup {
		x.v.add(rec, "id is also the id of %s[%d]; ids are unique", x.list, j)
	}
}

func (x *idIndex) has(id string) bool { _, ok := x.at[id]; return ok }

// ref checks a reference field to a record of this list and reports whether
// it refers to one.
func (x *idIndex) ref(rec, field, id string) bool {
	switch {
	case id == "":
		x.v.add(rec, "%s is required", field)
	case !x.has(id):
		x.v.add(rec, "%s %q is not the id of any of the dataset's %s", field, id, x.list)
	default:
		return true
	}
	return false
}
