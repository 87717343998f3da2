-- Sign-in throttling (docs/web.md, "Sign-in limits"): one row per counter of
-- failed password sign-ins. A key names a login and an address together, a
-- login alone or an address alone (hashed by the web, never the plain login or
-- address). An attempt is reserved (failures + 1, next_at pushed out) in one
-- upsert before the password is hashed, and only while next_at has passed; a
-- sign-in that succeeds gives its reservation back. ok_at is the last
-- successful sign-in of a login-and-address key (such an address is exempt
-- from the wider counters). Times are Unix milliseconds.
CREATE TABLE login_throttle (
    key        TEXT PRIMARY KEY,
    failures   INTEGER NOT NULL,
    next_at    INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    ok_at      INTEGER
);
