// Package demo builds Plumb's demo dataset: a realistic, deterministic
// installation (users, workspaces, projects, a year of analyses, issues,
// builds, coverage and components) that `plumb demo` imports into a fresh
// database, so that every endpoint of the API has real-looking data behind it.
//
// Generate derives everything from a fixed seed and from the time it is given:
// the same inputs give the same document, byte for byte once marshalled.
//
// What the demo user sees: the workspaces acme (admin) and globex (member),
// not initech. In acme, Applications are enabled and the two big projects,
// web-shop and payments-api, have Components enabled, a year of analyses,
// a feature branch (web-shop) and coverage, including the release tag v1.4.0.
//
// The history is a project's: every analysis carries the issues open at it
// (issues appear one by one and some are fixed along the way), files that
// arrive after the first analysis land in parts and grow, and a file's
// coverage changes only as the file and its tests do, so every metric's
// series changes gradually over the year (TestHistoryHasNoCliff). Analyses
// of the big projects come every 8 to 13 days: each carries its issues, so
// their number is what bounds the demo's size and load time.
package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/plumbhq/plumb/dataset"
)

// The fixed seed of every random stream of the demo. Each part of the
// document draws its content from its own stream (seed2 is mixed with the
// part's name), so that changing one part leaves the content of the others
// as it was; the random bits of IDs come from one shared stream, in the order
// the records are made.
const (
	seed1 uint64 = 0x706c756d62646d6f // "plumbdmo"
	seed2 uint64 = 0x2026_0301_1234_5678
)

// Logins of the demo's users. DemoLogin is the user whose token Generate is
// given.
const (
	DemoLogin = "demo"
	DemoName  = "Demo User"
)

// Generate returns the demo dataset as of now. token is the plaintext API
// token of the demo user; it is carried in the document's Token field (never
// hashed here), so that an import stores only its hash.
//
// The result depends only on now (truncated to the second, in UTC) and token.
func Generate(now time.Time, token string) dataset.Document {
	g := &generator{
		now:   now.UTC().Truncate(time.Second),
		ids:   newStream("ids"),
		users: map[string]string{},
	}
	g.doc = dataset.Document{
		Format:       dataset.Format,
		Version:      dataset.Version,
		Users:        []dataset.User{},
		Tokens:       []dataset.Token{},
		Workspaces:   []dataset.Workspace{},
		Projects:     []dataset.Project{},
		UploadTokens: []dataset.UploadToken{},
		Applications: []dataset.Application{},
		Builds:       []dataset.Build{},
		BuildEvents:  []dataset.BuildEvent{},
		Snapshots:    []dataset.Snapshot{},
		IssueStates:  []dataset.IssueState{},
		Coverage:     []dataset.Coverage{},
		Components:   []dataset.Component{},
		// Idempotency keys live for a day; the demo has no uploads in flight.
		IdempotencyKeys: []dataset.IdempotencyKey{},
		SourceBlobs:     []dataset.SourceBlob{},
		SourceCommits:   []dataset.SourceCommit{},
	}
	g.addUsers(token)
	g.addWorkspaces()
	for _, def := range projectOrder() {
		g.addProject(def)
	}
	g.addApplications()
	g.addPullCoverage()
	g.sortRecords()
	return g.doc
}

// projectOrder returns the projects in the dataset's canonical order: by
// workspace (in key order), then key. Every per-project list is generated in
// that order, so it comes out canonical too.
func projectOrder() []*projectDef {
	wsIndex := map[string]int{}
	keys := make([]string, len(workspaceDefs))
	for i, w := range workspaceDefs {
		keys[i] = w.key
	}
	sort.Slice(keys, func(i, j int) bool { return dataset.LessName(keys[i], keys[j]) })
	for i, k := range keys {
		wsIndex[k] = i
	}
	defs := make([]*projectDef, len(projectDefs))
	for i := range projectDefs {
		defs[i] = &projectDefs[i]
	}
	sort.SliceStable(defs, func(i, j int) bool {
		a, b := defs[i], defs[j]
		if wsIndex[a.workspace] != wsIndex[b.workspace] {
			return wsIndex[a.workspace] < wsIndex[b.workspace]
		}
		return dataset.LessName(a.key, b.key)
	})
	return defs
}

