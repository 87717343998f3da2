-- Sources (docs/sources.md): the content of a project's files, each
-- content kept once per project under its git blob id, zstd-compressed, and
-- for each commit that has sources the state of each of its files.

-- sources_disabled = 1: the project refuses sources (turning it on deletes
-- those kept).
ALTER TABLE projects ADD COLUMN sources_disabled INTEGER NOT NULL DEFAULT 0;

CREATE TABLE source_blobs (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    blob_id    TEXT NOT NULL,    -- git's blob id of the content (hex SHA-1)
    size       INTEGER NOT NULL, -- the content's length, uncompressed
    compressed BLOB NOT NULL,    -- the content as one zstd frame
    origin     TEXT NOT NULL CHECK (origin IN ('upload', 'github', 'gitlab')),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (project_id, blob_id)
);

-- A commit with sources; created_at lets the collection of unreferenced
-- sources spare a commit whose snapshot or coverage upload is still being
-- written.
CREATE TABLE source_commits (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (project_id, commit_sha)
);

-- Each file of a commit with sources: its blob (state 'ok') or why it has
-- none ('too_large', 'binary'), and its length.
CREATE TABLE source_files (
    project_id TEXT NOT NULL,
    commit_sha TEXT NOT NULL,
    path       TEXT NOT NULL,
    state      TEXT NOT NULL CHECK (state IN ('ok', 'too_large', 'binary')),
    blob_id    TEXT,
    size       INTEGER NOT NULL,
    PRIMARY KEY (project_id, commit_sha, path),
    FOREIGN KEY (project_id, commit_sha) REFERENCES source_commits (project_id, commit_sha) ON DELETE CASCADE,
    FOREIGN KEY (project_id, blob_id) REFERENCES source_blobs (project_id, blob_id) ON DELETE CASCADE,
    CHECK ((state = 'ok') = (blob_id IS NOT NULL))
);
CREATE INDEX source_files_blob ON source_files (project_id, blob_id);
