-- Coverage sums of a commit that is not a default-branch measurement (those
-- are in coverage_totals), kept by the first comparison that needs them
-- (docs/pull-requests.md): component_id '' is the whole project, else one
-- component. A row is valid while the commit's coverage uploads are the same
-- (upload_seq: the largest) and, for a component, while the project's
-- current snapshot (snapshot_seq: component membership follows it) and the
-- component (computed_at after its updated_at) are; otherwise the sum is
-- made again. Rows of deleted components are never read.
CREATE TABLE commit_component_coverage (
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    commit_sha   TEXT NOT NULL,
    component_id TEXT NOT NULL,
    upload_seq   INTEGER NOT NULL,
    snapshot_seq INTEGER NOT NULL,
    computed_at  INTEGER NOT NULL,
    covered      INTEGER NOT NULL,
    missed       INTEGER NOT NULL,
    PRIMARY KEY (project_id, commit_sha, component_id)
);

-- The components of given paths (comparisons and snapshot totals look them up
-- by path).
CREATE INDEX component_paths_path ON component_paths (path_id);
