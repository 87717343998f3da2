package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
)

const codeHostAdminRefusal = "The code host settings of project %q need the project admin role."

// Delivery attempts and the wait after the n-th failure.
var (
	codeHostAttempts = 3
	codeHostBackoff  = func(n int) time.Duration { return time.Duration(n*n) * 5 * time.Second }
)

var defaultCodeHostURLs = map[string]string{codehost.GitHub: "https://api.github.com", codehost.GitLab: "https://gitlab.com"}

type deliveryView struct {
	CommitSHA string `json:"commitSha"`
	State     string `json:"state"`
	Attempts  int    `json:"attempts"`
	Detail    string `json:"detail"`
	At        string `json:"at"`
}

type codeHostView struct {
	Configured   bool          `json:"configured"`
	Kind         *string       `json:"kind"`
	BaseURL      *string       `json:"baseUrl"`
	Repository   *string       `json:"repository"`
	LastDelivery *deliveryView `json:"lastDelivery"`
}

func (s *Server) codeHostView(ctx context.Context, p plumb.Project) (codeHostView, error) {
	t, found, err := s.store.CodeHost(ctx, p.ID)
	if err != nil {
		return codeHostView{}, err
	}
	v := codeHostView{Configured: found}
	if found {
		v.Kind, v.BaseURL, v.Repository = &t.Kind, &t.BaseURL, &t.Repository
	}
	d, err := s.store.LastDelivery(ctx, p.ID)
	if err != nil {
		return v, err
	}
	if d != nil {
		v.LastDelivery = &deliveryView{CommitSHA: d.CommitSHA, State: d.State, Attempts: d.Attempts, Detail: d.Detail, At: d.At.UTC().Format(time.RFC3339)}
	}
	return v, nil
}

func (s *Server) handleGetCodeHost(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	if err := s.requireProjectAdmin(r.Context(), c, p, codeHostAdminRefusal); err != nil {
		return err
	}
	v, err := s.codeHostView(r.Context(), p)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, v)
}

// handlePutCodeHost sets the code host: kind, repository, token and, for
// GitHub Enterprise or self-managed GitLab, the API's base URL.
func (s *Server) handlePutCodeHost(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	if err := s.requireProjectAdmin(r.Context(), c, p, codeHostAdminRefusal); err != nil {
		return err
	}
	obj, err := s.readJSONObject(w, r)
	if err != nil {
		return err
	}
	f := &fields{obj: obj}
	var t codehost.Target
	t.Kind, _ = f.str("kind", true, 1, 20)
	t.Repository, _ = f.str("repository", true, 1, 500)
	t.Token, _ = f.str("token", true, 1, 1000)
	t.BaseURL, _ = f.str("baseUrl", false, 0, 2000)
	def, known := defaultCodeHostURLs[t.Kind]
	if t.Kind != "" && !known {
		f.fail("Field kind must be github or gitlab, got %q.", t.Kind)
	}
	if t.BaseURL == "" {
		t.BaseURL = def
	} else if u, err := url.Parse(t.BaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		f.fail("Field baseUrl must be an http or https URL, such as https://github.example.com/api/v3.")
	}
	if t.Kind == codehost.GitHub && strings.Count(t.Repository, "/") != 1 {
		f.fail("Field repository must be OWNER/NAME for GitHub, got %q.", t.Repository)
	}
	if strings.ContainsAny(t.Token, " \t\r\n") {
		f.fail("Field token must not contain spaces or line breaks.")
	}
	if err := f.err(); err != nil {
		return err
	}
	if err := s.store.PutCodeHost(r.Context(), p.ID, t, s.now()); err != nil {
		return err
	}
	v, err := s.codeHostView(r.Context(), p)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, v)
}

// WaitDeliveries waits for the code-host deliveries under way (tests,
// shutdown).
func (s *Server) WaitDeliveries() { s.deliveries.Wait() }

// notifyCodeHost publishes, in the background, the statuses and comment of a
// head commit after an upload, if the project has a code host. The upload's
// own pull request number (0: none) decides where the comment goes: its
// pull request, or no comment at all. It retries, logs and records the
// outcome; it never fails the caller.
func (s *Server) notifyCodeHost(r *http.Request, p plumb.Project, commit string, pr int) {
	t, found, err := s.store.CodeHost(r.Context(), p.ID)
	if err != nil {
		s.log.Error("code host settings unreadable", "project", p.ID, "error", err)
		return
	}
	if !found {
		return
	}
	site := s.baseURL(r)
	s.deliveries.Add(1)
	go func() {
		defer s.deliveries.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		// One delivery at a time per pull request (or commit): two at once
		// could both find no comment and both write one.
		unlock := s.deliveryLock(p.ID, commit, pr)
		defer unlock()
		if err := s.deliver(ctx, p, t, commit, pr, site); err != nil {
			s.log.Error("code host delivery not attempted", "project", p.ID, "commit", commit, "error", err)
		}
	}()
}

