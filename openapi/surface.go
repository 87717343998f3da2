package openapi

import "net/http"

// The original service's surface beyond the specification (api-contract.md,
// "The rest of the original service's surface"): what its clients call.

const (
	tagUser     = "User"
	tagProjects = "Projects"
)

var surfaceTags = []tag{
	{tagUser, "The token's user."},
	{tagProjects, "Projects (repositories) of a Workspace, their whole-project metrics and issue counts."},
}

var surfaceEndpoints = []endpoint{
	{
		method: http.MethodGet, path: "/user", id: "getUser", tag: tagUser,
		summary:     "Get the authenticated user",
		description: "The user the token acts as. Every member is a string: an unknown email or URL is \"\".",
		okDesc:      "The token's user.",
		result:      ref("User"),
	},
	{
		method: http.MethodGet, path: "/workspaces/{ownerKeyOrId}", id: "getWorkspace", tag: tagWorkspaces,
		summary:     "Get a workspace",
		description: "One workspace the token's user is a member of, by key (case-insensitive) or ID; any other answers 404.",
		okDesc:      "The workspace.",
		result:      ref("Workspace"),
		errors:      []int{400, 404},
	},
	{
		method: http.MethodGet, path: "/gh/{ownerKeyOrId}/projects", id: "listProjects", tag: tagProjects,
		summary:     "List projects",
		description: "Projects of the workspace (a member sees all of them), ordered by key (case-insensitive), then id.",
		query:       pageParams,
		okDesc:      "A page of projects.",
		result:      ref("ProjectList"),
		export: &export{row: "Project", noun: "Project", csvRow: "project", columns: []string{
			"id", "key", "workspaceId", "workspaceKey", "defaultBranch", "providerUrl", "createdAt", "updatedAt"}},
		paginated: true,
		errors:    []int{400, 404},
	},
	{
		method: http.MethodGet, path: project, id: "getProject", tag: tagProjects,
		summary:     "Get a project",
		description: "One project of the workspace, by key (case-insensitive) or ID.",
		okDesc:      "The project.",
		result:      ref("Project"),
		errors:      []int{400, 404},
	},
	{
		method: http.MethodGet, path: project + "/metrics", id: "getProjectMetrics", tag: tagProjects,
		summary:     "Get project metrics",
		description: "Latest values of all twelve metrics over every file of the latest analysis of the default branch (and its latest coverage), in catalogue order.",
		okDesc:      "The project's metric values.",
		result:      ref("MetricValueList"),
		errors:      []int{400, 404},
	},
	{
		method: http.MethodGet, path: project + "/metrics/series", id: "getProjectMetricSeries", tag: tagProjects,
		summary: "Get project metric series",
		description: "As the component metric series, for the whole project: one series per metric (after the metric and category filters), in catalogue order, from the default branch. " +
			"Grades and size classes are numbers (A=1 … F=5, XS=1 … XL=5).",
		query:  []string{"seriesFrom", "seriesTo", "seriesInterval", "seriesMetric", "seriesCategory"},
		okDesc: "The project's metric series.",
		result: ref("SeriesResponse"),
		export: &export{row: "SeriesEntry", noun: "SeriesEntry", csvRow: "point", columns: []string{"metric", "timestamp", "value"}},
		errors: []int{400, 404},
	},
	{
		method: http.MethodGet, path: project + "/issues/counts", id: "getIssueCounts", tag: tagIssues,
		summary: "Count issues",
		description: "Counts of the issues the issue list returns with the same filters (status defaults to open), in total and by category, level, status and tool. " +
			"Every category, level and status is listed, 0 included; tools only when they have issues.",
		query:  []string{"issueCategory", "issueLevel", "issueStatus", "issueTool"},
		okDesc: "The issue counts.",
		result: ref("IssueCounts"),
		errors: []int{400, 404},
	},
}

// surfaceSchemas adds the objects of the original service's surface.
func surfaceSchemas(m *omap[*schema]) {
	m.set("User", object(
		req("id", uuid()),
		req("login", str()),
		req("name", str()),
		req("email", str().withDescription("The user's email address; \"\" when unknown.")),
		req("avatarUrl", str().withDescription("URL of the user's picture; \"\" when unknown.")),
		req("providerUrl", str().withDescription("URL of the user's profile on the code host; \"\" when unknown.")),
		req("createdAt", timestamp()),
		req("updatedAt", timestamp()),
	))
	m.set("Project", object(
		req("id", uuid()),
		req("key", str().withDescription("Project key (the repository name).")),
		req("workspaceId", uuid()),
		req("workspaceKey", str()),
		req("defaultBranch", str()),
		req("providerUrl", str().withDescription("The repository at the code host: the workspace's providerUrl followed by the project key; \"\" when the workspace has none.")),
		req("createdAt", timestamp()),
		req("updatedAt", timestamp()),
	))
	m.set("ProjectList", listOf("Project"))
	counts := func(desc string) *schema {
		return &schema{Type: types{"object"}, Description: desc, AdditionalProperties: integer().withMin(0)}
	}
	m.set("IssueCounts", object(
		req("total", integer().withMin(0).withDescription("Number of issues that pass the filters.")),
		req("byCategory", counts("Issue category → count; every category.")),
		req("byLevel", counts("Issue level → count; every level.")),
		req("byStatus", counts("Issue status → count; every status.")),
		req("byTool", counts("Tool name → count; tools with issues only.")),
	))
}
