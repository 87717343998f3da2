package api

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/ingest/coverage"
)

// The coverage.zip of "qlty coverage publish": metadata.json (the metadata
// again), report_files.jsonl (one line per report given), the reports'
// files in the qlty format (file_coverages-000.jsonl, -001, …: 5,000 files
// each), and the raw reports, each named raw_files/<the path it was given
// as> (an absolute path stays as it is: the CLI joins it to raw_files/,
// which keeps the absolute path). Plumb reads the file_coverages parts, and
// the raw reports only when there are no parts; it reads members from the
// received archive, never writing them anywhere under their names.
//
// What is refused (400, or 413 for sizes; nothing is stored):
//   - an archive that is not a zip, has more than qltyZipMaxEntries members,
//     an encrypted member or a compression method other than stored or
//     deflate;
//   - a member name that is empty, holds control characters or is not
//     UTF-8; the same name twice (two parts of one number too);
//   - a member name that is absolute or has a ".." segment, unless it is
//     the CLI's name of a raw report that report_files.jsonl lists;
//   - members Plumb reads that decompress, together, to more than
//     PLUMB_MAX_UPLOAD_BYTES (413: the rule of every upload, "as sent or
//     once decompressed"), or to more than qltyZipMaxRatio times the
//     archive's size and over qltyZipFloor (a zip bomb: real coverage
//     archives decompress about 7 times over);
//   - metadata.json or report_files.jsonl over 1 MiB, or not JSON.
//
// Other members are not read.

const (
	qltyZipMaxEntries = 10000
	qltyZipMaxRatio   = 100
	qltyZipFloor      = 64 << 20 // what any archive may decompress to, within the upload limit
	qltyZipMaxSmall   = 1 << 20  // metadata.json, report_files.jsonl
)

var qltyPartName = regexp.MustCompile(`^file_coverages-([0-9]{3,9})\.jsonl$`)

// qltyZip is a received coverage.zip, checked.
type qltyZip struct {
	s       *Server
	meta    *zip.File
	parts   []*zip.File // file_coverages-NNN.jsonl, by number
	raw     []*zip.File // the raw reports, in report_files.jsonl's order
	limit   int64       // bytes the members read may decompress to, together
	used    int64       // bytes decompressed so far
	bomb    bool        // limit is the zip-bomb cap (else the upload limit)
	size    int64       // the archive's size
	tempDir string
}

func zipRefusal(format string, args ...any) error {
	return plumb.Errorf(plumb.EINVALID, "The coverage.zip is refused, nothing was stored: "+format, args...)
}

