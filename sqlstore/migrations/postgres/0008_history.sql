-- History in any order (docs/ingest.md, "Dated uploads and history"): a
-- default-branch analysis older than the current one enters the metric
-- history at its own time (snapshots.measured = 2) without changing the
-- current files. Its whole tree is kept here, so components created later
-- and later backfills can be measured at its time, and exports carry it.
CREATE TABLE snapshot_files (
    snapshot_seq         BIGINT NOT NULL REFERENCES snapshots (seq) ON DELETE CASCADE,
    path_id              BIGINT NOT NULL REFERENCES paths (id) ON DELETE CASCADE,
    lines                BIGINT NOT NULL DEFAULT 0,
    loc                  BIGINT NOT NULL DEFAULT 0,
    complexity           BIGINT NOT NULL DEFAULT 0,
    duplicated_lines     BIGINT NOT NULL DEFAULT 0,
    open_issues          BIGINT NOT NULL DEFAULT 0,
    remediation_minutes  BIGINT NOT NULL DEFAULT 0,
    sec_high             BIGINT NOT NULL DEFAULT 0,
    sec_medium           BIGINT NOT NULL DEFAULT 0,
    sec_low              BIGINT NOT NULL DEFAULT 0,
    sec_note             BIGINT NOT NULL DEFAULT 0,
    sec_fmt              BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (snapshot_seq, path_id)
);
CREATE INDEX snapshot_files_path ON snapshot_files (path_id);
