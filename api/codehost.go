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

// handlePutCodeHost sets the code host: kind, repository, token (optional
// for GitHub on a server with a GitHub App) and, for GitHub Enterprise or
// self-managed GitLab, the API's base URL.
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
	// A GitHub project may go without a token on a server with a GitHub
	// App: the App's installation tokens are used (and check runs sent).
	viaApp := t.Kind == codehost.GitHub && s.cfg.GitHubApp != nil
	t.Token, _ = f.str("token", !viaApp, 1, 1000)
	t.BaseURL, _ = f.str("baseUrl", false, 0, 2000)
	for _, p := range t.Check(s.cfg.GitHubApp) {
		f.fail("%s", "Field "+p)
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

// CheckCodeHost is codehost.Target.Check, as PUT …/code-host and the web's
// settings form apply it.
func CheckCodeHost(t *codehost.Target, app *codehost.App) []string { return t.Check(app) }

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
	s.startDelivery(p, t, commit, pr, s.baseURL(r))
}

// startDelivery runs a delivery in the background, one at a time per pull
// request (or commit).
func (s *Server) startDelivery(p plumb.Project, t codehost.Target, commit string, pr int, site string) {
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

// ResumeCheckRuns delivers again, in the background, the head commits
// whose check run was left in progress (a server stopped while sending it):
// each resumes where it stopped, or, with a new outcome, is superseded by a
// new run. serve calls it at start; the Details links use the configured
// base URL.
func (s *Server) ResumeCheckRuns(ctx context.Context) error {
	runs, err := s.store.UnfinishedCheckRuns(ctx, maxResumedCheckRuns)
	if err != nil {
		return err
	}
	for _, u := range runs {
		p, err := s.store.FindProjectByID(ctx, u.ProjectID)
		if err != nil {
			s.log.Warn("check run not resumed", "project", u.ProjectID, "commit", u.HeadSHA, "error", err)
			continue
		}
		t, found, err := s.store.CodeHost(ctx, p.ID)
		if err != nil || !found {
			s.log.Warn("check run not resumed: no code host", "project", p.ID, "commit", u.HeadSHA, "error", err)
			continue
		}
		s.log.Info("resuming a check run", "project", p.ID, "commit", u.HeadSHA, "pullRequest", u.PullRequest)
		s.startDelivery(p, t, u.HeadSHA, u.PullRequest, strings.TrimRight(s.cfg.BaseURL, "/"))
	}
	return nil
}

// maxResumedCheckRuns bounds the check runs resumed at start.
const maxResumedCheckRuns = 1000

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
// pull request, the commit's latest) and publishes the outcome. A GitHub
// project connected without a token publishes through the GitHub App, and
// gets the head's check run too: created in progress before the
// comparison, completed with its annotations once it is ready.
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
	page, err := s.pullRequestPage(ctx, p, site, commit, pr)
	if err != nil {
		return err
	}
	app := t.Kind == codehost.GitHub && t.Token == ""
	var check *checkRun
	if app {
		if t, err = s.appTarget(ctx, t); err != nil {
			s.log.Warn("code host delivery failed", "project", p.ID, "commit", commit, "pullRequest", pr, "error", err)
			return s.store.RecordDelivery(ctx, p.ID, commit, codehost.Result{State: "failed", Attempts: 1, Detail: err.Error()}, s.now())
		}
		if check, err = s.startCheckRun(ctx, p, t, commit, pr, page); err != nil {
			s.log.Warn("check run not created", "project", p.ID, "commit", commit, "error", err)
		}
	}
	baseRef := ch.BaseCommitSHA
	if baseRef == "" {
		baseRef = "refs/heads/" + ch.BaseBranch
	}
	cmp, err := s.compareWithBase(ctx, p, baseRef, commit, &ch)
	if err != nil {
		if check != nil && plumb.ErrorCode(err) != plumb.EINTERNAL {
			// No comparison to show (say, the base has no upload yet): the
			// run is completed as neutral, saying why, not left in progress.
			none := codehost.CheckRun{HeadSHA: commit, DetailsURL: page, Conclusion: "neutral", Title: "No comparison yet",
				Summary: "Plumb could not compare this commit with its base: " + strings.Join(plumb.ErrorDetails(err), " ")}
			if cerr := s.completeCheckRun(ctx, p, t, check, none); cerr != nil {
				s.log.Warn("check run not completed", "project", p.ID, "commit", commit, "error", cerr)
			}
		}
		return err
	}
	d := codehost.Delivery{CommitSHA: commit, Statuses: codeHostStatuses(cmp, page)}
	var view *pullRequestView // a commit without a pull request: "comparison"
	if pr > 0 {
		view = &pullRequestView{Number: pr, Branch: ch.Branch, BaseBranch: ch.BaseBranch}
	}
	summary := cmp.View(view).Markdown()
	if pr > 0 {
		d.PullRequest = pr
		d.Comment = summary
	}
	client := &codehost.Client{}
	res := client.Deliver(ctx, t, d, codeHostAttempts, codeHostBackoff)
	if res.State == "delivered" {
		s.log.Info("code host delivery", "project", p.ID, "commit", commit, "pullRequest", pr, "attempts", res.Attempts)
	} else {
		s.log.Warn("code host delivery failed", "project", p.ID, "commit", commit, "pullRequest", pr, "attempts", res.Attempts, "error", res.Detail)
	}
	if check != nil {
		if err := s.completeCheckRun(ctx, p, t, check, checkRunOf(cmp, &ch, commit, page, summary)); err != nil {
			// The state kept says how far it got: the next delivery of the
			// head resumes it.
			s.log.Warn("check run not completed", "project", p.ID, "commit", commit, "run", check.state.RunID, "sent", check.state.Sent, "error", err)
			if res.State == "delivered" {
				res.State, res.Detail = "failed", "check run: "+err.Error()
			}
		}
	}
	return s.store.RecordDelivery(ctx, p.ID, commit, res, s.now())
}