// openQltyZip opens and checks a received coverage.zip.
func (s *Server) openQltyZip(body *limitedBody) (*qltyZip, error) {
	zr, err := zip.NewReader(body.spool, body.size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, plumb.Errorf(plumb.EINVALID, "The upload is not a zip archive (%v); send the coverage.zip qlty coverage publish built.", err)
	}
	if len(zr.File) > qltyZipMaxEntries {
		return nil, zipRefusal("it has %d members, over the limit of %d.", len(zr.File), qltyZipMaxEntries)
	}
	z := &qltyZip{s: s, limit: s.cfg.MaxUploadBytes, size: body.size, tempDir: s.cfg.SpoolDir}
	if c := max(qltyZipFloor, qltyZipMaxRatio*body.size); c < z.limit {
		z.limit, z.bomb = c, true
	}
	byName := make(map[string]*zip.File, len(zr.File))
	partNo := map[int]string{}
	var reports *zip.File
	for _, f := range zr.File {
		name := f.Name
		switch {
		case name == "":
			return nil, zipRefusal("a member has no name.")
		case !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0:
			return nil, zipRefusal("the member name %q holds control characters or is not UTF-8.", name)
		case byName[name] != nil:
			return nil, zipRefusal("the member %q is in it twice.", name)
		case f.Flags&0x1 != 0:
			return nil, zipRefusal("the member %q is encrypted.", name)
		case f.Method != zip.Store && f.Method != zip.Deflate:
			return nil, zipRefusal("the member %q uses compression method %d; only stored and deflate members are read.", name, f.Method)
		}
		byName[name] = f
		switch {
		case name == "metadata.json":
			z.meta = f
		case name == "report_files.jsonl":
			reports = f
		case qltyPartName.MatchString(name):
			n, _ := strconv.Atoi(qltyPartName.FindStringSubmatch(name)[1])
			if other, dup := partNo[n]; dup {
				return nil, zipRefusal("the members %q and %q are both part %d of the files.", other, name, n)
			}
			partNo[n] = name
			z.parts = append(z.parts, f)
		}
	}
	slices.SortFunc(z.parts, func(a, b *zip.File) int {
		na, _ := strconv.Atoi(qltyPartName.FindStringSubmatch(a.Name)[1])
		nb, _ := strconv.Atoi(qltyPartName.FindStringSubmatch(b.Name)[1])
		return na - nb
	})
	// The raw reports, named after the paths report_files.jsonl lists.
	rawNames := map[string]bool{}
	if reports != nil {
		paths, err := z.reportPaths(reports)
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			for _, name := range qltyRawNames(p) {
				if f := byName[name]; f != nil && !rawNames[name] {
					rawNames[name] = true
					z.raw = append(z.raw, f)
				}
			}
		}
	}
	for _, f := range zr.File {
		if unsafeMemberName(f.Name) && !rawNames[f.Name] {
			return nil, zipRefusal("the member name %q is absolute or leaves the archive (..), and is no raw report that report_files.jsonl lists.", f.Name)
		}
	}
	if reports == nil {
		// No list: every member under raw_files/ is a raw report.
		for _, f := range zr.File {
			if strings.HasPrefix(f.Name, "raw_files/") && !strings.HasSuffix(f.Name, "/") {
				z.raw = append(z.raw, f)
			}
		}
	}
	if len(z.parts) == 0 && len(z.raw) == 0 {
		return nil, zipRefusal("it holds no coverage: neither file_coverages-NNN.jsonl members nor raw reports under raw_files/.")
	}
	// What will be read must fit the limits before anything is.
	read := z.parts
	if len(read) == 0 {
		read = z.raw
	}
	var total uint64
	for _, f := range append(slices.Clone(read), z.meta) {
		if f == nil {
			continue
		}
		if err := z.checkSize(f); err != nil {
			return nil, err
		}
		total += f.UncompressedSize64
	}
	if total > uint64(z.limit) {
		return nil, z.overLimit(total)
	}
	return z, nil
}

// checkSize applies the decompression cap to a member Plumb reads.
func (z *qltyZip) checkSize(f *zip.File) error {
	if f.UncompressedSize64 > uint64(z.limit-z.used) {
		return z.overLimit(uint64(z.used) + f.UncompressedSize64)
	}
	return nil
}

// overLimit is the refusal of members that decompress to n bytes, over the
// cap.
func (z *qltyZip) overLimit(n uint64) error {
	if z.bomb {
		return zipRefusal("it decompresses to %d bytes or more from %d, over %d times its size (and over %d bytes); it is refused as a zip bomb.",
			n, z.size, qltyZipMaxRatio, qltyZipFloor)
	}
	return plumb.Errorf(plumb.ETOOLARGE, "The coverage.zip decompresses to %d bytes or more, over the upload limit of %d bytes; nothing was stored.", n, z.s.cfg.MaxUploadBytes)
}

// open opens a member for reading within the decompression budget.
func (z *qltyZip) open(f *zip.File) (io.ReadCloser, error) {
	if err := z.checkSize(f); err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		return nil, zipRefusal("the member %q cannot be read: %v.", f.Name, err)
	}
	return &zipMember{ReadCloser: rc, z: z, name: f.Name}, nil
}

// zipMember is a member being read: the bytes count against the budget,
// and a corrupt member is the client's error.
type zipMember struct {
	io.ReadCloser
	z    *qltyZip
	name string
}

func (m *zipMember) Read(p []byte) (int, error) {
	n, err := m.ReadCloser.Read(p)
	m.z.used += int64(n)
	if m.z.used > m.z.limit {
		return n, m.z.overLimit(uint64(m.z.used))
	}
	if err != nil && err != io.EOF {
		return n, zipRefusal("the member %q is corrupt: %v.", m.name, err)
	}
	return n, err
}

