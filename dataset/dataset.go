// Package dataset defines Plumb's dataset document: a whole installation's
// data as one JSON document, used by `plumb export` and `plumb import` for
// backups, moves between databases, the demo and test fixtures. The format is
// described in docs/dataset.md.
package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/plumbhq/plumb"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
)

// Format and Version identify the document. Version 2 added the users'
// email, avatarUrl, providerUrl and updatedAt; version 1 documents still
// read (those fields empty, updatedAt the createdAt).
const (
	Format     = "plumb-dataset"
	Version    = 2
	MinVersion = 1
)

// Document is a whole dataset. Lists are in a canonical order on export, so
// export → import → export reproduces the same bytes.
type Document struct {
	Format          string           `json:"format"`
	Version         int              `json:"version"`
	Users           []User           `json:"users"`
	Tokens          []Token          `json:"tokens"`
	Workspaces      []Workspace      `json:"workspaces"`
	Projects        []Project        `json:"projects"`
	UploadTokens    []UploadToken    `json:"uploadTokens"`
	Applications    []Application    `json:"applications"`
	Builds          []Build          `json:"builds"`
	BuildEvents     []BuildEvent     `json:"buildEvents"`
	Snapshots       []Snapshot       `json:"snapshots"`
	IssueStates     []IssueState     `json:"issueStates"`
	Coverage        []Coverage       `json:"coverage"`
	Components      []Component      `json:"components"`
	IdempotencyKeys []IdempotencyKey `json:"idempotencyKeys"`
}

// User is a person.
type User struct {
	ID          string     `json:"id"`
	Login       string     `json:"login"`
	Name        string     `json:"name"`
	Email       string     `json:"email"`
	AvatarURL   string     `json:"avatarUrl"`
	ProviderURL string     `json:"providerUrl"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`            // version 2; zero in version 1: createdAt
	DisabledAt  *time.Time `json:"disabledAt,omitempty"` // plumb user disable
	// PasswordHash is the web sign-in password as stored: an argon2id PHC
	// string ($argon2id$v=19$m=…,t=…,p=…$salt$hash), never the password.
	PasswordHash string `json:"passwordHash,omitempty"`
}

// Token is an API token. Export carries only Hash. Import takes Hash, or, for
// fixtures, a plaintext Token of which only the hash is stored.
type Token struct {
	ID         string     `json:"id"`
	UserID     string     `json:"userId"`
	Name       string     `json:"name"`
	Hash       string     `json:"hash,omitempty"`
	Token      string     `json:"token,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	RevokedAt  *time.Time `json:"revokedAt"`
}

// Workspace is an owner of projects, with its members.
type Workspace struct {
	ID                  string    `json:"id"`
	Key                 string    `json:"key"`
	AvatarURL           string    `json:"avatarUrl"`
	ProviderURL         string    `json:"providerUrl"`
	ApplicationsEnabled bool      `json:"applicationsEnabled"`
	CreatedAt           time.Time `json:"createdAt"`
	UpdatedAt           time.Time `json:"updatedAt"`
	Members             []Member  `json:"members"`
}

// Member is a user's membership of a workspace.
type Member struct {
	UserID string `json:"userId"`
	Role   string `json:"role"` // member or admin
}

// Project is a repository, with its admins.
type Project struct {
	ID                string    `json:"id"`
	WorkspaceID       string    `json:"workspaceId"`
	Key               string    `json:"key"`
	DefaultBranch     string    `json:"defaultBranch"`
	ComponentsEnabled bool      `json:"componentsEnabled"`
	CreatedAt         time.Time `json:"createdAt"`
	UpdatedAt         time.Time `json:"updatedAt"`
	AdminIDs          []string  `json:"adminIds"`
	// BadgesPublic: the project's badges answer anyone (docs/web.md).
	BadgesPublic bool `json:"badgesPublic,omitempty"`
}

// UploadToken is a project-scoped token that can only upload to its
// project. Like a Token, an export carries only Hash; an import takes Hash
// or, for fixtures, a plaintext Token (which starts with the upload token
// prefix, "plbu_") of which only the hash is stored.
type UploadToken struct {
	ID         string     `json:"id"`
	ProjectID  string     `json:"projectId"`
	Name       string     `json:"name"`
	Hash       string     `json:"hash,omitempty"`
	Token      string     `json:"token,omitempty"`
	CreatedBy  string     `json:"createdBy"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	RevokedAt  *time.Time `json:"revokedAt"`
}

