package openapi

import "net/http"

// The ingestion operations (docs/ingest.md): what CI sends. They live below
// /ingest so the v1 operations keep exactly their paths and methods, and
// they describe their errors themselves, since the shared descriptions speak
// of the v1 operations.

// coverageFormats are the report formats, in the order the server detects
// them (ingest/coverage.Formats).
var coverageFormats = []string{"lcov", "go", "cobertura", "jacoco", "clover", "simplecov", "istanbul", "qlty"}

// buildCreateStatuses are the statuses a new build may have.
var buildCreateStatuses = []string{"submitted", "starting", "running"}

// shaPattern is a commit SHA as the ingestion operations take it (the
// server lowercases it).
const shaPattern = `^[0-9a-fA-F]{7,64}$`

// storedShaPattern is a commit SHA as the server answers it.
const storedShaPattern = `^[0-9a-f]{7,64}$`

const (
	ingest401 = "No token, a malformed Authorization header, or an unknown or revoked user token or upload token."
	ingest403 = "A user token whose user is not an admin of the project (a workspace admin administers every project of the workspace). An upload token is never refused with 403."
	ingest404 = "The workspace or project does not exist or is not visible to the token's user; with an upload token, any project but the token's own (its existence is not revealed)."
	ingest409 = "The Idempotency-Key was used before with a different request line (method, path and query) or a different body (byte for byte as sent), or the first request with it is still running; a request that failed leaves no key behind."
	ingest413 = "The report is larger than the upload limit (PLUMB_MAX_UPLOAD_BYTES, 2 GiB by default), as sent or once decompressed; nothing is stored."
	// The 413 and 415 of an operation with a JSON request body.
	body413 = "The body is larger than the request body limit (PLUMB_MAX_BODY_BYTES)."
	json415 = "The body is not sent as application/json."
)

// snapshotUpload is ep, an upload that stores a snapshot of a commit: 201
// with the SnapshotResult, idempotent, and the upload errors.
func snapshotUpload(ep endpoint) endpoint {
	ep.idempotent = true
	ep.status = http.StatusCreated
	ep.okDesc = "The snapshot was stored."
	ep.result = ref("SnapshotResult")
	ep.errors = []int{400, 403, 404, 409}
	return ep
}

func uploadErrors(bad400, bad415 string) map[int]string {
	return map[int]string{400: bad400, 401: ingest401, 403: ingest403, 404: ingest404, 409: ingest409, 413: ingest413, 415: bad415}
}

