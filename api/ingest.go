package api

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/ingest/coverage"
	"github.com/plumbhq/plumb/ingest/sarif"
)

// The ingestion endpoints take what CI tools produce. They live under
// /ingest so the v1 API keeps exactly the paths and methods of its spec.
// They accept a project admin's user token or the project's upload token.

// ingestFields is the start of an ingestion handler that takes a JSON
// object: the project the call may write to, and the body ready for
// field-by-field validation.
func (s *Server) ingestFields(w http.ResponseWriter, r *http.Request, c *call) (plumb.Project, *fields, error) {
	p, err := s.ingestProject(r.Context(), c)
	if err != nil {
		return p, nil, err
	}
	f, err := s.readFields(w, r)
	return p, f, err
}

// ingestProject resolves {owner}/{project} for an ingestion request. An
// upload token sees only its own project (others are not found); a user
// needs the project admin role.
func (s *Server) ingestProject(ctx context.Context, c *call) (plumb.Project, error) {
	if c.upload != nil {
		p, err := s.store.FindProjectByKeys(ctx, c.params["owner"], c.params["project"])
		if err != nil && plumb.ErrorCode(err) != plumb.ENOTFOUND {
			return plumb.Project{}, err // a failing database is a 503 or 500, never a 404
		}
		if err != nil || p.ID != c.upload.ProjectID {
			return plumb.Project{}, errNotFoundf("Project %q was not found.", c.params["project"])
		}
		return p, nil
	}
	p, err := s.project(ctx, c)
	if err != nil {
		return p, err
	}
	return p, s.requireProjectAdmin(ctx, c, p, uploadAdminRefusal)
}

// limitedBody is an upload body: the request body within the upload limit,
// gunzipped when sent with Content-Encoding: gzip (or when it starts with the
// gzip magic bytes). The limit applies to the bytes received and to the
// bytes decompressed.
type limitedBody struct {
	io.Reader
	exceeded     bool
	limit        int64
	size         int64    // bytes received (decompressed)
	spool        *os.File // the received report
	spoolRemoved bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) || errors.Is(err, errDecompressedTooLarge) {
		b.exceeded = true
	}
	return n, err
}

var errDecompressedTooLarge = errors.New("decompressed body too large")

type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// At the limit: within it only if the stream ends here.
		var one [1]byte
		if n, err := c.r.Read(one[:]); n == 0 && err != nil {
			return 0, err
		}
		return 0, errDecompressedTooLarge
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// uploadBody receives an upload's report into a spool file before anything
// is parsed or written, so no database lock waits on the network: the body
// within the upload limit, gunzipped when sent with Content-Encoding: gzip
// (or when it starts with the gzip magic bytes); the limit applies to the
// bytes received and to the bytes decompressed. A client that sends nothing
// for the idle-read timeout gets a 408. The request's clock stops while the
// report arrives and restarts afterwards with a second per MiB received.
// Close removes the spool.
func (s *Server) uploadBody(w http.ResponseWriter, r *http.Request) (body *limitedBody, err error) {
	resume := pauseClock(r.Context())
	var received int64
	defer func() { resume(time.Duration(received>>20) * time.Second) }()
	extendDeadlines(w)
	limit := s.cfg.MaxUploadBytes
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	idle := s.idleBody(w, r.Body, time.Time{})
	raw := bufio.NewReaderSize(http.MaxBytesReader(w, io.NopCloser(idle), limit), 64<<10)
	var rd io.Reader = raw
	enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding")))
	magic, _ := raw.Peek(2)
	if idle.stalled {
		return nil, idle.stall()
	}
	switch {
	case enc == "gzip" || enc == "x-gzip" || enc == "" && bytes.Equal(magic, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(raw)
		if err != nil {
			if idle.stalled {
				return nil, idle.stall()
			}
			return nil, plumb.Errorf(plumb.EINVALID, "The body is not valid gzip data: %v.", err)
		}
		rd = &capReader{r: zr, left: limit}
	case enc == "" || enc == "identity":
	default:
		return nil, plumb.Errorf(plumb.EUNSUPPORTED, "Content-Encoding %q is not supported; send the report as is or gzip-compressed.", enc)
	}
	f, err := os.CreateTemp(s.cfg.SpoolDir, "plumb-upload-*")
	if err != nil {
		return nil, fmt.Errorf("create upload spool: %w", err)
	}
	// Unlinked at once where the system allows it: a crash leaves no file.
	removed := os.Remove(f.Name()) == nil
	body = &limitedBody{limit: limit, spool: f, spoolRemoved: removed}
	received, err = io.Copy(f, rd)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		body.Close()
		var mbe *http.MaxBytesError
		switch {
		case idle.stalled:
			return nil, idle.stall()
		case errors.As(err, &mbe) || errors.Is(err, errDecompressedTooLarge):
			return nil, tooLarge(limit)
		case errors.Is(err, io.ErrUnexpectedEOF), strings.Contains(err.Error(), "gzip"), strings.Contains(err.Error(), "flate"):
			return nil, plumb.Errorf(plumb.EINVALID, "The upload ended early or its compression is corrupt: %v.", err)
		case errors.Is(err, syscall.ENOSPC):
			return nil, plumb.Errorf(plumb.EUNAVAILABLE, "The server has no room to receive this upload now; retry later.")
		}
		return nil, plumb.Errorf(plumb.EINVALID, "The upload could not be received: %v.", err)
	}
	body.Reader = bufio.NewReaderSize(f, 256<<10)
	body.size = received
	return body, nil
}

