package api

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
)

// query is a request's parsed query string plus the problems found while
// reading it, so one response can name every invalid parameter.
type query struct {
	values  url.Values
	errs    []string // the first problems found (maxKept)
	nErrs   int      // every problem found
	refused []string // parameters refused by the text rule
}

// maxKept is the most problems a request's collector keeps; the answer
// lists at most plumb.MaxDetails of them and counts the rest.
const maxKept = 2 * plumb.MaxDetails

// parseQuery reads a query string. A malformed one is a problem reported
// with the other invalid parameters (by err), after the route's visibility
// checks, so it cannot tell a hidden resource from a missing one; the
// well-formed pairs are kept.
func parseQuery(raw string) *query {
	v, err := url.ParseQuery(raw)
	q := &query{values: v}
	if err != nil {
		q.fail("The query string is malformed: %v.", err)
	}
	// The text rule (text.go): a bad key or value is reported and dropped,
	// so no handler can pass it to the store.
	for _, k := range slices.Sorted(maps.Keys(v)) {
		if badText(k) {
			q.fail("%s", textProblem(fmt.Sprintf("The query parameter name %q", k), k))
			delete(v, k)
			continue
		}
		for _, val := range v[k] {
			if badText(val) {
				q.fail("%s", textProblem("Query parameter "+k, val))
				q.refused = append(q.refused, k)
				delete(v, k)
				break
			}
		}
	}
	return q
}

func (q *query) fail(format string, args ...any) {
	q.nErrs++
	if len(q.errs) < maxKept {
		q.errs = append(q.errs, fmt.Sprintf(format, args...))
	}
}

// err returns every problem found as one EINVALID error, or nil.
//
// A parameter refused by the text rule is reported once: not also as
// missing, say.
func (q *query) err() error {
	unkept := q.nErrs - len(q.errs)
	if len(q.refused) == 0 {
		return plumb.InvalidCounted(q.errs, q.nErrs)
	}
	var out []string
	for _, e := range q.errs {
		keep := true
		for _, name := range q.refused {
			if strings.Contains(e, "parameter "+name+" ") && !strings.Contains(e, "text") {
				keep = false
			}
		}
		if keep {
			out = append(out, e)
		}
	}
	return plumb.InvalidCounted(out, len(out)+unkept)
}

var indexedKey = regexp.MustCompile(`^(.+)\[(\d*)\]$`)

// list reads an array-capable parameter in every common encoding, combined:
// repeated keys (k=a&k=b), brackets (k[]=a, k[0]=a) and comma lists (k=a,b).
// Empty items are ignored.
func (q *query) list(name string) []string {
	var keys []string
	for k := range q.values {
		if k == name {
			keys = append(keys, k)
		} else if m := indexedKey.FindStringSubmatch(k); m != nil && m[1] == name {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		for _, v := range q.values[k] {
			for _, item := range strings.Split(v, ",") {
				if item = strings.TrimSpace(item); item != "" {
					out = append(out, item)
				}
			}
		}
	}
	return out
}

// enumList reads an array-capable parameter whose items must be in allowed.
func (q *query) enumList(name string, allowed []string) []string {
	items := dedupe(q.list(name))
	for _, it := range items {
		if !plumb.Contains(allowed, it) {
			q.fail("Query parameter %s has the unknown value %q; accepted values are %s.", name, it, strings.Join(allowed, ", "))
		}
	}
	return items
}

func dedupe(items []string) []string {
	seen := make(map[string]bool, len(items))
	out := items[:0:0]
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

// single reads a parameter that takes one value. present reports whether the
// key was given at all.
func (q *query) single(name string) (value string, present bool) {
	vals, ok := q.values[name]
	if !ok {
		return "", false
	}
	if len(vals) > 1 {
		q.fail("Query parameter %s takes one value but was given %d.", name, len(vals))
	}
	return vals[0], true
}

// required reads a one-value parameter that must be present and at least minLen long.
func (q *query) required(name string, minLen int) string {
	v, ok := q.single(name)
	if !ok {
		q.fail("Query parameter %s is required.", name)
	} else if len([]rune(v)) < minLen {
		q.fail("Query parameter %s must be at least %d character(s) long.", name, minLen)
	}
	return v
}

// page reads page[limit] and page[offset]. limitGiven reports whether a limit
// was given; defLimit applies when it was not.
func (q *query) page(defLimit int) (p plumb.Page, limitGiven bool) {
	p.Limit = defLimit
	if v, ok := q.single("page[limit]"); ok {
		limitGiven = true
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 100 {
			q.fail("Query parameter page[limit] must be an integer from 1 to 100, got %q.", v)
		} else {
			p.Limit = n
		}
	}
	if v, ok := q.single("page[offset]"); ok && strings.TrimSpace(v) != "" && v != "null" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			q.fail("Query parameter page[offset] must be an integer of 0 or more, got %q.", v)
		} else {
			p.Offset = n
		}
	}
	return p, limitGiven
}
