package api

import (
	"net/http"
	"reflect"

	"github.com/plumbhq/plumb"
)

// WriteIssueExport streams issues exactly as GET …/issues exports them with
// Accept text/csv (csv true) or application/x-ndjson: the same columns,
// objects and headers. The web's download links use it, so a page's
// download and the API's export never differ.
func WriteIssueExport(w http.ResponseWriter, csv bool, each func(fn func(plumb.Issue) error) error) error {
	f := formatNDJSON
	if csv {
		f = formatCSV
	}
	rw := newRowWriter(w, f)
	if err := each(func(i plumb.Issue) error { return rw.write(newIssueView(i)) }); err != nil {
		return err
	}
	return rw.finish(reflect.TypeOf(issueView{}))
}