var ingestEndpoints = []endpoint{
	{
		method: http.MethodPost, path: ingest + "/coverage", id: "uploadCoverage", tag: tagIngestion,
		summary: "Upload a coverage report",
		description: "Stores a coverage report of a commit, streamed in one transaction. The format is detected from the content unless `format` is given: " +
			"LCOV, Go coverprofile, Cobertura XML, JaCoCo XML, Clover XML, SimpleCov JSON or Istanbul coverage-final.json. " +
			"The body may be gzip-compressed (`Content-Encoding: gzip`, or a body starting with the gzip magic bytes). " +
			"Reports for the same commit and coverage tag merge line by line (hit counts add up); across coverage tags a line is covered when any tag hit it. " +
			"A report of the project's default branch updates the COV and LCOV metrics. A malformed report stores nothing.",
		query:      []string{"ingestCommitSha", "ingestBranch", "ingestTag", "ingestCoverageTag", "ingestPullRequest", "ingestFormat", "ingestStripPrefix", "ingestAddPrefix", "ingestModulePath", "ingestUploadedAt"},
		report:     "The coverage report as the tool wrote it, optionally gzip-compressed; any Content-Type.",
		idempotent: true,
		status:     http.StatusCreated,
		okDesc:     "The report was stored. The counts are this report's own, before merging.",
		result:     ref("CoverageUploadResult"),
		errors:     []int{400, 403, 404, 409},
		errorDetail: uploadErrors(
			"A query parameter is invalid (commitSha missing or not 7 to 64 hex digits, an unknown format, a parameter given twice, an Idempotency-Key over 200 characters), "+
				"the body is not valid gzip, or the report is empty, of no format Plumb reads, or malformed: the detail names the line (or XML element or JSON path) and what was expected. Nothing is stored.",
			"The Content-Encoding is neither gzip nor identity."),
	},
	snapshotUpload(endpoint{
		method: http.MethodPost, path: ingest + "/sarif", id: "uploadSarif", tag: tagIngestion,
		summary: "Upload SARIF findings",
		description: "Stores the results of one SARIF 2.1.0 log as a new snapshot of the commit: the issues of the tools in this log replace those tools' issues " +
			"in the commit's latest snapshot, other tools' issues are kept, and the files' figures are unchanged. An issue keeps the status its fingerprint has " +
			"(an ignored issue stays ignored). A default-branch snapshot at least as new as the current one becomes the project's current state, whose issues the v1 API lists. " +
			"The body may be gzip-compressed.",
		query:  []string{"ingestCommitSha", "ingestBranchRequired", "ingestAnalyzedAt", "ingestStripPrefix", "ingestAddPrefix", "ingestRepoRoot"},
		report: "One SARIF 2.1.0 log (JSON), optionally gzip-compressed; any Content-Type.",
		errorDetail: uploadErrors(
			"A query parameter is invalid (commitSha missing or not 7 to 64 hex digits, branch missing, analyzedAt not RFC 3339, an Idempotency-Key over 200 characters), "+
				"the body is not valid gzip, or the SARIF log is malformed: the detail names the JSON path (such as runs[0].results[3]), the line and column, and what was expected. Nothing is stored.",
			"The Content-Encoding is neither gzip nor identity."),
	}),
	snapshotUpload(endpoint{
		method: http.MethodPost, path: ingest + "/analyses", id: "uploadAnalysis", tag: tagIngestion,
		summary: "Upload an analysis snapshot",
		description: "Stores an analysis of a commit: per-file figures (physical lines, lines of code, cognitive complexity, duplicated lines) and the issues of any number of SARIF logs. " +
			"With `fullTree` (the default) the files listed are every file of the tree; otherwise they are the changed files and `removed` lists the deleted ones. " +
			"A default-branch snapshot at least as new as the current one becomes the project's current state (file metrics, component metrics, issues); an older one enters the metric history at its analyzedAt. " +
			"Issues of the commit's earlier snapshot on the branch (such as a SARIF upload before it) are kept for every tool the analysis brings no issues of; `keptIssues` and `replacedIssues` say which. " +
			"The body may be gzip-compressed.",
		query: []string{"ingestStripPrefix", "ingestAddPrefix", "ingestRepoRoot"},
		body:  "AnalysisUpload",
		errorDetail: uploadErrors(
			"The body is not JSON of the documented shape (an unknown field, a wrong type), commitSha (7 to 64 hex digits) or branch is missing, analyzedAt is not RFC 3339, "+
				"a file is listed twice or has negative or inconsistent figures, or a SARIF log is malformed (the detail names sarif[i] and the JSON path). Nothing is stored.",
			"The body is not sent as application/json, or its Content-Encoding is neither gzip nor identity."),
	}),
	{
		method: http.MethodGet, path: ingest + "/analyses", id: "listAnalysedCommits", tag: tagIngestion,
		summary: "Which commits already have an analysis",
		description: "Of the commits named in `commitSha` (at most 100 per request), those that already have an analysis on `branch` (by default the project's default branch), " +
			"each with its latest analysis, in the order asked; commits without one are left out. A snapshot made by a SARIF upload alone is no analysis. " +
			"`plumb analyze --history` asks before it analyses past commits, so a re-run or an interrupted run skips what is done. " +
			"Without `commitSha` the answer only names the branch and the project's default branch.",
		query:  []string{"analysedCommitSha", "analysedBranch"},
		okDesc: "The commits with an analysis.",
		result: ref("AnalysedCommits"),
		errors: []int{400, 403, 404},
		errorDetail: map[int]string{
			400: "A commitSha is not 7 to 64 hex digits, more than 100 commits are named, or branch is given empty or twice; one error object per problem.",
			401: ingest401, 403: ingest403, 404: ingest404,
		},
	},
	{
		method: http.MethodPost, path: ingest + "/builds", id: "createBuild", tag: tagIngestion,
		summary: "Create a build",
		description: "Records a new build of the project, submitted now (its `submittedAt`); a build created as `running` has started at that time too. " +
			"The Location header is the build's v1 address. With an Idempotency-Key, a retried request creates one build.",
		body:       "BuildCreate",
		idempotent: true,
		status:     http.StatusCreated,
		okDesc:     "The created build, as the v1 API shows it.",
		result:     ref("Build"),
		location:   true,
		errors:     []int{400, 403, 404, 409},
		errorDetail: map[int]string{
			400: "A field is missing or invalid (type, branchName, commitSha, a status other than submitted, starting or running, a pullRequestNumber that is not a positive integer), " +
				"the body is not one JSON object, or the Idempotency-Key is over 200 characters; one error object per problem.",
			401: ingest401, 403: ingest403, 404: ingest404, 409: ingest409,
			413: body413,
			415: json415,
		},
	},
	{
		method: http.MethodPost, path: ingest + "/builds/{buildId}/status", id: "reportBuildStatus", tag: tagIngestion,
		summary: "Report a build's status",
		description: "Moves a build to a new status. From submitted it may become starting, running, failed, skipped or rejected; from starting, running, failed, skipped or rejected; " +
			"from running, succeeded or failed; succeeded, failed, skipped and rejected are final. Reporting the status the build already has changes nothing (a retried report is safe). " +
			"`startedAt` is set when the build starts running, `finishedAt` when it reaches a final status; `conclusion` is succeeded or failed for those outcomes and null for skipped or rejected builds; " +
			"`exitCode` is recorded with a final status.",
		body:   "BuildStatusReport",
		okDesc: "The build after the report.",
		result: ref("Build"),
		errors: []int{400, 403, 404, 409},
		errorDetail: map[int]string{
			400: "status is missing or not a build status, statusReason is over 2000 characters, exitCode is not an integer, or the body is not one JSON object; one error object per problem.",
			401: ingest401, 403: ingest403,
			404: ingest404 + " Or the build is not one of the project's.",
			409: "The build cannot move to that status: the detail names the statuses it can still become, or says it has ended.",
			413: body413,
			415: json415,
		},
	},
	{
		method: http.MethodGet, path: ingest + "/upload-tokens", id: "listUploadTokens", tag: tagIngestion,
		summary: "List upload tokens",
		description: "The project's upload tokens, revoked ones included, oldest first (then by id). Secrets are never listed. " +
			"Needs the user token of a project admin (a workspace admin administers every project of the workspace); an upload token cannot manage tokens.",
		query:       pageParams,
		okDesc:      "A page of upload tokens.",
		result:      ref("UploadTokenList"),
		paginated:   true,
		errors:      []int{400, 403, 404},
		errorDetail: tokenAdminErrors("page[limit] or page[offset] is invalid."),
	},
	{
		method: http.MethodPost, path: ingest + "/upload-tokens", id: "createUploadToken", tag: tagIngestion,
		summary: "Create an upload token",
		description: "Creates a project-scoped token for CI (`plbu_…`): it may call this project's upload and build operations and nothing else. " +
			"The secret is in the answer's `token` field, shown this once; Plumb keeps only its SHA-256. Needs the user token of a project admin.",
		body:        "UploadTokenCreate",
		status:      http.StatusCreated,
		okDesc:      "The created token, with its secret.",
		result:      ref("UploadTokenCreated"),
		location:    true,
		errors:      []int{400, 403, 404},
		errorDetail: tokenAdminErrors("name is missing, blank, over 100 characters or holds control characters, or the body is not one JSON object."),
	},
	{
		method: http.MethodGet, path: ingest + "/upload-tokens/{uploadTokenId}", id: "getUploadToken", tag: tagIngestion,
		summary:     "Get an upload token",
		description: "One upload token of the project (never its secret). Needs the user token of a project admin.",
		okDesc:      "The upload token.",
		result:      ref("UploadToken"),
		errors:      []int{400, 403, 404},
		errorDetail: tokenAdminErrors("uploadTokenId is empty."),
	},
	{
		method: http.MethodDelete, path: ingest + "/upload-tokens/{uploadTokenId}", id: "revokeUploadToken", tag: tagIngestion,
		summary: "Revoke an upload token",
		description: "Revokes the upload token: from now on it answers 401. The token stays listed with its `revokedAt`; revoking it again changes nothing (204). " +
			"Needs the user token of a project admin.",
		status:      http.StatusNoContent,
		okDesc:      "The token is revoked.",
		errors:      []int{400, 403, 404},
		errorDetail: tokenAdminErrors("uploadTokenId is empty."),
	},
}

