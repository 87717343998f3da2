package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
)

// readJSONObject checks a POST/PUT body's media type (415) and size (413) and
// parses it as a JSON object whose members are kept raw, so each field can be
// validated and every problem reported at once.
func (s *Server) readJSONObject(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, error) {
	ct := r.Header.Get("Content-Type")
	if !isJSONMediaType(ct) {
		return nil, plumb.Errorf(plumb.EUNSUPPORTED, "The request body must be JSON sent with \"Content-Type: application/json\"; got %q.", ct)
	}
	body, err := s.readBody(w, r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, plumb.Errorf(plumb.EINVALID, "The request body is empty; send a JSON object.")
	}
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&obj); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, plumb.Errorf(plumb.EINVALID, "The request body is not valid JSON (at byte %d: %v).", se.Offset, se)
		case errors.As(err, &te):
			return nil, plumb.Errorf(plumb.EINVALID, "The request body must be a JSON object, got a JSON %s.", te.Value)
		}
		return nil, plumb.Errorf(plumb.EINVALID, "The request body is not valid JSON: %v.", err)
	}
	if obj == nil {
		return nil, plumb.Errorf(plumb.EINVALID, "The request body must be a JSON object, got null.")
	}
	// Only white space may follow the object (More alone misses a stray
	// "]" or "}").
	if _, err := dec.Token(); err != io.EOF {
		return nil, plumb.Errorf(plumb.EINVALID, "The request body must hold exactly one JSON object.")
	}
	if err := checkObjectText(obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// readBody reads a request body of at most limit bytes (413 past it).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	// The body's transfer is the client's time, not the server's: the
	// request's clock stops while it arrives, and a client that stalls it
	// gets a 408 (idleReader), never a 503.
	resume := pauseClock(r.Context())
	idle := s.idleBody(w, r.Body, time.Now().Add(max(bodyReadTimeout, s.cfg.UploadIdleTimeout)))
	body, err := io.ReadAll(http.MaxBytesReader(w, io.NopCloser(idle), limit))
	resume(0)
	if err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return nil, tooLarge(limit)
		case idle.stalled:
			return nil, idle.stall()
		}
		return nil, plumb.Errorf(plumb.EINVALID, "The request body could not be read: %v.", err)
	}
	return body, nil
}

// isJSONMediaType reports whether a Content-Type names JSON: application/json
// or an application/...+json type, parameters allowed (RFC 6838 §4.2.8).
func isJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return ct != "" && err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

func tooLarge(limit int64) error {
	return plumb.Errorf(plumb.ETOOLARGE, "The request body is larger than the limit of %d bytes.", limit)
}

// fields validates members of a parsed JSON object, collecting problems.
// readFields is readJSONObject with the object ready for field-by-field
// validation.
func (s *Server) readFields(w http.ResponseWriter, r *http.Request) (*fields, error) {
	obj, err := s.readJSONObject(w, r)
	if err != nil {
		return nil, err
	}
	return &fields{obj: obj}, nil
}

type fields struct {
	obj   map[string]json.RawMessage
	errs  []string // the first problems found (maxKept)
	nErrs int      // every problem found
}

func (f *fields) fail(format string, args ...any) {
	f.nErrs++
	if len(f.errs) < maxKept {
		f.errs = append(f.errs, fmt.Sprintf(format, args...))
	}
}

func (f *fields) err() error { return plumb.InvalidCounted(f.errs, f.nErrs) }

// str reads a string member. Absent or null gives ("", false).
func (f *fields) str(name string, required bool, min, max int) (string, bool) {
	raw, ok := f.obj[name]
	if !ok || string(raw) == "null" {
		if required {
			f.fail("Field %s is required.", name)
		}
		return "", false
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		f.fail("Field %s must be a string.", name)
		return "", false
	}
	checkLength(f, name, v, min, max)
	return v, true
}

func checkLength(f *fields, name, v string, min, max int) {
	n := utf8.RuneCountInString(v)
	switch {
	case n < min && min == 1:
		f.fail("Field %s must not be empty.", name)
	case n < min:
		f.fail("Field %s must be at least %d characters long.", name, min)
	case max > 0 && n > max:
		f.fail("Field %s must be at most %d characters long, got %d.", name, max, n)
	}
}

// name reads a display name: required, 1..max characters, not blank, no
// control characters. It is stored exactly as sent.
func (f *fields) name(field string, max int) string {
	v, ok := f.str(field, true, 1, max)
	if !ok {
		return ""
	}
	if strings.TrimSpace(v) == "" && v != "" {
		f.fail("Field %s must not be blank.", field)
	}
	if strings.IndexFunc(v, unicode.IsControl) >= 0 {
		f.fail("Field %s must not contain control characters.", field)
	}
	return v
}

// strList reads an array of strings.
func (f *fields) strList(name string, required bool) ([]string, bool) {
	raw, ok := f.obj[name]
	if !ok || string(raw) == "null" {
		if required {
			f.fail("Field %s is required.", name)
		}
		return nil, false
	}
	var v []string
	if err := json.Unmarshal(raw, &v); err != nil {
		f.fail("Field %s must be an array of strings.", name)
		return nil, false
	}
	return v, true
}