// compareWithBase compares the head with the base reference its change
// names.
func (s *Server) compareWithBase(ctx context.Context, p plumb.Project, baseRef, commit string, ch *compare.Change) (*Comparison, error) {
	base, err := s.store.ResolveCommit(ctx, p.ID, baseRef)
	if err != nil {
		return nil, err
	}
	return s.Compare(ctx, p, base, commit, ch, CompareOptions{})
}

// appTarget is a GitHub target with the App's installation token.
func (s *Server) appTarget(ctx context.Context, t codehost.Target) (codehost.Target, error) {
	app := s.cfg.GitHubApp
	if app == nil {
		return t, fmt.Errorf("the project's GitHub connection has no token and this server has no GitHub App (--github-app-id, --github-app-private-key)")
	}
	known, _, err := s.store.GitHubInstallation(ctx, t.Repository)
	if err != nil {
		return t, err
	}
	at, err := app.Target(ctx, t.Repository, known)
	if err != nil {
		return t, fmt.Errorf("GitHub App installation on %s: %w", t.Repository, err)
	}
	at.BaseURL = t.BaseURL
	return at, nil
}

// checkRun is a head commit's check run under way.
type checkRun struct {
	commit string
	state  codehost.CheckState
}

// startCheckRun makes sure the head has a check run in progress: the one
// kept when it is not completed, else a new one.
func (s *Server) startCheckRun(ctx context.Context, p plumb.Project, t codehost.Target, commit string, pr int, page string) (*checkRun, error) {
	st, found, err := s.store.CheckRun(ctx, p.ID, commit)
	if err != nil {
		return nil, err
	}
	if found && !st.Completed {
		return &checkRun{commit, st}, nil
	}
	id, err := (&codehost.Client{}).StartCheckRun(ctx, t, commit, page)
	if err != nil {
		return nil, err
	}
	st = codehost.CheckState{RunID: id, PullRequest: pr}
	return &checkRun{commit, st}, s.store.PutCheckRun(ctx, p.ID, commit, st, s.now())
}

// completeCheckRun sends the run's outcome, resuming a run interrupted with
// the same outcome; a run interrupted with another outcome (an upload came
// since) is completed as superseded and a new run carries this one.
func (s *Server) completeCheckRun(ctx context.Context, p plumb.Project, t codehost.Target, c *checkRun, run codehost.CheckRun) error {
	client := &codehost.Client{}
	keep := func(st codehost.CheckState) error {
		c.state = st
		return s.store.PutCheckRun(ctx, p.ID, c.commit, st, s.now())
	}
	digest := run.Digest()
	if c.state.Digest != "" && c.state.Digest != digest {
		old := codehost.CheckRun{Conclusion: "neutral", Title: "Superseded", Summary: "A later upload for this commit replaced this run's outcome: see the newer Plumb check run."}
		if err := client.CompleteCheckRun(ctx, t, c.state, old, func(codehost.CheckState) error { return nil }); err != nil {
			return err
		}
		id, err := client.StartCheckRun(ctx, t, c.commit, run.DetailsURL)
		if err != nil {
			return err
		}
		c.state = codehost.CheckState{RunID: id, PullRequest: c.state.PullRequest}
	}
	if c.state.Digest == "" {
		c.state.Digest = digest
		if err := keep(c.state); err != nil {
			return err
		}
	}
	return client.CompleteCheckRun(ctx, t, c.state, run, keep)
}

