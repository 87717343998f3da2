-- Where each file's source came from (docs/sources.md, "Fetched from a code
-- host"): uploaded with an analysis or coverage, or fetched from the
-- project's code host on a file page's first view (fetched_at: when, in
-- Unix seconds; NULL for an upload). A content's own origin
-- (source_blobs.origin) is where it was first kept: the same blob may be
-- uploaded at one commit and fetched at another.
ALTER TABLE source_files ADD COLUMN origin TEXT NOT NULL DEFAULT 'upload' CHECK (origin IN ('upload', 'github', 'gitlab'));
ALTER TABLE source_files ADD COLUMN fetched_at BIGINT;
