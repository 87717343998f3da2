package openapi

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
)

// endpoint is one operation of the v1 API. The paths object is generated
// from the endpoints table, so each operation states only what is its own.
type endpoint struct {
	method, path string
	id, tag      string
	summary      string
	description  string
	query        []string // components/parameters of the query string
	body         string   // request body schema (POST, PUT)
	status       int      // success status
	okDesc       string   // success response description
	result       *schema  // success body (JSON); nil for no content
	export       *export  // NDJSON and CSV forms, for list endpoints
	markdown     bool     // text/markdown form (docs/pull-requests.md)
	text         string   // the success body is text/plain, described so (instead of result)
	paginated    bool     // Link header
	location     bool     // Location header (201)
	errors       []int    // operation-specific errors (400, 403, 404, 409)
	uncounted    bool     // not rate limited: no 429
	public       bool     // no token needed

	// Ingestion operations (docs/ingest.md).
	report      string         // raw report request body (any media type) described so; "" for none
	idempotent  bool           // Idempotency-Key request header, Idempotent-Replayed response header
	errorDetail map[int]string // errors described for this operation (inline) instead of by the shared responses
}

const (
	tagWorkspaces   = "Workspaces"
	tagApplications = "Applications"
	tagIssues       = "Issues"
	tagBuilds       = "Builds"
	tagFiles        = "File metrics"
	tagCoverage     = "Coverage"
	tagComponents   = "Components"
	tagRateLimit    = "Rate limit"
	tagDescription  = "API description"
	tagIngestion    = "Ingestion"
)

var tags = []tag{
	{tagWorkspaces, "Workspaces (repository owners) accessible to the token."},
	{tagApplications, "Applications group a Workspace's Projects."},
	{tagIssues, "Findings of analysis tools on a Project."},
	{tagBuilds, "Analysis runs of a Project."},
	{tagFiles, "Latest metric values of one file on the Project's default branch."},
	{tagCoverage, "Line-by-line coverage of a file at a Git reference or commit."},
	{tagComponents, "Named sets of path globs of a Project, and their metrics."},
	{tagRateLimit, "The token's rate limit status."},
	{tagDescription, "This OpenAPI description."},
	{tagPulls, "Comparisons of a head commit with its base: coverage, patch coverage, issues and metrics (docs/pull-requests.md)."},
	{tagSources, "Plumb's extension: the text of a project's files, as uploaded with their analysis or coverage (docs/sources.md)."},
	{tagIngestion, "Uploads from CI (docs/ingest.md): coverage reports, SARIF findings, analysis snapshots and build states, below /ingest so the v1 paths stay as specified. " +
		"They take a project admin's user token or the project's upload token (`plbu_…`), which the other operations refuse (401)."},
}

const (
	project   = "/gh/{ownerKeyOrId}/projects/{projectKeyOrId}"
	component = project + "/components/{componentIdOrName}"
	ingest    = "/ingest" + project
)

var pageParams = []string{"pageLimit", "pageOffset"}

func withPage(query ...string) []string { return append(slices.Clone(pageParams), query...) }

