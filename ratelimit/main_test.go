package ratelimit

import (
	"os"
	"testing"

	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

func TestMain(m *testing.M) {
	sqltest.NoteRedis()
	os.Exit(m.Run())
}
