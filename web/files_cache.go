package web

import (
	"container/list"
	"sync"

	"github.com/plumbhq/plumb/analyze/cognitive"
)

// A kept source is addressed by its git blob id, so what the file page
// makes of it (the highlighted lines, the scored functions) never changes:
// it is kept in memory, bounded by the bytes it takes, least recently used
// out first. Lexing a 20,000-line file takes most of a page's time; the
// second view of it, in any commit that has the same blob, does not lex.
// Entries are per project (a blob id is only shared within a project's
// sources, and a cached page of one project is never served to another).

const renderCacheBytes = 64 << 20

type renderedSource struct {
	Lines []string
	Lexer string
	Fns   map[int][]cognitive.Function
	size  int
}

type renderKey struct{ project, blob, path string }

type renderCache struct {
	mu    sync.Mutex
	max   int
	used  int
	order *list.List // of *renderEntry, most recent first
	byKey map[renderKey]*list.Element
}

type renderEntry struct {
	key renderKey
	val *renderedSource
}

func newRenderCache(max int) *renderCache {
	return &renderCache{max: max, order: list.New(), byKey: map[renderKey]*list.Element{}}
}

// get returns the rendering of key, making it with build when absent.
func (c *renderCache) get(key renderKey, build func() *renderedSource) *renderedSource {
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*renderEntry).val
	}
	c.mu.Unlock()
	v := build()
	for _, l := range v.Lines {
		v.size += len(l) + 16
	}
	if v.size > c.max/4 {
		return v // too large to keep
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; !ok {
		c.byKey[key] = c.order.PushFront(&renderEntry{key, v})
		c.used += v.size
	}
	for c.used > c.max {
		e := c.order.Back()
		ent := e.Value.(*renderEntry)
		c.order.Remove(e)
		delete(c.byKey, ent.key)
		c.used -= ent.val.size
	}
	return v
}
