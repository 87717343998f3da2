package dataset_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	dt "github.com/plumbhq/plumb/dataset/datasettest"
)

func ip(v int) *int             { return &v }
func sp(v string) *string       { return &v }
func tp(v time.Time) *time.Time { return &v }

// Every rule refuses the document with a detail naming the record and the
// field, and only that detail (or the details that follow from it, for a
// changed id). The details are listed exactly as people see them.
func TestValidate(t *testing.T) {
	long := strings.Repeat("x", 101)
	cases := []struct {
		name   string
		mutate func(d *dataset.Document)
		want   []string // substrings of one detail each
	}{
		{"format", func(d *dataset.Document) { d.Format = "other" }, []string{`document: format "other"`}},
		{"version", func(d *dataset.Document) { d.Version = dataset.Version + 1 }, []string{"document: version 4 is not supported"}},
		{"version 0", func(d *dataset.Document) { d.Version = 0 }, []string{"document: version 0 is not supported"}},
		{"user email", func(d *dataset.Document) { d.Users[0].Email = "nope" }, []string{"email \"nope\" is not valid"}},
		{"user avatar", func(d *dataset.Document) { d.Users[1].AvatarURL = "/a.png" }, []string{"avatar URL \"/a.png\" is not valid"}},
		{"user updated before created", func(d *dataset.Document) { d.Users[2].UpdatedAt = d.Users[2].CreatedAt.Add(-time.Second) }, []string{"updatedAt 2026"}},
		{"user id missing", func(d *dataset.Document) { d.Users[0].ID = "" }, []string{"users[0]: id is required",
			`workspaces[0] (id ` + dt.ID(dt.Workspace, 2) + `): members[0]: userId "` + dt.ID(dt.User, 3) + `" is not the id of any of the dataset's users`,
			`projects[1] (id ` + dt.ID(dt.Project, 1) + `): adminIds[1] "` + dt.ID(dt.User, 3) + `" is not the id of any of the dataset's users`}},
		{"user id not uuid", func(d *dataset.Document) { d.Users[0].ID = "u1" }, []string{`users[0] (id u1): id "u1" is not a UUID in lower-case text form`,
			`members[0]: userId "` + dt.ID(dt.User, 3) + `" is not the id`, `adminIds[1] "` + dt.ID(dt.User, 3) + `" is not the id`}},
		{"upper-case uuid", func(d *dataset.Document) {
			d.Snapshots[0].Issues[0].ID = strings.ToUpper("0190000a-0000-7000-8000-0000000000ab")
		},
			[]string{`snapshots[0] (id ` + dt.ID(dt.Snapshot, 1) + `): issues[0] (id 0190000A-0000-7000-8000-0000000000AB): id "0190000A-0000-7000-8000-0000000000AB" is not a UUID in lower-case text form`}},
		{"user id twice", func(d *dataset.Document) { d.Users[1].ID = d.Users[0].ID }, []string{
			"users[1] (id " + dt.ID(dt.User, 3) + "): id is also the id of users[0]",
			`tokens[0] (id ` + dt.ID(dt.Token, 2) + `): userId "` + dt.ID(dt.User, 1) + `" is not the id`,
			`workspaces[0] (id ` + dt.ID(dt.Workspace, 2) + `): members[1]: userId "` + dt.ID(dt.User, 1) + `" is not the id`,
			`workspaces[1] (id ` + dt.ID(dt.Workspace, 1) + `): members[2]: userId "` + dt.ID(dt.User, 1) + `" is not the id`,
			`components[1] (id ` + dt.ID(dt.Component, 2) + `): creatorId "` + dt.ID(dt.User, 1) + `" is not the id`,
			`components[2] (id ` + dt.ID(dt.Component, 1) + `): creatorId "` + dt.ID(dt.User, 1) + `" is not the id`}},
		{"login missing", func(d *dataset.Document) { d.Users[0].Login = " " }, []string{"users[0] (id " + dt.ID(dt.User, 3) + "): login is required"}},
		{"login twice ignoring case", func(d *dataset.Document) { d.Users[0].Login = "ADA" }, []string{`users[1] (id ` + dt.ID(dt.User, 1) + `): login "ada" is also the login of users[0]`}},
		{"user createdAt", func(d *dataset.Document) { d.Users[2].CreatedAt = time.Time{} }, []string{"users[2] (id " + dt.ID(dt.User, 4) + "): createdAt is required"}},
		{"token user", func(d *dataset.Document) { d.Tokens[0].UserID = dt.ID(dt.User, 99) }, []string{`tokens[0] (id ` + dt.ID(dt.Token, 2) + `): userId "` + dt.ID(dt.User, 99) + `" is not the id of any of the dataset's users`}},
		{"token both", func(d *dataset.Document) { d.Tokens[0].Token = "plb_x" }, []string{"tokens[0] (id " + dt.ID(dt.Token, 2) + "): hash and token are both given"}},
		{"token neither", func(d *dataset.Document) { d.Tokens[1].Hash = "" }, []string{"tokens[1] (id " + dt.ID(dt.Token, 1) + "): hash or token is required"}},
		{"token hash", func(d *dataset.Document) { d.Tokens[1].Hash = strings.Repeat("A", 64) }, []string{"tokens[1] (id " + dt.ID(dt.Token, 1) + `): hash "AAAA`}},
		{"token hash twice", func(d *dataset.Document) { d.Tokens[1].Hash = d.Tokens[0].Hash }, []string{"tokens[1] (id " + dt.ID(dt.Token, 1) + "): hash is also the hash of tokens[0]"}},
		{"token name", func(d *dataset.Document) { d.Tokens[1].Name = "" }, []string{"tokens[1] (id " + dt.ID(dt.Token, 1) + "): name is required"}},
		{"workspace key", func(d *dataset.Document) { d.Workspaces[0].Key = "ab" }, []string{"workspaces[0] (id " + dt.ID(dt.Workspace, 2) + "): key: a workspace key must be 3 to 100 characters"}},
		{"workspace key chars", func(d *dataset.Document) { d.Workspaces[0].Key = "a/bc" }, []string{"workspaces[0] (id " + dt.ID(dt.Workspace, 2) + "): key: a workspace key may hold only"}},
		{"workspace key twice", func(d *dataset.Document) { d.Workspaces[0].Key = "ACME" }, []string{`workspaces[1] (id ` + dt.ID(dt.Workspace, 1) + `): key "acme" is also the key of workspaces[0]`}},
		{"member user", func(d *dataset.Document) { d.Workspaces[1].Members[0].UserID = "nobody" }, []string{`workspaces[1] (id ` + dt.ID(dt.Workspace, 1) + `): members[0]: userId "nobody" is not the id`}},
		{"member role", func(d *dataset.Document) { d.Workspaces[1].Members[1].Role = "owner" }, []string{`workspaces[1] (id ` + dt.ID(dt.Workspace, 1) + `): members[1]: role "owner" is not one of member, admin`}},
		{"member twice", func(d *dataset.Document) { d.Workspaces[1].Members[2].UserID = dt.ID(dt.User, 4) }, []string{`members[2]: userId "` + dt.ID(dt.User, 4) + `" is also members[0]`}},
		{"project workspace", func(d *dataset.Document) { d.Projects[0].WorkspaceID = "" }, []string{"projects[0] (id " + dt.ID(dt.Project, 3) + "): workspaceId is required"}},
		{"project key long", func(d *dataset.Document) { d.Projects[0].Key = long }, []string{"projects[0] (id " + dt.ID(dt.Project, 3) + "): key: a project key must be 3 to 100"}},
		{"project key uuid", func(d *dataset.Document) { d.Projects[0].Key = dt.ID(dt.User, 1) }, []string{"projects[0] (id " + dt.ID(dt.Project, 3) + "): key: a project key may not be a UUID"}},
		{"project key twice", func(d *dataset.Document) { d.Projects[2].Key = "WEB" }, []string{`projects[2] (id ` + dt.ID(dt.Project, 2) + `): key "WEB" is also the key of projects[1]`}},
		{"project branch", func(d *dataset.Document) { d.Projects[0].DefaultBranch = "" }, []string{"projects[0] (id " + dt.ID(dt.Project, 3) + "): defaultBranch is required"}},
		{"project admin", func(d *dataset.Document) { d.Projects[1].AdminIDs[1] = "x" }, []string{`projects[1] (id ` + dt.ID(dt.Project, 1) + `): adminIds[1] "x" is not the id`}},
		{"application name", func(d *dataset.Document) { d.Applications[1].Name = "SHOP" }, []string{`applications[1] (id ` + dt.ID(dt.Application, 2) + `): name "SHOP" is also the name of applications[0]`}},
		{"application project", func(d *dataset.Document) { d.Applications[0].ProjectIDs[0] = dt.ID(dt.Project, 3) }, []string{`applications[0] (id ` + dt.ID(dt.Application, 1) + `): projectIds[0] "` + dt.ID(dt.Project, 3) + `" is a project of another workspace`}},
		{"build type", func(d *dataset.Document) { d.Builds[0].Type = "deploy" }, []string{`builds[0] (id ` + dt.ID(dt.Build, 3) + `): type "deploy" is not one of analysis, format, ssh, coverage_setup`}},
		{"build status", func(d *dataset.Document) { d.Builds[3].Status = "done" }, []string{`builds[3] (id ` + dt.ID(dt.Build, 4) + `): status "done" is not one of submitted, starting, running, succeeded, failed, skipped, rejected`}},
		{"build conclusion", func(d *dataset.Document) { d.Builds[0].Conclusion = sp("ok") }, []string{`builds[0] (id ` + dt.ID(dt.Build, 3) + `): conclusion "ok" is not one of succeeded, failed`}},
		{"build sha", func(d *dataset.Document) { d.Builds[1].CommitSHA = " " }, []string{`builds[1] (id ` + dt.ID(dt.Build, 2) + `): commitSha is required`}},
		{"build times", func(d *dataset.Document) { d.Builds[0].StartedAt = tp(dt.T0) }, []string{`builds[0] (id ` + dt.ID(dt.Build, 3) + `): startedAt 2026-01-05T09:00:00Z is before submittedAt`}},
		{"build finish", func(d *dataset.Document) { d.Builds[1].FinishedAt = tp(dt.T0) }, []string{`builds[1] (id ` + dt.ID(dt.Build, 2) + `): finishedAt 2026-01-05T09:00:00Z is before`}},
		{"build submitted", func(d *dataset.Document) { d.Builds[2].SubmittedAt = time.Time{} }, []string{`builds[2] (id ` + dt.ID(dt.Build, 1) + `): submittedAt is required`}},
		{"build snapshot", func(d *dataset.Document) { d.Builds[0].SnapshotID = dt.ID(dt.Snapshot, 7) }, []string{`builds[0] (id ` + dt.ID(dt.Build, 3) + `): snapshotId "` + dt.ID(dt.Snapshot, 7) + `" is a snapshot of another project`}},
		{"build snapshot unknown", func(d *dataset.Document) { d.Builds[0].SnapshotID = dt.ID(dt.Snapshot, 70) }, []string{`snapshotId "` + dt.ID(dt.Snapshot, 70) + `" is not the id`}},
		{"build project", func(d *dataset.Document) { d.Builds[0].ProjectID = dt.ID(dt.Workspace, 1) }, []string{`builds[0] (id ` + dt.ID(dt.Build, 3) + `): projectId "` + dt.ID(dt.Workspace, 1) + `" is not the id of any of the dataset's projects`}},
		{"password in clear", func(d *dataset.Document) { d.Users[1].PasswordHash = "hunter2" }, []string{`passwordHash is not an argon2id hash`}},
		{"snapshot sha", func(d *dataset.Document) { d.Snapshots[0].CommitSHA = "" }, []string{`snapshots[0] (id ` + dt.ID(dt.Snapshot, 1) + `): commitSha is required`}},
		{"snapshot branch", func(d *dataset.Document) { d.Snapshots[0].Branch = "" }, []string{`snapshots[0] (id ` + dt.ID(dt.Snapshot, 1) + `): branch is required`}},
		{"snapshot time", func(d *dataset.Document) { d.Snapshots[1].AnalyzedAt = time.Time{} }, []string{`snapshots[1] (id ` + dt.ID(dt.Snapshot, 2) + `): analyzedAt is required`}},
		{"snapshot id twice", func(d *dataset.Document) { d.Snapshots[1].ID = dt.ID(dt.Snapshot, 1) }, []string{`snapshots[1] (id ` + dt.ID(dt.Snapshot, 1) + `): id is also the id of snapshots[0]`}},
		{"file path", func(d *dataset.Document) { d.Snapshots[0].Files[1].Path = "" }, []string{`snapshots[0] (id ` + dt.ID(dt.Snapshot, 1) + `): files[1]: path is required`}},
		{"file twice", func(d *dataset.Document) { d.Snapshots[0].Files[1].Path = "lib/x.go" }, []string{`files[1]: path "lib/x.go" is also files[0]`}},
		{"file figures", func(d *dataset.Document) { d.Snapshots[0].Files[0].Complexity = -1 }, []string{`snapshots[0] (id ` + dt.ID(dt.Snapshot, 1) + `): files[0]: lines, loc, complexity and duplicatedLines must not be negative`}},
		{"file loc", func(d *dataset.Document) { d.Snapshots[0].Files[0].LOC = 11 }, []string{`files[0]: loc and duplicatedLines must not exceed lines (10)`}},
		{"removed and changed", func(d *dataset.Document) { d.Snapshots[2].Removed = []string{"d.go"} }, []string{`snapshots[2] (id ` + dt.ID(dt.Snapshot, 3) + `): removed[0] "d.go" is also files[0]`}},
		{"files on a branch", func(d *dataset.Document) { d.Snapshots[1].Files = []dataset.File{{Path: "a.go"}} }, []string{`snapshots[1] (id ` + dt.ID(dt.Snapshot, 2) + `): files and removed are kept only for the project's default branch "main"`}},
		{"issue category", func(d *dataset.Document) { d.Snapshots[0].Issues[1].Category = "oops" }, []string{`snapshots[0] (id ` + dt.ID(dt.Snapshot, 1) + `): issues[1] (id ` + dt.ID(dt.Issue, 2) + `): category "oops" is not one of bug,`}},
		{"issue level", func(d *dataset.Document) { d.Snapshots[0].Issues[1].Level = "critical" }, []string{`issues[1] (id ` + dt.ID(dt.Issue, 2) + `): level "critical" is not one of high, medium, low, note, fmt`}},
		{"issue status", func(d *dataset.Document) { d.Snapshots[0].Issues[1].Status = "fixed" }, []string{`issues[1] (id ` + dt.ID(dt.Issue, 2) + `): status "fixed" is not one of open, ignored`}},
		{"issue fingerprint", func(d *dataset.Document) { d.Snapshots[0].Issues[1].Fingerprint = "" }, []string{`issues[1] (id ` + dt.ID(dt.Issue, 2) + `): fingerprint is required`}},
		{"issue lines", func(d *dataset.Document) { d.Snapshots[0].Issues[2].EndLine = ip(1) }, []string{`issues[2] (id ` + dt.ID(dt.Issue, 3) + `): endLine is before startLine`}},
		{"issue id", func(d *dataset.Document) { d.Snapshots[2].Issues[0].ID = dt.ID(dt.Issue, 1) }, []string{`snapshots[2] (id ` + dt.ID(dt.Snapshot, 3) + `): issues[0] (id ` + dt.ID(dt.Issue, 1) + `): id is also the id of an issue of snapshots[0]`}},
		{"issue state status", func(d *dataset.Document) { d.IssueStates[1].Status = "" }, []string{`issueStates[1]: status "" is not one of open, ignored`}},
		{"issue state twice", func(d *dataset.Document) { d.IssueStates[2].Fingerprint = "b1" }, []string{`issueStates[2]: fingerprint "b1" of this project is also issueStates[1]`}},
		{"issue state project", func(d *dataset.Document) { d.IssueStates[0].ProjectID = "p" }, []string{`issueStates[0]: projectId "p" is not the id`}},
		{"coverage sha", func(d *dataset.Document) { d.Coverage[0].CommitSHA = strings.ToUpper(d.Coverage[0].CommitSHA) }, []string{`coverage[0] (id ` + dt.ID(dt.Coverage, 1) + `): commitSha "ABAB`}},
		{"coverage hits", func(d *dataset.Document) { d.Coverage[0].Files[1].Hits[2] = -2 }, []string{`coverage[0] (id ` + dt.ID(dt.Coverage, 1) + `): files[1]: hits[2] is -2; hits are -1 (not coverable), 0 (missed) or a positive count`}},
		{"coverage path", func(d *dataset.Document) { d.Coverage[1].Files[1].Path = "a.go" }, []string{`coverage[1] (id ` + dt.ID(dt.Coverage, 2) + `): files[1]: path "a.go" is also files[0]`}},
		{"coverage time", func(d *dataset.Document) { d.Coverage[1].UploadedAt = time.Time{} }, []string{`coverage[1] (id ` + dt.ID(dt.Coverage, 2) + `): uploadedAt is required`}},
		{"component globs", func(d *dataset.Document) { d.Components[1].PathGlobs = []string{"a,b", ""} }, []string{
			`components[1] (id ` + dt.ID(dt.Component, 2) + `): pathGlobs[0]: path glob "a,b" contains a comma`,
			`components[1] (id ` + dt.ID(dt.Component, 2) + `): pathGlobs[1]: path glob is empty`}},
		{"component no globs", func(d *dataset.Document) { d.Components[0].PathGlobs = nil }, []string{`components[0] (id ` + dt.ID(dt.Component, 3) + `): pathGlobs is empty`}},
		{"component name", func(d *dataset.Document) { d.Components[2].Name = "DOCS" }, []string{`components[2] (id ` + dt.ID(dt.Component, 1) + `): name "DOCS" is also the name of components[1]`}},
		{"component name unicode case", func(d *dataset.Document) { d.Components[1].Name, d.Components[2].Name = "Über", "üBER" },
			[]string{`components[2] (id ` + dt.ID(dt.Component, 1) + `): name "üBER" is also the name of components[1]`}},
		{"component creator", func(d *dataset.Document) { d.Components[2].CreatorID = "" }, []string{`components[2] (id ` + dt.ID(dt.Component, 1) + `): creatorId is required`}},
		{"upload token project missing", func(d *dataset.Document) { d.UploadTokens[0].ProjectID = "" }, []string{`uploadTokens[0] (id ` + dt.ID(dt.UploadToken, 2) + `): projectId is required`}},
		{"upload token project unknown", func(d *dataset.Document) { d.UploadTokens[2].ProjectID = dt.ID(dt.Project, 99) }, []string{`uploadTokens[2] (id ` + dt.ID(dt.UploadToken, 3) + `): projectId "` + dt.ID(dt.Project, 99) + `" is not the id of any of the dataset's projects`}},
		{"upload token id twice", func(d *dataset.Document) { d.UploadTokens[1].ID = dt.ID(dt.UploadToken, 2) }, []string{`uploadTokens[1] (id ` + dt.ID(dt.UploadToken, 2) + `): id is also the id of uploadTokens[0]`}},
		{"upload token both", func(d *dataset.Document) { d.UploadTokens[0].Token = plumb.UploadTokenPrefix + "x" }, []string{`uploadTokens[0] (id ` + dt.ID(dt.UploadToken, 2) + `): hash and token are both given`}},
		{"upload token neither", func(d *dataset.Document) { d.UploadTokens[1].Hash = "" }, []string{`uploadTokens[1] (id ` + dt.ID(dt.UploadToken, 1) + `): hash or token is required`}},
		{"upload token hash", func(d *dataset.Document) { d.UploadTokens[1].Hash = strings.Repeat("d4", 31) }, []string{`uploadTokens[1] (id ` + dt.ID(dt.UploadToken, 1) + `): hash "` + strings.Repeat("d4", 31) + `" is not a SHA-256 (64 lowercase hexadecimal characters)`}},
		{"upload token hash upper-case", func(d *dataset.Document) { d.UploadTokens[1].Hash = strings.Repeat("D4", 32) }, []string{`uploadTokens[1] (id ` + dt.ID(dt.UploadToken, 1) + `): hash "D4D4`}},
		{"upload token hash twice", func(d *dataset.Document) { d.UploadTokens[1].Hash = d.UploadTokens[0].Hash }, []string{`uploadTokens[1] (id ` + dt.ID(dt.UploadToken, 1) + `): hash is also the hash of uploadTokens[0]; every upload token has its own secret`}},
		{"upload token plaintext twice", func(d *dataset.Document) { d.UploadTokens[0].Hash = plumb.HashToken(d.UploadTokens[3].Token) }, []string{`uploadTokens[3] (id ` + dt.ID(dt.UploadToken, 4) + `): hash is also the hash of uploadTokens[0]`}},
		{"upload token prefix", func(d *dataset.Document) { d.UploadTokens[3].Token = "plb_usertoken" }, []string{`uploadTokens[3] (id ` + dt.ID(dt.UploadToken, 4) + `): token does not start with "plbu_"`}},
		{"upload token name", func(d *dataset.Document) { d.UploadTokens[2].Name = " " }, []string{`uploadTokens[2] (id ` + dt.ID(dt.UploadToken, 3) + `): name is required`}},
		{"upload token createdBy", func(d *dataset.Document) { d.UploadTokens[2].CreatedBy = "" }, []string{`uploadTokens[2] (id ` + dt.ID(dt.UploadToken, 3) + `): createdBy is required`}},
		{"upload token createdAt", func(d *dataset.Document) { d.UploadTokens[3].CreatedAt = time.Time{} }, []string{`uploadTokens[3] (id ` + dt.ID(dt.UploadToken, 4) + `): createdAt is required`}},
		{"build event build missing", func(d *dataset.Document) { d.BuildEvents[5].BuildID = "" }, []string{`buildEvents[5]: buildId is required`}},
		{"build event build unknown", func(d *dataset.Document) { d.BuildEvents[6].BuildID = dt.ID(dt.Build, 99) }, []string{`buildEvents[6]: buildId "` + dt.ID(dt.Build, 99) + `" is not the id of any of the dataset's builds`}},
		{"build event seq gap", func(d *dataset.Document) { d.BuildEvents[8].Seq = 4 }, []string{`buildEvents[8]: seq 4 is not 3; the events of build ` + dt.ID(dt.Build, 4) + ` are numbered 1, 2, 3… in the order they are listed`}},
		{"build event seq zero", func(d *dataset.Document) { d.BuildEvents[3].Seq = 0 }, []string{`buildEvents[3]: seq 0 is not 1`}},
		{"build event seq twice", func(d *dataset.Document) { d.BuildEvents[6].Seq = 1 }, []string{`buildEvents[6]: seq 1 is not 2`}},
		{"build events out of order", func(d *dataset.Document) { d.BuildEvents[7], d.BuildEvents[8] = d.BuildEvents[8], d.BuildEvents[7] },
			[]string{`buildEvents[7]: seq 3 is not 2`, `buildEvents[8]: seq 2 is not 4`}},
		{"build event status", func(d *dataset.Document) { d.BuildEvents[1].Status = "done" }, []string{`buildEvents[1]: status "done" is not one of submitted, starting, running, succeeded, failed, skipped, rejected`}},
		{"build event at", func(d *dataset.Document) { d.BuildEvents[4].At = time.Time{} }, []string{`buildEvents[4]: at is required`}},
		{"idempotency key project missing", func(d *dataset.Document) { d.IdempotencyKeys[0].ProjectID = "" }, []string{`idempotencyKeys[0]: projectId is required`}},
		{"idempotency key project unknown", func(d *dataset.Document) { d.IdempotencyKeys[1].ProjectID = dt.ID(dt.Build, 1) }, []string{`idempotencyKeys[1]: projectId "` + dt.ID(dt.Build, 1) + `" is not the id of any of the dataset's projects`}},
		{"idempotency key twice", func(d *dataset.Document) { d.IdempotencyKeys[2].Key = "ci-run-2" }, []string{`idempotencyKeys[2]: key "ci-run-2" of this project is also idempotencyKeys[0]; keys are unique per project`}},
		{"idempotency key missing", func(d *dataset.Document) { d.IdempotencyKeys[2].Key = "" }, []string{`idempotencyKeys[2]: key is required`}},
		{"idempotency request hash", func(d *dataset.Document) { d.IdempotencyKeys[0].RequestHash = "" }, []string{`idempotencyKeys[0]: requestHash is required`}},
		{"idempotency body hash", func(d *dataset.Document) { d.IdempotencyKeys[0].BodyHash = strings.Repeat("E5", 32) },
			[]string{`idempotencyKeys[0]: bodyHash "` + strings.Repeat("E5", 32) + `" is not a SHA-256 (64 lowercase hexadecimal characters) or empty`}},
		{"idempotency status low", func(d *dataset.Document) { d.IdempotencyKeys[0].Status = 99 }, []string{`idempotencyKeys[0]: status 99 is not an HTTP status (100 to 599)`}},
		{"idempotency status high", func(d *dataset.Document) { d.IdempotencyKeys[1].Status = 600 }, []string{`idempotencyKeys[1]: status 600 is not an HTTP status (100 to 599)`}},
		{"idempotency status unfinished", func(d *dataset.Document) { d.IdempotencyKeys[2].Status = 0 }, []string{`idempotencyKeys[2]: status 0 is not an HTTP status`}},
		{"idempotency createdAt", func(d *dataset.Document) { d.IdempotencyKeys[1].CreatedAt = time.Time{} }, []string{`idempotencyKeys[1]: createdAt is required`}},
		{"several problems", func(d *dataset.Document) {
			d.Users[0].Login = ""
			d.Builds[3].Status = "done"
		}, []string{"users[0] (id " + dt.ID(dt.User, 3) + "): login is required", `builds[3] (id ` + dt.ID(dt.Build, 4) + `): status "done"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := dt.Rich()
			c.mutate(doc)
			err := doc.Validate()
			if plumb.ErrorCode(err) != plumb.EINVALID {
				t.Fatalf("err %v, want EINVALID", err)
			}
			details := plumb.ErrorDetails(err)
			for _, want := range c.want {
				if !slices.ContainsFunc(details, func(d string) bool { return strings.Contains(d, want) }) {
					t.Errorf("no detail contains %q; details:\n%s", want, strings.Join(details, "\n"))
				}
			}
			if len(details) != len(c.want) {
				t.Errorf("%d details, want %d:\n%s", len(details), len(c.want), strings.Join(details, "\n"))
			}
		})
	}
}

// The unmodified document is valid (so every case of TestValidate fails for
// its own reason), and so are some variations of it: an idempotency key may
// be used by several projects, an upload token's hash may be a user token's,
// a status may be any HTTP status, and a build's events need not be listed
// together.
func TestValidateAccepts(t *testing.T) {
	if err := dt.Rich().Validate(); err != nil {
		t.Fatalf("Rich is invalid: %v", err)
	}
	doc := dt.Rich()
	doc.IdempotencyKeys[1].Key, doc.IdempotencyKeys[1].Status = "ci-run-2", 599
	doc.IdempotencyKeys[0].Status = 100
	doc.UploadTokens[0].Hash = doc.Tokens[0].Hash
	if err := doc.Validate(); err != nil {
		t.Fatalf("valid variations of Rich refused: %v", err)
	}
}

// The problems of one document are capped: the first 50, then a count of
// the rest.
func TestValidateCap(t *testing.T) {
	doc := dt.Rich()
	for i := range 80 {
		doc.IssueStates = append(doc.IssueStates, dataset.IssueState{ProjectID: dt.ID(dt.Project, 1), Fingerprint: fmt.Sprint("x", i), Status: "closed"})
	}
	details := plumb.ErrorDetails(doc.Validate())
	want := "… and 30 more problems (only the first 50 are listed)"
	if len(details) != 51 || details[50] != want || !strings.HasPrefix(details[49], "issueStates[52]: status \"closed\"") {
		t.Fatalf("%d details, last two %q", len(details), details[len(details)-2:])
	}
}
