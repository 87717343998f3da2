package openapi

import "fmt"

// paramSuffix ends every components/parameters name, so that no parameter
// shares a name with a schema (issueCategory and IssueCategory would both
// be the Go type IssueCategory in a generated client).
const paramSuffix = "Param"

func paramRef(name string) *param {
	return &param{Ref: "#/components/parameters/" + name + paramSuffix}
}

func pathParam(name, description string, minLength int) *param {
	return &param{
		Name:        name,
		In:          "path",
		Description: description,
		Required:    true,
		Schema:      str().withMinLength(minLength),
	}
}

func queryParam(name, description string, s *schema) *param {
	return &param{Name: name, In: "query", Description: description, Schema: s}
}

func requiredQueryParam(name, description string, s *schema) *param {
	p := queryParam(name, description, s)
	p.Required = true
	return p
}

// arrayQueryParam is a filter that takes several values. The document
// describes the repeated-key form (style form, explode true); the server
// accepts the other common encodings too, which the description says.
func arrayQueryParam(name, description string, items *schema, a, b string) *param {
	explode := true
	return &param{
		Name: name,
		In:   "query",
		Description: fmt.Sprintf("%s One value or several, combined with OR. "+
			"A repeated key (`%[2]s=%[3]s&%[2]s=%[4]s`), the bracket form (`%[2]s[]=%[3]s`, `%[2]s[0]=%[3]s`) "+
			"and a comma list (`%[2]s=%[3]s,%[4]s`) are all accepted, in any mix; empty items are ignored.",
			description, name, a, b),
		Style:   "form",
		Explode: &explode,
		Schema:  arrayOf(items),
	}
}

// pathParamDefs are the path parameters, with the spec's minimum lengths.
var pathParamDefs = []struct {
	name, description string
	minLength         int
}{
	{"ownerKeyOrId", "Workspace key (the repository owner's login, case-insensitive) or Workspace ID.", 3},
	{"projectKeyOrId", "Project key (the repository name, case-insensitive) or Project ID.", 3},
	{"buildId", "Build ID.", 3},
	{"componentIdOrName", "Component ID or Component name (case-insensitive).", 1},
	{"applicationIdOrName", "Application ID or Application name (case-insensitive).", 1},
	{"uploadTokenId", "Upload token ID.", 1},
}

// parameters returns components/parameters.
func parameters() *omap[*param] {
	m := newOmap[*param]()
	for _, d := range pathParamDefs {
		m.set(d.name, pathParam(d.name, d.description, d.minLength))
	}

	m.set("pageLimit", queryParam("page[limit]",
		"Page size. For application/x-ndjson and text/csv an omitted page[limit] returns every matching row (an export); given explicitly, paging applies as for JSON.",
		integer().withMin(1).withMax(100).withDefault(20)))
	m.set("pageOffset", queryParam("page[offset]",
		"Number of rows to skip. May be given empty (`page[offset]=`), which means 0.",
		integer().withMin(0).withDefault(0)))

	m.set("issueCategory", arrayQueryParam("category", "Issue categories to include.", ref("IssueCategory"), "bug", "lint"))
	m.set("issueLevel", arrayQueryParam("level", "Issue levels to include.", ref("IssueLevel"), "high", "low"))
	issueStatus := arrayQueryParam("status", "Issue statuses to include. Defaults to open.", ref("IssueStatus"), "open", "ignored")
	issueStatus.Schema.Default = []string{"open"}
	m.set("issueStatus", issueStatus)
	m.set("issueTool", arrayQueryParam("tool", "Tool names to include, matched case-insensitively against the exact name; an unknown tool matches nothing.", str(), "eslint", "pylint"))

	m.set("buildStatus", queryParam("status", "Only builds whose most recent status is this one (a single value).", ref("BuildStatus")))
	m.set("applicationName", queryParam("name", "Case-insensitive substring of the Application's name; `%` and `_` are literal characters.", str()))

	m.set("filePath", requiredQueryParam("path", "Repository-relative file path.", str().withMinLength(1)))
	m.set("coverageReference", requiredQueryParam("reference",
		"A Git reference (`refs/heads/<branch>`, `refs/tags/<tag>` or `refs/pull/<number>`) or a commit SHA (40 hex digits, or a unique prefix of at least 7). A branch resolves to its commit with the most recent coverage upload; a pull request to the commit of the latest coverage upload made for it.",
		str().withMinLength(1)))

	m.set("sourceReference", requiredQueryParam("reference",
		"A branch name, a Git reference (`refs/heads/<branch>`, `refs/tags/<tag>`, `refs/pull/<number>`) or a commit SHA (40 hex digits, or a unique prefix of at least 7), resolved to a commit with coverage or an analysis.",
		str().withMinLength(1)))

	m.set("seriesFrom", queryParam("from",
		"Window start, inclusive: an RFC 3339 date or date-time (a date means 00:00:00Z). Defaults to six months before `to`; after `to` is a 400.",
		str().withDescription("RFC 3339 date or date-time.")))
	m.set("seriesTo", queryParam("to",
		"Window end, inclusive: an RFC 3339 date or date-time (a date means 23:59:59Z). Defaults to now and is clamped to now.",
		str().withDescription("RFC 3339 date or date-time.")))
	m.set("seriesInterval", queryParam("interval",
		"Bucket size. Buckets are UTC-aligned; weeks start Monday; months are calendar months.",
		enum(seriesIntervals...).withDefault("week")))
	m.set("seriesMetric", arrayQueryParam("metric", "Metric keys to include.", ref("MetricKey"), "LOC", "COV"))
	m.set("seriesCategory", arrayQueryParam("category", "Metric categories to include.", ref("MetricCategory"), "size", "coverage"))
	ingestParameters(m)
	qltyParameters(m)
	pullParameters(m)
	out := newOmap[*param]()
	for _, k := range m.keys {
		out.set(k+paramSuffix, m.vals[k])
	}
	return out
}