// deliveryLock serialises the deliveries of one pull request (of one commit
// without a pull request) in this process.
func (s *Server) deliveryLock(project, commit string, pr int) (unlock func()) {
	key := project + "/" + commit
	if pr > 0 {
		key = project + "#" + strconv.Itoa(pr)
	}
	s.deliveryMu.Lock()
	if s.deliveryLocks == nil {
		s.deliveryLocks = map[string]*deliveryLock{}
	}
	l := s.deliveryLocks[key]
	if l == nil {
		l = &deliveryLock{}
		s.deliveryLocks[key] = l
	}
	l.users++
	s.deliveryMu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		s.deliveryMu.Lock()
		if l.users--; l.users == 0 {
			delete(s.deliveryLocks, key)
		}
		s.deliveryMu.Unlock()
	}
}

type deliveryLock struct {
	mu    sync.Mutex
	users int // holders and waiters
}

// deliver compares the head with the base its change names (the change
// uploaded for the pull request, else one without a pull request; with no
// pull request, the commit's latest) and publishes the outcome.
func (s *Server) deliver(ctx context.Context, p plumb.Project, t codehost.Target, commit string, pr int, site string) error {
	var ch compare.Change
	var found bool
	var err error
	if pr > 0 {
		ch, found, err = s.store.FindPullRequestChange(ctx, p.ID, commit, pr)
	} else {
		ch, found, err = s.store.FindChange(ctx, p.ID, commit)
	}
	if err != nil || !found {
		return err
	}
	baseRef := ch.BaseCommitSHA
	if baseRef == "" {
		baseRef = "refs/heads/" + ch.BaseBranch
	}
	base, err := s.store.ResolveCommit(ctx, p.ID, baseRef)
	if err != nil {
		return err
	}
	cmp, err := s.Compare(ctx, p, base, commit, &ch, CompareOptions{})
	if err != nil {
		return err
	}
	page, err := s.pullRequestPage(ctx, p, site, commit)
	if err != nil {
		return err
	}
	d := codehost.Delivery{CommitSHA: commit, Statuses: codeHostStatuses(cmp, page)}
	if pr > 0 {
		d.PullRequest = pr
		d.Comment = cmp.View(&pullRequestView{Number: pr, Branch: ch.Branch, BaseBranch: ch.BaseBranch}).Markdown()
	}
	res := (&codehost.Client{}).Deliver(ctx, t, d, codeHostAttempts, codeHostBackoff)
	if res.State == "delivered" {
		s.log.Info("code host delivery", "project", p.ID, "commit", commit, "pullRequest", pr, "attempts", res.Attempts)
	} else {
		s.log.Warn("code host delivery failed", "project", p.ID, "commit", commit, "pullRequest", pr, "attempts", res.Attempts, "error", res.Detail)
	}
	return s.store.RecordDelivery(ctx, p.ID, commit, res, s.now())
}

// pullRequestPage is the address of Plumb's page about a head commit, the
// Details link of its statuses (target_url): until the web has a page for
// pull requests, its coverage view of the head commit
// (/w/{workspace}/{project}/coverage?ref={sha}).
func (s *Server) pullRequestPage(ctx context.Context, p plumb.Project, site, commit string) (string, error) {
	if site == "" {
		return "", nil
	}
	ws, key, err := s.store.ProjectKeys(ctx, p.ID)
	if err != nil {
		return "", err
	}
	return site + "/w/" + url.PathEscape(ws) + "/" + url.PathEscape(key) + "/coverage?" + url.Values{"ref": {commit}}.Encode(), nil
}

// codeHostStatuses are the gate's and the patch coverage's commit statuses,
// each with a link to page.
func codeHostStatuses(cmp *Comparison, page string) []codehost.Status {
	state := func(ok bool) string {
		if ok {
			return "success"
		}
		return "failure"
	}
	failed := 0
	patch := codehost.Status{Context: "plumb/patch-coverage", State: "success", Description: "No changed coverable line"}
	for _, c := range cmp.Gate.Conditions {
		if c.Status == compare.ConditionFailed {
			failed++
		}
		if c.Condition == "patch_coverage" && c.Status != compare.ConditionNoData {
			patch.State, patch.Description = state(c.Status == compare.ConditionPassed), fmt.Sprintf("%s covered (threshold %s)", c.Actual, c.Threshold)
		}
	}
	gate := codehost.Status{Context: "plumb/quality-gate", State: state(cmp.Gate.Status == compare.GatePassed), Description: "Quality gate passed"}
	if failed > 0 {
		gate.Description = fmt.Sprintf("Quality gate failed: %d of %d conditions", failed, len(cmp.Gate.Conditions))
	}
	gate.TargetURL, patch.TargetURL = page, page
	return []codehost.Status{gate, patch}
}
