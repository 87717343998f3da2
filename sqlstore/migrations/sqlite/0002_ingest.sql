-- Ingestion: project-scoped upload tokens, idempotent uploads, build history.

CREATE TABLE upload_tokens (
    id           TEXT PRIMARY KEY,
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    hash         TEXT NOT NULL UNIQUE,
    created_by   TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
);
CREATE INDEX upload_tokens_project ON upload_tokens (project_id);

-- An Idempotency-Key makes a retried upload count once: the first response
-- is kept for a day and replayed.
CREATE TABLE idempotency_keys (
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    body         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (project_id, key)
);

-- Every status a build went through, with its time.
CREATE TABLE build_events (
    build_id   TEXT NOT NULL REFERENCES builds (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    status     TEXT NOT NULL,
    reason     TEXT,
    at         INTEGER NOT NULL,
    PRIMARY KEY (build_id, seq)
);
