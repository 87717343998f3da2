package openapi

import "net/http"

// Sources (docs/sources.md): Plumb's extension, beyond the original
// service's API.

const (
	tagSources = "Sources"
	mediaText  = "text/plain"
)

var sourceEndpoints = []endpoint{
	{
		method: http.MethodGet, path: project + "/files/source", id: "getFileSource", tag: tagSources,
		summary: "Get a file's source",
		description: "Plumb's extension: the text of a file at the commit the reference resolves to (a branch, `refs/heads/…`, `refs/tags/…`, `refs/pull/<number>` or a commit SHA or unique prefix of one with coverage or an analysis), as uploaded with the analysis or coverage of that commit (docs/sources.md). " +
			"The body is the file's bytes, `text/plain; charset=utf-8`. A path that is not a clean repository-relative path is a 400; an unknown reference, a file without a kept source (never uploaded, too large, binary, or sources turned off for the project) a 404 whose detail says which.",
		query:  []string{"sourceReference", "filePath"},
		okDesc: "The file's text.",
		text:   "The file's content.",
		errors: []int{400, 404},
	},
}
