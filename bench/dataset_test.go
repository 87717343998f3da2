package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
)

// benchDataset is a generated dataset served by the API, made once per test
// binary and kept in $PLUMB_BENCH_DIR (default: the system temp folder)
// between runs: its fixture is recorded as JSON once generation finished.
type benchDataset[F any] struct {
	once sync.Once
	srv  http.Handler
	db   *sqlstore.DB
	fix  F
	err  error
}

// load opens (or generates with gen) the dataset called name.
func (d *benchDataset[F]) load(name string, gen func(ctx context.Context, db *sqlstore.DB, h http.Handler) (F, error)) (http.Handler, *sqlstore.DB, F, error) {
	d.once.Do(func() {
		ctx := context.Background()
		ds, fresh, err := OpenDataset(ctx, os.Getenv("PLUMB_BENCH_DIR"), name)
		if err != nil {
			d.err = err
			return
		}
		if d.db, d.err = sqlstore.Open(ctx, ds.DSN, sqlstore.Options{}); d.err != nil {
			return
		}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		d.srv = api.NewServer(d.db, ratelimit.NewMemory(1<<30, nil), log, api.Config{})
		if !fresh {
			raw, err := os.ReadFile(ds.Meta)
			if err == nil {
				err = json.Unmarshal(raw, &d.fix)
			}
			d.err = err
			return
		}
		start := time.Now()
		if d.fix, d.err = gen(ctx, d.db, d.srv); d.err != nil {
			return
		}
		fmt.Fprintf(os.Stderr, "generated %s in %s\n", ds.DSN, time.Since(start).Round(time.Second))
		raw, _ := json.Marshal(d.fix)
		d.err = os.WriteFile(ds.Meta, raw, 0o600)
	})
	return d.srv, d.db, d.fix, d.err
}

// envInt reads a size from the environment (0 when unset).
func envInt(name string) int {
	n := 0
	fmt.Sscan(os.Getenv(name), &n)
	return n
}
