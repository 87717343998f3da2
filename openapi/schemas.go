package openapi

import "slices"

// Schema builders. Each returns a fresh *schema, so callers may refine it
// with the chainable setters below without affecting other uses.

func ref(name string) *schema { return &schema{Ref: "#/components/schemas/" + name} }

func typed(t ...string) *schema { return &schema{Type: types(t)} }

func str() *schema     { return typed("string") }
func integer() *schema { return typed("integer") }
func number() *schema  { return typed("number").withFormat("double") } // non-integer numbers are doubles
func boolean() *schema { return typed("boolean") }

func enum(values ...string) *schema {
	s := str()
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

func arrayOf(items *schema) *schema {
	s := typed("array")
	s.Items = items
	return s
}

// nullable adds null to a schema's types (and to its enum, if it has one).
func nullable(s *schema) *schema {
	s.Type = append(s.Type, "null")
	if s.Enum != nil {
		s.Enum = append(s.Enum, nil)
	}
	return s
}

// timestampPattern restricts date-times to the contract's form: UTC with Z,
// whole seconds.
const timestampPattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`

func uuid() *schema      { return str().withFormat("uuid") }
func uri() *schema       { return str().withFormat("uri") }
func timestamp() *schema { return str().withFormat("date-time").withPattern(timestampPattern) }

func intPtr(n int) *int { return &n }

func (s *schema) withDescription(d string) *schema { s.Description = d; return s }
func (s *schema) withFormat(f string) *schema      { s.Format = f; return s }
func (s *schema) withPattern(p string) *schema     { s.Pattern = p; return s }
func (s *schema) withDefault(v any) *schema        { s.Default = v; return s }
func (s *schema) withMin(n int) *schema            { s.Minimum = intPtr(n); return s }
func (s *schema) withMax(n int) *schema            { s.Maximum = intPtr(n); return s }
func (s *schema) withMinLength(n int) *schema      { s.MinLength = intPtr(n); return s }
func (s *schema) withMaxLength(n int) *schema      { s.MaxLength = intPtr(n); return s }
func (s *schema) withMinItems(n int) *schema       { s.MinItems = intPtr(n); return s }
func (s *schema) withMaxItems(n int) *schema       { s.MaxItems = intPtr(n); return s }

// prop is one property of an object schema.
type prop struct {
	name     string
	schema   *schema
	required bool
}

func req(name string, s *schema) prop { return prop{name, s, true} }
func opt(name string, s *schema) prop { return prop{name, s, false} }

// object is a closed object schema: additionalProperties false, required
// listing exactly the required props, in order.
func object(props ...prop) *schema {
	s := typed("object")
	s.Properties = newOmap[*schema]()
	for _, p := range props {
		s.Properties.set(p.name, p.schema)
		if p.required {
			s.Required = append(s.Required, p.name)
		}
	}
	s.AdditionalProperties = false
	return s
}

// Enumerations shared by schemas and query parameters.
var (
	issueCategories = []string{
		"bug", "vulnerability", "structure", "duplication", "security_hotspot",
		"performance", "documentation", "type_check", "style", "anti_pattern",
		"accessibility", "dead_code", "lint", "secret", "dependency_alert",
	}
	issueLevels      = []string{"high", "medium", "low", "note", "fmt"}
	issueStatuses    = []string{"open", "ignored"}
	buildTypes       = []string{"analysis", "format", "ssh", "coverage_setup"}
	buildStatuses    = []string{"submitted", "starting", "running", "succeeded", "failed", "skipped", "rejected"}
	metricKeys       = []string{"CMPLX", "DUP", "MNT", "SEC", "SIZE", "ISS", "SECI", "TDR", "FILES", "LOC", "COV", "LCOV"}
	metricCategories = []string{"maintainability", "reliability", "security", "size", "coverage", "quality"}
	metricValueTypes = []string{"number", "percentage", "grade", "size"}
	ratingGrades     = []string{"A", "B", "C", "D", "F"}
	sizeClasses      = []string{"XS", "S", "M", "L", "XL"}
	seriesIntervals  = []string{"day", "week", "month"}
)

// Field sets shared by a resource's variants. Each call returns a fresh
// slice, so appending the extra fields of a variant is safe.

func applicationProps() []prop {
	return []prop{
		req("id", uuid()),
		req("name", str()),
		req("description", str()),
	}
}

func componentName() *schema { return str().withMinLength(1).withMaxLength(100) }

// pathGlob is one glob of a component. No comma, CR or LF: CSV exports join
// the globs with commas.
func pathGlob() *schema {
	return str().withMinLength(1).withPattern(`^[^,\r\n]+$`).
		withDescription("One path glob. `*` matches any characters, including `/`. No comma, carriage return or line feed.")
}

func componentProps() []prop {
	return []prop{
		req("id", uuid()),
		req("name", componentName()),
		req("description", str()),
		req("pathGlobs", arrayOf(pathGlob()).withMinItems(1)),
	}
}

func buildListProps() []prop {
	return []prop{
		req("id", uuid()),
		req("type", ref("BuildType")),
		req("status", ref("BuildStatus")),
		req("branchName", str()),
		req("commitSha", str()),
		req("commitMessage", str()),
		req("submittedAt", timestamp()),
		req("finishedAt", nullable(timestamp())),
		req("queueSeconds", integer().withDescription("Seconds from submittedAt to startedAt; for a build that has not started, to finishedAt or to now.")),
	}
}

// listOf is the paginated list envelope {data: [item], meta: {hasMore}}.
func listOf(item string) *schema {
	return object(req("data", arrayOf(ref(item))), req("meta", ref("PageMeta")))
}

// dataOf is the unpaginated envelope {data: [item]}.
func dataOf(item string) *schema {
	return object(req("data", arrayOf(ref(item))))
}

func enumSchema(description string, values []string) *schema {
	return enum(values...).withDescription(description)
}

// schemas returns components/schemas, in the spec's order of resources.
func schemas() *omap[*schema] {
	m := newOmap[*schema]()

	m.set("PageMeta", object(req("hasMore", boolean().withDescription("True exactly when a row exists after the returned page."))))

	m.set("Workspace", object(
		req("id", uuid()),
		req("key", str().withDescription("Workspace key (the owner name).")),
		req("avatarUrl", uri()),
		req("providerUrl", uri().withDescription("Address of the owner at the hosting provider.")),
		req("createdAt", timestamp()),
		req("updatedAt", timestamp()),
	))
	m.set("WorkspaceList", listOf("Workspace"))

	m.set("Application", object(applicationProps()...))
	m.set("ApplicationWithCount", object(append(applicationProps(),
		req("projectCount", integer().withDescription("Number of Projects in the Application.")))...))
	m.set("ApplicationCreate", object(
		req("name", str().withMinLength(1).withMaxLength(100).withDescription("1 to 100 characters, not blank, no control characters; stored exactly as sent. Unique in the workspace, case-insensitively.")),
		opt("description", str().withMaxLength(1000).withDescription(`Defaults to "".`)),
	))
	m.set("ApplicationList", listOf("ApplicationWithCount"))

	m.set("IssueCategory", enumSchema("Issue category.", issueCategories))
	m.set("IssueLevel", enumSchema("Issue level.", issueLevels))
	m.set("IssueStatus", enumSchema("Issue status.", issueStatuses))
	m.set("IssueLocation", object(
		req("path", str()),
		opt("startLine", integer()),
		opt("endLine", integer()),
	))
	m.set("Issue", object(
		req("id", uuid()),
		req("fingerprint", str()),
		req("tool", str().withDescription("Name of the analysis tool.")),
		req("ruleKey", str()),
		req("message", str()),
		req("category", ref("IssueCategory")),
		req("level", ref("IssueLevel")),
		req("status", ref("IssueStatus")),
		opt("documentationUrl", uri()),
		req("location", ref("IssueLocation")),
	))
	m.set("IssueList", listOf("Issue"))

	m.set("BuildType", enumSchema("Build type.", buildTypes))
	m.set("BuildStatus", enumSchema("Most recent status reported for a build.", buildStatuses))
	m.set("BuildListEntry", object(buildListProps()...))
	m.set("Build", object(append(buildListProps(),
		req("statusReason", nullable(str()).withDescription("Explanation for the current status, when one was reported.")),
		req("conclusion", nullable(enum("succeeded", "failed")).withDescription("Terminal outcome; null while the build is unfinished.")),
		req("exitCode", nullable(integer())),
		req("source", str().withDescription("Origin of the build; empty when not reported.")),
		req("pullRequestNumber", nullable(integer())),
		req("committerLogin", str().withDescription("Empty when not reported.")),
		req("startedAt", nullable(timestamp())),
		req("executionSeconds", nullable(integer()).withDescription("finishedAt − startedAt; null until both are known.")),
	)...))
	m.set("BuildList", listOf("BuildListEntry"))

	m.set("Component", object(componentProps()...))
	m.set("ComponentWithCount", object(append(componentProps(),
		req("fileCount", integer().withDescription("Number of files of the latest default-branch analysis the globs match.")))...))
	m.set("ComponentWrite", object(
		req("name", componentName().withDescription("1 to 100 characters, no control characters. Unique in the project, case-insensitively.")),
		opt("description", str().withMaxLength(1000).withDescription(`Defaults to "" (also on replacement).`)),
		req("pathGlobs", arrayOf(pathGlob().withMaxLength(1000)).withMinItems(1).withMaxItems(1000)),
	))
	m.set("ComponentList", dataOf("ComponentWithCount"))

	m.set("MetricKey", enumSchema("Metric key.", metricKeys))
	m.set("MetricCategory", enumSchema("Metric category.", metricCategories))
	m.set("MetricValue", object(
		req("key", ref("MetricKey")),
		req("name", str()),
		req("description", str()),
		req("category", ref("MetricCategory")),
		req("value", &schema{
			Description: "By valueType: an integer for number, a number with at most two decimals for percentage, a letter A to F for grade (MNT, SEC, COV), a size class XS to XL for size (SIZE).",
			OneOf:       []*schema{number().withFormat("double"), enum(append(slices.Clone(ratingGrades), sizeClasses...)...)},
		}),
		req("inverted", boolean().withDescription("Whether a lower value is better.")),
		req("valueType", ref("MetricValueType")),
	))
	m.set("MetricValueType", enumSchema("How the value is expressed. In series, grades and size classes are numbers: A=1, B=2, C=3, D=4, F=5; XS=1, S=2, M=3, L=4, XL=5.", metricValueTypes))
	m.set("MetricValueList", dataOf("MetricValue"))

	m.set("MetricDescriptor", object(
		req("key", ref("MetricKey")),
		req("name", str()),
		req("category", ref("MetricCategory")),
		req("inverted", boolean()),
		req("valueType", ref("MetricValueType")),
		req("description", str()),
	))
	m.set("SeriesPoint", object(
		req("timestamp", timestamp().withDescription("The last second of the point's bucket (its inclusive end).")),
		req("value", number().withFormat("double").withDescription("The metric's value; grades and size classes as numbers (A=1 … F=5, XS=1 … XL=5).")),
	))
	m.set("SeriesEntry", object(
		req("metric", ref("MetricDescriptor")),
		req("dimensions", &schema{
			Type:                 types{"object"},
			Description:          "Dimension values of the series; empty for component series.",
			AdditionalProperties: str(),
		}),
		req("points", arrayOf(ref("SeriesPoint")).withDescription("One point per bucket, ascending in time.")),
	))
	m.set("SeriesInterval", enumSchema("Bucket size. Buckets are UTC-aligned; weeks start Monday; months are calendar months.", seriesIntervals))
	m.set("SeriesResponse", object(
		req("data", arrayOf(ref("SeriesEntry"))),
		req("meta", object(
			req("from", timestamp().withDescription("Effective window start.")),
			req("to", timestamp().withDescription("Effective window end.")),
			req("interval", ref("SeriesInterval")),
		)),
	))

	m.set("FileCoverage", object(
		req("path", str()),
		req("hits", arrayOf(integer()).withDescription("hits[i] is line i+1: -1 not coverable or omitted, 0 missed, n > 0 hit n times.")),
		req("tag", str().withDescription("Coverage tag name.")),
		req("coveredLines", integer()),
		req("missedLines", integer()),
		req("omitLines", integer()),
		req("totalLines", integer()),
	))
	m.set("FileCoverageResponse", object(
		req("tags", arrayOf(str()).withDescription("Every coverage tag uploaded for the resolved commit.")),
		req("files", arrayOf(ref("FileCoverage")).withDescription("One entry per tag that covers the path.")),
	))

	m.set("RateLimitResource", object(
		req("limit", integer()),
		req("used", integer()),
		req("remaining", integer()),
		req("reset", integer().withDescription("Unix seconds when the window ends.")),
	))
	m.set("RateLimitResponse", object(
		req("resources", object(req("core", ref("RateLimitResource")))),
	))

	m.set("ErrorObject", object(
		req("status", str().withDescription("The HTTP status code, as a string.")),
		req("title", str().withDescription("The HTTP reason phrase.")),
		req("detail", str().withDescription("A sentence a user can act on.")),
	))
	m.set("Error", object(
		req("errors", arrayOf(ref("ErrorObject")).withMinItems(1)),
	))

	surfaceSchemas(m)
	ingestSchemas(m)
	sourceSchemas(m)
	qltySchemas(m)
	pullSchemas(m)
	return m
}
