-- The qlty CLI's coverage uploads (qlty coverage publish and complete;
-- docs/migrate-from-qlty.md).

-- Secrets every server of the installation shares, created once by the first
-- server that needs one: the key that signs the qlty CLI's upload URLs.
CREATE TABLE server_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- A multi-part report (publish --incomplete or --total-parts-count N) of a
-- commit and coverage tag: its parts wait, invisible to every read, until
-- qlty coverage complete or the declared number of parts arrives, then
-- publish as one coverage upload whose id is the report's. open: taking
-- parts; closed: being published (owner and lease_until say by whom);
-- published; expired: being swept. An open report past expires_at (or a
-- closed one whose lease ran out too) is swept with its parts.
CREATE TABLE qlty_reports (
    id             TEXT PRIMARY KEY,
    project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha     TEXT NOT NULL,
    coverage_tag   TEXT NOT NULL,
    state          TEXT NOT NULL,
    parts_expected INTEGER NOT NULL DEFAULT 0,
    input          TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    owner          TEXT NOT NULL DEFAULT '',
    lease_until    INTEGER NOT NULL DEFAULT 0,
    published_at   INTEGER
);
CREATE UNIQUE INDEX qlty_reports_unpublished ON qlty_reports (project_id, commit_sha, coverage_tag) WHERE state <> 'published';
CREATE INDEX qlty_reports_expiry ON qlty_reports (expires_at);

-- One publish: the upload id the CLI was given, what its metadata said, and
-- where its zip went. issued: the signed URL is out; received: a part of its
-- report, waiting; published. Swept once its URL and its report are over.
CREATE TABLE qlty_uploads (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    report_id  TEXT,
    input      TEXT NOT NULL,
    state      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX qlty_uploads_report ON qlty_uploads (report_id);
CREATE INDEX qlty_uploads_expiry ON qlty_uploads (expires_at);

-- A received part's files, in the order its zip gave them, until its report
-- publishes (hits encoded as in coverage_files).
CREATE TABLE qlty_part_files (
    upload_id TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    path      TEXT NOT NULL,
    hits      BLOB NOT NULL,
    PRIMARY KEY (upload_id, seq)
);
