-- Staged writes (docs/architecture.md, "Staged writes"): a large upload is
-- written in short transactions whose rows stay invisible until one short
-- transaction publishes them, so no upload holds the database writer (or a
-- project's lock) for long.
--
-- A snapshot or coverage upload being written is pending (1) until it is
-- published (0); every read leaves pending ones out.
ALTER TABLE snapshots ADD COLUMN pending BIGINT NOT NULL DEFAULT 0;
ALTER TABLE coverage_uploads ADD COLUMN pending BIGINT NOT NULL DEFAULT 0;

-- A file's row in the current snapshot is current_seq once that snapshot is
-- published (current_seq <= projects.current_snapshot), else prev_seq: a
-- pending snapshot points its files at their new rows while readers still
-- see the old ones.
ALTER TABLE paths ADD COLUMN prev_seq BIGINT;

-- The snapshot that first gave a fingerprint its status: the states a
-- failed upload added are removed with it.
ALTER TABLE issue_states ADD COLUMN origin_seq BIGINT;
CREATE INDEX issue_states_origin ON issue_states (origin_seq) WHERE origin_seq IS NOT NULL;

-- A component's revision grows when its globs change, so a snapshot written
-- meanwhile knows to recount it.
ALTER TABLE components ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

-- One staged write per project at a time: its owner (a server instance)
-- renews the lease while it writes; a write whose lease ran out belongs to
-- a server that stopped, and the next write to the project (or a server's
-- start) removes what it staged.
CREATE TABLE staged_writes (
    project_id  TEXT COLLATE "C" PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    kind        TEXT COLLATE "C" NOT NULL,   -- snapshot or coverage
    ref         BIGINT NOT NULL,   -- the snapshot's seq or the coverage upload's seq
    owner       TEXT COLLATE "C" NOT NULL,
    lease_until BIGINT NOT NULL
);

-- A coverage upload's merged rows, staged before they replace the commit's.
CREATE TABLE staged_coverage_files (
    upload_seq BIGINT NOT NULL,
    path_id    BIGINT NOT NULL REFERENCES paths (id) ON DELETE CASCADE,
    hits       BYTEA NOT NULL,
    covered    BIGINT NOT NULL,
    missed     BIGINT NOT NULL,
    union_covered BIGINT NOT NULL,
    union_missed  BIGINT NOT NULL,
    PRIMARY KEY (upload_seq, path_id)
);