// Close removes the upload's spool file.
func (b *limitedBody) Close() {
	if b == nil || b.spool == nil {
		return
	}
	b.spool.Close()
	if !b.spoolRemoved {
		os.Remove(b.spool.Name())
	}
	b.spool = nil
}

// bodyReadTimeout bounds the whole transfer of a request body that is not a
// report (a JSON object of at most MaxBodyBytes), as the server's read
// timeout bounds a request (NewHTTPServer).
const bodyReadTimeout = readTimeout

// idleBody is a request's body under the idle-read rule: every read must
// bring data within the idle-read timeout (UploadIdleTimeout), and, when
// until is set, the whole body must have arrived by then.
func (s *Server) idleBody(w http.ResponseWriter, body io.Reader, until time.Time) *idleReader {
	rc := http.NewResponseController(w)
	return &idleReader{r: body, idle: s.cfg.UploadIdleTimeout, until: until, setDeadline: rc.SetReadDeadline}
}

// idleReader is a request's body with an idle-read timeout: every read must
// bring data within idle, however long the whole transfer takes (unless
// until, when set, comes first).
type idleReader struct {
	r           io.Reader
	idle        time.Duration
	until       time.Time
	setDeadline func(time.Time) error
	stalled     bool // a read hit its deadline
	late        bool // ... which was until
}

func (ir *idleReader) Read(p []byte) (int, error) {
	deadline := time.Now().Add(ir.idle)
	late := !ir.until.IsZero() && ir.until.Before(deadline)
	if late {
		deadline = ir.until
	}
	if ir.idle > 0 && ir.setDeadline != nil {
		_ = ir.setDeadline(deadline)
	}
	n, err := ir.r.Read(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		ir.stalled, ir.late = true, late
	}
	return n, err
}

// stall is the 408 of a client that stalled its body: its own doing, which
// the server logs as such and does not count as strain (Server.ServeHTTP).
func (ir *idleReader) stall() error {
	if ir.late {
		return &stalledBody{plumb.Errorf(plumb.ETIMEOUT, "The request body stalled: it did not arrive within %s. Send the request again.", bodyReadTimeout)}
	}
	return &stalledBody{plumb.Errorf(plumb.ETIMEOUT, "The request body stalled: no data arrived for %s. Send the request again.", ir.idle)}
}

// stalledBody is the error of a body the client stopped sending.
type stalledBody struct{ err *plumb.Error }

func (e *stalledBody) Error() string { return e.err.Error() }
func (e *stalledBody) Unwrap() error { return e.err }

