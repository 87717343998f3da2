package sqlstore

// The row helpers: a query that reads a list of rows reads it through
// eachRow, directly or through eachRecord, queryRecords, queryGroups or (for
// exports) writeRecords, so that rows are always closed and rows.Err is
// never forgotten. A scan function reads one row into one value (the
// scanX functions beside each table's queries); the small ones several
// queries share are here.

import (
	"context"
	"database/sql"
)

// eachRow runs a query and calls fn for each row, stopping at fn's first
// error. The rows are closed before it returns, so the caller may run the
// next query on the same transaction (or, on SQLite, the same connection).
func eachRow(ctx context.Context, q querier, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	return readRows(rows, err, fn)
}

// readRows is eachRow for rows already queried (a prepared statement's),
// given with the query's error.
func readRows(rows *sql.Rows, err error, fn func(*sql.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanner is a row to read: *sql.Rows (one row at a time) or *sql.Row.
type scanner = interface{ Scan(...any) error }

// eachRecord runs a query and calls fn with the value scan makes of each
// row, one row at a time, stopping at the first error.
func eachRecord[T any](ctx context.Context, q querier, query string, args []any, scan func(scanner) (T, error), fn func(T) error) error {
	return eachRow(ctx, q, query, args, func(rows *sql.Rows) error {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		return fn(v)
	})
}

// queryRecords runs a query and returns the value scan makes of each row, in
// the rows' order (nil for no row).
func queryRecords[T any](ctx context.Context, q querier, query string, args []any, scan func(scanner) (T, error)) ([]T, error) {
	var out []T
	err := eachRecord(ctx, q, query, args, scan, func(v T) error {
		out = append(out, v)
		return nil
	})
	return out, err
}

// queryGroups runs a query and groups the values scan makes of the rows by
// the key it gives each, in the rows' order within a key.
func queryGroups[T any](ctx context.Context, q querier, query string, args []any, scan func(scanner) (string, T, error)) (map[string][]T, error) {
	out := map[string][]T{}
	err := eachRow(ctx, q, query, args, func(rows *sql.Rows) error {
		k, v, err := scan(rows)
		if err != nil {
			return err
		}
		out[k] = append(out[k], v)
		return nil
	})
	return out, err
}

// scanString reads a row of one text column.
func scanString(rows scanner) (string, error) {
	var s string
	err := rows.Scan(&s)
	return s, err
}

// scanPair reads a row of two text columns, for queryGroups: a link table
// (project_id, user_id) becomes the users of each project.
func scanPair(rows scanner) (string, string, error) {
	var a, b string
	err := rows.Scan(&a, &b)
	return a, b, err
}
