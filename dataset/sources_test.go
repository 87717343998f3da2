package dataset_test

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	dt "github.com/plumbhq/plumb/dataset/datasettest"
)

// Sources survive Canonical → Encode → Decode: the contents given as text
// come out as zstd of the same content, and Encode is stable.
func TestSourcesRoundTrip(t *testing.T) {
	doc := dataset.Canonical(dt.WithSources(dt.Rich()))
	if err := doc.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, b := range doc.SourceBlobs {
		if b.Content != "" || (b.Size > 0 && b.Zstd == "") {
			t.Fatalf("canonical blob not as zstd: %+v", b)
		}
	}
	var out bytes.Buffer
	if err := dataset.Encode(&out, doc); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("\n\"sourceBlobs\":[\n{\"projectId\"")) || !bytes.Contains(out.Bytes(), []byte(`"files":[`+"\n"+`{"path":"cmd/main.go","state":"ok"`)) {
		t.Fatalf("layout:\n%s", out.Bytes()[bytes.Index(out.Bytes(), []byte(`"idempotencyKeys"`)):])
	}
	back, err := dataset.Decode(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.SourceBlobs, doc.SourceBlobs) || !reflect.DeepEqual(back.SourceCommits, doc.SourceCommits) {
		t.Fatal("sources changed in the round trip")
	}
	for _, b := range back.SourceBlobs {
		content, err := b.Bytes()
		if err != nil || int64(len(content)) != b.Size {
			t.Fatalf("%s: %q %v", b.BlobID, content, err)
		}
	}
	if f := back.SourceCommits[0].Files[5]; f.Path != "util/util.go" || f.FetchedFrom != "github" || f.FetchedAt == nil || f.FetchedAt.Location() != time.UTC {
		t.Fatalf("the fetched file after the round trip: %+v", f)
	}
	if !strings.Contains(back.Summary(), "3 source contents of 1 commits") {
		t.Errorf("summary %q", back.Summary())
	}
	// A document without sources has neither list.
	out.Reset()
	if err := dataset.Encode(&out, dataset.Canonical(dt.Rich())); err != nil || bytes.Contains(out.Bytes(), []byte("sourceBlobs")) {
		t.Fatalf("a document without sources: %v", err)
	}
}

func TestSourcesValidate(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(d *dataset.Document)
		want   []string
	}{
		{"blob id", func(d *dataset.Document) { d.SourceBlobs[0].BlobID = strings.Repeat("0", 40) }, []string{"blobId is not the content's blob id",
			`blobId "` + d0(dt.WithSources(dt.Rich())) + `" is not the blobId of any`, `blobId "` + d0(dt.WithSources(dt.Rich())) + `" is not the blobId of any`}},
		{"size", func(d *dataset.Document) { d.SourceBlobs[1].Size = 3 }, []string{"size 3 is not the content's length", "size 22 is not the size of its content, 3"}},
		{"both", func(d *dataset.Document) { d.SourceBlobs[0].Zstd = "AAAA" }, []string{"exactly one of zstd and content"}},
		{"bad zstd", func(d *dataset.Document) { d.SourceBlobs[0].Zstd, d.SourceBlobs[0].Content = "AAAA", "" }, []string{"zstd does not hold a content"}},
		{"origin", func(d *dataset.Document) { d.SourceBlobs[0].Origin = "ftp" }, []string{`origin "ftp" is not one of`}},
		{"blob twice", func(d *dataset.Document) { d.SourceBlobs = append(d.SourceBlobs, d.SourceBlobs[0]) }, []string{"a content is kept once per project"}},
		{"path", func(d *dataset.Document) { d.SourceCommits[0].Files[0].Path = "../x.go" }, []string{`path "../x.go" is not a clean`}},
		{"path twice", func(d *dataset.Document) { d.SourceCommits[0].Files[1].Path = "cmd/main.go" }, []string{`path "cmd/main.go" is also the path of files[0]`}},
		{"state", func(d *dataset.Document) { d.SourceCommits[0].Files[4].State = "huge" }, []string{`state "huge" is not one of`}},
		{"binary with blob", func(d *dataset.Document) { d.SourceCommits[0].Files[5].BlobID = d.SourceBlobs[0].BlobID }, []string{"a binary file has no blobId"}},
		{"project", func(d *dataset.Document) { d.SourceCommits[0].ProjectID = dt.ID(dt.Project, 99) }, []string{"projectId", "is not the blobId of any", "is not the blobId of any", "is not the blobId of any", "is not the blobId of any"}},
		{"commit twice", func(d *dataset.Document) { d.SourceCommits = append(d.SourceCommits, d.SourceCommits[0]) }, []string{"also the commitSha of sourceCommits[0]"}},
		{"fetchedAt alone", func(d *dataset.Document) { d.SourceCommits[0].Files[1].FetchedFrom = "" }, []string{"fetchedFrom and fetchedAt go together"}},
		{"fetched from ftp", func(d *dataset.Document) { d.SourceCommits[0].Files[1].FetchedFrom = "ftp" }, []string{`fetchedFrom "ftp" is not one of github, gitlab`}},
		{"fetched at zero", func(d *dataset.Document) { d.SourceCommits[0].Files[1].FetchedAt = new(time.Time) }, []string{"fetchedAt"}},
		{"badge token secret", func(d *dataset.Document) {
			d.Projects[0].BadgeToken = &dataset.BadgeToken{Hash: "plbb_secret", CreatedBy: "ada", CreatedAt: dt.T0}
		}, []string{`badgeToken.hash "plbb_secret" is not a SHA-256`}},
		{"badge token twice", func(d *dataset.Document) {
			b := &dataset.BadgeToken{Hash: strings.Repeat("d4", 32), CreatedBy: "ada", CreatedAt: dt.T0}
			d.Projects[0].BadgeToken, d.Projects[1].BadgeToken = b, b
		}, []string{"badgeToken.hash is also the badgeToken.hash of projects[0]"}},
		{"badge token author", func(d *dataset.Document) {
			d.Projects[0].BadgeToken = &dataset.BadgeToken{Hash: strings.Repeat("d4", 32), CreatedAt: dt.T0}
		}, []string{"badgeToken.createdBy"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := dt.WithSources(dt.Rich())
			c.mutate(doc)
			details := plumb.ErrorDetails(doc.Validate())
			for _, want := range c.want {
				if !slices.ContainsFunc(details, func(d string) bool { return strings.Contains(d, want) }) {
					t.Errorf("no detail contains %q; details:\n%s", want, strings.Join(details, "\n"))
				}
			}
			if len(details) != len(c.want) {
				t.Errorf("%d details, want %d:\n%s", len(details), len(c.want), strings.Join(details, "\n"))
			}
		})
	}
	if err := dt.WithSources(dt.Rich()).Validate(); err != nil {
		t.Fatal(err)
	}
}

// d0 is the blob id of the first content of d.
func d0(d *dataset.Document) string { return d.SourceBlobs[0].BlobID }
