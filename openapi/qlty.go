package openapi

import (
	"net/http"
	"strconv"
)

// The qlty CLI's coverage uploads (docs/migrate-from-qlty.md): the paths
// "qlty coverage publish" and "qlty coverage complete" call below
// QLTY_API_URL, so a team's CI moves to Plumb by pointing QLTY_API_URL at
// it. Their refusals carry "error", which the CLI prints, beside the usual
// "errors".

const tagQlty = "qlty CLI"

var qltyTag = tag{tagQlty, "The paths the qlty CLI calls (`qlty coverage publish`, `qlty coverage complete`; docs/migrate-from-qlty.md), " +
	"so that CI jobs of the original service run unchanged with `QLTY_API_URL` set to this server. They take a project upload token (`plbu_…`), " +
	"or `<token>/<project>` (an API token of a project admin, or an upload token), also written `qltcw_<token>`, to which the CLI appends the repository's name. " +
	"Their errors carry `error`, the sentence the CLI prints, beside `errors`."}

const (
	qlty401 = "No token, a malformed Authorization header, or an unknown or revoked token (the `qltcw_` prefix and the `/<project>` suffix removed)."
	qlty403 = "An API token whose user is not an admin of the project."
	qlty404 = "The project the token names does not exist or is not visible to the token's user, or is not the upload token's own."
	qlty429 = "The token's rate limit is exhausted (a project's upload tokens share the project's quota), or the client address made too many requests with unknown or revoked tokens."
)

var qltyEndpoints = []endpoint{
	{
		method: http.MethodPost, path: "/coverage", id: "qltyPublishCoverage", tag: tagQlty,
		summary: "Start a qlty coverage publish",
		description: "What `qlty coverage publish` sends before its zip: the coverage metadata. The answer is the upload's id and the URL to PUT the coverage.zip to " +
			"(`coverage.zip`: signed, bound to this upload, its project and a size limit, valid for an hour), and `url`, the commit's coverage page. " +
			"A publish with `incomplete` or a `totalPartsCount` over 1 is a part of its commit and coverage tag's report, which waits for the other parts.",
		body:   "QltyMetadataRequest",
		status: http.StatusCreated,
		okDesc: "The upload is ready for its zip.",
		result: ref("QltyPublishResult"),
		errors: []int{400, 403, 404, 409},
		errorDetail: map[int]string{
			400: "The metadata is not {\"data\": {…}}, commitSha is missing or not 7 to 64 hex digits, a member has the wrong type, `selection` is set (not supported), " +
				"or an API token names no project or a project key that is in several of the user's workspaces.",
			401: qlty401, 403: qlty403, 404: qlty404,
			409: "A part's report is being published right now; publish the part again once it is done.",
			413: body413,
			415: json415,
			429: qlty429,
		},
	},
	{
		method: http.MethodPost, path: "/coverage/complete", id: "qltyCompleteCoverage", tag: tagQlty,
		summary: "Complete a multi-part qlty coverage report",
		description: "What `qlty coverage complete` sends: publishes the parts received for the commit and coverage tag (`tag`) as one coverage upload. " +
			"Completing a report published already (by its declared part count, or an earlier complete, within a day) answers the same.",
		body:   "QltyMetadataRequest",
		status: http.StatusOK,
		okDesc: "The report is published.",
		result: ref("QltyCompleteResult"),
		errors: []int{400, 403, 404, 409},
		errorDetail: map[int]string{
			400: "The metadata is not {\"data\": {…}}, commitSha is missing or invalid, `selection` is set, or an API token names no project.",
			401: qlty401, 403: qlty403,
			404: qlty404 + " Or no report of that commit and coverage tag is waiting, or none of its parts has arrived.",
			409: "Another request has been publishing the report for over a minute; retry.",
			413: body413,
			415: json415,
			429: qlty429,
		},
	},
	{
		method: http.MethodPut, path: "/coverage/uploads/{uploadId}", id: "qltyUploadCoverageZip", tag: tagQlty,
		summary: "Upload a qlty coverage.zip",
		description: "The PUT of `qlty coverage publish`'s zip to the URL `POST /coverage` answered; the URL's signature is the credential (no token). " +
			"A whole publish is stored as one coverage upload; a part waits for its report. A retried PUT of the same zip answers as the first did " +
			"(`Idempotent-Replayed: true`) and stores nothing twice. Not counted against a rate limit.",
		query:  []string{"qltyExpires", "qltyLimit", "qltySignature"},
		report: "The coverage.zip that qlty coverage publish built, sent as application/zip.",
		okDesc: "The zip was stored: published, or a part waiting for its report.",
		result: ref("QltyUploadResult"),
		errors: []int{400, 403, 409},
		errorDetail: map[int]string{
			400: "The body is not a zip archive, or the archive is refused (a member name that is absolute or leaves it, a duplicate, an encrypted member, a zip bomb, no coverage), " +
				"or its coverage is malformed (the detail names the member and line), or its metadata.json is of another commit. Nothing is stored.",
			403: "The URL is not valid (another upload's, altered, or unknown) or has expired.",
			409: "The URL was used for another zip (or refused one), is in use by another request now, or the part arrived after its report was completed or expired.",
			413: "The zip is larger than the URL's limit, or decompresses to more than the upload limit (PLUMB_MAX_UPLOAD_BYTES).",
			415: "The body is sent with a Content-Type other than application/zip (or application/octet-stream).",
		},
		uncounted: true,
	},
}

