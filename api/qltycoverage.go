package api

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
)

// The qlty CLI's coverage uploads (docs/migrate-from-qlty.md), so that
// "qlty coverage publish" and "qlty coverage complete" run unchanged against
// Plumb with QLTY_API_URL pointing at it:
//
//	POST /coverage                 {"data": <CoverageMetadata>} → {"data": {"id", "projectId", "coverage.zip", "url"}}
//	PUT  /coverage/uploads/{id}?…  the coverage.zip, to the signed URL given as "coverage.zip"
//	POST /coverage/complete        {"data": <CoverageMetadata>} → {"data": {"url"}}
//
// The routes authenticate themselves: the POSTs take the CLI's token forms
// (qltyCredentials), the PUT the URL's signature. Their errors carry the
// member the CLI prints, "error", beside the usual "errors".

// qltyURLTTL is how long an upload URL may be used.
const qltyURLTTL = time.Hour

// qltySecretName names the key that signs upload URLs (server_secrets).
const qltySecretName = "qlty-upload-url"

// qltyWorkspacePrefix starts the original service's workspace tokens; the
// CLI appends "/<project>" to them.
const qltyWorkspacePrefix = "qltcw_"

// qltyErrorBody is an error as the qlty CLI reads it ("error") and as every
// other Plumb error is ("errors").
type qltyErrorBody struct {
	Error  string        `json:"error"`
	Errors []errorObject `json:"errors"`
}

// qltyRoute runs a qlty route's handler and writes its errors in the qlty
// shape. A request whose client went away, or that ran out of time, is left
// to ServeHTTP as any other.
func (s *Server) qltyRoute(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c *call) error {
		err := h(w, r, c)
		if err == nil {
			return nil
		}
		if sw, ok := w.(*statusWriter); ok && sw.wrote {
			return err
		}
		ctx := r.Context()
		if context.Cause(ctx) == errRequestTimeout {
			err = plumb.Errorf(plumb.EUNAVAILABLE, "The request took longer than %s; the service is under strain. Retry in a few seconds.", s.cfg.RequestTimeout)
		} else if ctx.Err() != nil && plumb.ErrorCode(err) != plumb.ETIMEOUT {
			return err
		}
		s.writeQltyError(w, r, err)
		return nil
	}
}

