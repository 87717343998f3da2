package openapi

import (
	"net/http"
	"slices"
)

// Pull requests (docs/pull-requests.md): comparisons of a head commit with
// its base, and the change CI uploads for them.

const tagPulls = "Pull requests"

const mediaMarkdown = "text/markdown"

var pullEndpoints = []endpoint{
	{
		method: http.MethodGet, path: project + "/compare", id: "compareCommits", tag: tagPulls,
		summary: "Compare a head commit with its base",
		description: "Total line coverage of both commits and its delta; patch coverage (covered ÷ coverable among the lines the head changed, per file, with the changed lines left uncovered), " +
			"when CI uploaded the head's change (POST …/changes); issues new in the head, fixed by it and unchanged, by fingerprint, with the issue list's filters; " +
			"and the twelve metrics of the project and of each component on both sides (null when the base has no default-branch analysis). " +
			"Issues are compared only when both commits have an analysis; until then `issues.status` is no_data, the classes are null, the gate's issue conditions are no_data and the head's metrics other than coverage are null. " +
			"A head without coverage for a coverage tag the base has uses the base's (carry-forward, listed in head.carriedForwardTags). " +
			"JSON by default; the Markdown summary with `Accept: text/markdown` or `format=markdown`; one issue list (`issues`, default new) as NDJSON or CSV.",
		query:    []string{"compareHead", "compareBase", "compareCoverageTag", "compareIssues", "compareFormat", "issueCategory", "issueLevel", "issueStatus", "issueTool"},
		okDesc:   "The comparison.",
		result:   ref("Comparison"),
		export:   compareExport,
		markdown: true,
		errors:   []int{400, 403, 404, 409},
		errorDetail: map[int]string{
			409: "An issue list (NDJSON or CSV) was asked for while the issues are not compared: a side has no analysis yet (`issues.status` no_data in the JSON).",
		},
	},
	{
		method: http.MethodGet, path: project + "/pulls/{pullRequestNumber}", id: "comparePullRequest", tag: tagPulls,
		summary:     "Compare a pull request's head with its base",
		description: "The comparison of the head and base commits of the pull request's latest upload (see compareCommits).",
		query:       []string{"compareCoverageTag", "compareIssues", "compareFormat", "issueCategory", "issueLevel", "issueStatus", "issueTool"},
		okDesc:      "The comparison.",
		result:      ref("Comparison"),
		export:      compareExport,
		markdown:    true,
		errors:      []int{400, 403, 404, 409},
		errorDetail: map[int]string{
			409: "An issue list (NDJSON or CSV) was asked for while the issues are not compared: a side has no analysis yet (`issues.status` no_data in the JSON).",
		},
	},
}

var gateEndpoints = []endpoint{
	{
		method: http.MethodGet, path: project + "/gate", id: "getQualityGate", tag: tagPulls,
		summary:     "Get the quality gate",
		description: "The project's quality gate: its own conditions, or the default (patch coverage at least 80 %, total coverage down by at most 1 point, no new high-level issue, no new security issue) while `custom` is false.",
		okDesc:      "The quality gate.",
		result:      ref("QualityGate"),
		errors:      []int{403, 404},
	},
	{
		method: http.MethodPut, path: project + "/gate", id: "replaceQualityGate", tag: tagPulls,
		summary:     "Replace the quality gate",
		description: "Sets every condition of the project's quality gate (null turns one off), and which of them are advisory (optional `advisory`: shown, never failing the gate). Project admins only.",
		body:        "QualityGateWrite",
		okDesc:      "The quality gate as stored.",
		result:      ref("QualityGate"),
		errors:      []int{400, 403, 404},
	},
}

