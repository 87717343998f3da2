package sqlstore

import (
	"os"
	"testing"

	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// TestMain runs the store's tests once per database backend (see sqltest).
func TestMain(m *testing.M) { os.Exit(sqltest.Run(m)) }
