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