var codeHostEndpoints = []endpoint{
	{
		method: http.MethodGet, path: project + "/code-host", id: "getCodeHost", tag: tagPulls,
		summary:     "Get the code host settings",
		description: "Where the project's commit statuses and pull request comment go, and the outcome of the latest delivery. The token is never returned. Project admins only.",
		okDesc:      "The code host settings.",
		result:      ref("CodeHost"),
		errors:      []int{403, 404},
	},
	{
		method: http.MethodPut, path: project + "/code-host", id: "replaceCodeHost", tag: tagPulls,
		summary: "Set the code host",
		description: "GitHub (`baseUrl` default https://api.github.com; GitHub Enterprise: https://HOST/api/v3) or GitLab (default https://gitlab.com; self-managed: its address). " +
			"After each upload of a change, and each coverage upload of a commit with one, the gate's and patch coverage's commit statuses are set (with target_url, a link to Plumb's page of the pull request, `/w/{workspace}/{project}/pulls/{n}`, or of the head commit without one) and one comment on the pull request the upload names (pullRequestNumber; none without) is created or updated in place, in the background with retries; a GitHub project connected without a token, on a server with a GitHub App, also gets a check run with annotations. Project admins only.",
		body:   "CodeHostWrite",
		okDesc: "The code host settings as stored (without the token).",
		result: ref("CodeHost"),
		errors: []int{400, 403, 404},
	},
}

var compareExport = &export{row: "Issue", noun: "Issue", csvRow: "issue", columns: []string{
	"id", "fingerprint", "tool", "ruleKey", "message", "category", "level", "status",
	"documentationUrl", "location.path", "location.startLine", "location.endLine"}}

var pullIngestEndpoints = []endpoint{
	{
		method: http.MethodPost, path: ingest + "/changes", id: "uploadChange", tag: tagIngestion,
		summary: "Upload a commit's change against its base",
		description: "Records the lines a head commit adds or modifies per file against its base (as `git diff -M --unified=0 base...head` gives them, renames followed), " +
			"with its pull request and base. `plumb upload` and `plumb analyze` send it in a pull request. A later upload for the same commit and pull request (or, without a number, for the commit without one) replaces it; a commit's changes for other pull requests stay.",
		body:   "ChangeUpload",
		status: http.StatusCreated,
		okDesc: "The change was recorded.",
		result: ref("ChangeResult"),
		errors: []int{400, 403, 404},
	},
	{
		method: http.MethodGet, path: ingest + "/gate", id: "evaluateQualityGate", tag: tagIngestion,
		summary: "Evaluate the quality gate for a head commit",
		description: "The quality gate's outcome for a head commit against its base (by default the base its uploaded change names: with pullRequestNumber, the change uploaded for that pull request, else one uploaded without a number), as `plumb gate` prints it. " +
			"Conditions without data (no changed coverable line, a side without coverage) are `no_data` and do not fail the gate.",
		query:  []string{"compareHead", "compareBase", "gatePullRequest"},
		okDesc: "The gate's outcome.",
		result: ref("GateStatus"),
		errors: []int{400, 403, 404},
	},
}

func pullParameters(m *omap[*param]) {
	m.set("pullRequestNumber", pathParam("pullRequestNumber", "Pull request (merge request) number.", 1))
	m.set("compareHead", requiredQueryParam("head",
		"The head: `refs/heads/<branch>` or a bare branch name, `refs/tags/<tag>`, or a commit SHA (40 hex digits or a unique prefix of at least 7).", str().withMinLength(1)))
	m.set("compareBase", queryParam("base",
		"The base, in the same forms as head. Defaults to the base the head's uploaded change names.", str().withMinLength(1)))
	m.set("gatePullRequest", queryParam("pullRequestNumber", "The pull request being judged: its uploaded change names the base and the changed lines (a commit may head several).", integer().withMin(1)))
	m.set("compareCoverageTag", queryParam("coverageTag", "Only this coverage tag's reports; every tag when absent.", str().withMinLength(1)))
	m.set("compareIssues", queryParam("issues", "The issue list of the NDJSON and CSV forms.", enum("new", "fixed", "unchanged").withDefault("new")))
	m.set("compareFormat", queryParam("format", "`markdown` answers the Markdown summary whatever the Accept header.", enum("json", "markdown")))
}

// nullableRef is a reference or null.
func nullableRef(name string) *schema { return &schema{OneOf: []*schema{ref(name), typed("null")}} }

