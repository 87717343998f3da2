-- The paths a staged write numbers (new file names of its project) are
-- removed with the rest of it when it fails: they are the project's paths
-- with an id above paths_after, the largest path id when the write began
-- (only one staged write per project runs at a time, and only staged writes
-- number a project's paths). NULL for writes begun before this migration:
-- their paths are left.
ALTER TABLE staged_writes ADD COLUMN paths_after BIGINT;
