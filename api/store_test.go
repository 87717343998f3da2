package api_test

import (
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/sqlstore"
)

// The store the server runs on satisfies the API's Store.
var _ api.Store = (*sqlstore.DB)(nil)
