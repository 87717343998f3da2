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
	{
		method: http.MethodPost, path: ingest + "/sources", id: "uploadSources", tag: tagIngestion,
		summary: "Upload sources",
		description: "Plumb's extension: keeps the files of a tar archive as the sources of a commit (docs/sources.md), each content once per project under its git blob id. " +
			"Regular files are kept under their archive paths (a leading `./` is dropped); directories, links and other entries are skipped. A file over the server's per-file cap is marked too large, a binary file binary, and neither content is kept. " +
			"The body may be gzip-compressed. Sources of a commit no analysis or coverage upload refers to within an hour are deleted. A failure stores nothing.",
		query:      []string{"ingestCommitSha"},
		report:     "A tar archive of the checkout's files at their repository paths, optionally gzip-compressed; any Content-Type.",
		idempotent: true,
		status:     http.StatusCreated,
		okDesc:     "The sources were kept.",
		result:     ref("SourcesUploadResult"),
		errors:     []int{400, 403, 404, 409},
		errorDetail: map[int]string{
			400: "A query parameter is invalid (commitSha missing or not 7 to 64 hex digits), the body is not valid gzip or not a tar archive, it holds no regular file, or an entry's path is not a clean repository-relative path (`..`, a leading `/`, NUL, invalid UTF-8). Nothing is stored.",
			401: ingest401, 403: "The token may not upload to this project, or the server or the project keeps no sources (the detail says which).", 404: ingest404, 409: ingest409, 413: ingest413,
			415: "The Content-Encoding is neither gzip nor identity.",
		},
	},
}

// sourceSchemas adds the sources operations' results.
func sourceSchemas(m *omap[*schema]) {
	m.set("SourcesUploadResult", object(
		req("commitSha", str()),
		req("files", integer().withMin(0).withDescription("Files whose state was written.")),
		req("newBlobs", integer().withMin(0).withDescription("Contents stored for the first time.")),
		req("reusedBlobs", integer().withMin(0).withDescription("Contents the project already had (the same git blob id).")),
		req("tooLarge", integer().withMin(0).withDescription("Files over the per-file cap, kept without content.")),
		req("binary", integer().withMin(0).withDescription("Binary files, kept without content.")),
	))
}
