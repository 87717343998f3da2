-- Staged writes (docs/architecture.md, "Staged writes"): a large upload is
-- written in short transactions whose rows stay invisible until one short
-- transaction publishes them, so no upload holds the database writer (or a
-- project's lock) for long.
--
-- A snapshot or coverage upload being written is pending (1) until it is
-- published (0); every read leaves pending ones out.
ALTER TABLE snapshots ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
ALTER TABLE coverage_uploads ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;

-- A file's row in the current snapshot is current_seq once that snapshot is
-- published (current_seq <= projects.current_snapshot), else prev_seq: a
-- pending snapshot points its files at their new rows while readers still
-- see the old ones.
ALTER TABLE paths ADD COLUMN prev_seq INTEGER;

-- The snapshot that first gave a fingerprint its status: the states a
-- failed upload added are removed with it.
ALTER TABLE issue_states ADD COLUMN origin_seq INTEGER;
CREATE INDEX issue_states_origin ON issue_states (origin_seq) WHERE origin_seq IS NOT NULL;

-- A component's revision grows when its globs change, so a snapshot written
-- meanwhile knows to recount it.
ALTER TABLE components ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

-- One staged write per project at a time: its owner (a server instance)
-- renews the lease while it writes; a write whose lease ran out belongs to
-- a server that stopped, and the next write to the project (or a server's
-- start) removes what it staged.
CREATE TABLE staged_writes (
    project_id  TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,   -- snapshot or coverage
    ref         INTEGER NOT NULL,   -- the snapshot's seq or the coverage upload's seq
    owner       TEXT NOT NULL,
    lease_until INTEGER NOT NULL
);

-- A coverage upload's merged rows, staged before they replace the commit's.
CREATE TABLE staged_coverage_files (
    upload_seq INTEGER NOT NULL,
    path_id    INTEGER NOT NULL REFERENCES paths (id) ON DELETE CASCADE,
    hits       BLOB NOT NULL,
    covered    INTEGER NOT NULL,
    missed     INTEGER NOT NULL,
    union_covered INTEGER NOT NULL,
    union_missed  INTEGER NOT NULL,
    PRIMARY KEY (upload_seq, path_id)
);
