package sqlstore

// Sources fetched on first view (docs/sources.md, "Fetched from a code
// host", issue 21 item 2): a file of a commit whose source was not uploaded
// is fetched from the project's code host (codehost.(*Client).FetchFile) the
// first time a file page or the source API asks for it, and kept like an
// uploaded one by PutSources (the same blob dedup, per-file cap and refusal
// rules), its origin github or gitlab. Concurrent first views of one file
// fetch once; a failure is remembered with its reason for fetchRetryAfter
// (a rate limit: for the whole project, until the host's reset time) so
// that views in between do not call the host again.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/source"
)

const (
	// fetchRetryAfter is how long a failed fetch is not tried again.
	fetchRetryAfter = 5 * time.Minute
	// fetchRateLimitMax bounds how long a rate limit's reset time is
	// believed.
	fetchRateLimitMax = time.Hour
	// fetchTimeout bounds one fetch, whoever waits for it.
	fetchTimeout = 30 * time.Second
	// fetchFailuresMax bounds the failures remembered; past it the
	// expired ones go, then all.
	fetchFailuresMax = 10000
)

// fetchKey is a file of a commit of a project; path "" (and commit "")
// stands for the whole project (a rate limit).
type fetchKey struct{ project, commit, path string }

type fetchFailure struct {
	reason codehost.FetchReason
	host   string
	until  time.Time
}

type fetchCall struct {
	done chan struct{}
	err  error // a failure of the store, not of the host
}

type sourceFetcher struct {
	mu       sync.Mutex
	inflight map[fetchKey]*fetchCall
	failed   map[fetchKey]fetchFailure
	client   *codehost.Client
}

func newSourceFetcher() *sourceFetcher {
	return &sourceFetcher{inflight: map[fetchKey]*fetchCall{}, failed: map[fetchKey]fetchFailure{}, client: &codehost.Client{}}
}

// failure returns the remembered failure of key or of its project, if
// still in force at now.
func (f *sourceFetcher) failure(k fetchKey, now time.Time) (fetchFailure, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, key := range []fetchKey{{project: k.project}, k} {
		if ff, ok := f.failed[key]; ok {
			if now.Before(ff.until) {
				return ff, true
			}
			delete(f.failed, key)
		}
	}
	return fetchFailure{}, false
}

func (f *sourceFetcher) remember(k fetchKey, ff fetchFailure, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.failed) >= fetchFailuresMax {
		for key, old := range f.failed {
			if !now.Before(old.until) {
				delete(f.failed, key)
			}
		}
		if len(f.failed) >= fetchFailuresMax {
			clear(f.failed)
		}
	}
	f.failed[k] = ff
}

// fetchable reports whether commit is a full commit SHA (the code hosts are
// asked for a commit, never a branch that moves).
func fetchable(commit string) bool {
	if len(commit) != 40 && len(commit) != 64 {
		return false
	}
	return strings.Trim(commit, "0123456789abcdef") == ""
}

// FileSourceOrFetch is FileSource, except that a source not kept (absent)
// for a project with a code-host connection (PutCodeHost) is fetched from
// the host at commit and kept, unless the project or the server refuses
// sources (those answer disabled and never fetch). A fetch that fails
// answers absent with FetchFailure, FetchHost and FetchRetry set, and is
// not tried again before FetchRetry. Only a failure of the store is an
// error.
func (db *DB) FileSourceOrFetch(ctx context.Context, projectID, commit, path string) (plumb.FileSource, error) {
	src, err := db.FileSource(ctx, projectID, commit, path)
	if err != nil || src.State != string(source.StateAbsent) || !fetchable(commit) {
		return src, err
	}
	t, found, err := db.CodeHost(ctx, projectID)
	if err != nil || !found {
		return src, err
	}
	f := db.sources.fetch
	k := fetchKey{projectID, commit, path}
	if ff, ok := f.failure(k, db.now()); ok {
		return failedSource(src, ff), nil
	}
	f.mu.Lock()
	call, running := f.inflight[k]
	if !running {
		call = &fetchCall{done: make(chan struct{})}
		f.inflight[k] = call
	}
	f.mu.Unlock()
	if !running {
		call.err = db.fetchOnce(ctx, t, k)
		f.mu.Lock()
		delete(f.inflight, k)
		f.mu.Unlock()
		close(call.done)
	} else {
		select {
		case <-call.done:
		case <-ctx.Done():
			return src, ctx.Err()
		}
	}
	if call.err != nil {
		return src, call.err
	}
	if ff, ok := f.failure(k, db.now()); ok {
		return failedSource(src, ff), nil
	}
	return db.FileSource(ctx, projectID, commit, path)
}

func failedSource(src plumb.FileSource, ff fetchFailure) plumb.FileSource {
	src.FetchFailure, src.FetchHost, src.FetchRetry = string(ff.reason), ff.host, ff.until
	return src
}

// fetchOnce fetches a file unless a view that led before this one (and is
// done) kept it or remembered its failure meanwhile.
func (db *DB) fetchOnce(ctx context.Context, t codehost.Target, k fetchKey) error {
	if _, ok := db.sources.fetch.failure(k, db.now()); ok {
		return nil
	}
	src, err := db.FileSource(ctx, k.project, k.commit, k.path)
	if err != nil || src.State != string(source.StateAbsent) {
		return err
	}
	return db.fetchSource(ctx, t, k)
}

// fetchSource fetches one file and keeps it, or remembers why it could not.
// The fetch outlives the asking request's cancellation (others may wait for
// it) but not fetchTimeout.
func (db *DB) fetchSource(ctx context.Context, t codehost.Target, k fetchKey) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
	defer cancel()
	content, err := db.sources.fetch.client.FetchFile(ctx, t, k.commit, k.path, db.sources.limits.Max())
	if err != nil {
		now := db.now()
		ff := fetchFailure{reason: codehost.FetchFailed, host: t.Kind, until: now.Add(fetchRetryAfter)}
		var fe *codehost.FetchError
		if errors.As(err, &fe) {
			ff.reason = fe.Reason
		}
		key := k
		if ff.reason == codehost.FetchRateLimited {
			key = fetchKey{project: k.project}
			if fe.Reset.After(now) {
				ff.until = fe.Reset
				if limit := now.Add(fetchRateLimitMax); ff.until.After(limit) {
					ff.until = limit
				}
			}
		}
		db.sources.fetch.remember(key, ff, now)
		return nil
	}
	_, err = db.PutSources(ctx, k.project, k.commit, t.Kind, func(put func(string, io.Reader) error) error {
		return put(k.path, bytes.NewReader(content))
	})
	if plumb.ErrorCode(err) == plumb.EFORBIDDEN {
		return nil // turned off meanwhile: the next read says disabled
	}
	return err
}
