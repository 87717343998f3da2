-- Delta compression of sources (docs/sources.md, "Delta compression"): a
-- content may be kept as a zstd frame compressed against an earlier content
-- of the same path of the project, its base, named here (NULL: a full
-- frame). A base is always a full frame, so reading a content takes at most
-- two frames; the collection of unreferenced sources keeps a base while a
-- kept delta needs it.
ALTER TABLE source_blobs ADD COLUMN base_id TEXT COLLATE "C";
CREATE INDEX source_blobs_base ON source_blobs (project_id, base_id);
-- The base of a new content is found from the latest content of its path.
CREATE INDEX source_files_path ON source_files (project_id, path);
