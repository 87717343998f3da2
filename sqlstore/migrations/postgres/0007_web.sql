-- The web: people sign in with a password (argon2id, PHC string) or through
-- OpenID Connect; sessions are stored only as the SHA-256 of their secret.
ALTER TABLE users ADD COLUMN password_hash TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN email TEXT COLLATE "C" NOT NULL DEFAULT '';

-- A single sign-on identity (issuer and subject of an ID token) of a user.
CREATE TABLE user_identities (
    issuer     TEXT COLLATE "C" NOT NULL,
    subject    TEXT COLLATE "C" NOT NULL,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);

CREATE TABLE sessions (
    id           TEXT COLLATE "C" PRIMARY KEY,
    user_id      TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    hash         TEXT COLLATE "C" NOT NULL UNIQUE,
    method       TEXT COLLATE "C" NOT NULL,
    user_agent   TEXT COLLATE "C" NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    revoked_at   BIGINT
);
CREATE INDEX sessions_user ON sessions (user_id, created_at);

-- Badges of a project answer to anyone only when its admins made them public.
ALTER TABLE projects ADD COLUMN badges_public BIGINT NOT NULL DEFAULT 0;
