-- Branch figures (docs/web.md, File page: partial lines): per coverage tag
-- and file, the lines a report gave branch data for, each with its number
-- of branches and how many of them ran (sqlstore/branches.go's encoding).
-- NULL when the reports gave none.
ALTER TABLE coverage_files ADD COLUMN branches BYTEA;
ALTER TABLE staged_coverage_files ADD COLUMN branches BYTEA;