// parseFailure turns a reader or parser error into the response's error.
func (b *limitedBody) parseFailure(err error) error {
	if b.exceeded {
		return tooLarge(b.limit)
	}
	var ce *coverage.ParseError
	var se *sarif.ParseError
	var pe *plumb.Error
	var ue *errNotUTF8
	switch {
	case errors.As(err, &pe):
		return err
	case errors.As(err, &ue):
		return plumb.Errorf(plumb.EINVALID, "%s", ue.Error())
	case errors.As(err, &ce):
		return plumb.Errorf(plumb.EINVALID, "%s", ce.Error())
	case errors.As(err, &se):
		return plumb.Errorf(plumb.EINVALID, "%s", se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), strings.Contains(err.Error(), "gzip"), strings.Contains(err.Error(), "flate"):
		return plumb.Errorf(plumb.EINVALID, "The upload ended early or its compression is corrupt: %v.", err)
	}
	return err
}

// idempotent runs an upload once per Idempotency-Key: a retry with the same
// key, the same request line and the same body replays the first response.
// replay, when not nil, sets the headers of a replayed answer from its body
// (the Location of a created build).
//
// run does the work with ctx, which carries the key's answer (answerWith):
// the store records it in the transaction that publishes the upload, so a
// server killed at any moment has either stored the upload and its answer,
// which a retry replays, or neither, and a retry runs the upload again.
func (s *Server) idempotent(w http.ResponseWriter, r *http.Request, p plumb.Project, replay func(h http.Header, body string), run func(ctx context.Context) (int, any, error)) error {
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	if key == "" {
		status, body, err := run(r.Context())
		if err != nil {
			return err
		}
		return writeJSON(w, status, body)
	}
	if len(key) > 200 {
		return plumb.Errorf(plumb.EINVALID, "The Idempotency-Key header may be at most 200 characters long.")
	}
	if badName(key) {
		return plumb.Errorf(plumb.EINVALID, "%s", nameProblem("The Idempotency-Key header", key))
	}
	sum := sha256.Sum256([]byte(r.Method + " " + r.URL.EscapedPath() + "?" + r.URL.RawQuery))
	status, body, bodyHash, done, err := s.store.IdempotencyStart(r.Context(), p.ID, key, hex.EncodeToString(sum[:]))
	if err != nil {
		return err
	}
	if done {
		return s.replayAnswer(w, r, bodyHash, status, body, replay,
			fmt.Sprintf("Idempotency-Key %q was already used for an upload with a different body; use a new key for new content.", key))
	}
	// While the upload runs, its key's lease is renewed: a server killed
	// mid-upload stops renewing, and a retry takes the key over.
	defer s.renewLease(r.Context(), p.ID, key, "idempotency key lease not renewed")()
	// A failure (even a panic) forgets the key, so a retry runs again; a
	// key whose answer was recorded is kept.
	defer func() {
		if v := recover(); v != nil {
			_ = s.store.IdempotencyFinish(r.Context(), p.ID, key, 0, "", "")
			panic(v)
		}
	}()
	ka := &keyedAnswer{}
	rec := &plumb.IdempotentAnswer{ProjectID: p.ID, Key: key, Answer: func(result any) (int, string, string, error) {
		if ka.view == nil {
			return 0, "", "", fmt.Errorf("idempotent answer: no view of %T", result)
		}
		status, resp := ka.view(result)
		b, err := json.Marshal(resp)
		if err != nil {
			return 0, "", "", err
		}
		// The body has been read by now (a report is received in full
		// before it is parsed): its hash is complete.
		hash, err := s.bodyHash(w, r)
		if err != nil {
			return 0, "", "", err
		}
		ka.status, ka.body = status, string(b)+"\n"
		return ka.status, ka.body, hash, nil
	}}
	ctx := context.WithValue(plumb.WithIdempotentAnswer(r.Context(), rec), keyedAnswerKey, ka)
	status, resp, err := run(ctx)
	if err == nil && rec.Recorded() {
		// Recorded with the upload: the answer is exactly what a retry
		// replays.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(ka.status)
		_, err = io.WriteString(w, ka.body)
		return err
	}
	if err == nil {
		bodyHash, err = s.bodyHash(w, r)
	}
	if err != nil {
		_ = s.store.IdempotencyFinish(r.Context(), p.ID, key, 0, "", "")
		return err
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	if err := s.store.IdempotencyFinish(r.Context(), p.ID, key, status, string(b)+"\n", bodyHash); err != nil {
		return err
	}
	return writeJSON(w, status, resp)
}

// keyedAnswer is the view of a keyed request's answer: how the result of
// the store's write becomes the response (answerWith), and the answer once
// recorded.
type keyedAnswer struct {
	view   func(result any) (int, any)
	status int
	body   string
}

const keyedAnswerKey ctxKey = 3

// answerWith tells a keyed request's write (ctx from Server.idempotent) how
// its result becomes the response, status and view, so the store records
// the answer as it publishes the write. Without a key it does nothing.
func answerWith[T any](ctx context.Context, status int, view func(T) any) {
	ka, _ := ctx.Value(keyedAnswerKey).(*keyedAnswer)
	if ka == nil {
		return
	}
	ka.view = func(result any) (int, any) {
		v, _ := result.(T)
		return status, view(v)
	}
}

// hashingBody is the body of a keyed ingestion request: it hashes the bytes
// as they are read (see Server.serve).
type hashingBody struct {
	io.ReadCloser
	sum  hash.Hash
	read int64
}

func (b *hashingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.sum.Write(p[:n])
	b.read += int64(n)
	return n, err
}

// extendDeadlines gives an upload an hour: a large report takes longer than
// the server's read and write timeouts, which suit ordinary requests.
func extendDeadlines(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(time.Hour))
	_ = rc.SetWriteDeadline(time.Now().Add(time.Hour))
}

