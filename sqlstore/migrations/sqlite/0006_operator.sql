-- Operator commands: a disabled user's tokens and sessions are refused and no
-- new session starts for them (plumb user disable / enable).
ALTER TABLE users ADD COLUMN disabled_at INTEGER;
