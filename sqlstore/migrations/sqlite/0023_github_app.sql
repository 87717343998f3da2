-- GitHub App and webhooks (docs/pull-requests.md): the installation of the
-- App on each repository, the pull requests GitHub's webhooks describe, the
-- webhook deliveries received (idempotency by X-GitHub-Delivery, and the
-- last ones per project for people), and each head commit's check run.

-- The App's installation on a repository (owner/name, lower-case), from the
-- installation webhooks; dropped when the App is uninstalled.
CREATE TABLE github_installations (
    repository      TEXT PRIMARY KEY,
    installation_id INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);

-- A pull request as the last pull_request webhook described it.
CREATE TABLE pull_requests (
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    title       TEXT NOT NULL,
    author      TEXT NOT NULL,
    base_branch TEXT NOT NULL,
    head_branch TEXT NOT NULL,
    head_sha    TEXT NOT NULL,
    state       TEXT NOT NULL,
    merged      INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (project_id, number)
);

-- Webhook deliveries, one row per project they concerned (and one with no
-- project for an installation event): a replayed delivery id answers the
-- status kept.
CREATE TABLE hook_deliveries (
    delivery_id TEXT NOT NULL,
    project_id  TEXT REFERENCES projects (id) ON DELETE CASCADE,
    event       TEXT NOT NULL,
    action      TEXT NOT NULL,
    status      INTEGER NOT NULL,
    received_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX hook_deliveries_once ON hook_deliveries (delivery_id, COALESCE(project_id, ''));
CREATE INDEX hook_deliveries_project ON hook_deliveries (project_id, received_at);

-- The check run "Plumb" of a head commit: its id on GitHub, the digest of
-- the output being sent, how many annotations went, and whether it is
-- completed (a run left in progress resumes from sent, at the server's
-- start too), and the pull request it was sent for (0: none).
CREATE TABLE check_runs (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    head_sha   TEXT NOT NULL,
    run_id     INTEGER NOT NULL,
    pull_number INTEGER NOT NULL DEFAULT 0,
    digest     TEXT NOT NULL DEFAULT '',
    sent       INTEGER NOT NULL DEFAULT 0,
    completed  INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (project_id, head_sha)
);
