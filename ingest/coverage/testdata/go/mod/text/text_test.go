package text

import "testing"

func TestText(t *testing.T) {
	if Shout("hi") != "HI!" {
		t.Fatal("Shout")
	}
	if Width("abc") != 3 {
		t.Fatal("Width")
	}
}
