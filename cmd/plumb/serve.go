package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/plumbhq/plumb/internal/dblock"
	"github.com/plumbhq/plumb/server"
	"github.com/plumbhq/plumb/sqlstore"
)

// cmdServe opens the database and serves the API until ctx ends. On SQLite
// it holds the database's lock (internal/dblock) while it runs: one server per
// SQLite file, and plumb demo leaves the file alone.
func cmdServe(ctx context.Context, cfg *config, stdout, stderr io.Writer) error {
	log := newLogger(stderr, cfg.LogLevel)
	var ready func(string)
	if path := sqlstore.SQLiteFile(cfg.Database); path != "" {
		lock, err := dblock.Acquire(path, "plumb serve")
		if err != nil {
			var inUse *dblock.InUseError
			if errors.As(err, &inUse) {
				return fmt.Errorf("%w (one plumb serve per SQLite file; use PostgreSQL for more than one replica)", err)
			}
			return err
		}
		defer lock.Close()
		ready = lock.SetAddr
	}
	db, err := sqlstore.Open(ctx, cfg.Database, cfg.StoreOptions())
	if err != nil {
		return err
	}
	defer db.Close()
	cfg.Build = currentBuild()
	return server.Run(ctx, cfg, db, log, ready)
}

// cmdMigrate reports that the database is up to date: opening it applied
// the migrations.
func cmdMigrate(ctx context.Context, db *sqlstore.DB, stdout io.Writer) error {
	fmt.Fprintln(stdout, "database is up to date")
	return nil
}
