package web

import (
	"net/url"
	"strconv"

	"github.com/plumbhq/plumb"
)

// The list pages (builds, issues, pull requests) read one row more than a
// page holds, to know whether a next page exists, and link to the pages
// before and after by their offset query parameter.

// pageOffset is a list page's offset query parameter: 0 when absent.
func pageOffset(q url.Values) (int, error) {
	o := q.Get("offset")
	if o == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(o)
	if err != nil || n < 0 {
		return 0, plumb.Errorf(plumb.EINVALID, "offset must be a whole number of 0 or more, got %q.", o)
	}
	return n, nil
}

// onePage cuts rows, read from offset with a limit of perPage+1, to one
// page, and gives the links (link makes one from an offset) to the previous
// and the next page, "" where there is none.
func onePage[T any](rows []T, offset, perPage int, link func(offset int) string) (page []T, prev, next string) {
	if len(rows) > perPage {
		rows, next = rows[:perPage], link(offset+perPage)
	}
	if offset > 0 {
		prev = link(max(0, offset-perPage))
	}
	return rows, prev, next
}
