package plumb

import (
	"slices"
	"testing"
)

func TestMergeHits(t *testing.T) {
	tests := []struct {
		name string
		a, b []int64
		want []int64
	}{
		{name: "counts add up", a: []int64{1, 0, 2}, b: []int64{3, 0, 0}, want: []int64{4, 0, 2}},
		{name: "coverable in either is coverable", a: []int64{-1, 2, -1}, b: []int64{0, -1, -1}, want: []int64{0, 2, -1}},
		{name: "the longer sets the length", a: []int64{1}, b: []int64{1, -1, 5}, want: []int64{2, -1, 5}},
		{name: "one empty", a: nil, b: []int64{-1, 0}, want: []int64{-1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := slices.Clone(tt.a), slices.Clone(tt.b)
			if got := MergeHits(tt.a, tt.b); !slices.Equal(got, tt.want) {
				t.Errorf("MergeHits(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := MergeHits(tt.b, tt.a); !slices.Equal(got, tt.want) {
				t.Errorf("MergeHits(%v, %v) = %v, want %v (either order)", tt.b, tt.a, got, tt.want)
			}
			if !slices.Equal(a, tt.a) || !slices.Equal(b, tt.b) {
				t.Errorf("MergeHits changed its arguments: %v, %v", tt.a, tt.b)
			}
		})
	}
}

func TestCountHits(t *testing.T) {
	for _, tc := range []struct {
		hits                     []int64
		covered, missed, omitted int64
	}{
		{nil, 0, 0, 0},
		{[]int64{-1, 0, 1, 7, 0, -1, -1}, 2, 2, 3},
		{[]int64{0}, 0, 1, 0},
	} {
		c, m, o := CountHits(tc.hits)
		if c != tc.covered || m != tc.missed || o != tc.omitted {
			t.Errorf("CountHits(%v) = %d, %d, %d; want %d, %d, %d", tc.hits, c, m, o, tc.covered, tc.missed, tc.omitted)
		}
	}
}
