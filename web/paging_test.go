package web

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/plumbhq/plumb"
)

func TestOnePage(t *testing.T) {
	link := func(offset int) string { return "?offset=" + strconv.Itoa(offset) }
	rows := []int{1, 2, 3, 4}
	for _, tc := range []struct {
		rows       []int
		offset     int
		want       []int
		prev, next string
	}{
		{rows, 0, []int{1, 2, 3}, "", "?offset=3"}, // a fourth row: a next page
		{rows[:3], 0, []int{1, 2, 3}, "", ""},      // exactly one page
		{rows, 3, []int{1, 2, 3}, "?offset=0", "?offset=6"},
		{rows[:1], 2, []int{1}, "?offset=0", ""}, // an offset that is no multiple of the page
		{nil, 9, nil, "?offset=6", ""},           // past the end
	} {
		got, prev, next := onePage(tc.rows, tc.offset, 3, link)
		if !slices.Equal(got, tc.want) || prev != tc.prev || next != tc.next {
			t.Errorf("onePage(%v, %d) = %v, %q, %q; want %v, %q, %q", tc.rows, tc.offset, got, prev, next, tc.want, tc.prev, tc.next)
		}
	}
}

func TestPageOffset(t *testing.T) {
	for q, want := range map[string]int{"": 0, "offset=0": 0, "offset=50": 50} {
		v, _ := url.ParseQuery(q)
		if got, err := pageOffset(v); got != want || err != nil {
			t.Errorf("%q: %d, %v; want %d", q, got, err, want)
		}
	}
	for _, q := range []string{"offset=-1", "offset=x", "offset=1.5"} {
		v, _ := url.ParseQuery(q)
		_, err := pageOffset(v)
		var e *plumb.Error
		if !errors.As(err, &e) || e.Code != plumb.EINVALID {
			t.Errorf("%q: err %v, want an EINVALID error", q, err)
		}
	}
}