var endpoints = []endpoint{
	{
		method: http.MethodGet, path: "/workspaces", id: "listWorkspaces", tag: tagWorkspaces,
		summary:     "List workspaces",
		description: "Workspaces the token's user is a member of, ordered by key (case-insensitive), then id.",
		query:       pageParams,
		okDesc:      "A page of workspaces.",
		result:      ref("WorkspaceList"),
		export:      &export{row: "Workspace", noun: "Workspace", csvRow: "workspace", columns: []string{"id", "key", "avatarUrl", "providerUrl", "createdAt", "updatedAt"}},
		paginated:   true,
		errors:      []int{400},
	},
	{
		method: http.MethodPost, path: "/gh/{ownerKeyOrId}/applications", id: "createApplication", tag: tagApplications,
		summary:     "Create an application",
		description: "Any member of the workspace may create an application; the workspace must have Applications enabled (403 otherwise). The name must not be taken in the workspace, case-insensitively (409).",
		body:        "ApplicationCreate",
		status:      http.StatusCreated,
		okDesc:      "The created application.",
		result:      ref("Application"),
		location:    true,
		errors:      []int{400, 403, 404, 409},
	},
	{
		method: http.MethodGet, path: "/gh/{ownerKeyOrId}/applications", id: "listApplications", tag: tagApplications,
		summary:     "List applications",
		description: "Applications of the workspace, ordered by name (case-insensitive), then id.",
		query:       withPage("applicationName"),
		okDesc:      "A page of applications.",
		result:      ref("ApplicationList"),
		export:      &export{row: "ApplicationWithCount", noun: "ApplicationWithCount", csvRow: "application", columns: []string{"id", "name", "description", "projectCount"}},
		paginated:   true,
		errors:      []int{400, 404},
	},
	{
		method: http.MethodGet, path: "/gh/{ownerKeyOrId}/applications/{applicationIdOrName}", id: "getApplication", tag: tagApplications,
		summary:     "Get an application",
		description: "One application of the workspace, by ID or name (case-insensitive), with the number of its projects.",
		okDesc:      "The application.",
		result:      ref("ApplicationWithCount"),
		errors:      []int{400, 404},
	},
	{
		method: http.MethodGet, path: project + "/issues", id: "listIssues", tag: tagIssues,
		summary:     "List issues",
		description: "Issues of the latest analysis of the project's default branch, ordered by file path, start line, then rule key. Values of one filter combine with OR, different filters with AND.",
		query:       withPage("issueCategory", "issueLevel", "issueStatus", "issueTool"),
		okDesc:      "A page of issues.",
		result:      ref("IssueList"),
		export: &export{row: "Issue", noun: "Issue", csvRow: "issue", columns: []string{
			"id", "fingerprint", "tool", "ruleKey", "message", "category", "level", "status",
			"documentationUrl", "location.path", "location.startLine", "location.endLine"}},
		paginated: true,
		errors:    []int{400, 403, 404},
	},
	{
		method: http.MethodGet, path: project + "/builds", id: "listBuilds", tag: tagBuilds,
		summary:     "List builds",
		description: "Builds of the project, most recently submitted first (then id descending).",
		query:       withPage("buildStatus"),
		okDesc:      "A page of builds.",
		result:      ref("BuildList"),
		export: &export{row: "BuildListEntry", noun: "BuildListEntry", csvRow: "build", columns: []string{
			"id", "type", "status", "branchName", "commitSha", "commitMessage", "submittedAt", "finishedAt", "queueSeconds"}},
		paginated: true,
		errors:    []int{400, 404},
	},
	{
		method: http.MethodGet, path: project + "/builds/{buildId}", id: "getBuild", tag: tagBuilds,
		summary:     "Get a build",
		description: "One build of the project by its ID, with every field (timings, status reason, conclusion, exit code, pull request).",
		okDesc:      "The build, with all its fields.",
		result:      ref("Build"),
		errors:      []int{400, 404},
	},
	{
		method: http.MethodGet, path: project + "/files", id: "getFileMetrics", tag: tagFiles,
		summary:     "Get file metrics",
		description: "Latest values of all twelve metrics for one file of the latest analysis of the default branch, in catalogue order. A path that is not such a file answers 404.",
		query:       []string{"filePath"},
		okDesc:      "The file's metric values.",
		result:      ref("MetricValueList"),
		errors:      []int{400, 404},
	},
	{
		method: http.MethodGet, path: project + "/coverage/file", id: "getFileCoverage", tag: tagCoverage,
		summary:     "Get file coverage",
		description: "Line coverage of a file at the commit the reference resolves to: the tags uploaded for that commit, and one entry per tag that covers the path. An unknown reference, or a path without coverage there, answers 404.",
		query:       []string{"coverageReference", "filePath"},
		okDesc:      "The file's coverage.",
		result:      ref("FileCoverageResponse"),
		errors:      []int{400, 404},
	},
	{
		method: http.MethodGet, path: project + "/components", id: "listComponents", tag: tagComponents,
		summary:     "List components",
		description: "Every component of the project (not paginated), ordered by name (case-insensitive), then id. The project must have Components enabled (403 otherwise).",
		okDesc:      "The project's components.",
		result:      ref("ComponentList"),
		export:      &export{row: "ComponentWithCount", noun: "ComponentWithCount", csvRow: "component", columns: []string{"id", "name", "description", "pathGlobs", "fileCount"}},
		errors:      []int{400, 403, 404},
	},
	{
		method: http.MethodPost, path: project + "/components", id: "createComponent", tag: tagComponents,
		summary:     "Create a component",
		description: "Needs the project admin role and Components enabled on the project (403 otherwise). The name must not be taken in the project, case-insensitively (409).",
		body:        "ComponentWrite",
		status:      http.StatusCreated,
		okDesc:      "The created component.",
		result:      ref("Component"),
		location:    true,
		errors:      []int{400, 403, 404, 409},
	},
	{
		method: http.MethodPut, path: component, id: "replaceComponent", tag: tagComponents,
		summary:     "Replace a component",
		description: "Fully replaces the definition: fields not sent are not kept (a missing description becomes \"\"). The id and creator are preserved. Needs the project admin role and Components enabled (403 otherwise); renaming to a name taken by another component is a 409.",
		body:        "ComponentWrite",
		okDesc:      "The replaced component.",
		result:      ref("Component"),
		errors:      []int{400, 403, 404, 409},
	},
	{
		method: http.MethodDelete, path: component, id: "deleteComponent", tag: tagComponents,
		summary:     "Delete a component",
		description: "Needs the project admin role and Components enabled on the project (403 otherwise).",
		status:      http.StatusNoContent,
		okDesc:      "The component was deleted.",
		errors:      []int{400, 403, 404},
	},
	{
		method: http.MethodGet, path: component + "/metrics", id: "getComponentMetrics", tag: tagComponents,
		summary:     "Get component metrics",
		description: "Latest values of all twelve metrics over the component's files, from the latest analysis (and latest coverage) of the default branch, in catalogue order.",
		okDesc:      "The component's metric values.",
		result:      ref("MetricValueList"),
		errors:      []int{400, 403, 404},
	},
	{
		method: http.MethodGet, path: component + "/metrics/series", id: "getComponentMetricSeries", tag: tagComponents,
		summary: "Get component metric series",
		description: "One series per metric (after the metric and category filters), in catalogue order, from the default branch. " +
			"Each point is labelled with the last second of its bucket; the last bucket (the one containing `to`) may be labelled later than `to`. " +
			"A bucket without a measurement carries the latest earlier one forward; buckets before the first measurement are omitted.",
		query:  []string{"seriesFrom", "seriesTo", "seriesInterval", "seriesMetric", "seriesCategory"},
		okDesc: "The component's metric series.",
		result: ref("SeriesResponse"),
		export: &export{row: "SeriesEntry", noun: "SeriesEntry", csvRow: "point", columns: []string{"metric", "timestamp", "value"}},
		errors: []int{400, 403, 404},
	},
	{
		method: http.MethodGet, path: "/rate_limit", id: "getRateLimit", tag: tagRateLimit,
		summary:     "Get rate limit status",
		description: "The token's rate limit status, consistent with the x-ratelimit-* headers. Not counted, and answers even when the quota is spent.",
		okDesc:      "The token's rate limit status.",
		result:      ref("RateLimitResponse"),
		uncounted:   true,
	},
	{
		method: http.MethodGet, path: "/openapi.json", id: "getOpenAPIDocument", tag: tagDescription,
		summary:     "Get this OpenAPI description",
		description: "The OpenAPI 3.1.0 description of the v1 API. Needs no token; a request with a valid token is not counted but carries the x-ratelimit-* headers.",
		okDesc:      "The OpenAPI document.",
		result:      &schema{Type: types{"object"}, Description: "An OpenAPI 3.1.0 document."},
		public:      true,
		uncounted:   true,
	},
}