// writeQltyError writes err as writeError does (status, headers, details),
// with the details also joined in "error".
func (s *Server) writeQltyError(w http.ResponseWriter, r *http.Request, err error) {
	rec := &errorRecorder{header: w.Header()}
	s.writeError(rec, r, err)
	var body errorBody
	_ = json.Unmarshal(rec.body.Bytes(), &body)
	details := make([]string, len(body.Errors))
	for i, e := range body.Errors {
		details[i] = e.Detail
	}
	w.WriteHeader(rec.status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(qltyErrorBody{Error: strings.Join(details, " "), Errors: body.Errors})
}

// errorRecorder catches what writeError writes; its headers are the real
// response's.
type errorRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (e *errorRecorder) Header() http.Header         { return e.header }
func (e *errorRecorder) WriteHeader(status int)      { e.status = status }
func (e *errorRecorder) Write(b []byte) (int, error) { return e.body.Write(b) }

// qltyCredentials authenticates a qlty CLI request and finds its project.
// The token (QLTY_COVERAGE_TOKEN as the CLI sends it) is one of:
//
//	plbu_…                  a project upload token: its project
//	<token>/<project>       a project upload token or a project admin's API
//	                        token, and the project: its key (searched in the
//	                        user's workspaces), WORKSPACE/PROJECT, or its id
//	qltcw_<token>[/<project>] the same, written as the original service's
//	                        workspace token: the CLI then appends the
//	                        repository's name by itself
//
// Checks run in the contract's order: the token (401), the rate limit
// (429), the project's visibility (404), the admin role (403).
func (s *Server) qltyCredentials(w http.ResponseWriter, r *http.Request, c *call) (plumb.Project, error) {
	secret, err := bearerSecret(r)
	if err != nil {
		return plumb.Project{}, err
	}
	workspaceForm := strings.HasPrefix(secret, qltyWorkspacePrefix)
	secret = strings.TrimPrefix(secret, qltyWorkspacePrefix)
	secret, ref, named := strings.Cut(secret, "/")
	if named && (ref == "" || badText(ref)) {
		return plumb.Project{}, plumb.Errorf(plumb.EINVALID, "The token names no project after its \"/\"; send <token>/<project> or <token>/<workspace>/<project>.")
	}
	if secret == "" {
		return plumb.Project{}, plumb.Errorf(plumb.EUNAUTHORIZED, "The token is empty: set QLTY_COVERAGE_TOKEN to a Plumb upload token (plbu_…) or to qltcw_<API token>.")
	}
	var tok plumb.Token
	var ut plumb.UploadToken
	upload := strings.HasPrefix(secret, plumb.UploadTokenPrefix)
	if upload {
		err = s.lookupToken(r, secret, func() (err error) {
			ut, err = s.store.AuthenticateUpload(r.Context(), secret)
			return err
		})
		tok = plumb.Token{ID: uploadQuotaKey(ut.ProjectID), Name: ut.Name}
		c.upload = &ut
	} else {
		err = s.lookupToken(r, secret, func() (err error) {
			c.user, tok, err = s.store.Authenticate(r.Context(), secret)
			return err
		})
	}
	if err != nil {
		return plumb.Project{}, err
	}
	c.token = tok
	st, ok, err := s.countRequest(w, r, tok)
	if err != nil {
		return plumb.Project{}, err
	}
	if !ok {
		retry := max(int(st.Reset.Sub(s.now()).Seconds()+0.999), 1)
		w.Header().Set("Retry-After", strconv.Itoa(retry))
		return plumb.Project{}, plumb.Errorf(plumb.ERATELIMIT, "The rate limit of %d requests per hour is used up; it resets at %s (in %d seconds).",
			st.Limit, st.Reset.UTC().Format(time.RFC3339), retry)
	}
	ctx := r.Context()
	if upload {
		p, err := s.store.FindProjectByID(ctx, ut.ProjectID)
		if err != nil {
			return p, err
		}
		if named {
			ws, key, err := s.store.ProjectKeys(ctx, p.ID)
			if err != nil {
				return p, err
			}
			if !strings.EqualFold(ref, key) && !strings.EqualFold(ref, ws+"/"+key) && !strings.EqualFold(ref, p.ID) {
				return p, errNotFoundf("Project %q was not found: this upload token belongs to project %s/%s. Send the upload token alone (without qltcw_ or /<project>).", ref, ws, key)
			}
		}
		return p, nil
	}
	if !named {
		hint := "set QLTY_COVERAGE_TOKEN to qltcw_<token> (the CLI then appends the repository's name, or --project) or to <token>/<workspace>/<project>"
		if workspaceForm {
			hint = "pass --project, or set QLTY_COVERAGE_TOKEN to qltcw_<token>/<workspace>/<project>"
		}
		return plumb.Project{}, plumb.Errorf(plumb.EINVALID, "An API token names no project: %s, or use the project's upload token (plbu_…).", hint)
	}
	owner, key, qualified := strings.Cut(ref, "/")
	if !qualified {
		owner, key, err = s.qltyProjectByKey(ctx, c.user, ref)
		if err != nil {
			return plumb.Project{}, err
		}
	}
	c.params = pathParams{"owner": owner, "project": key}
	return s.ingestProject(ctx, c)
}

// qltyProjectByKey finds the one project with that key (or id) among the
// user's workspaces: the repository name the CLI appends to a workspace
// token.
func (s *Server) qltyProjectByKey(ctx context.Context, u plumb.User, key string) (owner, project string, err error) {
	var found []string
	err = s.store.EachWorkspace(ctx, u.ID, plumb.Page{}, func(ws plumb.Workspace) error {
		p, err := s.store.FindProject(ctx, ws.ID, key)
		switch {
		case err == nil:
			found = append(found, ws.Key+"/"+p.Key)
		case plumb.ErrorCode(err) != plumb.ENOTFOUND:
			return err
		}
		return nil
	})
	switch {
	case err != nil:
		return "", "", err
	case len(found) == 0:
		return "", "", errNotFoundf("Project %q was not found in the workspaces of the token's user.", key)
	case len(found) > 1:
		return "", "", plumb.Errorf(plumb.EINVALID, "Project %q is in several of your workspaces (%s); name one as <token>/<workspace>/<project> or qltcw_<token> with --project <workspace>/<project>.",
			key, strings.Join(found, ", "))
	}
	owner, project, _ = strings.Cut(found[0], "/")
	return owner, project, nil
}

// qltyMetadata reads {"data": <CoverageMetadata>}: the CLI's field names
// (camelCase; snake_case accepted too, as its own reader does), strings for
// the 64-bit and optional fields, RFC 3339 for timestamps. Fields Plumb has
// no place for are ignored (docs/migrate-from-qlty.md lists them).
type qltyMetadata struct {
	f    *fields
	data map[string]json.RawMessage
}

func (s *Server) readQltyMetadata(w http.ResponseWriter, r *http.Request) (*qltyMetadata, error) {
	obj, err := s.readJSONObject(w, r)
	if err != nil {
		return nil, err
	}
	raw, ok := obj["data"]
	if !ok {
		return nil, plumb.Errorf(plumb.EINVALID, "The body must be {\"data\": <coverage metadata>}, as qlty coverage publish sends it; it has no member data.")
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(raw, &data); err != nil || data == nil {
		return nil, plumb.Errorf(plumb.EINVALID, "Member data must be a JSON object: the coverage metadata.")
	}
	return &qltyMetadata{f: &fields{obj: map[string]json.RawMessage{}}, data: data}, nil
}

// raw returns the member under either of its names.
func (m *qltyMetadata) raw(camel, snake string) (json.RawMessage, bool) {
	if v, ok := m.data[camel]; ok && string(v) != "null" {
		return v, true
	}
	if v, ok := m.data[snake]; ok && string(v) != "null" {
		return v, true
	}
	return nil, false
}

// str reads a string member of at most max characters.
func (m *qltyMetadata) str(camel, snake string, max int) string {
	raw, ok := m.raw(camel, snake)
	if !ok {
		return ""
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		m.f.fail("data.%s must be a string.", camel)
		return ""
	}
	v = strings.TrimSpace(v)
	switch {
	case badText(v):
		m.f.fail("%s", textProblem("data."+camel, v))
	case utf8.RuneCountInString(v) > max:
		m.f.fail("data.%s must be at most %d characters long, got %d.", camel, max, utf8.RuneCountInString(v))
	}
	return v
}

// count reads an unsigned integer member sent as a JSON number or a string.
func (m *qltyMetadata) count(camel, snake string) int {
	raw, ok := m.raw(camel, snake)
	if !ok {
		return 0
	}
	text := strings.Trim(string(raw), `"`)
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 || n > 10000 {
		m.f.fail("data.%s must be a whole number from 0 to 10000, got %s.", camel, raw)
		return 0
	}
	return n
}

func (m *qltyMetadata) flag(camel, snake string) bool {
	raw, ok := m.raw(camel, snake)
	if !ok {
		return false
	}
	var v bool
	if err := json.Unmarshal(raw, &v); err != nil {
		m.f.fail("data.%s must be true or false.", camel)
	}
	return v
}

// input maps the metadata onto what Plumb keeps. The publish fields
// (incomplete, totalPartsCount) are read for publishes only.
func (s *Server) qltyInput(m *qltyMetadata, publish bool) plumb.QltyInput {
	var in plumb.QltyInput
	sha := m.str("commitSha", "commit_sha", 64)
	switch {
	case sha == "":
		m.f.fail("data.commitSha is required: the commit the coverage was measured on (qlty coverage publish takes it from CI, or from --override-commit-sha).")
	case !commitSHAPattern.MatchString(sha):
		m.f.fail("data.commitSha must be a commit SHA of 7 to 64 hexadecimal digits, got %q.", sha)
	}
	in.CommitSHA = strings.ToLower(sha)
	in.CoverageTag = m.str("tag", "tag", 100)
	if in.CoverageTag == "" {
		in.CoverageTag = "default"
	}
	if sel := m.str("selection", "selection", 100); sel != "" {
		m.f.fail("data.selection is %q: Plumb does not take coverage of a selection of the tests (qlty coverage publish --selection), which would count in the project's coverage; publish the whole suite's coverage without --selection.", sel)
	}
	at := s.now().UTC().Truncate(time.Second)
	if v := m.str("uploadedAt", "uploaded_at", 64); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			m.f.fail("data.uploadedAt must be an RFC 3339 date-time such as 2026-03-01T12:00:00Z, got %q.", v)
		} else {
			at = t.UTC().Truncate(time.Second)
		}
	}
	in.UploadedAt = at
	if !publish {
		return in
	}
	in.Branch = strings.TrimPrefix(m.str("branch", "branch", 500), "refs/heads/")
	in.GitTag = strings.TrimPrefix(m.str("gitTag", "git_tag", 500), "refs/tags/")
	headRef := strings.TrimPrefix(m.str("headRef", "head_ref", 500), "refs/heads/")
	if raw, ok := m.raw("pullRequestNumber", "pull_request_number"); ok {
		text := strings.Trim(string(raw), `"`)
		if text != "" {
			n, err := strconv.Atoi(text)
			if err != nil || n <= 0 || strconv.Itoa(n) != text {
				m.f.fail("data.pullRequestNumber must be a positive integer, got %s.", raw)
			}
			in.PullRequest = n
		}
	}
	// On a pull request, GitHub Actions names the branch "<number>/merge"
	// (the ref of its merge commit), which is no branch of the repository.
	if in.PullRequest > 0 && in.Branch == strconv.Itoa(in.PullRequest)+"/merge" {
		in.Branch = headRef
	}
	if in.Branch == "" {
		in.Branch = headRef
	}
	in.Parts = m.count("totalPartsCount", "total_parts_count")
	in.Multipart = m.flag("incomplete", "incomplete") || in.Parts > 1
	return in
}

