-- An Idempotency-Key under way belongs to the server process that took it
-- (owner: a random id per process) and is renewed while its upload runs
-- (lease_until, Unix seconds). A key whose lease ran out belongs to a server
-- that is gone (killed mid-upload): a retry takes it over and runs as new.
ALTER TABLE idempotency_keys ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE idempotency_keys ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
