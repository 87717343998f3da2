-- The states of a project's issues that are not open (docs/pull-requests.md,
-- "Speed"): a comparison reads them for both sides' issues, which are nearly
-- all open, without scanning every state of the project.
CREATE INDEX issue_states_status ON issue_states (project_id, status, fingerprint);
