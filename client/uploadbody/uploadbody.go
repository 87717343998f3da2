// Package uploadbody writes the bodies of analysis uploads, streamed from
// files so that each attempt of an upload reads them anew and no body is
// held in memory: an analyzer's document with SARIF logs (plumb analyze), a
// stats file with SARIF logs (plumb upload analysis), and the local checks
// of those files before anything is sent. A Body is client.Content's Write.
// Inputs opens the files a command line names, copying stdin and pipes to
// temporary files so that every attempt re-reads the same bytes.
package uploadbody

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/ingest/analysis"
)

// Body writes an upload's content (client.Content.Write): src wraps each
// file it reads (for progress).
type Body = func(w io.Writer, src func(io.Reader) io.Reader) error

// CheckSARIF reads a SARIF file as a stream of JSON tokens: it must be one
// JSON object and nothing more.
func CheckSARIF(r io.Reader) error {
	dec := json.NewDecoder(SkipBOM(r))
	t, err := dec.Token()
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if t != json.Delim('{') {
		return errors.New("not a SARIF document: it must be a JSON object")
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("not JSON: %v", err)
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON document")
	}
	return nil
}

// SkipBOM drops a leading UTF-8 byte order mark.
func SkipBOM(r io.Reader) io.Reader {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	return br
}

// Head is the fields of an analysis upload besides its lists.
type Head struct {
	CommitSHA  string `json:"commitSha"`
	Branch     string `json:"branch"`
	AnalyzedAt string `json:"analyzedAt,omitempty"`
	FullTree   bool   `json:"fullTree"`
}

// Analysis streams the analysis JSON: the head fields, the stats file's
// lists re-encoded element by element, and the SARIF files as they are.
func Analysis(head Head, stats string, sarifs []string) Body {
	return func(w io.Writer, src func(io.Reader) io.Reader) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		b, err := json.Marshal(head)
		if err != nil {
			return err
		}
		bw.Write(b[:len(b)-1]) // without the closing brace
		f, err := os.Open(stats)
		if err != nil {
			return err
		}
		defer f.Close()
		n := 0
		item := func(v any) error {
			if n > 0 {
				bw.WriteByte(',')
			}
			n++
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			_, err = bw.Write(b)
			return err
		}
		err = analysis.ReadStats(SkipBOM(src(f)), analysis.Handler{
			List:    func(list string) error { n = 0; _, err := fmt.Fprintf(bw, ",%q:[", list); return err },
			File:    func(_ int, sf analysis.File) error { return item(sf) },
			Removed: func(_ int, p string) error { return item(p) },
			End:     func(string) error { return bw.WriteByte(']') },
		})
		if err != nil {
			return fmt.Errorf("%s: %w", stats, err)
		}
		bw.WriteString(`,"sarif":[`)
		if err := copySARIF(bw, sarifs, false, src); err != nil {
			return err
		}
		bw.WriteString("]}")
		return bw.Flush()
	}
}

// copySARIF writes SARIF files as they are, comma-separated (after a comma
// too when more says the list already has elements).
func copySARIF(bw *bufio.Writer, paths []string, more bool, src func(io.Reader) io.Reader) error {
	for i, p := range paths {
		if i > 0 || more {
			bw.WriteByte(',')
		}
		sf, err := os.Open(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(bw, SkipBOM(src(sf)))
		sf.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// Document writes the upload: the document, with the SARIF files
// streamed in after the analysis' own SARIF log.
func Document(doc analyze.Document, sarifs []string) Body {
	return func(w io.Writer, src func(io.Reader) io.Reader) error {
		b, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		if !bytes.HasSuffix(b, []byte("]}")) {
			return fmt.Errorf("unexpected document encoding")
		}
		bw := bufio.NewWriterSize(w, 64<<10)
		bw.Write(b[:len(b)-2])
		if err := copySARIF(bw, sarifs, len(doc.SARIF) > 0, src); err != nil {
			return err
		}
		bw.WriteString("]}")
		return bw.Flush()
	}
}