// bodyHash reads what is left of a keyed request's body (a parser may stop
// before its end; a replay has not read it at all) and returns the SHA-256
// of the whole body as sent, in hex. More than the upload limit is a 413.
func (s *Server) bodyHash(w http.ResponseWriter, r *http.Request) (string, error) {
	hb, ok := r.Body.(*hashingBody)
	if !ok {
		return "", nil
	}
	extendDeadlines(w)
	defer pauseClock(r.Context())(0)
	left := s.cfg.MaxUploadBytes - hb.read
	if left < 0 {
		return "", tooLarge(s.cfg.MaxUploadBytes)
	}
	idle := s.idleBody(w, hb, time.Time{})
	n, err := io.Copy(io.Discard, io.LimitReader(idle, left+1))
	switch {
	case n > left:
		return "", tooLarge(s.cfg.MaxUploadBytes)
	case idle.stalled:
		return "", idle.stall()
	case err != nil:
		return "", plumb.Errorf(plumb.EINVALID, "The request body could not be read: %v.", err)
	}
	return hex.EncodeToString(hb.sum.Sum(nil)), nil
}

type coverageUploadView = apiv1.CoverageUpload

// commitSHAPattern is a commit SHA as uploads give it (docs/ingest.md).
var commitSHAPattern = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)

// checkCommitSHA reports a commitSha that is not 7 to 64 hex digits.
func checkCommitSHA(fail func(string, ...any), what, sha string) {
	if sha != "" && !commitSHAPattern.MatchString(sha) {
		fail("%s must be a commit SHA of 7 to 64 hexadecimal digits, got %q.", what, sha)
	}
}

// commitParams reads the commit a report belongs to: commitSha (required),
// branch and tag.
func commitParams(q *query) (sha, branch, tag string) {
	raw, present := q.single("commitSha")
	if !present {
		q.fail("Query parameter commitSha is required.")
	}
	checkCommitSHA(q.fail, "Query parameter commitSha", strings.TrimSpace(raw))
	if present && strings.TrimSpace(raw) == "" {
		q.fail("Query parameter commitSha must not be empty.")
	}
	sha = strings.ToLower(strings.TrimSpace(raw))
	branch, _ = q.single("branch")
	tag, _ = q.single("tag")
	checkNames(q, "branch", branch, "tag", tag)
	branch = strings.TrimPrefix(branch, "refs/heads/")
	tag = strings.TrimPrefix(tag, "refs/tags/")
	return sha, branch, tag
}

// checkNames applies the name rule (badName) to query parameters given as
// name, value pairs (the text rule has been applied by parseQuery).
func checkNames(q *query, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if badName(pairs[i+1]) {
			q.fail("%s", nameProblem("Query parameter "+pairs[i], pairs[i+1]))
		}
	}
}

