-- A one-time message of a session: the secret of a token just created,
-- shown by the page the creating form redirects to, then gone. Sealed with
-- a key derived from the session's secret (which only the browser holds),
-- so the database never holds a readable token.
ALTER TABLE sessions ADD COLUMN flash_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN flash TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN flash_at INTEGER NOT NULL DEFAULT 0;
