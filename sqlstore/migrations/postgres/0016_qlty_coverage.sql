-- The qlty CLI's coverage uploads (qlty coverage publish and complete;
-- docs/migrate-from-qlty.md).

-- Secrets every server of the installation shares, created once by the first
-- server that needs one: the key that signs the qlty CLI's upload URLs.
CREATE TABLE server_secrets (
    name       TEXT COLLATE "C" PRIMARY KEY,
    value      TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL
);

-- A multi-part report (publish --incomplete or --total-parts-count N) of a
-- commit and coverage tag: its parts wait, invisible to every read, until
-- qlty coverage complete or the declared number of parts arrives, then
-- publish as one coverage upload whose id is the report's. open: taking
-- parts; closed: being published (owner and lease_until say by whom);
-- published; expired: being swept. An open report past expires_at (or a
-- closed one whose lease ran out too) is swept with its parts.
CREATE TABLE qlty_reports (
    id             TEXT COLLATE "C" PRIMARY KEY,
    project_id     TEXT COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha     TEXT COLLATE "C" NOT NULL,
    coverage_tag   TEXT COLLATE "C" NOT NULL,
    state          TEXT COLLATE "C" NOT NULL,
    parts_expected BIGINT NOT NULL DEFAULT 0,
    input          TEXT COLLATE "C" NOT NULL,
    created_at     BIGINT NOT NULL,
    expires_at     BIGINT NOT NULL,
    owner          TEXT COLLATE "C" NOT NULL DEFAULT '',
    lease_until    BIGINT NOT NULL DEFAULT 0,
    published_at   BIGINT
);
CREATE UNIQUE INDEX qlty_reports_unpublished ON qlty_reports (project_id, commit_sha, coverage_tag) WHERE state <> 'published';
CREATE INDEX qlty_reports_expiry ON qlty_reports (expires_at);

-- One publish: the upload id the CLI was given, what its metadata said, and
-- where its zip went. issued: the signed URL is out; received: a part of its
-- report, waiting; published. Swept once its URL and its report are over.
CREATE TABLE qlty_uploads (
    id         TEXT COLLATE "C" PRIMARY KEY,
    project_id TEXT COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    report_id  TEXT COLLATE "C",
    input      TEXT COLLATE "C" NOT NULL,
    state      TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX qlty_uploads_report ON qlty_uploads (report_id);
CREATE INDEX qlty_uploads_expiry ON qlty_uploads (expires_at);

-- A received part's files, in the order its zip gave them, until its report
-- publishes (hits encoded as in coverage_files).
CREATE TABLE qlty_part_files (
    upload_id TEXT COLLATE "C" NOT NULL,
    seq       BIGINT NOT NULL,
    path      TEXT COLLATE "C" NOT NULL,
    hits      BYTEA NOT NULL,
    PRIMARY KEY (upload_id, seq)
);