// qltyPublishView is the answer to POST /coverage.
type qltyPublishView struct {
	ID        string `json:"id"`
	ProjectID string `json:"projectId"`
	UploadURL string `json:"coverage.zip"`
	URL       string `json:"url"`
	ExpiresAt string `json:"expiresAt"`
}

// qltyRequest checks a qlty CLI request's credentials and reads its
// metadata as an upload's input (publish: whether the request publishes a
// report, as opposed to completing one).
func (s *Server) qltyRequest(w http.ResponseWriter, r *http.Request, c *call, publish bool) (plumb.Project, plumb.QltyInput, error) {
	p, err := s.qltyCredentials(w, r, c)
	if err != nil {
		return p, plumb.QltyInput{}, err
	}
	m, err := s.readQltyMetadata(w, r)
	if err != nil {
		return p, plumb.QltyInput{}, err
	}
	in := s.qltyInput(m, publish)
	return p, in, m.f.err()
}

func (s *Server) handleQltyPublish(w http.ResponseWriter, r *http.Request, c *call) error {
	p, in, err := s.qltyRequest(w, r, c, true)
	if err != nil {
		return err
	}
	ctx := r.Context()
	key, err := s.qltyKey(ctx)
	if err != nil {
		return err
	}
	expires := s.now().UTC().Truncate(time.Second).Add(qltyURLTTL)
	u, err := s.store.CreateQltyUpload(ctx, p.ID, in, expires)
	if err != nil {
		return err
	}
	page, err := s.qltyCommitPage(r, p, in.CommitSHA)
	if err != nil {
		return err
	}
	limit := s.cfg.MaxUploadBytes
	q := url.Values{}
	q.Set("expires", strconv.FormatInt(expires.Unix(), 10))
	q.Set("limit", strconv.FormatInt(limit, 10))
	q.Set("signature", qltySignature(key, u.ID, p.ID, expires.Unix(), limit))
	w.Header().Set("Cache-Control", "no-store") // the URL is a credential
	return writeJSON(w, http.StatusCreated, struct {
		Data qltyPublishView `json:"data"`
	}{qltyPublishView{ID: u.ID, ProjectID: p.ID, UploadURL: s.baseURL(r) + "/coverage/uploads/" + u.ID + "?" + q.Encode(), URL: page, ExpiresAt: ts(expires)}})
}