func (s *Server) handleUploadCoverage(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.ingestProject(r.Context(), c)
	if err != nil {
		return err
	}
	q := c.query
	sha, branch, tag := commitParams(q)
	covTag, _ := q.single("coverageTag")
	checkNames(q, "coverageTag", covTag)
	pull := 0
	if v, ok := q.single("pullRequestNumber"); ok && v != "" {
		if n, err := strconv.Atoi(v); err != nil || n <= 0 || strconv.Itoa(n) != v {
			q.fail("Query parameter pullRequestNumber must be a positive integer, got %q.", v)
		} else {
			pull = n
		}
	}
	format, _ := q.single("format")
	if format != "" && !plumb.Contains(formatNames(), format) {
		q.fail("Query parameter format has the unknown value %q; accepted values are %s.", format, strings.Join(formatNames(), ", "))
	}
	var opt coverage.Options
	opt.StripPrefix, _ = q.single("stripPrefix")
	opt.AddPrefix, _ = q.single("addPrefix")
	opt.ModulePath, _ = q.single("modulePath")
	opt.TempDir = s.cfg.SpoolDir
	rawAt, _ := q.single("uploadedAt")
	uploadedAt := s.dateParam("uploadedAt", rawAt, q)
	if err := q.err(); err != nil {
		return err
	}
	return s.idempotentUpload(w, r, p, func(ctx context.Context, body *limitedBody) (int, any, error) {
		br := bufio.NewReaderSize(body, 256<<10)
		f := coverage.Format(format)
		if f == "" {
			head, _ := br.Peek(16 << 10)
			if body.exceeded {
				return 0, nil, tooLarge(body.limit)
			}
			if len(bytes.TrimSpace(head)) == 0 {
				return 0, nil, plumb.Errorf(plumb.EINVALID, "The coverage report is empty.")
			}
			if f, err = coverage.Detect(head); err != nil {
				return 0, nil, plumb.Errorf(plumb.EINVALID, "%v", err)
			}
		}
		in := plumb.CoverageInput{ProjectID: p.ID, CommitSHA: sha, Branch: branch, GitTag: tag, CoverageTag: covTag, PullRequest: pull, UploadedAt: uploadedAt}
		view := func(sum plumb.CoverageSummary) any {
			return coverageUploadView{ID: sum.ID, CommitSHA: sum.CommitSHA, Branch: branch, Tag: tag, CoverageTag: sum.CoverageTag,
				Format: string(f), Files: sum.Files, CoveredLines: sum.Covered, MissedLines: sum.Missed, UploadedAt: ts(uploadedAt)}
		}
		answerWith(ctx, http.StatusCreated, view)
		sum, err := s.store.IngestCoverage(ctx, in, func(emit func(plumb.CoverageFile) error) error {
			// A failure to read or parse the report is the client's: it is
			// answered here, before the store would take a reader's
			// "unexpected EOF" for a lost database (503). The store's own
			// errors, met while emitting, go back to it as they are.
			var emitErr error
			err := coverage.Parse(br, f, opt, func(cf coverage.File) error {
				if badName(cf.Path) {
					return plumb.Errorf(plumb.EINVALID, "%s", nameProblem(fmt.Sprintf("The report's file path %q", cf.Path), cf.Path))
				}
				if err := emit(cf); err != nil {
					emitErr = err
					return err
				}
				return nil
			})
			if err != nil && emitErr == nil {
				return body.parseFailure(err)
			}
			return err
		})
		if err != nil {
			return 0, nil, body.parseFailure(err)
		}
		s.notifyCodeHost(r, p, sum.CommitSHA, pull) // asynchronous: never fails the upload
		return http.StatusCreated, view(sum), nil
	})
}

func formatNames() []string {
	out := make([]string, len(coverage.Formats))
	for i, f := range coverage.Formats {
		out[i] = string(f)
	}
	return out
}

type snapshotView = apiv1.Snapshot