// sortRecords puts the small lists in the order dataset.Canonical gives
// them, so that importing the demo and exporting it again changes nothing
// but the demo token, which an export carries as a hash.
func (g *generator) sortRecords() {
	d := &g.doc
	byTimeID := func(a time.Time, aID string, b time.Time, bID string) bool {
		if !a.Equal(b) {
			return a.Before(b)
		}
		return aID < bID
	}
	byNameID := func(a, aID, b, bID string) bool {
		if a != b {
			return dataset.LessName(a, b)
		}
		return aID < bID
	}
	sort.SliceStable(d.Users, func(i, j int) bool {
		return byTimeID(d.Users[i].CreatedAt, d.Users[i].ID, d.Users[j].CreatedAt, d.Users[j].ID)
	})
	sort.SliceStable(d.Tokens, func(i, j int) bool {
		return byTimeID(d.Tokens[i].CreatedAt, d.Tokens[i].ID, d.Tokens[j].CreatedAt, d.Tokens[j].ID)
	})
	sort.SliceStable(d.Workspaces, func(i, j int) bool {
		return byNameID(d.Workspaces[i].Key, d.Workspaces[i].ID, d.Workspaces[j].Key, d.Workspaces[j].ID)
	})
	for _, w := range d.Workspaces {
		sort.SliceStable(w.Members, func(i, j int) bool { return w.Members[i].UserID < w.Members[j].UserID })
	}
	for _, p := range d.Projects {
		sort.Strings(p.AdminIDs)
	}
	// Applications all belong to acme.
	sort.SliceStable(d.Applications, func(i, j int) bool {
		return byNameID(d.Applications[i].Name, d.Applications[i].ID, d.Applications[j].Name, d.Applications[j].ID)
	})
	for _, a := range d.Applications {
		sort.Strings(a.ProjectIDs)
	}
}

// generator holds the document being built.
type generator struct {
	now   time.Time
	ids   *rand.Rand        // the stream every ID's random bits come from
	doc   dataset.Document  // the result
	users map[string]string // login → user ID
	ws    map[string]string // workspace key → ID
	projs map[string]string // project key → ID
}

// newStream returns the random stream of one part of the document.
func newStream(parts ...string) *rand.Rand {
	return rand.New(rand.NewPCG(seed1, seed2^hashString(parts...)))
}

// hashString is a stable 64-bit hash of parts.
func hashString(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// unitHash maps parts to a stable number in [0, 1): per-path traits that must
// not depend on the order in which things are generated.
func unitHash(parts ...string) float64 {
	return float64(hashString(parts...)>>11) / (1 << 53)
}

// newID returns a UUIDv7 in canonical text form for a record made at t: the
// 48-bit Unix millisecond timestamp, then the version, 12 random bits, the
// RFC 9562 variant and 62 random bits.
func (g *generator) newID(t time.Time) string {
	var b [16]byte
	ms := uint64(t.UnixMilli())
	for i := 0; i < 6; i++ {
		b[i] = byte(ms >> (40 - 8*i))
	}
	ra, rb := g.ids.Uint64(), g.ids.Uint64()
	b[6] = 0x70 | byte(ra>>8)&0x0f
	b[7] = byte(ra)
	b[8] = 0x80 | byte(rb>>56)&0x3f
	for i := 9; i < 16; i++ {
		b[i] = byte(rb >> (8 * (15 - i)))
	}
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:36], b[10:16])
	return string(s[:])
}

// sha40 returns a random 40-hex commit SHA.
func sha40(r *rand.Rand) string {
	var b [20]byte
	for i := 0; i < 20; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < 20; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return hex.EncodeToString(b[:])
}

// between returns a whole-second time uniformly in [a, b].
func between(r *rand.Rand, a, b time.Time) time.Time {
	if !b.After(a) {
		return a
	}
	return a.Add(time.Duration(r.Int64N(int64(b.Sub(a)/time.Second)+1)) * time.Second)
}

// secs returns a duration of a whole number of seconds in [lo, hi].
func secs(r *rand.Rand, lo, hi int) time.Duration {
	return time.Duration(lo+r.IntN(hi-lo+1)) * time.Second
}

const day = 24 * time.Hour

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// userDef is one of the demo's users.
type userDef struct {
	login, name string
	daysAgo     int
	tokens      []tokenDef
}

// tokenDef is a token of a user other than the demo user.
type tokenDef struct {
	name           string
	daysAgo        int
	usedHoursAgo   int // 0: never used
	revokedDaysAgo int // 0: not revoked
}

var userDefs = []userDef{
	{login: DemoLogin, name: DemoName, daysAgo: 420},
	{login: "ada", name: "Ada Lovelace", daysAgo: 410, tokens: []tokenDef{
		{name: "github-actions", daysAgo: 380, usedHoursAgo: 2},
		{name: "laptop", daysAgo: 120, usedHoursAgo: 30},
	}},
	{login: "linus", name: "Linus Torvalds", daysAgo: 395, tokens: []tokenDef{
		{name: "ci", daysAgo: 300, usedHoursAgo: 5},
		{name: "old-ci", daysAgo: 390, usedHoursAgo: 24 * 301, revokedDaysAgo: 299},
	}},
	{login: "grace", name: "Grace Hopper", daysAgo: 388, tokens: []tokenDef{
		{name: "reporting", daysAgo: 200, usedHoursAgo: 50},
	}},
	{login: "margaret", name: "Margaret Hamilton", daysAgo: 370, tokens: []tokenDef{
		{name: "pipeline", daysAgo: 150},
	}},
}

