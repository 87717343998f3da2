// Package openapitest checks real HTTP responses against an OpenAPI 3.1
// document (Plumb's is openapi.Document()). It is meant for tests only.
//
//	v := openapitest.New(t, openapi.Document())
//	v.Check(t, req, rec.Code, rec.Header(), rec.Body.Bytes())
//
// or, for every response an http.Client receives:
//
//	client := &http.Client{Transport: v.Wrap(t, nil)}
//
// A response fails the check when no operation of the document matches the
// request's method and path, its status is not documented for that
// operation, its Content-Type is not one the status documents, its body
// does not match the schema (or has content where none is documented), a
// documented header's value does not match its schema, or a documented
// required header is missing. text/csv bodies must parse as CSV and, when
// the media type carries an x-csv-columns extension, start with exactly
// that header row. application/x-ndjson bodies are decoded line by line
// into an array, which the media type's schema describes.
package openapitest

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Validator validates responses against one OpenAPI document. It is safe
// for concurrent use.
type Validator struct {
	doc    *openapi3.T
	router routers.Router
}

// New loads and validates doc, failing the test (t.Fatalf) when the
// document itself is invalid.
func New(t testing.TB, doc []byte) *Validator {
	t.Helper()
	v, err := newValidator(doc)
	if err != nil {
		t.Fatalf("openapitest: %v", err)
	}
	return v
}

func newValidator(doc []byte) (*Validator, error) {
	registerDecoders.Do(func() {
		openapi3filter.RegisterBodyDecoder(mediaNDJSON, decodeNDJSON)
		openapi3filter.RegisterBodyDecoder(mediaCSV, decodeCSV)
		openapi3filter.RegisterBodyDecoder("text/markdown", decodeText)
	})
	d, err := openapi3.NewLoader().LoadFromData(doc)
	if err != nil {
		return nil, fmt.Errorf("loading the document: %w", err)
	}
	if err := d.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the document is invalid: %w", err)
	}
	r, err := gorillamux.NewRouter(d)
	if err != nil {
		return nil, fmt.Errorf("routing the document: %w", err)
	}
	return &Validator{doc: d, router: r}, nil
}

// Check fails the test (t.Errorf, once per problem) when the response
// (status, header, body) to req does not match the document.
func (v *Validator) Check(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	if err := v.Validate(req, status, header, body); err != nil {
		for _, e := range unjoin(err) {
			t.Errorf("openapitest: %s %s answered %d: %v", req.Method, req.URL.RequestURI(), status, e)
		}
	}
}