func newSnapshotView(snap plumb.Snapshot, issues int) snapshotView {
	return snapshotView{ID: snap.ID, CommitSHA: snap.CommitSHA, Branch: snap.Branch, AnalyzedAt: ts(snap.AnalyzedAt), Issues: issues,
		Current: snap.Measured, History: snap.History, Kept: nonNilCounts(snap.Kept), Replaced: nonNilCounts(snap.Replaced)}
}

func nonNilCounts(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// analyzedAt reads the optional analyzedAt parameter (RFC 3339), now by default.
func (s *Server) analyzedAt(raw string, q *query) time.Time { return s.dateParam("analyzedAt", raw, q) }

// dateParam reads an optional date-time parameter (RFC 3339) that dates an
// upload in the history (docs/ingest.md), now by default.
func (s *Server) dateParam(name, raw string, q *query) time.Time {
	if raw == "" {
		return s.now().UTC().Truncate(time.Second)
	}
	t, err := time.Parse(time.RFC3339, raw)
	if err != nil {
		q.fail("%s must be an RFC 3339 date-time such as 2026-03-01T12:00:00Z, got %q.", name, raw)
	}
	return t.UTC().Truncate(time.Second)
}

func sarifOptions(q *query) sarif.Options {
	var o sarif.Options
	o.StripPrefix, _ = q.single("stripPrefix")
	o.AddPrefix, _ = q.single("addPrefix")
	o.RepoRoot, _ = q.single("repoRoot")
	return o
}

func (s *Server) handleUploadSARIF(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.ingestProject(r.Context(), c)
	if err != nil {
		return err
	}
	q := c.query
	sha, branch, _ := commitParams(q)
	if branch == "" {
		q.fail("Query parameter branch is required: the branch the commit was analysed on.")
	}
	rawAt, _ := q.single("analyzedAt")
	at := s.analyzedAt(rawAt, q)
	opt := sarifOptions(q)
	if err := q.err(); err != nil {
		return err
	}
	return s.idempotentUpload(w, r, p, func(ctx context.Context, body *limitedBody) (int, any, error) {
		// The tools of every run, clean runs (no results) included: their
		// earlier issues of the commit are replaced (by none).
		var tools []string
		opt.OnRun = func(tool string) {
			if !plumb.Contains(tools, tool) {
				tools = append(tools, tool)
			}
		}
		ur := &utf8Reader{r: body}
		sp := s.store.NewSnapshotSpool(s.cfg.SpoolDir)
		defer sp.Close()
		opt.TempDir = s.cfg.SpoolDir
		n := 0
		err = sarif.ParseEach(ur, opt, func(is plumb.Issue) error {
			n++
			if err := checkIssueText("", is); err != nil {
				return err
			}
			return sp.AddIssue(is)
		})
		if ur.failed != nil {
			err = ur.failed
		}
		if err != nil {
			return 0, nil, body.parseFailure(err)
		}
		view := func(snap plumb.Snapshot) any { return newSnapshotView(snap, n) }
		answerWith(ctx, http.StatusCreated, view)
		snap, err := s.store.AddFindings(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: branch, CommitSHA: sha, AnalyzedAt: at}, sp, tools)
		if err != nil {
			return 0, nil, err
		}
		return http.StatusCreated, view(snap), nil
	})
}