// qltyCommitPage is the web page of a commit's coverage.
func (s *Server) qltyCommitPage(r *http.Request, p plumb.Project, sha string) (string, error) {
	ws, key, err := s.store.ProjectKeys(r.Context(), p.ID)
	if err != nil {
		return "", err
	}
	return s.baseURL(r) + "/w/" + url.PathEscape(ws) + "/" + url.PathEscape(key) + "/coverage?" + url.Values{"ref": {sha}}.Encode(), nil
}

// qltyKeys caches each store's URL signing key (shared by every server of
// the database, created by the first).
var qltyKeys sync.Map // Store → []byte

func (s *Server) qltyKey(ctx context.Context) ([]byte, error) {
	if k, ok := qltyKeys.Load(s.store); ok {
		return k.([]byte), nil
	}
	k, err := s.store.QltySecret(ctx, qltySecretName)
	if err != nil {
		return nil, err
	}
	qltyKeys.Store(s.store, k)
	return k, nil
}

// qltySignature signs an upload URL: the upload, its project, its expiry and
// its size limit.
func qltySignature(key []byte, id, projectID string, expires, limit int64) string {
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "plumb qlty upload v1\n%s\n%s\n%d\n%d", id, projectID, expires, limit)
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// qltyUploadView is the answer to the PUT of a zip.
type qltyUploadView struct {
	ID          string `json:"id"`
	State       string `json:"state"` // published, or waiting (a part)
	CommitSHA   string `json:"commitSha"`
	CoverageTag string `json:"coverageTag"`
	// Files and lines of this zip (as the ingestion answer counts them).
	Files        int   `json:"files"`
	CoveredLines int64 `json:"coveredLines"`
	MissedLines  int64 `json:"missedLines"`
	// Parts: received and expected (0: until qlty coverage complete).
	PartsReceived int    `json:"partsReceived,omitempty"`
	PartsExpected int    `json:"partsExpected,omitempty"`
	URL           string `json:"url"`
}