// tokenAdminErrors are the errors of the upload-token operations.
func tokenAdminErrors(bad400 string) map[int]string {
	return map[int]string{
		400: bad400,
		401: ingest401,
		403: "A user token whose user is not an admin of the project, or an upload token (upload tokens cannot manage tokens).",
		404: ingest404 + " Or the upload token is not one of the project's.",
		413: body413,
		415: json415,
	}
}

// ingestParameters adds the ingestion operations' parameters to
// components/parameters.
func ingestParameters(m *omap[*param]) {
	m.set("idempotencyKey", &param{
		Name: "Idempotency-Key",
		In:   "header",
		Description: "Makes a retry safe: the first request with a key stores its answer for 24 hours, and a retry with the same key, the same request line " +
			"(method, path and query) and the same body (byte for byte) gets that answer again, with `Idempotent-Replayed: true`, storing nothing twice. Keys are per project.",
		Schema: str().withMinLength(1).withMaxLength(200),
	})
	m.set("ingestCommitSha", requiredQueryParam("commitSha", "The commit the report belongs to: 7 to 64 hex digits (stored in lower case).",
		str().withMinLength(7).withMaxLength(64).withPattern(shaPattern)))
	m.set("ingestBranch", queryParam("branch",
		"The branch that reaches the commit (a `refs/heads/` prefix is removed). `refs/heads/<branch>` references resolve to the commit of the branch's latest upload; "+
			"an upload of the project's default branch updates the COV and LCOV metrics.", str()))
	m.set("ingestBranchRequired", requiredQueryParam("branch",
		"The branch the commit was analysed on (a `refs/heads/` prefix is removed); the project's default branch makes the snapshot a candidate for the current state.",
		str().withMinLength(1)))
	m.set("ingestTag", queryParam("tag", "A Git tag naming the commit (a `refs/tags/` prefix is removed), for `refs/tags/<tag>` references.", str()))
	m.set("ingestCoverageTag", queryParam("coverageTag", "The coverage tag (such as unit or integration) the report's lines merge into.",
		str().withDefault("default")))
	m.set("ingestPullRequest", queryParam("pullRequestNumber",
		"The pull request the coverage was measured for, so that `coverage/file?reference=refs/pull/<number>` finds its latest commit.",
		integer().withMin(1)))
	m.set("ingestFormat", queryParam("format", "The report's format; detected from the content when absent.", ref("CoverageFormat")))
	m.set("ingestStripPrefix", queryParam("stripPrefix",
		"Removed from the start of every path (after normalising: backslashes become slashes, `./` and duplicate slashes go).", str()))
	m.set("ingestAddPrefix", queryParam("addPrefix", "Added to the start of every path, after stripPrefix.", str()))
	m.set("ingestModulePath", queryParam("modulePath",
		"Go coverprofiles: the module path (from go.mod) import paths are made relative to; when absent, the longest common directory of the import paths.", str()))
	m.set("ingestRepoRoot", queryParam("repoRoot",
		"The absolute checkout path the tool ran in (a path or a file:// URI), removed from absolute `file://` locations of the SARIF logs.", str()))
	m.set("ingestUploadedAt", queryParam("uploadedAt",
		"When the coverage was measured, RFC 3339 (truncated to whole seconds); now when absent. A default-branch commit's coverage enters the COV and LCOV history at this time, "+
			"so older commits can be uploaded in any order.", str().withFormat("date-time")))
	m.set("analysedCommitSha", arrayQueryParam("commitSha", "Commits to ask about (7 to 64 hex digits each, matched as stored; at most 100).",
		str().withMinLength(7).withMaxLength(64).withPattern(shaPattern), "4f1c2a7", "9b0e3d1"))
	m.set("analysedBranch", queryParam("branch", "The branch whose analyses count (a `refs/heads/` prefix is removed); the project's default branch when absent.",
		str().withMinLength(1)))
	m.set("ingestAnalyzedAt", queryParam("analyzedAt", "When the analysis ran, RFC 3339 (truncated to whole seconds); now when absent.",
		str().withFormat("date-time")))
}

