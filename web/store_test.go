package web_test

import (
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/web"
)

// The store the server runs on satisfies the pages' Store.
var _ web.Store = (*sqlstore.DB)(nil)