// qltyPaths adds the qlty CLI's operations to the paths. Every error
// answers QltyError; the PUT needs no token and carries no rate-limit
// headers.
func qltyPaths(m *omap[*pathItem]) {
	for i := range qltyEndpoints {
		ep := &qltyEndpoints[i]
		op := ep.operation()
		noToken := ep.method == http.MethodPut
		responses := newOmap[*response]()
		for _, code := range op.Responses.keys {
			r := op.Responses.vals[code]
			status, _ := strconv.Atoi(code)
			if noToken && status == http.StatusUnauthorized {
				continue
			}
			if r.Ref != "" {
				d := errorDefFor(status)
				r = errorResponse(d, d.rateLimit)
			}
			if status >= 400 {
				r.Content = jsonContent(ref("QltyError"))
			}
			if noToken {
				addRateLimitHeaders(r.Headers, rateLimitOptional)
			}
			if noToken && status == http.StatusOK {
				r.Headers.set("Idempotent-Replayed", headerRef("IdempotentReplayed"))
			}
			responses.set(code, r)
		}
		op.Responses = responses
		if noToken {
			op.Security = &[]secReq{}
		}
		itemFor(m, ep.path).set(ep.method, op)
	}
}

// qltyParameters adds the upload URL's parameters.
func qltyParameters(m *omap[*param]) {
	m.set("uploadId", pathParam("uploadId", "The upload's ID, as POST /coverage answered it.", 36))
	m.set("qltyExpires", requiredQueryParam("expires", "Unix seconds when the URL expires (signed).", integer()))
	m.set("qltyLimit", requiredQueryParam("limit", "The largest zip the URL takes, in bytes (signed).", integer().withMin(1)))
	m.set("qltySignature", requiredQueryParam("signature", "The URL's signature (HMAC-SHA256 over the upload, its project, the expiry and the limit).", str().withMinLength(1)))
}

