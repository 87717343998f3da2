package bench

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// Dataset locates one generated benchmark dataset: a SQLite file in dir, or,
// when PLUMB_BENCH_POSTGRES_URL is set, a PostgreSQL database of that name on
// that server. Meta is a file in dir that records the dataset's fixture once
// generation has finished.
type Dataset struct {
	DSN  string
	Meta string
}

// OpenDataset returns where the dataset called name lives, and whether it
// still has to be generated (in which case any partial copy was removed).
func OpenDataset(ctx context.Context, dir, name string) (Dataset, bool, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	pg := os.Getenv("PLUMB_BENCH_POSTGRES_URL")
	backend := "sqlite"
	if pg != "" {
		backend = "postgres"
	}
	d := Dataset{Meta: filepath.Join(dir, fmt.Sprintf("plumb-bench-%s-%s.json", backend, name))}
	_, err := os.Stat(d.Meta)
	fresh := err != nil
	if pg == "" {
		path := filepath.Join(dir, fmt.Sprintf("plumb-bench-%s.db", name))
		d.DSN = "sqlite:" + path
		if fresh {
			for _, s := range []string{"", "-wal", "-shm"} {
				os.Remove(path + s)
			}
		}
		return d, fresh, nil
	}
	dbName := "plumb_bench_" + strings.NewReplacer("-", "_").Replace(name)
	admin, err := sql.Open("pgx", pg)
	if err != nil {
		return d, false, err
	}
	defer admin.Close()
	if fresh {
		if _, err := admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+dbName); err != nil {
			return d, false, err
		}
		if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+dbName); err != nil {
			return d, false, err
		}
	}
	u, err := url.Parse(pg)
	if err != nil {
		return d, false, err
	}
	u.Path = "/" + dbName
	d.DSN = u.String()
	return d, fresh, nil
}
