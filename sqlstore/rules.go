package sqlstore

import "github.com/plumbhq/plumb"

// The domain's rules for ids, keys and names live in package plumb, where
// the dataset document's validation (package dataset) applies them too; the
// store calls them by these short names.

// isUUID reports whether s is a UUID in canonical text form (plumb.IsUUID).
func isUUID(s string) bool { return plumb.IsUUID(s) }

// validateKey checks a workspace or project key (plumb.ValidateKey).
func validateKey(what, key string) error { return plumb.ValidateKey(what, key) }

// fold is the case-insensitive form of an application or component name, as
// its name_fold column keeps it (plumb.FoldName).
func fold(s string) string { return plumb.FoldName(s) }

// foldASCII is a login or key as the unique indexes on lower(login) and
// lower(key) compare it (plumb.FoldASCII). Lookups compare lower(column)
// with this fold of the argument: PostgreSQL's lower() of a parameter would
// follow the database's default collation instead.
func foldASCII(s string) string { return plumb.FoldASCII(s) }
