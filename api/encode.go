package api

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// writeJSON writes v as a JSON response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err = w.Write(append(b, '\n'))
	return err
}

// rowWriter streams rows as NDJSON or CSV. The header is written with the
// first row, so an error before any row can still become an error response.
type rowWriter struct {
	w       http.ResponseWriter
	f       format
	buf     *bufio.Writer
	cols    *csvColumns
	started bool
	rows    int
	rc      *http.ResponseController
	scratch []byte
}

func newRowWriter(w http.ResponseWriter, f format) *rowWriter {
	return &rowWriter{w: w, f: f, rc: http.NewResponseController(w)}
}

// start writes the status line and, for CSV, the header row for rows of type t.
func (rw *rowWriter) start(t reflect.Type) error {
	if rw.started {
		return nil
	}
	rw.started = true
	h := rw.w.Header()
	if rw.f == formatCSV {
		h.Set("Content-Type", "text/csv; charset=utf-8")
	} else {
		h.Set("Content-Type", "application/x-ndjson")
	}
	rw.w.WriteHeader(http.StatusOK)
	rw.buf = bufio.NewWriterSize(rw.w, 64<<10)
	if rw.f == formatCSV {
		rw.cols = columnsOf(t)
		return writeCSVRecord(rw.buf, rw.cols.names)
	}
	return nil
}

func (rw *rowWriter) write(v any) error {
	if err := rw.start(reflect.TypeOf(v)); err != nil {
		return err
	}
	rw.rows++
	if rw.rows%4096 == 0 {
		// A long export keeps extending its own write deadline.
		_ = rw.rc.SetWriteDeadline(time.Now().Add(2 * time.Minute))
	}
	if rw.f == formatCSV {
		return writeCSVRecord(rw.buf, rw.cols.row(v))
	}
	if a, ok := v.(jsonAppender); ok {
		rw.scratch = append(a.appendJSON(rw.scratch[:0]), '\n')
		_, err := rw.buf.Write(rw.scratch)
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	rw.buf.Write(b)
	return rw.buf.WriteByte('\n')
}

// finish flushes the stream; an empty stream still gets its header (CSV)
// from t.
func (rw *rowWriter) finish(t reflect.Type) error {
	if err := rw.start(t); err != nil {
		return err
	}
	return rw.buf.Flush()
}

// writeCSVRecord writes one RFC 4180 record ending in CRLF. A field holding a
// comma, a double quote, CR or LF is quoted, its quotes doubled; its content,
// line breaks included, is written as it is (encoding/csv with UseCRLF would
// turn LF into CRLF and drop a lone CR, changing the data).
func writeCSVRecord(w *bufio.Writer, fields []string) error {
	for i, f := range fields {
		if i > 0 {
			w.WriteByte(',')
		}
		f = csvSafe(f)
		if !strings.ContainsAny(f, ",\"\r\n") {
			w.WriteString(f)
			continue
		}
		w.WriteByte('"')
		w.WriteString(strings.ReplaceAll(f, `"`, `""`))
		w.WriteByte('"')
	}
	_, err := w.WriteString("\r\n")
	return err
}

// csvSafe neutralises a cell that a spreadsheet would run as a formula
// (CSV injection): one that starts with =, +, -, @, a tab or a CR gets a
// leading apostrophe, which spreadsheets hide and which turns the cell into
// text. Numbers such as -3.5 stay as they are: they are not formulas. Issue
// messages, rule keys and paths come from code anyone can write.
func csvSafe(f string) string {
	if f == "" {
		return f
	}
	switch f[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if _, err := strconv.ParseFloat(f, 64); err == nil {
			return f
		}
		return "'" + f
	}
	return f
}

// csvColumns flattens a response type into CSV columns: one per field in
// declaration (= JSON) order, nested objects as dotted columns, arrays joined
// with ",", null as an empty cell.
type csvColumns struct {
	names []string
	paths [][]int
}

var columnCache sync.Map // reflect.Type → *csvColumns

func columnsOf(t reflect.Type) *csvColumns {
	if c, ok := columnCache.Load(t); ok {
		return c.(*csvColumns)
	}
	c := &csvColumns{}
	var walk func(t reflect.Type, prefix string, path []int)
	walk = func(t reflect.Type, prefix string, path []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			p := append(append([]int{}, path...), i)
			ft := f.Type
			if ft.Kind() == reflect.Struct {
				walk(ft, prefix+name+".", p)
				continue
			}
			c.names = append(c.names, prefix+name)
			c.paths = append(c.paths, p)
		}
	}
	walk(t, "", nil)
	columnCache.Store(t, c)
	return c
}

func (c *csvColumns) row(v any) []string {
	rv := reflect.ValueOf(v)
	out := make([]string, len(c.paths))
	for i, p := range c.paths {
		out[i] = cell(rv.FieldByIndex(p))
	}
	return out
}

func cell(v reflect.Value) string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int64, reflect.Int32:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Float64, reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'f', -1, 64)
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = cell(v.Index(i))
		}
		return strings.Join(parts, ",")
	case reflect.Map:
		if v.Len() == 0 {
			return ""
		}
		b, _ := json.Marshal(v.Interface())
		return string(b)
	}
	return fmt.Sprint(v.Interface())
}