// qltySchemas adds the qlty CLI's bodies and answers.
func qltySchemas(m *omap[*schema]) {
	s := func(desc string) *schema { return str().withDescription(desc) }
	ignored := func(what string) *schema { return str().withDescription(what + " Not stored.") }
	stamp := func(desc string) *schema {
		return str().withFormat("date-time").withDescription(desc + " RFC 3339, fractional seconds allowed (a google.protobuf.Timestamp in JSON).")
	}
	m.set("QltyCoverageMetadata", object(
		opt("uploadId", ignored("The upload's id (empty when publishing).")),
		opt("projectId", ignored("The project's id (empty when publishing).")),
		opt("buildId", ignored("The CI run (on GitHub Actions, run id:attempt).")),
		opt("ci", ignored("The CI provider's name.")),
		opt("ciUrl", ignored("The CI provider's address.")),
		opt("repositoryWebUrl", ignored("The repository's web address.")),
		opt("repositoryOriginUrl", ignored("The repository's clone address.")),
		opt("branch", s("The branch (a `refs/heads/` prefix is removed); on a pull request, GitHub's `<number>/merge` is no branch and headRef is taken instead.")),
		opt("workflow", ignored("The CI workflow.")),
		opt("job", ignored("The CI job.")),
		opt("run", ignored("The CI run.")),
		opt("runUrl", ignored("The CI run's address.")),
		opt("commitSha", s("The commit the coverage was measured on: 7 to 64 hex digits. Required.")),
		opt("commitHeadline", ignored("The commit's headline.")),
		opt("commitMessage", ignored("The commit's message.")),
		opt("authorName", ignored("The commit's author.")),
		opt("authorEmail", ignored("The commit's author's email.")),
		opt("authorTime", stamp("When the commit was authored. Not stored.")),
		opt("committerName", ignored("The committer.")),
		opt("committerEmail", ignored("The committer's email.")),
		opt("commitTime", stamp("When the commit was made. Not stored.")),
		opt("pullRequestNumber", s("The pull request, a positive integer as a string (a JSON number is taken too): `refs/pull/<number>` finds the commit.")),
		opt("pullRequestUrl", ignored("The pull request's address.")),
		opt("headRef", s("The pull request's branch: the branch when `branch` is none.")),
		opt("headCommit", ignored("The pull request's head commit (commitSha is the commit stored).")),
		opt("baseRef", ignored("The pull request's base branch.")),
		opt("baseCommit", ignored("The pull request's base commit.")),
		opt("tag", s("The coverage tag (`qlty coverage publish --tag`); `default` when absent.")),
		opt("description", ignored("A description.")),
		opt("uploadedAt", stamp("When the coverage was published: the upload's date in the history (whole seconds); now when absent.")),
		opt("cliVersion", ignored("The CLI's version.")),
		opt("totalPartsCount", integer().withMin(0).withDescription("The parts of the report (`--total-parts-count`): it publishes when that many arrived.")),
		opt("uploaderTool", ignored("The tool that ran the CLI (such as qlty-action).")),
		opt("publishCommand", ignored("The command line.")),
		opt("uploaderToolVersion", ignored("That tool's version.")),
		opt("name", ignored("A name for the upload (`--name`), for debugging.")),
		opt("incomplete", boolean().withDescription("The publish is a part of a report that `qlty coverage complete` closes (`--incomplete`).")),
		opt("excludedFilesCount", integer().withMin(0).withDescription("Files the CLI's ignore rules left out. Not stored.")),
		opt("referenceType", enum("REFERENCE_TYPE_UNSPECIFIED", "REFERENCE_TYPE_BRANCH", "REFERENCE_TYPE_TAG", "REFERENCE_TYPE_PULL_REQUEST", "REFERENCE_TYPE_MERGE_GROUP").
			withDescription("What the reference is. Not stored: branch, gitTag and pullRequestNumber say it.")),
		opt("gitTag", s("The git tag (a `refs/tags/` prefix is removed): `refs/tags/<tag>` finds the commit.")),
		opt("buildUrl", ignored("The CI run's address.")),
		opt("reference", ignored("The reference.")),
		opt("complete", ignored("(Unused by the CLI.)")),
		opt("selection", s("`selected` for coverage of a selection of the tests (`--selection`): refused, since Plumb has no coverage that counts for diff coverage only.")),
	).withDescription("The CoverageMetadata of the qlty CLI, as its serializer writes it (camelCase; the snake_case names are read too). Members Plumb has no place for are read and not stored."))
	m.set("QltyMetadataRequest", object(req("data", ref("QltyCoverageMetadata"))))
	m.set("QltyPublishResult", object(req("data", object(
		req("id", uuid().withDescription("The upload's ID.")),
		req("projectId", uuid()),
		req("coverage.zip", uri().withDescription("Where to PUT the coverage.zip: signed, valid for an hour, for this upload only.")),
		req("url", uri().withDescription("The commit's coverage page.")),
		req("expiresAt", timestamp().withDescription("When the coverage.zip URL expires.")),
	))))
	m.set("QltyUploadResult", object(req("data", object(
		req("id", uuid()),
		req("state", enum("published", "waiting", "publishing").withDescription("published: stored (a whole publish, or the part that completed its report); waiting: a part, waiting for the others or for complete; publishing: the last part, while another request publishes the report.")),
		req("commitSha", str().withPattern(storedShaPattern)),
		req("coverageTag", str()),
		req("files", integer().withMin(0).withDescription("Files in this zip.")),
		req("coveredLines", integer().withMin(0)),
		req("missedLines", integer().withMin(0)),
		opt("partsReceived", integer().withMin(1).withDescription("A part: the parts of its report received so far.")),
		opt("partsExpected", integer().withMin(1).withDescription("A part: the parts its report waits for (absent: until complete).")),
		req("url", uri().withDescription("The commit's coverage page.")),
	))))
	m.set("QltyCompleteResult", object(req("data", object(
		req("id", uuid().withDescription("The published coverage upload's ID (the report's).")),
		req("commitSha", str().withPattern(storedShaPattern)),
		req("coverageTag", str()),
		req("parts", integer().withMin(1).withDescription("The parts published together.")),
		req("url", uri().withDescription("The commit's coverage page.")),
	))))
	m.set("QltyError", object(
		opt("error", str().withDescription("The details in one sentence: what the qlty CLI prints. Absent from the router's 405 and 406.")),
		req("errors", arrayOf(ref("ErrorObject")).withMinItems(1)),
	))
}