// handleQltyUpload takes the zip PUT to a signed upload URL.
func (s *Server) handleQltyUpload(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	u, err := s.qltyVerifyURL(r, c.params["upload"])
	if err != nil {
		return err
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/zip" && mt != "application/x-zip-compressed" && mt != "application/octet-stream") {
			return plumb.Errorf(plumb.EUNSUPPORTED, "The upload is the coverage.zip of qlty coverage publish, sent as application/zip; got Content-Type %q.", ct)
		}
	}
	p, err := s.store.FindProjectByID(ctx, u.ProjectID)
	if err != nil {
		return err
	}
	page, err := s.qltyCommitPage(r, p, u.Input.CommitSHA)
	if err != nil {
		return err
	}
	r.Body = &hashingBody{ReadCloser: r.Body, sum: sha256.New()}
	return s.qltyOnce(w, r, u, func() (any, error) {
		body, err := s.uploadBody(w, r)
		if err != nil {
			return nil, err
		}
		defer body.Close()
		if limit, _ := strconv.ParseInt(r.URL.Query().Get("limit"), 10, 64); body.size > limit {
			return nil, tooLarge(limit) // sent without a Content-Length
		}
		zr, err := s.openQltyZip(body)
		if err != nil {
			return nil, err
		}
		if err := zr.checkMetadata(u.Input.CommitSHA); err != nil {
			return nil, err
		}
		view := qltyUploadView{ID: u.ID, CommitSHA: u.Input.CommitSHA, CoverageTag: u.Input.CoverageTag, URL: page}
		count := func(emit func(plumb.CoverageFile) error) func(plumb.CoverageFile) error {
			return func(f plumb.CoverageFile) error {
				view.Files++
				covered, missed, _ := plumb.CountHits(f.Hits)
				view.CoveredLines += covered
				view.MissedLines += missed
				return emit(f)
			}
		}
		read := func(emit func(plumb.CoverageFile) error) error {
			return zr.files(count(emit))
		}
		if !u.Input.Multipart {
			sum, _, err := s.store.PublishQltyUpload(ctx, u, read)
			if err != nil {
				return nil, body.parseFailure(err)
			}
			s.notifyCodeHost(r, p, u.Input.CommitSHA, u.Input.PullRequest)
			view.State = "published"
			if sum.Files > 0 {
				view.Files, view.CoveredLines, view.MissedLines = sum.Files, sum.Covered, sum.Missed
			}
			return view, nil
		}
		rep, err := s.store.AddQltyPart(ctx, u, read)
		if err != nil {
			return nil, body.parseFailure(err)
		}
		view.State = "waiting"
		if rep.Expected > 0 && rep.Received >= rep.Expected {
			// The declared number of parts is in: publish them as one.
			done, err := s.store.PublishQltyReport(ctx, u.ProjectID, rep.ID)
			switch {
			case errors.Is(err, plumb.ErrQltyPublishing):
				view.State = "publishing"
			case err != nil:
				return nil, err
			default:
				rep = done
				view.State = "published"
				s.notifyCodeHost(r, p, u.Input.CommitSHA, u.Input.PullRequest)
			}
		}
		view.PartsReceived, view.PartsExpected = rep.Received, rep.Expected
		return view, nil
	})
}