// Application groups projects of one workspace.
type Application struct {
	ID          string    `json:"id"`
	WorkspaceID string    `json:"workspaceId"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
	ProjectIDs  []string  `json:"projectIds"`
}

// Build is one CI or analysis run.
type Build struct {
	ID                string     `json:"id"`
	ProjectID         string     `json:"projectId"`
	Type              string     `json:"type"`
	Status            string     `json:"status"`
	BranchName        string     `json:"branchName"`
	CommitSHA         string     `json:"commitSha"`
	CommitMessage     string     `json:"commitMessage"`
	SubmittedAt       time.Time  `json:"submittedAt"`
	StartedAt         *time.Time `json:"startedAt"`
	FinishedAt        *time.Time `json:"finishedAt"`
	StatusReason      *string    `json:"statusReason"`
	Conclusion        *string    `json:"conclusion"`
	ExitCode          *int       `json:"exitCode"`
	Source            string     `json:"source"`
	PullRequestNumber *int       `json:"pullRequestNumber"`
	CommitterLogin    string     `json:"committerLogin"`
	SnapshotID        string     `json:"snapshotId,omitempty"`
}

// BuildEvent is one status a build went through, with its time: a build's
// events are numbered 1, 2, 3… (Seq) in the order they happened.
type BuildEvent struct {
	BuildID string    `json:"buildId"`
	Seq     int64     `json:"seq"`
	Status  string    `json:"status"`
	Reason  *string   `json:"reason"`
	At      time.Time `json:"at"`
}

// Snapshot is one analysis of one commit. For the project's default branch,
// Files lists the files whose figures changed since the previous
// default-branch snapshot (all files for the first one) and Removed the paths
// deleted since; an importer also accepts a full file list each time. Other
// branches carry issues only.
type Snapshot struct {
	ID         string    `json:"id"`
	ProjectID  string    `json:"projectId"`
	Branch     string    `json:"branch"`
	CommitSHA  string    `json:"commitSha"`
	AnalyzedAt time.Time `json:"analyzedAt"`
	// FullTree: Files are the whole tree (files not listed are absent), as
	// for a default-branch snapshot that entered the history after a newer
	// one (docs/dataset.md).
	FullTree bool     `json:"fullTree,omitempty"`
	Files    []File   `json:"files"`
	Removed  []string `json:"removed"`
	Issues   []Issue  `json:"issues"`
}

// File holds one file's analysis figures.
type File struct {
	Path            string `json:"path"`
	Lines           int64  `json:"lines"`
	LOC             int64  `json:"loc"`
	Complexity      int64  `json:"complexity"`
	DuplicatedLines int64  `json:"duplicatedLines"`
}

// Issue is one finding of a snapshot, in listing order.
type Issue struct {
	ID               string `json:"id"`
	Fingerprint      string `json:"fingerprint"`
	Tool             string `json:"tool"`
	RuleKey          string `json:"ruleKey"`
	Message          string `json:"message"`
	Category         string `json:"category"`
	Level            string `json:"level"`
	Status           string `json:"status"`
	DocumentationURL string `json:"documentationUrl,omitempty"`
	Path             string `json:"path"`
	StartLine        *int   `json:"startLine,omitempty"`
	EndLine          *int   `json:"endLine,omitempty"`
}

// IssueState is the status that belongs to a fingerprint across snapshots.
type IssueState struct {
	ProjectID   string `json:"projectId"`
	Fingerprint string `json:"fingerprint"`
	Status      string `json:"status"`
}

// Coverage is one uploaded coverage report of a commit under one coverage tag,
// reached by a branch and/or a git tag.
type Coverage struct {
	ID          string         `json:"id"`
	ProjectID   string         `json:"projectId"`
	CommitSHA   string         `json:"commitSha"`
	Branch      string         `json:"branch"`
	GitTag      string         `json:"gitTag"`
	CoverageTag string         `json:"coverageTag"`
	PullRequest int            `json:"pullRequestNumber,omitempty"` // version 2; 0: none
	UploadedAt  time.Time      `json:"uploadedAt"`
	Files       []CoverageFile `json:"files"`
}

// CoverageFile is one file's line hits: Hits[i] is line i+1; -1 not
// coverable, 0 missed, n > 0 hit n times.
type CoverageFile struct {
	Path string  `json:"path"`
	Hits []int64 `json:"hits"`
}

// Component is a named set of path globs in a project.
type Component struct {
	ID          string    `json:"id"`
	ProjectID   string    `json:"projectId"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	PathGlobs   []string  `json:"pathGlobs"`
	CreatorID   string    `json:"creatorId"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// IdempotencyKey is the kept response of an upload made with an
// Idempotency-Key: a retry with the same key and request replays it.
type IdempotencyKey struct {
	ProjectID   string    `json:"projectId"`
	Key         string    `json:"key"`
	RequestHash string    `json:"requestHash"`
	BodyHash    string    `json:"bodyHash"`
	Status      int       `json:"status"`
	Body        string    `json:"body"`
	CreatedAt   time.Time `json:"createdAt"`
}

// SnapshotHead is the part of a Snapshot before its lists; a Writer writes it
// first and streams the lists after it.
type SnapshotHead struct {
	ID         string    `json:"id"`
	ProjectID  string    `json:"projectId"`
	Branch     string    `json:"branch"`
	CommitSHA  string    `json:"commitSha"`
	AnalyzedAt time.Time `json:"analyzedAt"`
	FullTree   bool      `json:"fullTree,omitempty"`
}

// Head returns the snapshot's fields before its lists.
func (s *Snapshot) Head() SnapshotHead {
	return SnapshotHead{ID: s.ID, ProjectID: s.ProjectID, Branch: s.Branch, CommitSHA: s.CommitSHA, AnalyzedAt: s.AnalyzedAt, FullTree: s.FullTree}
}

// CoverageHead is the part of a Coverage upload before its files.
type CoverageHead struct {
	ID          string    `json:"id"`
	ProjectID   string    `json:"projectId"`
	CommitSHA   string    `json:"commitSha"`
	Branch      string    `json:"branch"`
	GitTag      string    `json:"gitTag"`
	CoverageTag string    `json:"coverageTag"`
	PullRequest int       `json:"pullRequestNumber,omitempty"`
	UploadedAt  time.Time `json:"uploadedAt"`
}

// Head returns the upload's fields before its files.
func (c *Coverage) Head() CoverageHead {
	return CoverageHead{ID: c.ID, ProjectID: c.ProjectID, CommitSHA: c.CommitSHA, Branch: c.Branch, GitTag: c.GitTag,
		CoverageTag: c.CoverageTag, PullRequest: c.PullRequest, UploadedAt: c.UploadedAt}
}

// Writer writes a document in the canonical layout, one piece at a time, so
// that a dataset of any size is written in bounded memory. The layout is
// json.Marshal's output of the same Document (HTML characters not escaped)
// with a line feed before every element of a top-level list, before every
// file and issue of a snapshot and before every file of a coverage upload,
// before the closing bracket of such a non-empty list, and after the
// document (see docs/dataset.md):
//
//	{"format":"plumb-dataset","version":1,
//	"users":[
//	{"id":"…","login":"ada",…},
//	{"id":"…","login":"linus",…}
//	],
//	"tokens":[],
//	…
//	"buildEvents":[
//	{"buildId":"…","seq":1,"status":"submitted","reason":null,"at":"…"}
//	],
//	"snapshots":[
//	{"id":"…",…,"analyzedAt":"…","files":[
//	{"path":"a.go",…}
//	],"removed":["b.go"],"issues":[
//	{"id":"…",…}
//	]},
//	…
//	"components":[],
//	"idempotencyKeys":[]}
//
// The caller opens the top-level lists in Document order; the Writer only
// lays the pieces out. Errors are sticky: the first one is returned by every
// later call and by Close.
type Writer struct {
	bw    *bufio.Writer
	buf   bytes.Buffer
	enc   *json.Encoder
	err   error
	stack []frame
}

type frame struct {
	list      bool // a list (else an object)
	multiline bool // a list whose elements each start on a new line
	top       bool // the document object
	n         int  // elements written so far
}

// NewWriter returns a Writer on w and writes the document's opening (format
// and version).
func NewWriter(w io.Writer) *Writer {
	dw := &Writer{bw: bufio.NewWriterSize(w, 64<<10)}
	dw.enc = json.NewEncoder(&dw.buf)
	dw.enc.SetEscapeHTML(false)
	dw.write(fmt.Sprintf(`{"format":%q,"version":%d`, Format, Version))
	dw.stack = append(dw.stack, frame{top: true})
	return dw
}

func (w *Writer) write(s string) {
	if w.err == nil {
		_, w.err = w.bw.WriteString(s)
	}
}

// marshal encodes v into w.buf without the encoder's trailing newline.
func (w *Writer) marshal(v any) []byte {
	w.buf.Reset()
	if err := w.enc.Encode(v); err != nil && w.err == nil {
		w.err = err
	}
	return bytes.TrimSuffix(w.buf.Bytes(), []byte{'\n'})
}

func (w *Writer) top() *frame {
	if len(w.stack) == 0 {
		if w.err == nil {
			w.err = errors.New("dataset writer: write after Close")
		}
		return &frame{}
	}
	return &w.stack[len(w.stack)-1]
}

// separator writes what comes before the next element of the current list.
func (w *Writer) separator() {
	f := w.top()
	if !f.list && w.err == nil {
		w.err = errors.New("dataset writer: element outside a list")
	}
	switch {
	case f.n > 0 && f.multiline:
		w.write(",\n")
	case f.n > 0:
		w.write(",")
	case f.multiline:
		w.write("\n")
	}
	f.n++
}

// OpenList starts the list field name of the current object: a top-level
// list of the document, or a list of the record opened with OpenRecord.
// multiline puts each element on its own line.
func (w *Writer) OpenList(name string, multiline bool) {
	f := w.top()
	if f.list && w.err == nil {
		w.err = errors.New("dataset writer: list field inside a list")
	}
	if f.top {
		w.write(",\n")
	} else {
		w.write(",")
	}
	w.write(fmt.Sprintf("%q:[", name))
	w.stack = append(w.stack, frame{list: true, multiline: multiline})
}

// CloseList ends the current list.
func (w *Writer) CloseList() {
	f := w.top()
	if !f.list && w.err == nil {
		w.err = errors.New("dataset writer: CloseList outside a list")
	}
	if f.multiline && f.n > 0 {
		w.write("\n]")
	} else {
		w.write("]")
	}
	w.stack = w.stack[:len(w.stack)-1]
}

// Element writes v, a whole element, into the current list.
func (w *Writer) Element(v any) {
	w.separator()
	b := w.marshal(v)
	if w.err == nil {
		_, w.err = w.bw.Write(b)
	}
}

// OpenRecord starts an element of the current list whose leading fields are
// head (a SnapshotHead or CoverageHead); its list fields follow with
// OpenList, then CloseRecord ends it.
func (w *Writer) OpenRecord(head any) {
	w.separator()
	b := w.marshal(head)
	if len(b) < 2 || b[len(b)-1] != '}' || string(b) == "{}" {
		if w.err == nil {
			w.err = fmt.Errorf("dataset writer: record head %T is not a non-empty object", head)
		}
		return
	}
	if w.err == nil {
		_, w.err = w.bw.Write(b[:len(b)-1])
	}
	w.stack = append(w.stack, frame{})
}

// CloseRecord ends the record opened by OpenRecord.
func (w *Writer) CloseRecord() {
	f := w.top()
	if (f.list || f.top) && w.err == nil {
		w.err = errors.New("dataset writer: CloseRecord outside a record")
	}
	w.write("}")
	w.stack = w.stack[:len(w.stack)-1]
}

// Close ends the document and flushes it.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if len(w.stack) != 1 || !w.stack[0].top {
		return errors.New("dataset writer: Close with a list or record still open")
	}
	w.write("}\n")
	w.stack = nil
	if w.err == nil {
		w.err = w.bw.Flush()
	}
	return w.err
}

// Err returns the first error of the Writer.
func (w *Writer) Err() error { return w.err }

// WriteSnapshot writes one snapshot as a record of the current list.
func (w *Writer) WriteSnapshot(s *Snapshot) {
	w.OpenRecord(s.Head())
	w.OpenList("files", true)
	for i := range s.Files {
		w.Element(&s.Files[i])
	}
	w.CloseList()
	w.OpenList("removed", false)
	for _, p := range s.Removed {
		w.Element(p)
	}
	w.CloseList()
	w.OpenList("issues", true)
	for i := range s.Issues {
		w.Element(&s.Issues[i])
	}
	w.CloseList()
	w.CloseRecord()
}

// WriteCoverage writes one coverage upload as a record of the current list.
func (w *Writer) WriteCoverage(c *Coverage) {
	w.OpenRecord(c.Head())
	w.OpenList("files", true)
	for i := range c.Files {
		f := &c.Files[i]
		if f.Hits == nil {
			f = &CoverageFile{Path: f.Path, Hits: []int64{}}
		}
		w.Element(f)
	}
	w.CloseList()
	w.CloseRecord()
}

// Encode writes doc, as it is (no sorting), in the canonical layout. A nil
// list is written as [].
func Encode(out io.Writer, doc *Document) error {
	w := NewWriter(out)
	list := func(name string, n int, each func(i int)) {
		w.OpenList(name, true)
		for i := 0; i < n; i++ {
			each(i)
		}
		w.CloseList()
	}
	list("users", len(doc.Users), func(i int) { w.Element(&doc.Users[i]) })
	list("tokens", len(doc.Tokens), func(i int) { w.Element(&doc.Tokens[i]) })
	list("workspaces", len(doc.Workspaces), func(i int) {
		ws := doc.Workspaces[i]
		if ws.Members == nil {
			ws.Members = []Member{}
		}
		w.Element(&ws)
	})
	list("projects", len(doc.Projects), func(i int) {
		p := doc.Projects[i]
		if p.AdminIDs == nil {
			p.AdminIDs = []string{}
		}
		w.Element(&p)
	})
	list("uploadTokens", len(doc.UploadTokens), func(i int) { w.Element(&doc.UploadTokens[i]) })
	list("applications", len(doc.Applications), func(i int) {
		a := doc.Applications[i]
		if a.ProjectIDs == nil {
			a.ProjectIDs = []string{}
		}
		w.Element(&a)
	})
	list("builds", len(doc.Builds), func(i int) { w.Element(&doc.Builds[i]) })
	list("buildEvents", len(doc.BuildEvents), func(i int) { w.Element(&doc.BuildEvents[i]) })
	list("snapshots", len(doc.Snapshots), func(i int) { w.WriteSnapshot(&doc.Snapshots[i]) })
	list("issueStates", len(doc.IssueStates), func(i int) { w.Element(&doc.IssueStates[i]) })
	list("coverage", len(doc.Coverage), func(i int) { w.WriteCoverage(&doc.Coverage[i]) })
	list("components", len(doc.Components), func(i int) {
		c := doc.Components[i]
		if c.PathGlobs == nil {
			c.PathGlobs = []string{}
		}
		w.Element(&c)
	})
	list("idempotencyKeys", len(doc.IdempotencyKeys), func(i int) { w.Element(&doc.IdempotencyKeys[i]) })
	return w.Close()
}

// Decode reads a document and checks its format and version. Unknown fields
// are errors, so a misspelt field in a hand-written fixture is not silently
// dropped.
func Decode(r io.Reader) (*Document, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.DisallowUnknownFields()
	var doc Document
	if err := dec.Decode(&doc); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, fmt.Errorf("the dataset is not valid JSON: %v (at byte %d)", syn, syn.Offset)
		case errors.As(err, &typ):
			return nil, fmt.Errorf("the dataset does not have the dataset's shape: %s has a JSON %s where %s belongs (at byte %d)",
				typ.Field, typ.Value, typ.Type, typ.Offset)
		case errors.Is(err, io.EOF):
			return nil, errors.New("the dataset is empty")
		}
		return nil, fmt.Errorf("the dataset cannot be read: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("the dataset has data after the end of the document")
	}
	if doc.Format != Format {
		return nil, fmt.Errorf("format %q is not %q: this is not a Plumb dataset", doc.Format, Format)
	}
	if doc.Version < MinVersion || doc.Version > Version {
		return nil, fmt.Errorf("version %d is not supported; this Plumb reads versions %d to %d", doc.Version, MinVersion, Version)
	}
	return &doc, nil
}

// Summary counts the records of a document, for people.
func (d *Document) Summary() string {
	issues := 0
	for i := range d.Snapshots {
		issues += len(d.Snapshots[i].Issues)
	}
	members := 0
	for i := range d.Workspaces {
		members += len(d.Workspaces[i].Members)
	}
	return fmt.Sprintf("%d users, %d tokens, %d workspaces (%d members), %d projects, %d upload tokens, %d applications, "+
		"%d builds (%d build events), %d snapshots (%d issues), %d issue states, %d coverage uploads, %d components, "+
		"%d idempotency keys",
		len(d.Users), len(d.Tokens), len(d.Workspaces), members, len(d.Projects), len(d.UploadTokens), len(d.Applications),
		len(d.Builds), len(d.BuildEvents), len(d.Snapshots), issues, len(d.IssueStates), len(d.Coverage), len(d.Components),
		len(d.IdempotencyKeys))
}

// measuredTree is the tree of one default-branch measurement.
type measuredTree struct {
	at    time.Time
	files map[string]File
}

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
	d.Users = cloneSlice(in.Users)
	for i := range d.Users {
		d.Users[i].CreatedAt = utc(d.Users[i].CreatedAt)
		if d.Users[i].UpdatedAt.IsZero() {
			d.Users[i].UpdatedAt = d.Users[i].CreatedAt
		}
		d.Users[i].UpdatedAt = utc(d.Users[i].UpdatedAt)
		d.Users[i].DisabledAt = utcPtr(d.Users[i].DisabledAt)
	}
	sort.SliceStable(d.Users, func(i, j int) bool {
		return lessTimeID(d.Users[i].CreatedAt, d.Users[i].ID, d.Users[j].CreatedAt, d.Users[j].ID)
	})
	d.Tokens = cloneSlice(in.Tokens)
	for i := range d.Tokens {
		t := &d.Tokens[i]
		if t.Token != "" {
			t.Hash, t.Token = plumb.HashToken(t.Token), ""
		}
		t.CreatedAt, t.LastUsedAt, t.RevokedAt = utc(t.CreatedAt), utcPtr(t.LastUsedAt), utcPtr(t.RevokedAt)
	}
	sort.SliceStable(d.Tokens, func(i, j int) bool {
		return lessTimeID(d.Tokens[i].CreatedAt, d.Tokens[i].ID, d.Tokens[j].CreatedAt, d.Tokens[j].ID)
	})
	d.Workspaces = cloneSlice(in.Workspaces)
	for i := range d.Workspaces {
		w := &d.Workspaces[i]
		w.CreatedAt, w.UpdatedAt = utc(w.CreatedAt), utc(w.UpdatedAt)
		w.Members = cloneSlice(w.Members)
		sort.SliceStable(w.Members, func(i, j int) bool { return w.Members[i].UserID < w.Members[j].UserID })
	}
	sort.SliceStable(d.Workspaces, func(i, j int) bool {
		return lessName(d.Workspaces[i].Key, d.Workspaces[i].ID, d.Workspaces[j].Key, d.Workspaces[j].ID)
	})
	wsOrder := map[string]int{}
	for i, w := range d.Workspaces {
		wsOrder[w.ID] = i
	}
	d.Projects = cloneSlice(in.Projects)
	for i := range d.Projects {
		p := &d.Projects[i]
		p.CreatedAt, p.UpdatedAt = utc(p.CreatedAt), utc(p.UpdatedAt)
		p.AdminIDs = sortedStrings(p.AdminIDs)
	}
	sort.SliceStable(d.Projects, func(i, j int) bool {
		a, b := d.Projects[i], d.Projects[j]
		if wsOrder[a.WorkspaceID] != wsOrder[b.WorkspaceID] {
			return wsOrder[a.WorkspaceID] < wsOrder[b.WorkspaceID]
		}
		return lessName(a.Key, a.ID, b.Key, b.ID)
	})
	projOrder := map[string]int{}
	defaultBranch := map[string]string{}
	for i, p := range d.Projects {
		projOrder[p.ID] = i
		defaultBranch[p.ID] = p.DefaultBranch
	}
	d.UploadTokens = cloneSlice(in.UploadTokens)
	for i := range d.UploadTokens {
		t := &d.UploadTokens[i]
		if t.Token != "" {
			t.Hash, t.Token = plumb.HashToken(t.Token), ""
		}
		t.CreatedAt, t.LastUsedAt, t.RevokedAt = utc(t.CreatedAt), utcPtr(t.LastUsedAt), utcPtr(t.RevokedAt)
	}
	sort.SliceStable(d.UploadTokens, func(i, j int) bool {
		a, b := d.UploadTokens[i], d.UploadTokens[j]
		if projOrder[a.ProjectID] != projOrder[b.ProjectID] {
			return projOrder[a.ProjectID] < projOrder[b.ProjectID]
		}
		return lessTimeID(a.CreatedAt, a.ID, b.CreatedAt, b.ID)
	})
	d.Applications = cloneSlice(in.Applications)
	for i := range d.Applications {
		a := &d.Applications[i]
		a.CreatedAt = utc(a.CreatedAt)
		a.ProjectIDs = sortedStrings(a.ProjectIDs)
	}
	sort.SliceStable(d.Applications, func(i, j int) bool {
		a, b := d.Applications[i], d.Applications[j]
		if wsOrder[a.WorkspaceID] != wsOrder[b.WorkspaceID] {
			return wsOrder[a.WorkspaceID] < wsOrder[b.WorkspaceID]
		}
		return lessName(a.Name, a.ID, b.Name, b.ID)
	})
	d.Builds = cloneSlice(in.Builds)
	for i := range d.Builds {
		b := &d.Builds[i]
		b.SubmittedAt, b.StartedAt, b.FinishedAt = utc(b.SubmittedAt), utcPtr(b.StartedAt), utcPtr(b.FinishedAt)
	}
	sort.SliceStable(d.Builds, func(i, j int) bool {
		a, b := d.Builds[i], d.Builds[j]
		if projOrder[a.ProjectID] != projOrder[b.ProjectID] {
			return projOrder[a.ProjectID] < projOrder[b.ProjectID]
		}
		return lessTimeID(a.SubmittedAt, a.ID, b.SubmittedAt, b.ID)
	})
	buildOrder := map[string]int{}
	for i, b := range d.Builds {
		buildOrder[b.ID] = i
	}
	d.BuildEvents = cloneSlice(in.BuildEvents)
	for i := range d.BuildEvents {
		d.BuildEvents[i].At = utc(d.BuildEvents[i].At)
	}
	sort.SliceStable(d.BuildEvents, func(i, j int) bool {
		a, b := d.BuildEvents[i], d.BuildEvents[j]
		if buildOrder[a.BuildID] != buildOrder[b.BuildID] {
			return buildOrder[a.BuildID] < buildOrder[b.BuildID]
		}
		return a.Seq < b.Seq
	})

	// Snapshots: replay each project's default branch to keep only changes.
	type tree struct {
		files  map[string]File
		latest time.Time
		any    bool
		// history: the trees of the measurements so far, by time, for
		// snapshots that arrive after a newer one (their tree is written
		// whole, with fullTree).
		history []measuredTree
	}
	trees := map[string]*tree{}
	d.Snapshots = make([]Snapshot, len(in.Snapshots))
	for i := range in.Snapshots {
		s := in.Snapshots[i]
		s.AnalyzedAt = utc(s.AnalyzedAt)
		s.Issues = cloneSlice(s.Issues)
		for j := range s.Issues {
			if s.Issues[j].Status == "" {
				s.Issues[j].Status = "open"
			}
		}
		SortIssues(s.Issues)
		t := trees[s.ProjectID]
		if t == nil {
			t = &tree{files: map[string]File{}}
			trees[s.ProjectID] = t
		}
		files, removed := []File{}, []string{}
		if s.Branch == defaultBranch[s.ProjectID] && (!t.any || !s.AnalyzedAt.Before(t.latest)) {
			t.any, t.latest = true, s.AnalyzedAt
			listed := map[string]bool{}
			for _, f := range s.Files {
				listed[f.Path] = true
			}
			for _, p := range s.Removed {
				if _, ok := t.files[p]; ok && !listed[p] {
					removed = append(removed, p)
					delete(t.files, p)
				}
			}
			for _, f := range s.Files {
				if old, ok := t.files[f.Path]; !ok || old != f {
					files = append(files, f)
					t.files[f.Path] = f
				}
			}
			sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
			sort.Strings(removed)
			t.history = append(t.history, measuredTree{s.AnalyzedAt, maps.Clone(t.files)})
			s.FullTree = false
		} else if s.Branch == defaultBranch[s.ProjectID] {
			// Older than the project's latest: in the history at its time,
			// its tree that of the measurement before it with its changes
			// (or its own files, for a full tree).
			pos := 0
			for pos < len(t.history) && !t.history[pos].at.After(s.AnalyzedAt) {
				pos++
			}
			whole := map[string]File{}
			if !s.FullTree && pos > 0 {
				whole = maps.Clone(t.history[pos-1].files)
			}
			for _, p := range s.Removed {
				delete(whole, p)
			}
			for _, f := range s.Files {
				whole[f.Path] = f
			}
			t.history = slices.Insert(t.history, pos, measuredTree{s.AnalyzedAt, whole})
			for _, f := range whole {
				files = append(files, f)
			}
			sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
			s.FullTree = true
		} else {
			s.FullTree = false
		}
		s.Files, s.Removed = files, removed
		d.Snapshots[i] = s
	}

	// Issue states: importing a snapshot's issues records each issue's status
	// as its fingerprint's state (the last one listed wins); the document's
	// issueStates override those.
	type fpKey struct{ project, fingerprint string }
	state := map[fpKey]string{}
	for _, s := range d.Snapshots {
		for _, is := range s.Issues {
			state[fpKey{s.ProjectID, is.Fingerprint}] = is.Status
		}
	}
	for _, st := range in.IssueStates {
		state[fpKey{st.ProjectID, st.Fingerprint}] = st.Status
	}
	d.IssueStates = make([]IssueState, 0, len(state))
	for k, st := range state {
		d.IssueStates = append(d.IssueStates, IssueState{ProjectID: k.project, Fingerprint: k.fingerprint, Status: st})
	}
	sort.SliceStable(d.IssueStates, func(i, j int) bool {
		a, b := d.IssueStates[i], d.IssueStates[j]
		if projOrder[a.ProjectID] != projOrder[b.ProjectID] {
			return projOrder[a.ProjectID] < projOrder[b.ProjectID]
		}
		return a.Fingerprint < b.Fingerprint
	})

	// Coverage: merge each (project, commit, tag) into its first upload.
	type key struct{ project, commit, tag string }
	first := map[key]int{}
	merged := map[int]map[string][]int64{}
	d.Coverage = make([]Coverage, len(in.Coverage))
	for i := range in.Coverage {
		c := in.Coverage[i]
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
		}
		for _, f := range c.Files {
			merged[at][f.Path] = plumb.MergeHits(merged[at][f.Path], f.Hits)
		}
		c.Files = []CoverageFile{}
		d.Coverage[i] = c
	}
	for i, files := range merged {
		paths := make([]string, 0, len(files))
		for p := range files {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			h := files[p]
			if h == nil {
				h = []int64{}
			}
			d.Coverage[i].Files = append(d.Coverage[i].Files, CoverageFile{Path: p, Hits: h})
		}
	}

	d.Components = cloneSlice(in.Components)
	for i := range d.Components {
		c := &d.Components[i]
		c.CreatedAt, c.UpdatedAt = utc(c.CreatedAt), utc(c.UpdatedAt)
		c.PathGlobs = cloneSlice(c.PathGlobs)
	}
	sort.SliceStable(d.Components, func(i, j int) bool {
		a, b := d.Components[i], d.Components[j]
		if projOrder[a.ProjectID] != projOrder[b.ProjectID] {
			return projOrder[a.ProjectID] < projOrder[b.ProjectID]
		}
		return lessName(a.Name, a.ID, b.Name, b.ID)
	})

	d.IdempotencyKeys = cloneSlice(in.IdempotencyKeys)
	for i := range d.IdempotencyKeys {
		d.IdempotencyKeys[i].CreatedAt = utc(d.IdempotencyKeys[i].CreatedAt)
	}
	sort.SliceStable(d.IdempotencyKeys, func(i, j int) bool {
		a, b := d.IdempotencyKeys[i], d.IdempotencyKeys[j]
		if projOrder[a.ProjectID] != projOrder[b.ProjectID] {
			return projOrder[a.ProjectID] < projOrder[b.ProjectID]
		}
		return a.Key < b.Key
	})
	return d
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
