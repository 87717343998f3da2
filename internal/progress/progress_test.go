package progress

import (
	"bytes"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/client"
)

// An upload of MinBytes or more gets a bar that ends at 100% on its own
// line; a smaller one gets nothing.
func TestUploads(t *testing.T) {
	var b bytes.Buffer
	report := Uploads(&b)
	report(client.Progress{Name: "small", Total: MinBytes - 1})
	report(client.Progress{Name: "small", Sent: MinBytes - 1, Total: MinBytes - 1, Done: true})
	if b.Len() != 0 {
		t.Fatalf("a small upload drew %q", b.String())
	}
	report(client.Progress{Name: "big", Total: 2 * MinBytes})
	report(client.Progress{Name: "big", Sent: 2 * MinBytes, Total: 2 * MinBytes})
	report(client.Progress{Name: "big", Sent: 2 * MinBytes, Total: 2 * MinBytes, Done: true})
	out := b.String()
	if !strings.HasPrefix(out, "\rbig [") || !strings.Contains(out, "100%  2.0 MiB / 2.0 MiB") || !strings.HasSuffix(out, "\n") {
		t.Errorf("big upload drew %q", out)
	}
}

// A tree of MinFiles files or more gets a bar, cleared when done; a smaller
// one nothing.
func TestFiles(t *testing.T) {
	var b bytes.Buffer
	p := &Files{W: &b}
	p.Update(1, MinFiles-1)
	p.Done()
	if b.Len() != 0 {
		t.Fatalf("a small tree drew %q", b.String())
	}
	p.Update(MinFiles, MinFiles)
	p.Done()
	if out := b.String(); !strings.Contains(out, "100%  500/500 files") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("large tree drew %q", out)
	}
}
