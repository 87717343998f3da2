package geom

import "testing"

func TestGeom(t *testing.T) {
	if Abs(-2) != 2 || Abs(3) != 3 {
		t.Fatal("Abs")
	}
	if Clamp(-5, 0, 10) != 0 || Clamp(5, 0, 10) != 5 {
		t.Fatal("Clamp")
	}
	if Sum([]int{1, 2, 3}) != 6 {
		t.Fatal("Sum")
	}
	Noop()
}
