-- Plumb schema, version 1. Times are Unix seconds (UTC). IDs are UUID text.
-- Every table that grows with use has the index its reads need; see docs/architecture.md.

CREATE TABLE users (
    id         TEXT PRIMARY KEY,
    login      TEXT NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX users_login ON users (lower(login));

CREATE TABLE tokens (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    hash         TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
);
CREATE INDEX tokens_user ON tokens (user_id);

CREATE TABLE workspaces (
    id                   TEXT PRIMARY KEY,
    key                  TEXT NOT NULL,
    avatar_url           TEXT NOT NULL,
    provider_url         TEXT NOT NULL,
    applications_enabled INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL
);
CREATE UNIQUE INDEX workspaces_key ON workspaces (lower(key));

CREATE TABLE workspace_members (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('member', 'admin')),
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members (user_id, workspace_id);

CREATE TABLE projects (
    id                  TEXT PRIMARY KEY,
    workspace_id        TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    key                 TEXT NOT NULL,
    default_branch      TEXT NOT NULL,
    components_enabled  INTEGER NOT NULL DEFAULT 0,
    -- the latest default-branch snapshot (derived, kept for fast reads)
    current_snapshot    INTEGER,
    -- bumped whenever the current issues or their statuses change
    issues_version      INTEGER NOT NULL DEFAULT 0,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
);
CREATE UNIQUE INDEX projects_key ON projects (workspace_id, lower(key));

CREATE TABLE project_admins (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (project_id, user_id)
);

CREATE TABLE applications (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    -- name with Unicode case folding (computed in Go): uniqueness, lookup, order
    name_fold    TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL
);
CREATE UNIQUE INDEX applications_name ON applications (workspace_id, name_fold);

CREATE TABLE application_projects (
    application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    PRIMARY KEY (application_id, project_id)
);

-- One analysis of one commit on one branch at one time.
CREATE TABLE snapshots (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    branch      TEXT NOT NULL,
    commit_sha  TEXT NOT NULL,
    analyzed_at INTEGER NOT NULL,
    -- 1 when the snapshot entered the default branch's metric history
    measured    INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);
CREATE INDEX snapshots_project ON snapshots (project_id, branch, analyzed_at, seq);
CREATE INDEX snapshots_measured ON snapshots (project_id, measured, analyzed_at, seq);

CREATE TABLE builds (
    id                  TEXT PRIMARY KEY,
    project_id          TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    type                TEXT NOT NULL,
    status              TEXT NOT NULL,
    branch_name         TEXT NOT NULL,
    commit_sha          TEXT NOT NULL,
    commit_message      TEXT NOT NULL DEFAULT '',
    submitted_at        INTEGER NOT NULL,
    started_at          INTEGER,
    finished_at         INTEGER,
    status_reason       TEXT,
    conclusion          TEXT,
    exit_code           INTEGER,
    source              TEXT NOT NULL DEFAULT '',
    pull_request_number INTEGER,
    committer_login     TEXT NOT NULL DEFAULT '',
    snapshot_id         TEXT
);
CREATE INDEX builds_list ON builds (project_id, submitted_at DESC, id DESC);
CREATE INDEX builds_status ON builds (project_id, status, submitted_at DESC, id DESC);

-- Issues belong to a snapshot; a project's current issues are those of its
-- current snapshot. seq is the listing order.
CREATE TABLE issues (
    seq               INTEGER PRIMARY KEY,
    id                TEXT NOT NULL UNIQUE,
    snapshot_seq      INTEGER NOT NULL REFERENCES snapshots (seq) ON DELETE CASCADE,
    fingerprint       TEXT NOT NULL,
    tool              TEXT NOT NULL,
    rule_key          TEXT NOT NULL,
    message           TEXT NOT NULL,
    category          TEXT NOT NULL,
    level             TEXT NOT NULL,
    status            TEXT NOT NULL,
    documentation_url TEXT,
    path              TEXT NOT NULL,
    start_line        INTEGER,
    end_line          INTEGER
);
CREATE INDEX issues_snapshot ON issues (snapshot_seq, seq);
CREATE INDEX issues_snapshot_level ON issues (snapshot_seq, level, seq);
CREATE INDEX issues_fingerprint ON issues (snapshot_seq, fingerprint);

-- An issue's status belongs to its fingerprint and survives between snapshots.
CREATE TABLE issue_states (
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    status      TEXT NOT NULL,
    PRIMARY KEY (project_id, fingerprint)
);

-- Repository-relative paths seen in a project, numbered once.
CREATE TABLE paths (
    id         INTEGER PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    -- since_seq of the path's latest file_versions row; NULL when the path is
    -- not a file of the current default-branch snapshot
    current_seq INTEGER
);
CREATE UNIQUE INDEX paths_project ON paths (project_id, path);

-- Per-file analysis figures of the default branch, stored as changes: a row
-- holds a file's figures from snapshot since_seq on, until a later row of the
-- same path replaces it (deleted = 1 marks the file's removal). A new snapshot
-- adds rows only for the files it changed; history is never rewritten.
CREATE TABLE file_versions (
    path_id              INTEGER NOT NULL REFERENCES paths (id) ON DELETE CASCADE,
    since_seq            INTEGER NOT NULL REFERENCES snapshots (seq) ON DELETE CASCADE,
    deleted              INTEGER NOT NULL DEFAULT 0,
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
    PRIMARY KEY (path_id, since_seq)
);
CREATE INDEX file_versions_since ON file_versions (since_seq);

-- Components: named path globs. Their per-snapshot and per-coverage totals
-- are kept so metrics and series never rescan files.
CREATE TABLE components (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    name_fold   TEXT NOT NULL, -- name with Unicode case folding (computed in Go)
    description TEXT NOT NULL DEFAULT '',
    path_globs  TEXT NOT NULL, -- JSON array of strings
    creator_id  TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX components_name ON components (project_id, name_fold);

CREATE TABLE component_paths (
    component_id TEXT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    path_id      INTEGER NOT NULL REFERENCES paths (id) ON DELETE CASCADE,
    PRIMARY KEY (component_id, path_id)
);

CREATE TABLE component_snapshot_totals (
    component_id         TEXT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    snapshot_seq         INTEGER NOT NULL REFERENCES snapshots (seq) ON DELETE CASCADE,
    at                   INTEGER NOT NULL,
    files                INTEGER NOT NULL,
    lines                INTEGER NOT NULL,
    loc                  INTEGER NOT NULL,
    complexity           INTEGER NOT NULL,
    duplicated_lines     INTEGER NOT NULL,
    open_issues          INTEGER NOT NULL,
    remediation_minutes  INTEGER NOT NULL,
    sec_high             INTEGER NOT NULL,
    sec_medium           INTEGER NOT NULL,
    sec_low              INTEGER NOT NULL,
    sec_note             INTEGER NOT NULL,
    sec_fmt              INTEGER NOT NULL,
    PRIMARY KEY (component_id, snapshot_seq)
);
CREATE INDEX component_snapshot_totals_at ON component_snapshot_totals (component_id, at);

-- Coverage: one row per uploaded report; files merged per commit and tag.
CREATE TABLE coverage_uploads (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha   TEXT NOT NULL,
    branch       TEXT NOT NULL DEFAULT '',
    git_tag      TEXT NOT NULL DEFAULT '',
    coverage_tag TEXT NOT NULL,
    uploaded_at  INTEGER NOT NULL
);
CREATE INDEX coverage_uploads_branch ON coverage_uploads (project_id, branch, uploaded_at, seq);
CREATE INDEX coverage_uploads_tag ON coverage_uploads (project_id, git_tag, uploaded_at, seq);
CREATE INDEX coverage_uploads_commit ON coverage_uploads (project_id, commit_sha);

CREATE TABLE coverage_files (
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha   TEXT NOT NULL,
    coverage_tag TEXT NOT NULL,
    path_id      INTEGER NOT NULL REFERENCES paths (id) ON DELETE CASCADE,
    hits         BLOB NOT NULL, -- varint-encoded hit counts, one per line (see sqlstore/hits.go)
    covered      INTEGER NOT NULL,
    missed       INTEGER NOT NULL,
    PRIMARY KEY (project_id, commit_sha, path_id, coverage_tag)
);

-- Per commit and file, the union of every coverage tag: a line is covered
-- when any tag hit it, missed when some tag could cover it and none did.
CREATE TABLE coverage_union (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha TEXT NOT NULL,
    path_id    INTEGER NOT NULL REFERENCES paths (id) ON DELETE CASCADE,
    covered    INTEGER NOT NULL,
    missed     INTEGER NOT NULL,
    PRIMARY KEY (project_id, commit_sha, path_id)
);

-- Coverage measurements of the default branch: per component and per project
-- (component_id '' is the whole project), one row per commit with coverage.
CREATE TABLE coverage_totals (
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    component_id TEXT NOT NULL,
    commit_sha   TEXT NOT NULL,
    at           INTEGER NOT NULL,
    covered      INTEGER NOT NULL,
    missed       INTEGER NOT NULL,
    PRIMARY KEY (project_id, component_id, commit_sha)
);
CREATE INDEX coverage_totals_at ON coverage_totals (project_id, component_id, at);