// qltyVerifyURL checks an upload URL: a known upload, the signature over
// its upload, project, expiry and size limit, and the expiry. A URL that is
// not right in any way answers 403, saying no more than that.
func (s *Server) qltyVerifyURL(r *http.Request, id string) (plumb.QltyUpload, error) {
	ctx := r.Context()
	invalid := plumb.Errorf(plumb.EFORBIDDEN, "This upload URL is not valid: use the URL qlty coverage publish was given, as it was given.")
	q := r.URL.Query()
	expires, err1 := strconv.ParseInt(q.Get("expires"), 10, 64)
	limit, err2 := strconv.ParseInt(q.Get("limit"), 10, 64)
	sig := q.Get("signature")
	if err1 != nil || err2 != nil || sig == "" || len(id) != 36 {
		return plumb.QltyUpload{}, invalid
	}
	u, err := s.store.FindQltyUpload(ctx, strings.ToLower(id))
	if plumb.ErrorCode(err) == plumb.ENOTFOUND {
		if expires < s.now().Unix() {
			return u, plumb.Errorf(plumb.EFORBIDDEN, "This upload URL expired at %s; run qlty coverage publish again.", time.Unix(expires, 0).UTC().Format(time.RFC3339))
		}
		return u, invalid
	}
	if err != nil {
		return u, err
	}
	key, err := s.qltyKey(ctx)
	if err != nil {
		return u, err
	}
	if !hmac.Equal([]byte(sig), []byte(qltySignature(key, u.ID, u.ProjectID, expires, limit))) {
		return u, invalid
	}
	if expires < s.now().Unix() {
		return u, plumb.Errorf(plumb.EFORBIDDEN, "This upload URL expired at %s (an upload URL is valid for %s); run qlty coverage publish again.",
			time.Unix(expires, 0).UTC().Format(time.RFC3339), qltyURLTTL)
	}
	if r.ContentLength > limit {
		return u, plumb.Errorf(plumb.ETOOLARGE, "The upload is %d bytes, over this URL's limit of %d bytes.", r.ContentLength, limit)
	}
	return u, nil
}

// qltyOnce stores an upload URL's zip once: the PUT takes the upload's
// idempotency key (the one an ingestion request takes with
// Idempotency-Key), so a retried PUT of the same zip answers as the first
// did (Idempotent-Replayed: true) and stores nothing twice, another zip to a
// used URL answers 409, and a PUT while the first still runs 409 too. A zip
// refused for what it is (400, 415, or 413 once read whole) uses the URL up
// too: the CLI prints the URL of a refused upload in the CI log, which may be
// public, so the URL must not take another zip; the same zip again gets the
// same refusal. A PUT that failed otherwise (the server's failure, a stalled
// transfer) leaves no key behind: the URL may be used again until it expires.
func (s *Server) qltyOnce(w http.ResponseWriter, r *http.Request, u plumb.QltyUpload, run func() (any, error)) error {
	ctx := r.Context()
	key := "qlty-upload:" + u.ID
	line := sha256.Sum256([]byte("PUT /coverage/uploads/" + u.ID))
	status, stored, bodyHash, done, err := s.store.IdempotencyStart(ctx, u.ProjectID, key, hex.EncodeToString(line[:]))
	if plumb.ErrorCode(err) == plumb.ECONFLICT {
		return plumb.Errorf(plumb.ECONFLICT, "This upload URL is in use by another request now; wait for it to finish.")
	}
	if err != nil {
		return err
	}
	if done {
		return s.replayAnswer(w, r, bodyHash, status, stored, nil,
			"This upload URL was already used for another coverage.zip; every qlty coverage publish gets a URL of its own.")
	}
	defer s.renewLease(ctx, u.ProjectID, key, "upload lease not renewed")()
	defer func() {
		if v := recover(); v != nil {
			_ = s.store.IdempotencyFinish(ctx, u.ProjectID, key, 0, "", "")
			panic(v)
		}
	}()
	view, err := run()
	if err == nil {
		bodyHash, err = s.bodyHash(w, r)
	}
	if err != nil {
		s.qltyRefused(w, r, u, key, err)
		return err
	}
	resp := struct {
		Data any `json:"data"`
	}{view}
	b, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	if err := s.store.IdempotencyFinish(ctx, u.ProjectID, key, http.StatusOK, string(b)+"\n", bodyHash); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, resp)
}

