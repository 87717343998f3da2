package sqlstore

import (
	"container/list"
	"context"
	"database/sql"
	"sync"

	"github.com/plumbhq/plumb"
)

// snapshotIssueCache keeps the issues of the snapshots compared most
// recently: every comparison of a project's pull requests reads the same
// base, and a pull request's page, its gate and its code-host comment read
// the same head. A snapshot's issues and their statuses never change once
// written (a status belongs to its fingerprint from the first snapshot that
// has it; only an import into an empty database sets others), so an entry,
// keyed by the snapshot's UUID, is never stale. The cache holds at most max
// issues in all; a larger snapshot is read each time.
type snapshotIssueCache struct {
	mu      sync.Mutex
	max     int
	size    int
	order   *list.List // of *snapshotIssuesEntry, most recent first
	entries map[string]*list.Element
}

type snapshotIssuesEntry struct {
	id     string
	once   sync.Once
	issues []plumb.Issue
	err    error
	kept   bool // counted in size
}

// maxCachedIssues bounds the issues kept for comparisons (about 35 MB).
const maxCachedIssues = 100_000

func newSnapshotIssueCache(max int) *snapshotIssueCache {
	return &snapshotIssueCache{max: max, order: list.New(), entries: map[string]*list.Element{}}
}

// get returns the issues of the snapshot with this id, reading them with
// load once; callers must not modify the slice.
func (c *snapshotIssueCache) get(id string, load func() ([]plumb.Issue, error)) ([]plumb.Issue, error) {
	c.mu.Lock()
	el, ok := c.entries[id]
	if ok {
		c.order.MoveToFront(el)
	} else {
		el = c.order.PushFront(&snapshotIssuesEntry{id: id})
		c.entries[id] = el
	}
	e := el.Value.(*snapshotIssuesEntry)
	c.mu.Unlock()
	e.once.Do(func() {
		e.issues, e.err = load()
		c.mu.Lock()
		defer c.mu.Unlock()
		if e.err != nil || len(e.issues) > c.max {
			c.remove(e) // read again next time
			return
		}
		if el, ok := c.entries[e.id]; !ok || el.Value.(*snapshotIssuesEntry) != e {
			return // evicted while it loaded
		}
		c.size += len(e.issues)
		e.kept = true
		for c.size > c.max && c.order.Len() > 1 {
			c.remove(c.order.Back().Value.(*snapshotIssuesEntry))
		}
	})
	return e.issues, e.err
}

// remove drops an entry (the caller holds mu).
func (c *snapshotIssueCache) remove(e *snapshotIssuesEntry) {
	el, ok := c.entries[e.id]
	if !ok || el.Value.(*snapshotIssuesEntry) != e {
		return
	}
	c.order.Remove(el)
	delete(c.entries, e.id)
	if e.kept {
		c.size -= len(e.issues)
	}
}

// comparedIssues returns a snapshot's issues for a comparison (nil for no
// snapshot), from the cache when it holds them.
func (db *DB) comparedIssues(ctx context.Context, projectID string, s *plumb.Snapshot, seq int64) ([]plumb.Issue, error) {
	if s == nil || seq == 0 {
		return nil, nil
	}
	return db.compareIssues.get(s.ID, func() ([]plumb.Issue, error) {
		// Not the request's context: a request that goes away must not
		// leave an error behind for the next one.
		var issues []plumb.Issue
		err := db.readTx(context.WithoutCancel(ctx), func(tx *sql.Tx) error {
			var err error
			issues, err = snapshotIssues(context.WithoutCancel(ctx), tx, projectID, seq)
			return err
		})
		return issues, err
	})
}