// addUsers adds the users and their tokens. Only the demo user's token is
// plaintext; the others are hashes of secrets nobody knows.
func (g *generator) addUsers(token string) {
	r := newStream("users")
	for _, u := range userDefs {
		created := g.now.Add(-time.Duration(u.daysAgo)*day - secs(r, 0, 86399))
		id := g.newID(created)
		g.users[u.login] = id
		// Profiles as a code host gives them, so GET /user answers as for a
		// real sign-in: example.com addresses, GitHub avatar and profile URLs.
		g.doc.Users = append(g.doc.Users, dataset.User{ID: id, Login: u.login, Name: u.name,
			Email: u.login + "@example.com", AvatarURL: "https://github.com/" + u.login + ".png",
			ProviderURL: "https://github.com/" + u.login, CreatedAt: created, UpdatedAt: created})
		if u.login == DemoLogin {
			at := created.Add(secs(r, 60, 3600))
			g.doc.Tokens = append(g.doc.Tokens, dataset.Token{
				ID: g.newID(at), UserID: id, Name: "demo", Token: token, CreatedAt: at,
			})
			continue
		}
		for _, td := range u.tokens {
			at := g.now.Add(-time.Duration(td.daysAgo)*day - secs(r, 0, 86399))
			t := dataset.Token{ID: g.newID(at), UserID: id, Name: td.name, Hash: hashSecret(tokenSecret(r)), CreatedAt: at}
			if td.usedHoursAgo > 0 {
				t.LastUsedAt = ptr(g.now.Add(-time.Duration(td.usedHoursAgo)*time.Hour - secs(r, 0, 3599)))
			}
			if td.revokedDaysAgo > 0 {
				t.RevokedAt = ptr(g.now.Add(-time.Duration(td.revokedDaysAgo)*day - secs(r, 0, 86399)))
			}
			g.doc.Tokens = append(g.doc.Tokens, t)
		}
	}
}

// tokenSecret returns a secret shaped like the ones Plumb issues.
func tokenSecret(r *rand.Rand) string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	b.WriteString("plb_")
	for i := 0; i < 40; i++ {
		b.WriteByte(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// hashSecret is the hex SHA-256 of a token secret, the form Plumb stores.
func hashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// workspaceDef is one of the demo's workspaces.
type workspaceDef struct {
	key          string
	daysAgo      int
	applications bool
	members      []dataset.Member // by login, resolved on add
}

var workspaceDefs = []workspaceDef{
	{key: "acme", daysAgo: 400, applications: true, members: []dataset.Member{
		{UserID: DemoLogin, Role: "admin"}, {UserID: "ada", Role: "admin"},
		{UserID: "linus", Role: "member"}, {UserID: "grace", Role: "member"},
	}},
	{key: "globex", daysAgo: 360, members: []dataset.Member{
		{UserID: "margaret", Role: "admin"}, {UserID: DemoLogin, Role: "member"},
		{UserID: "linus", Role: "member"},
	}},
	{key: "initech", daysAgo: 340, members: []dataset.Member{
		{UserID: "grace", Role: "admin"}, {UserID: "margaret", Role: "member"},
	}},
}

func (g *generator) addWorkspaces() {
	r := newStream("workspaces")
	g.ws = map[string]string{}
	for _, w := range workspaceDefs {
		created := g.now.Add(-time.Duration(w.daysAgo)*day - secs(r, 0, 86399))
		updated := between(r, created, g.now.Add(-30*day))
		id := g.newID(created)
		g.ws[w.key] = id
		members := make([]dataset.Member, len(w.members))
		for i, m := range w.members {
			members[i] = dataset.Member{UserID: g.users[m.UserID], Role: m.Role}
		}
		g.doc.Workspaces = append(g.doc.Workspaces, dataset.Workspace{
			ID: id, Key: w.key,
			AvatarURL:           "https://github.com/" + w.key + ".png",
			ProviderURL:         "https://github.com/" + w.key,
			ApplicationsEnabled: w.applications,
			CreatedAt:           created, UpdatedAt: updated,
			Members: members,
		})
	}
}

// applicationDef is one of acme's applications.
type applicationDef struct {
	name, description string
	daysAgo           int
	projects          []string
}

var applicationDefs = []applicationDef{
	{name: "Storefront", description: "Everything a shopper touches: the web shop, its API and its checkout.", daysAgo: 300,
		projects: []string{"web-shop"}},
	{name: "Payments Platform", description: "Card payments, refunds, the ledger and monthly invoicing.", daysAgo: 290,
		projects: []string{"payments-api", "billing-worker"}},
	{name: "Internal Tools", description: "Infrastructure as code and the scripts that keep production running.", daysAgo: 120,
		projects: []string{"infra"}},
}

func (g *generator) addApplications() {
	r := newStream("applications")
	for _, a := range applicationDefs {
		created := g.now.Add(-time.Duration(a.daysAgo)*day - secs(r, 0, 86399))
		ids := make([]string, len(a.projects))
		for i, p := range a.projects {
			ids[i] = g.projs[p]
		}
		g.doc.Applications = append(g.doc.Applications, dataset.Application{
			ID: g.newID(created), WorkspaceID: g.ws["acme"], Name: a.name, Description: a.description,
			CreatedAt: created, ProjectIDs: ids,
		})
	}
}

// lognormal draws a positive integer with the given median and spread,
// clamped to [lo, hi].
func lognormal(r *rand.Rand, median float64, sigma float64, lo, hi int64) int64 {
	v := int64(math.Round(median * math.Exp(sigma*r.NormFloat64())))
	return min(max(v, lo), hi)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