func pullSchemas(m *omap[*schema]) {
	cov := func() *schema {
		return object(req("covered", integer().withMin(0)), req("coverable", integer().withMin(0)),
			req("percent", nullable(number()).withDescription("covered ÷ coverable in percent, two decimals; null when nothing is coverable.")))
	}
	m.set("CoverageFigures", cov())
	m.set("ComparisonSide", object(
		req("commitSha", str().withPattern(storedShaPattern)),
		req("coverage", ref("CoverageFigures")),
		req("coverageTags", arrayOf(str())),
		req("carriedForwardTags", arrayOf(str()).withDescription("Coverage tags taken from the base (head side only).")),
		req("analysis", nullable(object(req("snapshotId", uuid()), req("branch", str()), req("analyzedAt", timestamp())))),
	))
	m.set("PatchFile", object(
		req("path", str()),
		req("previousPath", nullable(str())),
		req("status", enum("added", "modified", "renamed")),
		req("hasCoverage", boolean().withDescription("Whether the head has coverage of the file; without, its lines count nowhere.")),
		req("covered", integer().withMin(0)),
		req("coverable", integer().withMin(0)),
		req("percent", nullable(number())),
		req("uncoveredLines", arrayOf(arrayOf(integer().withMin(1)).withMinItems(2).withMaxItems(2)).withDescription("Changed coverable lines not hit, as [start, end] ranges.")),
	))
	m.set("PatchCoverage", object(
		req("changedFiles", integer().withMin(0)),
		req("changedLines", integer().withMin(0)),
		req("covered", integer().withMin(0)),
		req("coverable", integer().withMin(0)),
		req("percent", nullable(number())),
		req("files", arrayOf(ref("PatchFile"))),
	))
	m.set("ComparedIssues", object(req("count", integer().withMin(0)), req("data", arrayOf(ref("Issue")).withDescription("The first 100 (always empty for unchanged issues); the NDJSON and CSV forms list them all."))))
	value := func() *schema {
		return &schema{OneOf: []*schema{number(), enum(append(slices.Clone(ratingGrades), sizeClasses...)...)}}
	}
	m.set("MetricDelta", object(
		req("key", ref("MetricKey")),
		req("name", str()),
		req("valueType", ref("MetricValueType")),
		req("inverted", boolean()),
		req("base", value()),
		req("head", (&schema{OneOf: []*schema{value(), typed("null")}}).
			withDescription("Null when the head has no analysis (every metric but the coverage ones).")),
		req("delta", nullable(number()).withDescription("head − base as numbers (grades A=1…F=5, sizes XS=1…XL=5); null with head.")),
	))
	m.set("Comparison", object(
		req("pullRequest", nullable(object(req("number", integer().withMin(1)), req("branch", str()), req("baseBranch", str())))),
		req("base", ref("ComparisonSide")),
		req("head", ref("ComparisonSide")),
		req("coverageDelta", nullable(number()).withDescription("Head minus base total coverage, in points.")),
		req("patch", (&schema{OneOf: []*schema{ref("PatchCoverage"), typed("null")}}).withDescription("Null when no change was uploaded for the head.")),
		req("issues", object(
			req("status", enum("compared", "no_data").withDescription("no_data while a side has no analysis: then every class is null.")),
			req("detail", nullable(str()).withDescription("Why the issues are not compared (no_data only).")),
			req("new", nullableRef("ComparedIssues")), req("fixed", nullableRef("ComparedIssues")), req("unchanged", nullableRef("ComparedIssues")))),
		req("metrics", nullable(object(
			req("project", arrayOf(ref("MetricDelta"))),
			req("components", arrayOf(object(req("id", uuid()), req("name", str()), req("metrics", arrayOf(ref("MetricDelta")))))),
		))),
		req("gate", ref("GateResult")),
	))
	gateProps := func() []prop {
		return []prop{
			req("patchCoverage", nullable(number().withMin(0).withMax(100)).withDescription("Least patch coverage, percent.")),
			req("coverageDrop", nullable(number().withMin(0).withMax(100)).withDescription("Most points total coverage may fall.")),
			req("newIssues", nullable(object(req("level", ref("IssueLevel")), req("max", integer().withMin(0)))).withDescription("At most max new issues of this level or worse.")),
			req("newSecurityIssues", nullable(integer().withMin(0)).withDescription("Most new issues of the security categories.")),
		}
	}
	advisory := func() *schema {
		return arrayOf(enum("patchCoverage", "coverageDrop", "newIssues", "newSecurityIssues")).withDescription(
			"The conditions, by field name, that are advisory: evaluated and shown but never failing the gate (each must be on, named once). The others block.")
	}
	m.set("QualityGateWrite", object(append(gateProps(), opt("advisory", nullable(advisory()).withDescription("Optional; absent, null or [] makes every condition blocking.")))...))
	m.set("QualityGate", object(append([]prop{req("custom", boolean().withDescription("False while the default gate applies."))}, append(gateProps(), req("advisory", advisory()))...)...))
	m.set("GateCondition", object(
		req("condition", enum("patch_coverage", "coverage_drop", "new_issues", "new_security_issues")),
		req("status", enum("passed", "failed", "no_data")),
		req("threshold", str()),
		req("actual", str()),
		req("advisory", boolean().withDescription("True for an advisory condition: a failure is shown but does not fail the gate.")),
	))
	gateResult := func(extra ...prop) *schema {
		return object(append([]prop{req("status", enum("passed", "failed")), req("conditions", arrayOf(ref("GateCondition")))}, extra...)...)
	}
	m.set("GateResult", gateResult())
	m.set("GateStatus", gateResult(
		req("baseCommitSha", str()), req("headCommitSha", str()),
		req("patchCoverage", nullable(number())), req("coverageDelta", nullable(number())),
		req("newIssues", nullable(arrayOf(ref("Issue"))).withDescription("The head's new open issues (all of them); null while the issues are not compared, a side having no analysis. `plumb gate --format gitlab-codequality` writes them as GitLab's Code Quality report."))))
	m.set("CodeHostWrite", object(
		req("kind", enum("github", "gitlab")),
		req("repository", str().withMinLength(1).withDescription("OWNER/NAME on GitHub; the project path (group/sub/name) or id on GitLab.")),
		opt("token", str().withMinLength(1).withDescription("A token allowed to set commit statuses and write comments. Required, except for GitHub on a server with a GitHub App: without a token the App's installation tokens are used, and a check run is sent too.")),
		opt("baseUrl", str().withDescription("The API's base URL (GitHub Enterprise, self-managed GitLab).")),
	))
	m.set("CodeHost", object(
		req("configured", boolean()),
		req("kind", nullable(enum("github", "gitlab"))),
		req("baseUrl", nullable(str())),
		req("repository", nullable(str())),
		req("lastDelivery", nullable(object(
			req("commitSha", str()),
			req("state", enum("delivered", "failed")),
			req("attempts", integer().withMin(1)),
			req("detail", str().withDescription("The last error, when failed.")),
			req("at", timestamp()),
		))),
	))
	m.set("ChangeFile", object(
		req("path", str().withMinLength(1).withDescription("The head path.")),
		opt("previousPath", str().withDescription("The base path of a renamed file.")),
		req("status", enum("added", "modified", "renamed", "deleted")),
		opt("addedLines", arrayOf(arrayOf(integer().withMin(1)).withMinItems(2).withMaxItems(2)).withDescription("Head lines added or modified, as [start, end] ranges.")),
	))
	m.set("ChangeUpload", object(
		req("commitSha", str().withMinLength(7).withMaxLength(64).withPattern(shaPattern)),
		opt("branch", str()),
		opt("baseCommitSha", str().withMinLength(7).withMaxLength(64).withPattern(shaPattern).withDescription("The merge base (`git merge-base`); baseCommitSha or baseBranch is required.")),
		opt("baseBranch", str()),
		opt("pullRequestNumber", integer().withMin(1)),
		req("files", arrayOf(ref("ChangeFile"))),
	))
	m.set("ChangeResult", object(req("commitSha", str()), req("files", integer().withMin(0)), req("changedLines", integer().withMin(0))))
}