// small reads a member of at most qltyZipMaxSmall bytes.
func (z *qltyZip) small(f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > qltyZipMaxSmall {
		return nil, zipRefusal("the member %q is %d bytes; at most %d are read.", f.Name, f.UncompressedSize64, qltyZipMaxSmall)
	}
	rc, err := z.open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, qltyZipMaxSmall+1))
	if err != nil {
		return nil, err
	}
	if len(b) > qltyZipMaxSmall {
		return nil, zipRefusal("the member %q is over %d bytes.", f.Name, qltyZipMaxSmall)
	}
	return b, nil
}

// reportPaths reads report_files.jsonl: the paths of the reports given.
func (z *qltyZip) reportPaths(f *zip.File) ([]string, error) {
	b, err := z.small(f)
	if err != nil {
		return nil, err
	}
	var paths []string
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rf struct {
			Path string `json:"path"`
		}
		if err := json.Unmarshal(line, &rf); err != nil {
			return nil, zipRefusal("report_files.jsonl line %d is not a JSON object with a string path: %v.", i+1, err)
		}
		if rf.Path != "" {
			paths = append(paths, rf.Path)
		}
	}
	return paths, nil
}

// qltyRawNames are the member names the CLI gives the raw report at path:
// raw_files joined to it (the joined path, or the path itself when it is
// absolute), with either separator (Windows joins with a backslash).
func qltyRawNames(path string) []string {
	if strings.HasPrefix(path, "/") || strings.HasPrefix(path, `\`) || len(path) >= 2 && path[1] == ':' {
		return []string{path}
	}
	return []string{"raw_files/" + path, `raw_files\` + path}
}

// unsafeMemberName reports a name that is absolute or has a ".." segment.
func unsafeMemberName(name string) bool {
	if strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || len(name) >= 2 && name[1] == ':' {
		return true
	}
	for _, seg := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
	}
	return false
}

// checkMetadata reads metadata.json, when there is one: it must be a JSON
// object, and of the commit the upload URL was given for.
func (z *qltyZip) checkMetadata(sha string) error {
	if z.meta == nil {
		return nil
	}
	b, err := z.small(z.meta)
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return zipRefusal("metadata.json is not a JSON object.")
	}
	for _, name := range []string{"commitSha", "commit_sha"} {
		var v string
		if raw, ok := m[name]; ok && json.Unmarshal(raw, &v) == nil && v != "" && !strings.EqualFold(strings.TrimSpace(v), sha) {
			return zipRefusal("its metadata.json is of commit %s, but this upload URL was given for commit %s: each qlty coverage publish uploads its own zip.", v, sha)
		}
	}
	return nil
}

// files hands over the archive's files: those of the file_coverages parts,
// or, when there are none, those of the raw reports (format detected as for
// any upload). Paths follow the ingestion's path rules.
func (z *qltyZip) files(emit func(plumb.CoverageFile) error) error {
	var emitErr error
	check := func(cf coverage.File) error {
		if badText(cf.Path) {
			return plumb.Errorf(plumb.EINVALID, "%s", textProblem(fmt.Sprintf("The report's file path %q", cf.Path), cf.Path))
		}
		if err := emit(cf); err != nil {
			emitErr = err
			return err
		}
		return nil
	}
	opt := coverage.Options{TempDir: z.tempDir}
	member := func(f *zip.File, parse func(r *bufio.Reader) error) error {
		rc, err := z.open(f)
		if err != nil {
			return err
		}
		defer rc.Close()
		err = parse(bufio.NewReaderSize(rc, 256<<10))
		var ce *coverage.ParseError
		switch {
		case err == nil || emitErr != nil:
			return err
		case errors.As(err, &ce):
			return plumb.Errorf(plumb.EINVALID, "%s: %s", f.Name, ce.Error())
		}
		return err
	}
	if len(z.parts) > 0 {
		for _, f := range z.parts {
			if err := member(f, func(r *bufio.Reader) error { return coverage.ParseQltyExport(r, opt, check) }); err != nil {
				return err
			}
		}
		return nil
	}
	for _, f := range z.raw {
		err := member(f, func(r *bufio.Reader) error {
			head, _ := r.Peek(16 << 10)
			if len(bytes.TrimSpace(head)) == 0 {
				return plumb.Errorf(plumb.EINVALID, "%s: the coverage report is empty.", f.Name)
			}
			format, err := coverage.Detect(head)
			if err != nil {
				return plumb.Errorf(plumb.EINVALID, "%s: %v", f.Name, err)
			}
			return coverage.Parse(r, format, opt, check)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
