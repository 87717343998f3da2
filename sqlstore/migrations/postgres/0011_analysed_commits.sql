-- History backfill (plumb analyze --history, docs/analyze.md): the CLI asks
-- which commits of a branch already have an analysis. A snapshot made by a
-- SARIF upload alone carries issues but no file figures, so it is not an
-- analysis of its commit (analysis = 0); every other snapshot, those made
-- before this migration included, is one.
ALTER TABLE snapshots ADD COLUMN analysis BIGINT NOT NULL DEFAULT 1;
CREATE INDEX snapshots_commit ON snapshots (project_id, commit_sha);