// checkRunOf is a comparison's check run: the gate's conclusion (neutral
// when no condition had data), the summary, and annotations on the changed
// lines, the most severe first: changed lines no test covers (each range of
// consecutive lines one annotation) and new issues.
func checkRunOf(cmp *Comparison, ch *compare.Change, commit, page, summary string) codehost.CheckRun {
	run := codehost.CheckRun{HeadSHA: commit, DetailsURL: page, Conclusion: "neutral", Title: "No data for the quality gate yet"}
	judged := 0
	for _, c := range cmp.Gate.Conditions {
		if c.Status != compare.ConditionNoData {
			judged++
		}
	}
	blocking, advisory := cmp.Gate.Failed()
	switch {
	case blocking > 0:
		run.Conclusion, run.Title = "failure", cmp.Gate.Summary()
	case advisory > 0:
		// Passed, but an advisory condition failed: neutral does not
		// block a branch protection rule and still stands out.
		run.Conclusion, run.Title = "neutral", cmp.Gate.Summary()
	case judged > 0:
		run.Conclusion, run.Title = "success", cmp.Gate.Summary()
	}
	var as []codehost.Annotation
	if cmp.patch != nil {
		for _, f := range cmp.patch.Files {
			for _, r := range f.Uncovered {
				msg := fmt.Sprintf("Changed line %d is not covered by tests.", r.Start)
				if r.End > r.Start {
					msg = fmt.Sprintf("Changed lines %d–%d are not covered by tests.", r.Start, r.End)
				}
				as = append(as, codehost.Annotation{Path: f.Path, StartLine: r.Start, EndLine: r.End, Level: codehost.AnnotationWarning, Title: "Not covered", Message: msg})
			}
		}
	}
	changed := map[string][]compare.LineRange{}
	for _, f := range ch.Files {
		changed[f.Path] = f.AddedLines
	}
	for _, is := range cmp.issues.New {
		if is.StartLine == nil || !onChangedLine(changed[is.Path], *is.StartLine) {
			continue
		}
		end := *is.StartLine
		if is.EndLine != nil && *is.EndLine >= end {
			end = *is.EndLine
		}
		title := strings.TrimPrefix(is.Tool+": "+is.RuleKey, ": ")
		msg := is.Message
		if msg == "" { // GitHub requires a message
			msg = title
		}
		as = append(as, codehost.Annotation{Path: is.Path, StartLine: *is.StartLine, EndLine: end, Level: annotationLevel(is.Level),
			Title: title, Message: msg})
	}
	codehost.SortAnnotations(as)
	if n := len(as) - codehost.MaxAnnotations; n > 0 {
		as = as[:codehost.MaxAnnotations]
		summary += fmt.Sprintf("\n\n%d more annotations (the least severe) are not shown: the comparison lists them all.", n)
	}
	run.Summary, run.Annotations = summary, as
	return run
}

func onChangedLine(rs []compare.LineRange, line int) bool {
	for _, r := range rs {
		if line >= r.Start && line <= r.End {
			return true
		}
	}
	return false
}

// annotationLevel maps an issue's level to the Checks API's: high is a
// failure, medium a warning, the rest notices.
func annotationLevel(level string) string {
	switch level {
	case "high":
		return codehost.AnnotationFailure
	case "medium":
		return codehost.AnnotationWarning
	}
	return codehost.AnnotationNotice
}

// pullRequestPage is the address of Plumb's page about a head commit, the
// Details link of its statuses (target_url) and check run (details_url):
// the web's page of the pull request, /w/{workspace}/{project}/pulls/{n},
// or without one, the coverage view of the head commit
// (/w/{workspace}/{project}/coverage?ref={sha}).
func (s *Server) pullRequestPage(ctx context.Context, p plumb.Project, site, commit string, pr int) (string, error) {
	if site == "" {
		return "", nil
	}
	ws, key, err := s.store.ProjectKeys(ctx, p.ID)
	if err != nil {
		return "", err
	}
	project := site + "/w/" + url.PathEscape(ws) + "/" + url.PathEscape(key)
	if pr > 0 {
		return project + "/pulls/" + strconv.Itoa(pr), nil
	}
	return project + "/coverage?" + url.Values{"ref": {commit}}.Encode(), nil
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
	patch := codehost.Status{Context: "plumb/patch-coverage", State: "success", Description: "No changed coverable line"}
	for _, c := range cmp.Gate.Conditions {
		if c.Condition == "patch_coverage" && c.Status != compare.ConditionNoData {
			patch.State, patch.Description = state(c.Status == compare.ConditionPassed || c.Advisory), fmt.Sprintf("%s covered (threshold %s)", c.Actual, c.Threshold)
			if c.Advisory {
				patch.Description += ", advisory"
			}
		}
	}
	gate := codehost.Status{Context: "plumb/quality-gate", State: state(cmp.Gate.Status == compare.GatePassed), Description: cmp.Gate.Summary()}
	gate.TargetURL, patch.TargetURL = page, page
	return []codehost.Status{gate, patch}
}
