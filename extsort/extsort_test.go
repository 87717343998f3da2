package extsort

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// keyOrder compares records "key|n" by key only, so stability shows in n.
func keyOrder(a, b []byte) int {
	ka, _, _ := bytes.Cut(a, []byte("|"))
	kb, _, _ := bytes.Cut(b, []byte("|"))
	return bytes.Compare(ka, kb)
}

func TestSortIsStableAcrossRuns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		budget int
	}{
		{"empty", 0, 1 << 20},
		{"in memory", 500, 1 << 20},
		{"a few runs", 5000, 8 << 10},
		{"more runs than one merge takes", 60000, 4 << 10}, // > maxFanIn runs
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.n)))
			s := New(t.TempDir(), tc.budget, keyOrder)
			defer s.Close()
			var want []string
			for i := range tc.n {
				rec := fmt.Sprintf("k%04d|%d", rng.IntN(300), i)
				want = append(want, rec)
				if err := s.Add([]byte(rec)); err != nil {
					t.Fatal(err)
				}
			}
			slices.SortStableFunc(want, func(a, b string) int { return keyOrder([]byte(a), []byte(b)) })
			if tc.n > 0 && len(s.runs) == 0 && tc.budget < 1<<20 {
				t.Fatalf("no run was written with a %d-byte budget", tc.budget)
			}
			got := drain(t, s)
			if !slices.Equal(got, want) {
				t.Fatalf("got %d records, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
			}
			if s.Len() != int64(tc.n) {
				t.Fatalf("Len = %d, want %d", s.Len(), tc.n)
			}
		})
	}
}

func TestRecordLargerThanBudget(t *testing.T) {
	s := New(t.TempDir(), 4<<10, keyOrder)
	defer s.Close()
	big := "m|" + strings.Repeat("x", 20<<10)
	for _, r := range []string{"z|1", big, "a|2", "m|3"} {
		if err := s.Add([]byte(r)); err != nil {
			t.Fatal(err)
		}
	}
	got := drain(t, s)
	want := []string{"a|2", big, "m|3", "z|1"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q", got)
	}
}

func TestRecordFields(t *testing.T) {
	b := AppendString(nil, "path/a.go")
	b = AppendInt(b, -42)
	b = AppendString(b, "")
	b = AppendInt(b, 1<<40)
	r := NewReader(b)
	if s, n, e, m := r.String(), r.Int(), r.String(), r.Int(); s != "path/a.go" || n != -42 || e != "" || m != 1<<40 || r.Err() != nil {
		t.Fatalf("decoded %q %d %q %d (%v)", s, n, e, m, r.Err())
	}
	r = NewReader(b[:3])
	_ = r.String()
	if r.Err() == nil {
		t.Fatal("a cut record decoded without error")
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func drain(t *testing.T, s *Sorter) []string {
	t.Helper()
	it, err := s.Iter()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for it.Next() {
		got = append(got, string(it.Record()))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}
