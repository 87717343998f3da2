-- Pull requests (docs/pull-requests.md): the change a commit makes against its
-- base (uploaded by CI with its coverage or analysis), quality gates, and
-- code-host settings with the state of their last delivery.

-- One row per head commit: its base and its changed line ranges per file
-- (JSON array of {path, previousPath, status, addedLines}).
CREATE TABLE commit_changes (
    project_id          TEXT COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha          TEXT COLLATE "C" NOT NULL,
    branch              TEXT COLLATE "C" NOT NULL DEFAULT '',
    base_commit_sha     TEXT COLLATE "C" NOT NULL DEFAULT '',
    base_branch         TEXT COLLATE "C" NOT NULL DEFAULT '',
    pull_request_number BIGINT,
    files               TEXT COLLATE "C" NOT NULL,
    uploaded_at         BIGINT NOT NULL,
    PRIMARY KEY (project_id, commit_sha)
);
CREATE INDEX commit_changes_pull ON commit_changes (project_id, pull_request_number, uploaded_at);

-- A project's quality gate: JSON object of conditions.
CREATE TABLE quality_gates (
    project_id TEXT COLLATE "C" PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    conditions TEXT COLLATE "C" NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Where a project's statuses and comments go. The code-host token has to be
-- sent as is, so it is stored as given and never returned by the API.
CREATE TABLE code_hosts (
    project_id TEXT COLLATE "C" PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    kind       TEXT COLLATE "C" NOT NULL,
    base_url   TEXT COLLATE "C" NOT NULL,
    repository TEXT COLLATE "C" NOT NULL,
    token      TEXT COLLATE "C" NOT NULL,
    updated_at BIGINT NOT NULL
);

-- The latest delivery to the code host per head commit.
CREATE TABLE code_host_deliveries (
    project_id TEXT COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha TEXT COLLATE "C" NOT NULL,
    state      TEXT COLLATE "C" NOT NULL,
    attempts   BIGINT NOT NULL,
    detail     TEXT COLLATE "C" NOT NULL DEFAULT '',
    comment_id TEXT COLLATE "C" NOT NULL DEFAULT '',
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (project_id, commit_sha)
);
