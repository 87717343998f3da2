package source

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/plumbhq/plumb"
)

func TestBlobID(t *testing.T) {
	// As `git hash-object` prints them.
	for content, want := range map[string]string{
		"":               "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
		"hello world\n":  "3b18e512dba79e4c8300dd08aeb37f8e728b8dad",
		"package main\n": "06ab7d0f9a35a7d1070711496d6ca1cb892a258f",
	} {
		got := BlobID([]byte(content))
		if got != want || !ValidBlobID(got) {
			t.Errorf("BlobID(%q) = %s, want %s", content, got, want)
		}
	}
	for _, id := range []string{"", "E69DE29BB2D1D6434B8B29AE775AD8C2E48C5391", "e69de29bb2d1d6434b8b29ae775ad8c2e48c539", "g69de29bb2d1d6434b8b29ae775ad8c2e48c5391"} {
		if ValidBlobID(id) {
			t.Errorf("ValidBlobID(%q) is true", id)
		}
	}
}

func TestRead(t *testing.T) {
	lim := Limits{MaxFileSize: 10}
	f, err := Read(strings.NewReader("0123456789"), lim)
	if err != nil || f.State != StateOK || string(f.Content) != "0123456789" || f.Size != 10 || f.BlobID != BlobID([]byte("0123456789")) {
		t.Fatalf("at the cap: %+v %v", f, err)
	}
	f, err = Read(strings.NewReader("0123456789A"+strings.Repeat("x", 100000)), lim)
	if err != nil || f.State != StateTooLarge || f.Content != nil || f.BlobID != "" || f.Size != 100011 {
		t.Fatalf("over the cap: %+v %v", f, err)
	}
	f, err = Read(bytes.NewReader([]byte("ab\x00cd")), lim)
	if err != nil || f.State != StateBinary || f.Content != nil || f.Size != 5 {
		t.Fatalf("binary: %+v %v", f, err)
	}
	f, err = Read(strings.NewReader(""), Limits{})
	if err != nil || f.State != StateOK || f.BlobID != "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" {
		t.Fatalf("empty: %+v %v", f, err)
	}
	boom := errors.New("boom")
	if _, err := Read(iotest.ErrReader(boom), lim); !errors.Is(err, boom) {
		t.Fatalf("a failing reader: %v", err)
	}
	if (Limits{}).Max() != DefaultMaxFileSize || (Limits{MaxFileSize: 5}).Max() != 5 {
		t.Error("Max")
	}
	for _, l := range []Limits{{-1}, {MaxMaxFileSize + 1}} {
		if plumb.ErrorCode(l.Validate()) != plumb.EINVALID {
			t.Errorf("%+v is accepted", l)
		}
	}
	if (Limits{}).Validate() != nil || (Limits{MaxMaxFileSize}).Validate() != nil {
		t.Error("valid limits refused")
	}
}

func TestIsBinary(t *testing.T) {
	// more than a third: 4 odd bytes of 10 is binary, 3 of 9 is text
	if !perlBinary([]byte("\x01\x02\x03\x04abcdef")) || perlBinary([]byte("\x01\x02\x03abcdef")) {
		t.Error("the one-third rule")
	}
	cases := map[string]bool{
		"package a\n":                             false,
		"caf\xc3\xa9 \xe2\x82":                    false, // UTF-8, a character cut at the end
		"":                                        false,
		strings.Repeat("a", 9000) + "\x00":        false, // NUL past git's 8000 bytes
		strings.Repeat("a", 7000) + "\x00":        true,
		"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR":     true,
		"latin1 caf\xe9 na\xefve \xe0 la carte\n": false,
	}
	for in, want := range cases {
		if got := IsBinary([]byte(in)); got != want {
			t.Errorf("IsBinary(%.20q) = %v, want %v", in, got, want)
		}
	}
}

func TestCompress(t *testing.T) {
	content := []byte(strings.Repeat("func f() { return 1 }\n", 500))
	z := Compress(content)
	if len(z) >= len(content)/10 || !bytes.Equal(Compress(content), z) {
		t.Fatalf("%d bytes compress to %d, or not deterministically", len(content), len(z))
	}
	back, err := Decompress(z)
	if err != nil || !bytes.Equal(back, content) {
		t.Fatalf("round trip: %v", err)
	}
	if back, err := Decompress(Compress(nil)); err != nil || len(back) != 0 {
		t.Fatalf("empty: %q %v", back, err)
	}
	if _, err := Decompress([]byte("not zstd at all")); err == nil {
		t.Fatal("garbage decompressed")
	}
}

func TestValidatePath(t *testing.T) {
	for _, p := range []string{"a.go", "cmd/plumb/main.go", "dir/.hidden", "a..b/c", "名前/ファイル.go", "x/...y"} {
		if err := ValidatePath(p); err != nil {
			t.Errorf("ValidatePath(%q): %v", p, err)
		}
	}
	for _, p := range []string{"", "/etc/passwd", "../x", "a/../b", "a/..", "..", ".", "./a", "a/./b", "a//b", "a/", "a\x00b", "bad\xffutf8",
		strings.Repeat("a", MaxPathLen+1)} {
		err := ValidatePath(p)
		if plumb.ErrorCode(err) != plumb.EINVALID {
			t.Errorf("ValidatePath(%q) = %v, want EINVALID", p, err)
		}
	}
	if d := plumb.ErrorDetails(ValidatePath("a/../b")); len(d) != 1 || !strings.Contains(d[0], `".."`) {
		t.Errorf("details %q do not say why", d)
	}
}