// qltyRefused ends a PUT that failed: a refusal of the zip is stored as the
// URL's answer, any other failure forgets the key.
func (s *Server) qltyRefused(w http.ResponseWriter, r *http.Request, u plumb.QltyUpload, key string, err error) {
	ctx := r.Context()
	switch plumb.ErrorCode(err) {
	case plumb.EINVALID, plumb.ETOOLARGE, plumb.EUNSUPPORTED:
		if hash, herr := s.bodyHash(w, r); herr == nil && hash != "" {
			rec := &errorRecorder{header: http.Header{}}
			s.writeQltyError(rec, r, err)
			if s.store.IdempotencyFinish(ctx, u.ProjectID, key, rec.status, rec.body.String(), hash) == nil {
				return
			}
		}
	}
	_ = s.store.IdempotencyFinish(ctx, u.ProjectID, key, 0, "", "")
}

// qltyCompleteView is the answer to POST /coverage/complete.
type qltyCompleteView struct {
	ID          string `json:"id"`
	CommitSHA   string `json:"commitSha"`
	CoverageTag string `json:"coverageTag"`
	Parts       int    `json:"parts"`
	URL         string `json:"url"`
}

// qltyCompleteWait bounds how long a complete waits for a publication
// another request has under way.
var qltyCompleteWait = 60 * time.Second

func (s *Server) handleQltyComplete(w http.ResponseWriter, r *http.Request, c *call) error {
	p, in, err := s.qltyRequest(w, r, c, false)
	if err != nil {
		return err
	}
	ctx := r.Context()
	rep, err := s.store.FindQltyReport(ctx, p.ID, in.CommitSHA, in.CoverageTag)
	if plumb.ErrorCode(err) == plumb.ENOTFOUND || err == nil && rep.State == "expired" {
		return errNotFoundf("No multi-part report of commit %s (coverage tag %q) is waiting to complete: publish its parts with qlty coverage publish --incomplete (or --total-parts-count) first, with the same --tag.",
			in.CommitSHA, in.CoverageTag)
	}
	if err != nil {
		return err
	}
	deadline := time.Now().Add(qltyCompleteWait) // a real wait, whatever the server's clock says
	for rep.State != "published" {
		rep, err = s.store.PublishQltyReport(ctx, p.ID, rep.ID)
		if !errors.Is(err, plumb.ErrQltyPublishing) {
			break
		}
		// Another request publishes it (its last part, say): wait for it.
		if time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	if plumb.ErrorCode(err) == plumb.ENOTFOUND {
		return errNotFoundf("No part of the report of commit %s (coverage tag %q) has arrived yet: nothing to complete. Run qlty coverage complete after the parts were published.",
			in.CommitSHA, in.CoverageTag)
	}
	if err != nil {
		return err
	}
	if rep.Summary != nil {
		s.notifyCodeHost(r, p, in.CommitSHA, in.PullRequest)
	}
	page, err := s.qltyCommitPage(r, p, in.CommitSHA)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, struct {
		Data qltyCompleteView `json:"data"`
	}{qltyCompleteView{ID: rep.ID, CommitSHA: rep.CommitSHA, CoverageTag: rep.CoverageTag, Parts: rep.Received, URL: page}})
}
