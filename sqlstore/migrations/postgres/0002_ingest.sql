-- Ingestion, PostgreSQL: project-scoped upload tokens, idempotent uploads, build history.

CREATE TABLE upload_tokens (
    id           TEXT COLLATE "C" PRIMARY KEY,
    project_id   TEXT COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name         TEXT COLLATE "C" NOT NULL,
    hash         TEXT COLLATE "C" NOT NULL UNIQUE,
    created_by   TEXT COLLATE "C" NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at   BIGINT
);
CREATE INDEX upload_tokens_project ON upload_tokens (project_id);

-- An Idempotency-Key makes a retried upload count once: the first response
-- is kept for a day and replayed.
CREATE TABLE idempotency_keys (
    project_id   TEXT COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    key          TEXT COLLATE "C" NOT NULL,
    request_hash TEXT COLLATE "C" NOT NULL,
    status       BIGINT NOT NULL,
    body         TEXT COLLATE "C" NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (project_id, key)
);

-- Every status a build went through, with its time.
CREATE TABLE build_events (
    build_id   TEXT COLLATE "C" NOT NULL REFERENCES builds (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    status     TEXT COLLATE "C" NOT NULL,
    reason     TEXT COLLATE "C",
    at         BIGINT NOT NULL,
    PRIMARY KEY (build_id, seq)
);