var pathParamPattern = regexp.MustCompile(`\{([^{}]+)\}`)

// paths builds the paths object from the endpoints table, in table order.
func paths() *omap[*pathItem] {
	m := newOmap[*pathItem]()
	all := v1Endpoints()
	for i := range all {
		ep := &all[i]
		itemFor(m, ep.path).set(ep.method, ep.operation())
	}
	qltyPaths(m)
	return m
}

// itemFor is the path item of path, added (with its path parameters) when
// m has none yet.
func itemFor(m *omap[*pathItem], path string) *pathItem {
	item, ok := m.get(path)
	if !ok {
		item = &pathItem{}
		for _, match := range pathParamPattern.FindAllStringSubmatch(path, -1) {
			item.Parameters = append(item.Parameters, paramRef(match[1]))
		}
		m.set(path, item)
	}
	return item
}

// set makes op the item's operation for method.
func (item *pathItem) set(method string, op *operation) {
	switch method {
	case http.MethodGet:
		item.Get = op
	case http.MethodPut:
		item.Put = op
	case http.MethodPost:
		item.Post = op
	case http.MethodDelete:
		item.Delete = op
	default:
		panic("openapi: unsupported method " + method)
	}
}

func (ep *endpoint) operation() *operation {
	op := &operation{
		Tags:        []string{ep.tag},
		Summary:     ep.summary,
		Description: ep.description,
		OperationID: ep.id,
		Responses:   newOmap[*response](),
	}
	if ep.public {
		op.Security = &[]secReq{}
	}
	for _, name := range ep.query {
		op.Parameters = append(op.Parameters, paramRef(name))
	}
	if ep.idempotent {
		op.Parameters = append(op.Parameters, paramRef("idempotencyKey"))
	}
	switch {
	case ep.body != "":
		op.RequestBody = &requestBody{Required: true, Content: jsonContent(ref(ep.body))}
	case ep.report != "":
		report := func() *schema { return str().withFormat("binary").withDescription(ep.report) }
		op.RequestBody = &requestBody{
			Description: ep.report,
			Required:    true,
			Content: newOmap[*mediaType]().
				set(mediaOctetStream, &mediaType{Schema: report()}).
				set(mediaAny, &mediaType{Schema: report()}),
		}
	}

	status := ep.status
	if status == 0 {
		status = http.StatusOK
	}
	op.Responses.set(statusKey(status), ep.success())

	if ep.public {
		// The description itself: a wrong Accept is all that can fail.
		op.Responses.set(statusKey(http.StatusNotAcceptable), errorResponse(errorDefFor(http.StatusNotAcceptable), rateLimitOptional))
		return op
	}
	for _, code := range ep.errorStatuses() {
		if detail, ok := ep.errorDetail[code]; ok {
			d := errorDefFor(code)
			d.description = detail
			op.Responses.set(statusKey(code), errorResponse(d, d.rateLimit))
			continue
		}
		op.Responses.set(statusKey(code), responseRef(errorResponseName(code)))
	}
	return op
}