func (s *Server) handleUploadAnalysis(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.ingestProject(r.Context(), c)
	if err != nil {
		return err
	}
	if err := c.query.err(); err != nil {
		return err
	}
	ct := r.Header.Get("Content-Type")
	if !isJSONMediaType(ct) {
		return plumb.Errorf(plumb.EUNSUPPORTED, "An analysis upload is JSON sent with \"Content-Type: application/json\" (see docs/ingest.md); got %q.", ct)
	}
	opt := sarifOptions(c.query)
	return s.idempotentUpload(w, r, p, func(ctx context.Context, body *limitedBody) (int, any, error) {
		ur := &utf8Reader{r: body}
		q := &query{}
		sp := s.store.NewSnapshotSpool(s.cfg.SpoolDir)
		defer sp.Close()
		opt.TempDir = s.cfg.SpoolDir
		a := &analysisReader{r: ur, q: q, opt: opt, sp: sp, mapOpt: coverage.Options{StripPrefix: opt.StripPrefix, AddPrefix: opt.AddPrefix}}
		if err := a.read(); err != nil {
			return 0, nil, analysisFailure(body, ur, err)
		}
		if err := a.readLogs(body.spool); err != nil {
			return 0, nil, err
		}
		up := a.head
		if a.nFiles == 0 && (up.FullTree == nil || *up.FullTree) {
			q.fail("Field files is empty while fullTree is true, which would remove every file; send the files, or \"fullTree\": false to report issues only.")
		}
		if strings.TrimSpace(up.CommitSHA) == "" {
			q.fail("Field commitSha is required.")
		}
		checkCommitSHA(q.fail, "Field commitSha", strings.TrimSpace(up.CommitSHA))
		if strings.TrimSpace(up.Branch) == "" {
			q.fail("Field branch is required.")
		}
		at := s.analyzedAt(up.AnalyzedAt, q)
		for name, v := range map[string]string{"commitSha": up.CommitSHA, "branch": up.Branch, "analyzedAt": up.AnalyzedAt} {
			if badName(v) {
				q.fail("%s", nameProblem("Field "+name, v))
			}
		}
		if err := q.err(); err != nil {
			return 0, nil, err
		}
		in := plumb.SnapshotInput{ProjectID: p.ID, Branch: strings.TrimPrefix(up.Branch, "refs/heads/"), CommitSHA: strings.ToLower(strings.TrimSpace(up.CommitSHA)),
			AnalyzedAt: at, FullTree: up.FullTree == nil || *up.FullTree}
		view := func(snap plumb.Snapshot) any { return newSnapshotView(snap, a.nIssues) }
		answerWith(ctx, http.StatusCreated, view)
		snap, err := s.store.AddAnalysis(ctx, in, sp)
		if err != nil {
			return 0, nil, err
		}
		return http.StatusCreated, view(snap), nil
	})
}

// analysisPath applies the path rule every upload kind shares
// (coverage.MapPath): slashes, no "./", no leading "/", the prefixes
// applied, and a path that leaves the repository ("../") refused.
func analysisPath(q *query, field, p string, opt coverage.Options) (string, bool) {
	if badName(p) {
		q.fail("%s", nameProblem("Field "+field, p))
		return "", false
	}
	mapped, ok := coverage.MapPath(p, opt)
	if !ok || strings.TrimSpace(p) == "" {
		q.fail("Field %s is %q, which is not a file path inside the repository (empty, or leaving it with \"..\").", field, p)
		return "", false
	}
	return mapped, true
}

// checkIssueText applies the text rule to the strings of a parsed finding,
// and the name rule to those that name something.
func checkIssueText(where string, is plumb.Issue) error {
	for _, f := range []struct {
		name, v string
		isName  bool
	}{{"tool", is.Tool, true}, {"ruleKey", is.RuleKey, true}, {"path", is.Path, true}, {"fingerprint", is.Fingerprint, true},
		{"category", is.Category, true}, {"level", is.Level, true}, {"message", is.Message, false}, {"documentationUrl", is.DocumentationURL, false}} {
		if f.isName && badName(f.v) || badText(f.v) {
			at := is.Path
			if is.StartLine != nil {
				at = fmt.Sprintf("%s:%d", is.Path, *is.StartLine)
			}
			return plumb.Errorf(plumb.EINVALID, "%s", nameProblem(fmt.Sprintf("%sThe finding of %s %s at %q: its %s", where, is.Tool, is.RuleKey, at, f.name), f.v))
		}
	}
	return nil
}

