-- What the pull-request list shows of each pull request (docs/pull-requests.md,
-- "The list"): the gate result and patch coverage of a head commit compared
-- with its base, kept when a comparison computes them (the PR page, the gate
-- API, the code-host status) so the list does not compare again. inputs
-- names what the comparison read (base and head commits, their latest
-- coverage upload and analysis, the change's upload, the gate): a row is shown
-- only while the same inputs hold now, otherwise the comparison is made
-- again and the row replaced. Derived data: export and import leave it out.
CREATE TABLE pull_summaries (
    project_id      TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    number          INTEGER NOT NULL,
    head_sha        TEXT NOT NULL,
    base_sha        TEXT NOT NULL,
    inputs          TEXT NOT NULL,
    gate_status     TEXT NOT NULL,
    patch_covered   INTEGER NOT NULL,
    patch_coverable INTEGER NOT NULL,
    computed_at     INTEGER NOT NULL,
    PRIMARY KEY (project_id, number, head_sha)
);
