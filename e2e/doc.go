// Package e2e holds end-to-end tests that build the plumb binary and run it as
// real processes against real PostgreSQL and Redis servers: two replicas
// sharing one database and one rate-limit store, a PostgreSQL restart under
// load, and a Redis outage.
//
// The tests need servers:
//
//   - TestTwoReplicas uses the PostgreSQL server at PLUMB_TEST_POSTGRES_URL
//     (it creates and drops a database of its own there) and a throwaway
//     redis-server (or, without redis-server on PATH, the Redis at
//     PLUMB_TEST_REDIS_URL). Without PLUMB_TEST_POSTGRES_URL it skips.
//   - TestPostgresRestartUnderLoad starts and restarts a throwaway PostgreSQL
//     with initdb and pg_ctl (found on PATH, in PLUMB_TEST_PG_BIN, or in
//     /usr/lib/postgresql/*/bin); it skips without them.
//   - TestRedisOutage starts, kills and restarts a throwaway redis-server; it
//     skips when redis-server is not on PATH.
//
// Every server listens on a free loopback port and is stopped when its test
// ends, failed or not.
package e2e
