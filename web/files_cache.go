package web

import (
	"container/list"
	"sync"

	"github.com/plumbhq/plumb/analyze/cognitive"
)

// What the file pages make of stored data is kept in memory, bounded by
// the bytes it takes, least recently used out first, under keys that
// change whenever the data does:
//   - a kept source is addressed by its git blob id, so its highlighted
//     lines and scored functions never change (renderKey). Lexing a
//     20,000-line file takes most of a page's time; the second view of it,
//     in any commit that has the same blob, does not lex.
//   - a commit's files, sorted by path, under the commit's version
//     (plumb.FilesAt.Version: a new analysis, coverage upload or issue
//     status change makes a new one), so a directory's page sums the files
//     under it without reading 100,000 rows again (treeKey).
// Keys carry the project: nothing cached for one project is served to
// another.

const (
	renderCacheBytes = 64 << 20
	treeCacheBytes   = 96 << 20
)

type renderedSource struct {
	Lines []string
	Lexer string
	// fns are the functions' complexities by first line, scored on the
	// file page's first need of them (the pull-request diff never needs
	// them): see functions.
	fnsOnce sync.Once
	fns     map[int][]cognitive.Function
}

// functions returns the source's functions by first line, scoring content
// (the source rs was made from) the first time.
func (rs *renderedSource) functions(path string, content []byte) map[int][]cognitive.Function {
	rs.fnsOnce.Do(func() { rs.fns = functionsAt(path, content) })
	return rs.fns
}

type renderKey struct{ project, blob, path string }

type treeKey struct{ project, version, component string }

type lruCache[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	used  int
	size  func(V) int
	order *list.List // of *lruEntry, most recent first
	byKey map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	key  K
	val  V
	size int
}

func newLRU[K comparable, V any](max int, size func(V) int) *lruCache[K, V] {
	return &lruCache[K, V]{max: max, size: size, order: list.New(), byKey: map[K]*list.Element{}}
}

// peek returns the value of key when it is kept.
func (c *lruCache[K, V]) peek(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruEntry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// get returns the value of key, making it with build when absent (an
// error is returned, not kept).
func (c *lruCache[K, V]) get(key K, build func() (V, error)) (V, error) {
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*lruEntry[K, V]).val, nil
	}
	c.mu.Unlock()
	v, err := build()
	if err != nil {
		return v, err
	}
	n := c.size(v)
	if n > c.max/4 {
		return v, nil // too large to keep
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; !ok {
		c.byKey[key] = c.order.PushFront(&lruEntry[K, V]{key, v, n})
		c.used += n
	}
	for c.used > c.max {
		e := c.order.Back()
		ent := e.Value.(*lruEntry[K, V])
		c.order.Remove(e)
		delete(c.byKey, ent.key)
		c.used -= ent.size
	}
	return v, nil
}

func renderedSize(r *renderedSource) int {
	n := 64 * len(r.Lines) / 20 // room for the functions scored later, about one per 20 lines
	for _, l := range r.Lines {
		n += len(l) + 16
	}
	return n
}
