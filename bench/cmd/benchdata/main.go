// Command benchdata writes the generated 1,000,000-issue benchmark database
// used by scripts/bench-core.sh and prints its API token.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/plumbhq/plumb/bench"
	"github.com/plumbhq/plumb/sqlstore"
)

func main() {
	path := flag.String("db", "bench-issues.db", "SQLite database file to create")
	n := flag.Int("issues", 1_000_000, "number of issues")
	flag.Parse()
	for _, s := range []string{"", "-wal", "-shm"} {
		os.Remove(*path + s)
	}
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, "sqlite:"+*path, sqlstore.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()
	fix, err := bench.GenerateIssues(ctx, db, *n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(fix.Token)
}