// Validate is Check returning the problems (joined with errors.Join)
// instead of failing a test; nil means the response matches.
func (v *Validator) Validate(req *http.Request, status int, header http.Header, body []byte) error {
	if header == nil {
		header = http.Header{}
	}
	rreq := routable(req)
	route, pathParams, err := v.router.FindRoute(rreq)
	if err != nil {
		return fmt.Errorf("no operation documented for %s %s: %w", req.Method, rreq.URL.EscapedPath(), err)
	}

	ref := route.Operation.Responses.Status(status)
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("status %d is not documented for %s %s (documented: %s)",
			status, route.Method, route.Path, strings.Join(slices.Sorted(maps.Keys(route.Operation.Responses.Map())), ", "))
	}

	// Two passes, so that a header problem does not hide the body's:
	// status and headers first, then content type and body against the
	// same response without its headers.
	var errs []error
	validate := func(route *routers.Route, excludeBody bool) {
		options := &openapi3filter.Options{
			IncludeResponseStatus:   true,
			MultiError:              true,
			ExcludeResponseBody:     excludeBody,
			SchemaValidationOptions: formatValidators,
		}
		options.WithCustomSchemaErrorFunc(schemaErrorMessage)
		err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{
				Request:    rreq,
				PathParams: pathParams,
				Route:      route,
			},
			Status:  status,
			Header:  header,
			Body:    io.NopCloser(bytes.NewReader(body)),
			Options: options,
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	validate(route, true)

	content := ref.Value.Content
	contentType := header.Get("Content-Type")
	if len(content) == 0 {
		if len(body) > 0 {
			errs = append(errs, fmt.Errorf("status %d is documented without content, but the body has %d bytes", status, len(body)))
		}
		return errors.Join(errs...)
	}
	mt := content.Get(contentType)
	if mt == nil {
		errs = append(errs, fmt.Errorf("Content-Type %q is not documented for status %d (documented: %s)",
			contentType, status, strings.Join(slices.Sorted(maps.Keys(content)), ", ")))
		return errors.Join(errs...)
	}
	bodyOnly := *ref.Value
	bodyOnly.Headers = nil
	op := *route.Operation
	op.Responses = openapi3.NewResponses(openapi3.WithStatus(status, &openapi3.ResponseRef{Value: &bodyOnly}))
	bodyRoute := *route
	bodyRoute.Operation = &op
	validate(&bodyRoute, false)
	if err := checkCSVColumns(mt, body); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Wrap returns a RoundTripper (over rt, or http.DefaultTransport when rt is
// nil) that checks every response it returns, as Check does. The body is
// read in full and restored, so callers read it as usual.
func (v *Validator) Wrap(t testing.TB, rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		if err != nil {
			return resp, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil {
			t.Errorf("openapitest: %s %s: reading the response body: %v", req.Method, req.URL.RequestURI(), err)
			return resp, nil
		}
		v.Check(t, req, resp.StatusCode, resp.Header, body)
		return resp, nil
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// routable is req with a URL reduced to its path (and query), so that the
// route is found whether req has an absolute URL or only a path, whatever
// its host.
func routable(req *http.Request) *http.Request {
	u := &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	if u.Path == "" && req.URL.Opaque != "" {
		u.Path = req.URL.Opaque
	}
	r := req.WithContext(req.Context())
	r.URL = u
	r.Host = ""
	return r
}

// unjoin splits the errors of errors.Join and of openapi3filter's
// MultiError, so that each problem is reported on its own.
func unjoin(err error) []error {
	var out []error
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var re *openapi3filter.ResponseError
		if errors.As(err, &re) && re.Err != nil {
			var me openapi3.MultiError
			if errors.As(re.Err, &me) && len(me) > 1 {
				for _, e := range me {
					out = append(out, fmt.Errorf("%s: %w", re.Reason, e))
				}
				return
			}
		}
		out = append(out, err)
	}
	walk(err)
	return out
}

const (
	mediaNDJSON = "application/x-ndjson"
	mediaCSV    = "text/csv"
)

var registerDecoders sync.Once

// decodeText reads a text body (Markdown) as one string.
func decodeText(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	data, err := io.ReadAll(body)
	return string(data), err
}

// decodeNDJSON decodes each non-empty line as one JSON value and returns
// them as an array.
func decodeNDJSON(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	data, err := io.ReadAll(body)
	if err != nil {
		return nil, err
	}
	rows := []any{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("NDJSON line %d: %w", i+1, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, fmt.Errorf("NDJSON line %d: more than one JSON value on the line", i+1)
		}
		rows = append(rows, v)
	}
	return rows, nil
}

// decodeCSV checks that the body is well-formed CSV (RFC 4180, every row
// with the header's number of fields) and returns it as a string.
func decodeCSV(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	data, err := io.ReadAll(body)
	if err != nil {
		return nil, err
	}
	if _, err := csv.NewReader(bytes.NewReader(data)).ReadAll(); err != nil {
		return nil, fmt.Errorf("malformed CSV: %w", err)
	}
	return string(data), nil
}

// checkCSVColumns compares the header row of a CSV body with the media
// type's x-csv-columns, when it has them.
func checkCSVColumns(mt *openapi3.MediaType, body []byte) error {
	raw, ok := mt.Extensions["x-csv-columns"].([]any)
	if !ok {
		return nil
	}
	want := make([]string, 0, len(raw))
	for _, c := range raw {
		s, _ := c.(string)
		want = append(want, s)
	}
	got, err := csv.NewReader(bytes.NewReader(body)).Read()
	if err == io.EOF {
		return fmt.Errorf("CSV body has no header row; want %s", strings.Join(want, ","))
	}
	if err != nil {
		return fmt.Errorf("CSV header row: %w", err)
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("CSV header row is %s; want %s", strings.Join(got, ","), strings.Join(want, ","))
	}
	return nil
}

// schemaErrorMessage is a one-line schema error: where, why, and the
// value when it is a scalar (kin-openapi's default dumps the schema and
// the value, which buries the reason in large bodies).
func schemaErrorMessage(err *openapi3.SchemaError) string {
	var b strings.Builder
	if p := err.JSONPointer(); len(p) > 0 && !strings.HasPrefix(err.Reason, "error at ") {
		fmt.Fprintf(&b, "at /%s: ", strings.Join(p, "/"))
	}
	if err.Origin != nil {
		b.WriteString(err.Origin.Error())
		return b.String()
	}
	if err.Reason != "" {
		b.WriteString(err.Reason)
	} else {
		fmt.Fprintf(&b, "does not match the schema's %q", err.SchemaField)
	}
	switch err.Value.(type) {
	case map[string]any, []any:
	default:
		if v, jerr := json.Marshal(err.Value); jerr == nil && len(v) <= 200 {
			fmt.Fprintf(&b, " (value %s)", v)
		}
	}
	return b.String()
}

// formatValidators enforce the string formats the document uses that
// kin-openapi does not check by default (it checks date and date-time).
var formatValidators = []openapi3.SchemaValidationOption{
	openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
	openapi3.WithStringFormatValidator("uri", openapi3.NewCallbackValidator(func(s string) error {
		u, err := url.Parse(s)
		if err != nil {
			return err
		}
		if u.Scheme == "" {
			return fmt.Errorf("%q is not an absolute URI", s)
		}
		return nil
	})),
	openapi3.WithStringFormatValidator("uri-reference", openapi3.NewCallbackValidator(func(s string) error {
		_, err := url.Parse(s)
		return err
	})),
}
