package api

// What the idempotent upload handlers share: the upload body opened and
// closed around the work, and the idempotency key's lease renewed while the
// work runs.

import (
	"context"
	"net/http"

	"github.com/plumbhq/plumb"

	"github.com/plumbhq/plumb/internal/wait"
)

// idempotentUpload is idempotent (no replay headers) for a handler that
// reads the request body: run gets the body, limited as uploadBody limits
// it, and it is closed when run returns.
func (s *Server) idempotentUpload(w http.ResponseWriter, r *http.Request, p plumb.Project, run func(ctx context.Context, body *limitedBody) (int, any, error)) error {
	return s.idempotent(w, r, p, nil, func(ctx context.Context) (int, any, error) {
		body, err := s.uploadBody(w, r)
		if err != nil {
			return 0, nil, err
		}
		defer body.Close()
		return run(ctx, body)
	})
}

// renewLease renews the lease of the project's idempotency key every third
// of plumb.IdempotencyLease until stop is called, so that a server
// killed mid-upload stops renewing and a retry takes the key over. A renewal
// that fails is logged as msg.
func (s *Server) renewLease(ctx context.Context, projectID, key, msg string) (stop func()) {
	return wait.Renew(ctx, plumb.IdempotencyLease/3, func(rctx context.Context) bool {
		if err := s.store.IdempotencyRenew(rctx, projectID, key); err != nil {
			s.log.Warn(msg, "request_id", requestID(ctx), "error", err)
		}
		return true
	})
}
