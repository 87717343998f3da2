-- A commit may head several pull requests (one branch proposed to two base
-- branches, say): its change is kept per pull request, so an upload for one
-- never replaces another's (docs/pull-requests.md). pull_key is the pull
-- request number, 0 for a change uploaded without one.
CREATE TABLE commit_changes_by_pull (
    project_id          TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha          TEXT NOT NULL,
    pull_key            INTEGER NOT NULL DEFAULT 0,
    branch              TEXT NOT NULL DEFAULT '',
    base_commit_sha     TEXT NOT NULL DEFAULT '',
    base_branch         TEXT NOT NULL DEFAULT '',
    pull_request_number INTEGER,
    files               TEXT NOT NULL,
    uploaded_at         INTEGER NOT NULL,
    PRIMARY KEY (project_id, commit_sha, pull_key)
);
INSERT INTO commit_changes_by_pull (project_id, commit_sha, pull_key, branch, base_commit_sha, base_branch, pull_request_number, files, uploaded_at)
    SELECT project_id, commit_sha, coalesce(pull_request_number, 0), branch, base_commit_sha, base_branch, pull_request_number, files, uploaded_at
    FROM commit_changes;
DROP TABLE commit_changes;
ALTER TABLE commit_changes_by_pull RENAME TO commit_changes;
CREATE INDEX commit_changes_pull ON commit_changes (project_id, pull_request_number, uploaded_at);
