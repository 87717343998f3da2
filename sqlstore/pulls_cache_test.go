package sqlstore

import (
	"errors"
	"fmt"
	"testing"

	"github.com/plumbhq/plumb"
)

func TestSnapshotIssueCache(t *testing.T) {
	c := newSnapshotIssueCache(5)
	loads := map[string]int{}
	load := func(id string, n int, err error) func() ([]plumb.Issue, error) {
		return func() ([]plumb.Issue, error) {
			loads[id]++
			return make([]plumb.Issue, n), err
		}
	}
	get := func(id string, n int, err error) {
		t.Helper()
		is, got := c.get(id, load(id, n, err))
		if !errors.Is(got, err) || len(is) != n {
			t.Fatalf("get %s: %d issues, %v", id, len(is), got)
		}
	}
	get("a", 2, nil)
	get("a", 2, nil)
	get("b", 3, nil) // 5 issues: both kept
	get("a", 2, nil)
	if loads["a"] != 1 || loads["b"] != 1 {
		t.Fatalf("loads %v", loads)
	}
	get("c", 2, nil) // 7 > 5: the least recent (b) goes
	get("a", 2, nil)
	get("b", 3, nil)
	if loads["a"] != 1 || loads["b"] != 2 || loads["c"] != 1 {
		t.Fatalf("loads %v", loads)
	}
	get("big", 6, nil) // over the bound: never kept
	get("big", 6, nil)
	boom := fmt.Errorf("boom")
	get("bad", 0, boom) // errors are not kept
	get("bad", 1, nil)
	if loads["big"] != 2 || loads["bad"] != 2 {
		t.Fatalf("loads %v", loads)
	}
	if c.size > 5 || c.size != sum(c) {
		t.Fatalf("size %d, entries hold %d", c.size, sum(c))
	}
}

func sum(c *snapshotIssueCache) int {
	n := 0
	for _, el := range c.entries {
		if e := el.Value.(*snapshotIssuesEntry); e.kept {
			n += len(e.issues)
		}
	}
	return n
}
