-- 0005_dropin: the drop-in migration, what Plumb needs to stand in for the
-- original service without its clients noticing (user profile fields, pull
-- request numbers on coverage uploads, whole-project totals per snapshot).
-- The name stays: schema_migrations records applied migrations by file name
-- (sqlstore/db.go, migrate), so a rename would run it again.
--
-- What the original service's clients read (docs/api.md, "The rest of the
-- original service's surface").

-- GET /user: every member a string; '' when unknown (the email column comes
-- with migration 0007). updated_at starts as created_at.
ALTER TABLE users ADD COLUMN avatar_url TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN provider_url TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
UPDATE users SET updated_at = created_at;

-- Coverage uploads remember their pull request, so that
-- coverage/file?reference=refs/pull/<n> finds its latest commit.
ALTER TABLE coverage_uploads ADD COLUMN pull_request_number BIGINT;
CREATE INDEX coverage_uploads_pull ON coverage_uploads (project_id, pull_request_number, uploaded_at, seq);

-- Whole-project totals at every measured (default-branch) snapshot, kept like
-- component_snapshot_totals so project metrics and series never rescan files.
CREATE TABLE project_snapshot_totals (
    project_id           TEXT COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    snapshot_seq         BIGINT NOT NULL REFERENCES snapshots (seq) ON DELETE CASCADE,
    at                   BIGINT NOT NULL,
    files                BIGINT NOT NULL,
    lines                BIGINT NOT NULL,
    loc                  BIGINT NOT NULL,
    complexity           BIGINT NOT NULL,
    duplicated_lines     BIGINT NOT NULL,
    open_issues          BIGINT NOT NULL,
    remediation_minutes  BIGINT NOT NULL,
    sec_high             BIGINT NOT NULL,
    sec_medium           BIGINT NOT NULL,
    sec_low              BIGINT NOT NULL,
    sec_note             BIGINT NOT NULL,
    sec_fmt              BIGINT NOT NULL,
    PRIMARY KEY (project_id, snapshot_seq)
);
CREATE INDEX project_snapshot_totals_at ON project_snapshot_totals (project_id, at, snapshot_seq);

-- Existing history: at each measured snapshot, the sum over the paths of
-- their latest file version at or before it, unless that version deletes.
INSERT INTO project_snapshot_totals (project_id, snapshot_seq, at, files, lines, loc, complexity,
    duplicated_lines, open_issues, remediation_minutes, sec_high, sec_medium, sec_low, sec_note, sec_fmt)
SELECT s.project_id, s.seq, s.analyzed_at, count(v.path_id),
    coalesce(sum(v.lines), 0), coalesce(sum(v.loc), 0), coalesce(sum(v.complexity), 0),
    coalesce(sum(v.duplicated_lines), 0), coalesce(sum(v.open_issues), 0), coalesce(sum(v.remediation_minutes), 0),
    coalesce(sum(v.sec_high), 0), coalesce(sum(v.sec_medium), 0), coalesce(sum(v.sec_low), 0),
    coalesce(sum(v.sec_note), 0), coalesce(sum(v.sec_fmt), 0)
FROM snapshots s
LEFT JOIN paths p ON p.project_id = s.project_id
LEFT JOIN file_versions v ON v.path_id = p.id AND v.deleted = 0 AND v.since_seq =
    (SELECT max(x.since_seq) FROM file_versions x WHERE x.path_id = p.id AND x.since_seq <= s.seq)
WHERE s.measured = 1
GROUP BY s.project_id, s.seq, s.analyzed_at;
