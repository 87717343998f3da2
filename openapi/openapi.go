// Package openapi produces the OpenAPI 3.1.0 description of Plumb's v1 API,
// served at GET /openapi.json.
//
// The document is assembled from small builders: schemas, parameters,
// headers and error responses are defined once under components and
// referenced; the paths come from one table of endpoints. That table is
// also where the api package's route table takes each route's method and
// path, by operation id (Operations, Lookup), and ReadReference gives
// readers of the document (the web's API reference page) a typed view.
package openapi

import (
	"slices"
	"sync"
)

const (
	// Version is the API version the document declares.
	Version = "1.0.0"
	// Title is the document's title.
	Title = "Plumb code-quality API"
)

var (
	once    sync.Once
	docJSON []byte
)

// Document returns the OpenAPI 3.1.0 description of the whole v1 API as
// compact JSON. The bytes are the same on every call (built once); the
// caller gets its own copy.
func Document() []byte {
	once.Do(func() {
		b, err := marshal(build())
		if err != nil {
			panic("openapi: " + err.Error())
		}
		docJSON = b
	})
	return slices.Clone(docJSON)
}

var withServers sync.Map // server URL → []byte

// DocumentFor is Document with `servers` naming the URL this server is
// reached at (its configured base URL, or the request's), so clients
// generated from it call this server. One document per URL is built once.
func DocumentFor(serverURL string) []byte {
	if serverURL == "" {
		return Document()
	}
	if b, ok := withServers.Load(serverURL); ok {
		return slices.Clone(b.([]byte))
	}
	d := build()
	d.Servers = []server{{URL: serverURL, Description: "This Plumb server."}}
	b, err := marshal(d)
	if err != nil {
		panic("openapi: " + err.Error())
	}
	withServers.Store(serverURL, b)
	return slices.Clone(b)
}

const description = "Code-quality data of source repositories (Projects) grouped by owner (Workspaces): " +
	"applications, issues, builds, file metrics, coverage, components and their metrics, and the rate limit status.\n\n" +
	"Every operation but this description needs `Authorization: Bearer <token>` " +
	"(or HTTP Basic authentication with the token as the user name and an empty password). " +
	"Responses are JSON; list operations can also answer `application/x-ndjson` or `text/csv`, chosen by the Accept header " +
	"(no Accept or `*/*` gives JSON). Errors are always JSON: `{\"errors\":[{\"status\",\"title\",\"detail\"}]}`. " +
	"Responses to a request with a valid token carry the `x-ratelimit-*` headers. " +
	"Timestamps are RFC 3339 in UTC with `Z` and whole seconds; IDs are UUIDs.\n\n" +
	"The operations tagged Ingestion, below `/ingest`, take what CI sends: coverage reports, SARIF findings, analysis snapshots and build states."

func build() *document {
	return &document{
		OpenAPI:  "3.1.0",
		Info:     info{Title: Title, Version: Version, Description: description, License: license{Name: "MIT License", Identifier: "MIT"}},
		Tags:     append(append(slices.Clone(tags), surfaceTags...), qltyTag),
		Security: []secReq{{"bearerAuth": {}}, {"basicAuth": {}}},
		Paths:    paths(),
		Components: components{
			Schemas:    schemas(),
			Parameters: parameters(),
			Headers:    headers(),
			Responses:  responses(),
			SecuritySchemes: newOmap[*securityScheme]().set("bearerAuth", &securityScheme{
				Type:   "http",
				Scheme: "bearer",
				Description: "An API token generated in the service's web settings: `Authorization: Bearer <token>`. " +
					"The Ingestion operations also take a project upload token (`plbu_…`), which the other operations refuse.",
			}).set("basicAuth", &securityScheme{
				Type:   "http",
				Scheme: "basic",
				Description: "The same token as HTTP Basic credentials: the token as the user name and an empty password " +
					"(`curl -u <token>:`). Any password is refused.",
			}),
		},
	}
}
