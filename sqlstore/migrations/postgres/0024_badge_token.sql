-- Badge token (docs/web.md, Badges): a per-project secret that a private
-- project's badge URLs accept as ?token=, so a private repository's README
-- can show its badges. At most one per project; only its SHA-256 hash is
-- kept; regenerating replaces it, revoking deletes it.
CREATE TABLE badge_tokens (
    project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    hash       TEXT NOT NULL UNIQUE,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
