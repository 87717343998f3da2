package openapi

import (
	"net/http"
	"strconv"
	"strings"
)

const (
	mediaJSON   = "application/json"
	mediaNDJSON = "application/x-ndjson"
	mediaCSV    = "text/csv"
	// An upload's raw report: any media type.
	mediaOctetStream = "application/octet-stream"
	mediaAny         = "*/*"
)

func headerRef(name string) *header     { return &header{Ref: "#/components/headers/" + name} }
func responseRef(name string) *response { return &response{Ref: "#/components/responses/" + name} }

// rateLimitMode says how a response documents the x-ratelimit-* headers.
type rateLimitMode int

const (
	// rateLimitRequired: the response always answers a request with a valid
	// token, so the headers are always present.
	rateLimitRequired rateLimitMode = iota
	// rateLimitOptional: the response may answer a request without a valid
	// token (401, 405, 500, 503, /openapi.json); the headers are present
	// only when the request carried one.
	rateLimitOptional
)

var rateLimitHeaderDefs = []struct {
	name, component, description string
	schema                       func() *schema
}{
	{"x-ratelimit-limit", "XRateLimitLimit", "Requests allowed per window for the token.", integer},
	{"x-ratelimit-remaining", "XRateLimitRemaining", "Requests left in the current window.", integer},
	{"x-ratelimit-used", "XRateLimitUsed", "Requests counted in the current window.", integer},
	{"x-ratelimit-reset", "XRateLimitReset", "Unix seconds when the current window ends.", integer},
	{"x-ratelimit-resource", "XRateLimitResource", "The rate limit resource the request counts against: core.", str},
}

// The optional variant of each x-ratelimit-* header component.
const (
	optionalSuffix        = "Optional"
	rateLimitOptionalNote = " Present when the request carried a valid token."
)

// addRateLimitHeaders documents the x-ratelimit-* headers on h, as
// references to their required or optional components.
func addRateLimitHeaders(h *omap[*header], mode rateLimitMode) {
	for _, d := range rateLimitHeaderDefs {
		if mode == rateLimitRequired {
			h.set(d.name, headerRef(d.component))
		} else {
			h.set(d.name, headerRef(d.component+optionalSuffix))
		}
	}
}

// headers returns components/headers.
func headers() *omap[*header] {
	m := newOmap[*header]()
	for _, d := range rateLimitHeaderDefs {
		m.set(d.component, &header{Description: d.description, Required: true, Schema: d.schema()})
	}
	for _, d := range rateLimitHeaderDefs {
		m.set(d.component+optionalSuffix, &header{Description: d.description + rateLimitOptionalNote, Schema: d.schema()})
	}
	m.set("Link", &header{
		Description: `RFC 8288 links with absolute URLs that keep the request's other query parameters: rel="next" when a row exists after the page, rel="prev" when page[offset] is above 0.`,
		Schema:      str(),
	})
	m.set("Location", &header{Description: "Address of the created resource.", Required: true, Schema: str().withFormat("uri-reference")})
	m.set("WWW-Authenticate", &header{Description: `The authentication schemes: Bearer realm="plumb", Basic realm="plumb".`, Required: true, Schema: str()})
	m.set("Allow", &header{Description: "The methods the path supports.", Required: true, Schema: str()})
	m.set("Retry-After", &header{Description: "Whole seconds until the rate limit window resets (at least 1).", Required: true, Schema: integer().withMin(1)})
	m.set("IdempotentReplayed", &header{
		Description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key and request line (nothing was stored again); absent otherwise.",
		Schema:      enum("true"),
	})
	return m
}

// errorDef is one error status, documented once in components/responses.
type errorDef struct {
	status      int
	description string
	rateLimit   rateLimitMode
	headers     []string // components/headers to add
}

var errorDefs = []errorDef{
	{400, "A path parameter, query parameter or request body is invalid; one error object per invalid parameter or field, whose detail names it.", rateLimitRequired, nil},
	{401, "No token, a malformed Authorization header, or an unknown or revoked token.", rateLimitOptional, []string{"WWW-Authenticate"}},
	{403, "Authenticated but not allowed: Components not enabled on the project, a component write without the project admin role, or an application create in a workspace without Applications enabled.", rateLimitRequired, nil},
	{404, "The resource does not exist or is not visible to the token's user.", rateLimitRequired, nil},
	{405, "The path does not support the method.", rateLimitOptional, []string{"Allow"}},
	{406, "The Accept header allows none of the operation's response formats.", rateLimitRequired, nil},
	{408, "The upload stalled: no bytes of the report arrived for 30 seconds; nothing is stored.", rateLimitRequired, nil},
	{409, "The name is already taken (case-insensitively) by another component of the project or application of the workspace.", rateLimitRequired, nil},
	{413, "The request body is larger than the configured limit.", rateLimitRequired, nil},
	{415, "The request body is not application/json.", rateLimitRequired, nil},
	{429, "The token's rate limit is exhausted, or the client address made too many requests with unknown or revoked tokens (then x-ratelimit-resource is auth).", rateLimitRequired, []string{"Retry-After"}},
	{500, "An unexpected failure; the body carries no internal detail.", rateLimitOptional, nil},
	{503, "The service is temporarily unavailable.", rateLimitOptional, nil},
}

func errorDefFor(status int) errorDef {
	for _, d := range errorDefs {
		if d.status == status {
			return d
		}
	}
	panic("openapi: no error definition for status " + strconv.Itoa(status))
}

// errorResponseName is the components/responses key of an error status:
// its reason phrase in camel case ("NotFound").
func errorResponseName(status int) string {
	return strings.NewReplacer(" ", "", "-", "").Replace(http.StatusText(status))
}

func jsonContent(s *schema) *omap[*mediaType] {
	return newOmap[*mediaType]().set(mediaJSON, &mediaType{Schema: s})
}

func errorResponse(d errorDef, mode rateLimitMode) *response {
	h := newOmap[*header]()
	for _, name := range d.headers {
		h.set(name, headerRef(name))
	}
	addRateLimitHeaders(h, mode)
	return &response{Description: d.description, Headers: h, Content: jsonContent(ref("Error"))}
}

// responses returns components/responses: one per error status.
func responses() *omap[*response] {
	m := newOmap[*response]()
	for _, d := range errorDefs {
		m.set(errorResponseName(d.status), errorResponse(d, d.rateLimit))
	}
	return m
}

// export describes the NDJSON and CSV forms of a list.
type export struct {
	row     string   // schema of one NDJSON line (one element of data)
	noun    string   // what one NDJSON line is, for descriptions
	csvRow  string   // what one CSV row is
	columns []string // CSV header row, in order
}

func (e *export) content(json *schema) *omap[*mediaType] {
	c := jsonContent(json)
	c.set(mediaNDJSON, &mediaType{Schema: arrayOf(ref(e.row)).withDescription(
		"Newline-delimited JSON: each line is one " + e.noun + " object (the objects of the JSON form's data, in the same order), with no meta line. Validators decode the lines into this array.")})
	c.set(mediaCSV, &mediaType{
		Schema: str().withDescription("RFC 4180 CSV (charset utf-8, CRLF line ends): a header row, then one row per " + e.csvRow +
			". Columns, in order: " + strings.Join(e.columns, ", ") +
			". Nested objects flatten into dotted columns, arrays join with commas inside one quoted cell, null is an empty cell."),
		CSVColumns: e.columns,
	})
	return c
}
