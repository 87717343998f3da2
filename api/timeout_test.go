package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ratelimit"
)

// stuckLimiter never answers until the request gives up, like a dependency
// that accepts connections but no longer responds.
type stuckLimiter struct{ ratelimit.Limiter }

func (stuckLimiter) Take(ctx context.Context, key string) (ratelimit.Status, bool, error) {
	<-ctx.Done()
	return ratelimit.Status{}, false, ctx.Err()
}

// A request whose response has not started within the request timeout
// answers 503 with the error body instead of hanging.
func TestRequestTimeoutAnswers503(t *testing.T) {
	ts := newTestServer(t, withLimiter(stuckLimiter{ratelimit.NewMemory(10, nil)}),
		withConfig(api.Config{RequestTimeout: 300 * time.Millisecond}))
	ts.user(t, "ann")
	tok := ts.token(t, "ann")
	start := time.Now()
	r := ts.get(t, "/workspaces", tok)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the request took %s", d)
	}
	r.wantError(t, http.StatusServiceUnavailable, "took longer than 300ms")
	if !strings.Contains(ts.Logs.String(), "request timed out") {
		t.Errorf("no timeout in the log:\n%s", ts.Logs.String())
	}
}