// errorStatuses is the operation's own errors plus those every
// authenticated operation can answer, ascending.
func (ep *endpoint) errorStatuses() []int {
	codes := append(slices.Clone(ep.errors),
		http.StatusUnauthorized, http.StatusMethodNotAllowed, http.StatusNotAcceptable,
		http.StatusInternalServerError, http.StatusServiceUnavailable)
	if !ep.uncounted {
		codes = append(codes, http.StatusTooManyRequests)
	}
	if ep.body != "" || ep.report != "" {
		codes = append(codes, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
	}
	if ep.report != "" || ep.id == "uploadAnalysis" {
		codes = append(codes, http.StatusRequestTimeout) // a stalled upload (its body is spooled)
	}
	slices.Sort(codes)
	return slices.Compact(codes)
}

func (ep *endpoint) success() *response {
	r := &response{Description: ep.okDesc, Headers: newOmap[*header]()}
	if ep.location {
		r.Headers.set("Location", headerRef("Location"))
	}
	if ep.idempotent {
		r.Headers.set("Idempotent-Replayed", headerRef("IdempotentReplayed"))
	}
	if ep.paginated {
		r.Headers.set("Link", headerRef("Link"))
	}
	mode := rateLimitRequired
	if ep.public {
		mode = rateLimitOptional
	}
	addRateLimitHeaders(r.Headers, mode)
	switch {
	case ep.export != nil:
		r.Content = ep.export.content(ep.result)
		r.Description += " JSON by default; application/x-ndjson or text/csv by the Accept header."
	case ep.result != nil:
		r.Content = jsonContent(ep.result)
	case ep.text != "":
		r.Content = newOmap[*mediaType]().set(mediaText, &mediaType{Schema: str().withDescription(ep.text)})
	}
	if ep.markdown {
		r.Content.set(mediaMarkdown, &mediaType{Schema: str().withDescription("The Markdown summary (for a pull request comment).")})
	}
	return r
}

func statusKey(code int) string { return strconv.Itoa(code) }
