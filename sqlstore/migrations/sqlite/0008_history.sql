-- History in any order (docs/ingest.md, "Dated uploads and history"): a
-- default-branch analysis older than the current one enters the metric
-- history at its own time (snapshots.measured = 2) without changing the
-- current files. Its whole tree is kept here, so components created later
-- and later backfills can be measured at its time, and exports carry it.
CREATE TABLE snapshot_files (
    snapshot_seq         INTEGER NOT NULL REFERENCES snapshots (seq) ON DELETE CASCADE,
    path_id              INTEGER NOT NULL REFERENCES paths (id) ON DELETE CASCADE,
    lines                INTEGER NOT NULL DEFAULT 0,
    loc                  INTEGER NOT NULL DEFAULT 0,
    complexity           INTEGER NOT NULL DEFAULT 0,
    duplicated_lines     INTEGER NOT NULL DEFAULT 0,
    open_issues          INTEGER NOT NULL DEFAULT 0,
    remediation_minutes  INTEGER NOT NULL DEFAULT 0,
    sec_high             INTEGER NOT NULL DEFAULT 0,
    sec_medium           INTEGER NOT NULL DEFAULT 0,
    sec_low              INTEGER NOT NULL DEFAULT 0,
    sec_note             INTEGER NOT NULL DEFAULT 0,
    sec_fmt              INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (snapshot_seq, path_id)
);
CREATE INDEX snapshot_files_path ON snapshot_files (path_id);
