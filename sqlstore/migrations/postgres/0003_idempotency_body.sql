-- An Idempotency-Key also remembers the SHA-256 of the first request's body,
-- so a retry with different content is refused instead of replayed. Empty:
-- not known (keys stored before this migration), not compared.
ALTER TABLE idempotency_keys ADD COLUMN body_hash TEXT COLLATE "C" NOT NULL DEFAULT '';
