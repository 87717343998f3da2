// Package plumb holds Plumb's domain: the types every layer shares, one file
// per entity (account.go, workspace.go, token.go, build.go, snapshot.go,
// coverage.go, ...), with the rules that belong to them (validation, defaults,
// derived values), and the application error codes (error.go).
//
// It imports no other layer (only metric, the measures). Storage (sqlstore) reads and writes these
// types; the HTTP layers declare, where they use them, the narrow store
// interfaces they need (api.Store, web.Store), which *sqlstore.DB satisfies.
package plumb
