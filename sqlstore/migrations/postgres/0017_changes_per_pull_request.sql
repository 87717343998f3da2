-- A commit may head several pull requests (one branch proposed to two base
-- branches, say): its change is kept per pull request, so an upload for one
-- never replaces another's (docs/pull-requests.md). pull_key is the pull
-- request number, 0 for a change uploaded without one.
ALTER TABLE commit_changes ADD COLUMN pull_key BIGINT NOT NULL DEFAULT 0;
UPDATE commit_changes SET pull_key = coalesce(pull_request_number, 0);
ALTER TABLE commit_changes DROP CONSTRAINT commit_changes_pkey;
ALTER TABLE commit_changes ADD PRIMARY KEY (project_id, commit_sha, pull_key);
