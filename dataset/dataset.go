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
	"github.com/plumbhq/plumb/compare"
	"io"
	"time"

	"github.com/plumbhq/plumb"
)

// Format and Version identify the document. Version 2 added the users'
// email, avatarUrl, providerUrl and updatedAt; version 3 the sources
// (sourceBlobs, sourceCommits, a project's sourcesDisabled). Older
// documents still read (those fields empty, updatedAt the createdAt).
const (
	Format     = "plumb-dataset"
	Version    = 3
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
	// The sources (docs/sources.md), left out when there are none.
	SourceBlobs   []SourceBlob   `json:"sourceBlobs,omitempty"`
	SourceCommits []SourceCommit `json:"sourceCommits,omitempty"`
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
	// SourcesDisabled: the project keeps no sources (docs/sources.md).
	SourcesDisabled bool `json:"sourcesDisabled,omitempty"`
	// BadgeToken: the project's badge token (docs/web.md, Badges), so that
	// a restored server's badge URLs keep working; nil when it has none.
	BadgeToken *BadgeToken `json:"badgeToken,omitempty"`
	// QualityGate: the project's own quality gate (docs/pull-requests.md);
	// nil while the default gate applies.
	QualityGate *QualityGate `json:"qualityGate,omitempty"`
}

// QualityGate is a project's own quality gate: its conditions as the gate
// API takes them (a null condition is off) and when they were set.
type QualityGate struct {
	Conditions compare.Gate `json:"conditions"`
	UpdatedAt  time.Time    `json:"updatedAt"`
}

// BadgeToken is a project's badge token as stored: the SHA-256 of its
// secret (never the secret), who made it and when.
type BadgeToken struct {
	Hash      string    `json:"hash"`
	CreatedBy string    `json:"createdBy"`
	CreatedAt time.Time `json:"createdAt"`
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
	// Clones are the analysis' duplicated blocks (none for most snapshots:
	// the list is left out when empty).
	Clones []Clone `json:"clones,omitempty"`
}

// Clone is one duplicated block of a snapshot: its two places and its
// length in lines, as the analysis upload gives them.
type Clone struct {
	A     ClonePlace `json:"a"`
	B     ClonePlace `json:"b"`
	Lines int        `json:"lines"`
}

// ClonePlace is lines StartLine to EndLine (1-based, inclusive) of Path.
type ClonePlace struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
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
// coverable, 0 missed, n > 0 hit n times. Branches are the branch figures of
// the lines that have them, in ascending line order (absent when none;
// documents written before branch figures have none).
type CoverageFile struct {
	Path     string               `json:"path"`
	Hits     []int64              `json:"hits"`
	Branches []plumb.LineBranches `json:"branches,omitempty"`
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
	if len(s.Clones) > 0 {
		w.OpenList("clones", true)
		for i := range s.Clones {
			w.Element(&s.Clones[i])
		}
		w.CloseList()
	}
	w.CloseRecord()
}

// WriteCoverage writes one coverage upload as a record of the current list.
func (w *Writer) WriteCoverage(c *Coverage) {
	w.OpenRecord(c.Head())
	w.OpenList("files", true)
	for i := range c.Files {
		f := &c.Files[i]
		if f.Hits == nil {
			f = &CoverageFile{Path: f.Path, Hits: []int64{}, Branches: f.Branches}
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
	if len(doc.SourceBlobs) > 0 || len(doc.SourceCommits) > 0 {
		list("sourceBlobs", len(doc.SourceBlobs), func(i int) { w.Element(&doc.SourceBlobs[i]) })
		list("sourceCommits", len(doc.SourceCommits), func(i int) { w.WriteSourceCommit(&doc.SourceCommits[i]) })
	}
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
	s := fmt.Sprintf("%d users, %d tokens, %d workspaces (%d members), %d projects, %d upload tokens, %d applications, "+
		"%d builds (%d build events), %d snapshots (%d issues), %d issue states, %d coverage uploads, %d components, "+
		"%d idempotency keys",
		len(d.Users), len(d.Tokens), len(d.Workspaces), members, len(d.Projects), len(d.UploadTokens), len(d.Applications),
		len(d.Builds), len(d.BuildEvents), len(d.Snapshots), issues, len(d.IssueStates), len(d.Coverage), len(d.Components),
		len(d.IdempotencyKeys))
	if len(d.SourceBlobs) > 0 || len(d.SourceCommits) > 0 {
		s += fmt.Sprintf(", %d source contents of %d commits", len(d.SourceBlobs), len(d.SourceCommits))
	}
	return s
}