func (s *Server) handleCreateBuild(w http.ResponseWriter, r *http.Request, c *call) error {
	p, f, err := s.ingestFields(w, r, c)
	if err != nil {
		return err
	}
	b := plumb.Build{ProjectID: p.ID, Status: "submitted"}
	b.Type, _ = f.str("type", true, 1, 50)
	b.BranchName, _ = f.str("branchName", true, 1, 500)
	if badName(b.BranchName) {
		f.fail("%s", nameProblem("Field branchName", b.BranchName))
	}
	b.CommitSHA, _ = f.str("commitSha", true, 7, 64)
	b.CommitMessage, _ = f.str("commitMessage", false, 0, 10000)
	b.Source, _ = f.str("source", false, 0, 100)
	b.CommitterLogin, _ = f.str("committerLogin", false, 0, 200)
	if st, ok := f.str("status", false, 1, 20); ok {
		if st != "submitted" && st != "starting" && st != "running" {
			f.fail("Field status of a new build must be submitted, starting or running, got %q.", st)
		}
		b.Status = st
	}
	if !plumb.Contains(plumb.BuildTypes, b.Type) && b.Type != "" {
		f.fail("Field type must be one of %s, got %q.", strings.Join(plumb.BuildTypes, ", "), b.Type)
	}
	if raw, ok := f.obj["pullRequestNumber"]; ok && string(raw) != "null" {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil || n < 1 {
			f.fail("Field pullRequestNumber must be a positive integer.")
		} else {
			b.PullRequestNumber = &n
		}
	}
	if err := f.err(); err != nil {
		return err
	}
	b.SubmittedAt = s.now().UTC().Truncate(time.Second)
	if b.Status == "running" {
		b.StartedAt = &b.SubmittedAt
	}
	location := func(h http.Header, id string) {
		h.Set("Location", fmt.Sprintf("%s/gh/%s/projects/%s/builds/%s", s.baseURL(r), c.params["owner"], c.params["project"], id))
	}
	// With an Idempotency-Key a retried "build start" creates one build; its
	// replayed answer carries the Location too.
	replay := func(h http.Header, body string) {
		var v struct {
			ID string `json:"id"`
		}
		if json.Unmarshal([]byte(body), &v) == nil && v.ID != "" {
			location(h, v.ID)
		}
	}
	return s.idempotent(w, r, p, replay, func(ctx context.Context) (int, any, error) {
		view := func(b plumb.Build) any { return newBuildView(b, s.now()) }
		answerWith(ctx, http.StatusCreated, view)
		b, err := s.store.AddBuild(ctx, b)
		if err != nil {
			return 0, nil, err
		}
		location(w.Header(), b.ID)
		return http.StatusCreated, view(b), nil
	})
}

func (s *Server) handleUpdateBuild(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.ingestProject(r.Context(), c)
	if err != nil {
		return err
	}
	if _, err := s.store.FindBuild(r.Context(), p.ID, strings.ToLower(c.params["build"])); err != nil {
		return err
	}
	f, err := s.readFields(w, r)
	if err != nil {
		return err
	}
	var u plumb.BuildUpdate
	u.Status, _ = f.str("status", true, 1, 20)
	if u.Status != "" && !plumb.Contains(plumb.BuildStatuses, u.Status) {
		f.fail("Field status must be one of %s, got %q.", strings.Join(plumb.BuildStatuses, ", "), u.Status)
	}
	if reason, ok := f.str("statusReason", false, 0, 2000); ok {
		u.StatusReason = &reason
	}
	if raw, ok := f.obj["exitCode"]; ok && string(raw) != "null" {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil {
			f.fail("Field exitCode must be an integer.")
		} else {
			u.ExitCode = &n
		}
	}
	if err := f.err(); err != nil {
		return err
	}
	u.At = s.now()
	b, err := s.store.UpdateBuild(r.Context(), p.ID, c.params["build"], u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newBuildView(b, s.now()))
}

// replayAnswer answers a retry of an upload whose answer (status, body) was
// recorded: the retry's body must be the first one's (bodyHash, "" when not
// recorded), read to its end within the upload limit and compared; another
// body is a 409 saying conflict. replay, when not nil, sets headers from
// the recorded body.
func (s *Server) replayAnswer(w http.ResponseWriter, r *http.Request, bodyHash string, status int, body string, replay func(http.Header, string), conflict string) error {
	got, err := s.bodyHash(w, r)
	if err != nil {
		return err
	}
	if bodyHash != "" && got != bodyHash {
		return plumb.Errorf(plumb.ECONFLICT, "%s", conflict)
	}
	if replay != nil {
		replay(w.Header(), body)
	}
	w.Header().Set("Idempotent-Replayed", "true")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err = io.WriteString(w, body)
	return err
}
