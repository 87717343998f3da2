package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
)

// maxHookBytes bounds a webhook delivery's body (GitHub caps its payloads at
// 25 MB; the events Plumb keeps are a few kilobytes, an installation's
// repository list at most some hundreds).
const maxHookBytes = 5 << 20

// hookStore keeps what GitHub's webhooks say (hooks.go) and each head
// commit's check run (codehost.go).
type hookStore interface {
	ApplyHook(ctx context.Context, d codehost.HookDelivery, applied, unknown int) (status int, err error)
	HookDeliveries(ctx context.Context, projectID string, limit int) ([]codehost.HookRecord, error)
	GitHubInstallation(ctx context.Context, repository string) (id int64, found bool, err error)
	CheckRun(ctx context.Context, projectID, headSHA string) (st codehost.CheckState, found bool, err error)
	PutCheckRun(ctx context.Context, projectID, headSHA string, st codehost.CheckState, at time.Time) error
	UnfinishedCheckRuns(ctx context.Context, limit int) ([]plumb.UnfinishedCheckRun, error)
}

// handleGitHubHook takes GitHub's webhook deliveries (POST /hooks/github,
// docs/pull-requests.md): the signature first (401, the body unread as
// JSON, without the right X-Hub-Signature-256), then the event: pull_request,
// installation and installation_repositories events are kept, ping and any
// other event answer 204.
// An event for a repository no project is connected to answers 404 (the
// error body names the repository) and keeps nothing; a delivery id seen
// before answers what it was answered.
func (s *Server) handleGitHubHook(w http.ResponseWriter, r *http.Request, c *call) error {
	if s.cfg.GitHubWebhookSecret == "" {
		return plumb.Errorf(plumb.ENOTFOUND, "This server takes no GitHub webhooks: it has no webhook secret (--github-webhook-secret).")
	}
	body, err := s.readBody(w, r, maxHookBytes)
	if err != nil {
		return err
	}
	sig := r.Header.Get("X-Hub-Signature-256")
	if !codehost.VerifySignature(s.cfg.GitHubWebhookSecret, body, sig) {
		what := "wrong"
		if sig == "" {
			what = "missing"
		}
		s.log.Warn("webhook signature refused", "request_id", requestID(r.Context()), "signature", what)
		return plumb.Errorf(plumb.EUNAUTHORIZED, "The X-Hub-Signature-256 header is %s: it must be sha256= and the HMAC-SHA256 of the body under the App's webhook secret.", what)
	}
	event, id := r.Header.Get("X-GitHub-Event"), strings.TrimSpace(r.Header.Get("X-GitHub-Delivery"))
	if event == "ping" {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if id == "" || len(id) > 200 {
		return plumb.Errorf(plumb.EINVALID, "The X-GitHub-Delivery header must name the delivery (at most 200 characters).")
	}
	if ct := r.Header.Get("Content-Type"); !isJSONMediaType(ct) {
		return plumb.Errorf(plumb.EUNSUPPORTED, "The webhook's content type must be application/json (set it so in the App's webhook settings); got %q.", ct)
	}
	d, keep, err := codehost.ParseHook(id, event, body)
	if err != nil {
		return plumb.Errorf(plumb.EINVALID, "The %s event cannot be read: %v.", event, err)
	}
	if !keep {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	d.At = s.now()
	status, err := s.store.ApplyHook(r.Context(), d, http.StatusNoContent, http.StatusNotFound)
	if err != nil {
		return err
	}
	if status == http.StatusNotFound {
		s.log.Info("webhook for an unconnected repository", "request_id", requestID(r.Context()), "event", event, "delivery", id)
		return plumb.Errorf(plumb.ENOTFOUND, "No project is connected to the GitHub repository %q: set it as a project's code host (project settings, or plumb project code-host) to take its pull requests.", d.Repository)
	}
	if in := d.Installation; in != nil && s.cfg.GitHubApp != nil {
		if in.Uninstalled {
			s.cfg.GitHubApp.ForgetInstallation(in.ID)
		}
		for _, repo := range in.Repositories {
			if in.Deleted {
				s.cfg.GitHubApp.Remember(repo, 0)
			} else {
				s.cfg.GitHubApp.Remember(repo, in.ID)
			}
		}
	}
	s.log.Info("webhook", "request_id", requestID(r.Context()), "event", event, "action", d.Action, "delivery", id, "status", status)
	w.WriteHeader(status)
	return nil
}