// toolCountMap is an object of issue counts by tool name.
func toolCountMap(desc string) *schema {
	s := typed("object").withDescription(desc)
	s.AdditionalProperties = integer().withMin(1)
	return s
}

// ingestSchemas adds the ingestion operations' bodies and results to
// components/schemas.
func ingestSchemas(m *omap[*schema]) {
	m.set("CoverageFormat", enumSchema("Coverage report format.", coverageFormats))
	m.set("CoverageUploadResult", object(
		req("id", uuid().withDescription("The upload's ID.")),
		req("commitSha", str().withPattern(storedShaPattern)),
		req("branch", str().withDescription("The branch given, without `refs/heads/`; empty when none was.")),
		req("tag", str().withDescription("The Git tag given, without `refs/tags/`; empty when none was.")),
		req("coverageTag", str().withDescription("The coverage tag; `default` when none was given.")),
		req("format", ref("CoverageFormat")),
		req("files", integer().withMin(0).withDescription("Number of distinct files in the report.")),
		req("coveredLines", integer().withMin(0).withDescription("Lines this report covers (hit at least once).")),
		req("missedLines", integer().withMin(0).withDescription("Coverable lines this report does not hit.")),
		req("uploadedAt", timestamp().withDescription("The time the upload is dated in the history: uploadedAt when given, else now.")),
	))
	m.set("SnapshotResult", object(
		req("id", uuid().withDescription("The snapshot's ID.")),
		req("commitSha", str().withPattern(storedShaPattern)),
		req("branch", str()),
		req("analyzedAt", timestamp()),
		req("issues", integer().withMin(0).withDescription("Number of issues the upload's SARIF logs gave (issues kept from other tools not included).")),
		req("current", boolean().withDescription("Whether the snapshot became the project's current state: a default-branch snapshot at least as new as the current one.")),
		req("history", boolean().withDescription("Whether the snapshot entered the default branch's metric history: as the current state, or, older than the current one, at its own analyzedAt (the measurements after it are unchanged).")),
		req("keptIssues", toolCountMap("Per tool, the issues of the commit's earlier snapshot on the branch that this upload kept: tools it brought no issues of.")),
		req("replacedIssues", toolCountMap("Per tool, the issues of the commit's earlier snapshot on the branch that this upload replaced with its own issues of that tool.")),
	))
	m.set("AnalysedCommits", object(
		req("branch", str().withDescription("The branch asked about.")),
		req("defaultBranch", str().withDescription("The project's default branch: analyses of it enter the metric history.")),
		req("data", arrayOf(object(
			req("id", uuid().withDescription("The commit's latest analysis (snapshot) on the branch.")),
			req("commitSha", str().withPattern(storedShaPattern)),
			req("analyzedAt", timestamp()),
			req("current", boolean().withDescription("Whether that snapshot became the project's current state when it arrived.")),
			req("history", boolean().withDescription("Whether it entered the default branch's metric history.")),
		)).withDescription("One item per commit asked about that has an analysis, in the order asked.")),
	))
	m.set("AnalysisFile", object(
		req("path", str().withMinLength(1).withDescription("Repository-relative path (stripPrefix and addPrefix apply).")),
		opt("lines", integer().withMin(0).withDefault(0).withDescription("Physical lines.")),
		opt("loc", integer().withMin(0).withDefault(0).withDescription("Lines of code; at most lines.")),
		opt("complexity", integer().withMin(0).withDefault(0).withDescription("Cognitive complexity.")),
		opt("duplicatedLines", integer().withMin(0).withDefault(0).withDescription("Duplicated lines; at most lines.")),
	))
	m.set("AnalysisUpload", object(
		req("commitSha", str().withMinLength(7).withMaxLength(64).withPattern(shaPattern)),
		req("branch", str().withMinLength(1).withDescription("The branch analysed (a `refs/heads/` prefix is removed).")),
		opt("analyzedAt", str().withFormat("date-time").withDescription("When the analysis ran, RFC 3339; now when absent.")),
		opt("fullTree", boolean().withDefault(true).withDescription("Whether files lists every file of the tree (files not listed are gone); false: only changed files, and removed the deleted ones.")),
		opt("files", arrayOf(ref("AnalysisFile")).withDescription("Per-file figures; a path may be listed once.")),
		opt("removed", arrayOf(str()).withDescription("Paths deleted since the previous analysis (with fullTree false).")),
		opt("sarif", arrayOf(typed("object").withDescription("A SARIF 2.1.0 log.")).withDescription("SARIF logs whose issues all belong to the snapshot.")),
	))
	m.set("BuildCreate", object(
		req("type", ref("BuildType")),
		req("branchName", str().withMinLength(1).withMaxLength(500)),
		req("commitSha", str().withMinLength(7).withMaxLength(64)),
		opt("commitMessage", str().withMaxLength(10000).withDescription(`Defaults to "".`)),
		opt("source", str().withMaxLength(100).withDescription(`What started the build, such as github_actions; defaults to "".`)),
		opt("pullRequestNumber", nullable(integer()).withMin(1)),
		opt("committerLogin", str().withMaxLength(200).withDescription(`Defaults to "".`)),
		opt("status", enum(buildCreateStatuses...).withDefault("submitted").withDescription("The new build's status; a running build has started when it is submitted.")),
	))
	m.set("UploadTokenCreate", object(
		req("name", str().withMinLength(1).withMaxLength(100).withDescription("What the token is for, such as github-actions; not blank, no control characters.")),
	))
	m.set("UploadToken", object(uploadTokenProps()...))
	m.set("UploadTokenCreated", object(append(uploadTokenProps(),
		req("token", str().withPattern("^plbu_[0-9A-Za-z]+$").withDescription("The secret, shown only in this answer: send it as `Authorization: Bearer <token>`.")))...))
	m.set("UploadTokenList", listOf("UploadToken"))
	m.set("BuildStatusReport", object(
		req("status", ref("BuildStatus")),
		opt("statusReason", nullable(str()).withMaxLength(2000).withDescription("Why the build has this status; replaces the previous reason.")),
		opt("exitCode", nullable(integer()).withDescription("The build's exit code, recorded with a final status.")),
	))
}

func uploadTokenProps() []prop {
	return []prop{
		req("id", uuid()),
		req("name", str()),
		req("createdBy", str().withDescription("The login of the admin who created it, or `cli` for the operator's command.")),
		req("createdAt", timestamp()),
		req("lastUsedAt", nullable(timestamp()).withDescription("When the token last authenticated a request; null if never.")),
		req("revokedAt", nullable(timestamp()).withDescription("When the token was revoked; null while it is valid.")),
	}
}
