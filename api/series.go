package api

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

type seriesEntry struct {
	Metric     metric.Descriptor `json:"metric"`
	Dimensions map[string]string `json:"dimensions"`
	Points     []metric.Point    `json:"points"`
}

type seriesMeta struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Interval string `json:"interval"`
}

type seriesResponse struct {
	Data []seriesEntry `json:"data"`
	Meta seriesMeta    `json:"meta"`
}

func (s *Server) handleComponentSeries(w http.ResponseWriter, r *http.Request, c *call) error {
	cp, err := s.component(r.Context(), c)
	if err != nil {
		return err
	}
	return s.serveSeries(w, c, metric.ScopeComponent, func(to time.Time) (analysis, coverage []plumb.TotalsAt, err error) {
		return s.store.ComponentHistory(r.Context(), cp, to)
	})
}

// serveSeries answers a metric series request (component or project): it
// reads the series parameters, the measurements up to the window's end from
// history, and writes one series per selected metric in the negotiated format.
func (s *Server) serveSeries(w http.ResponseWriter, c *call, scope metric.Scope, history func(to time.Time) (analysis, coverage []plumb.TotalsAt, err error)) error {
	q := c.query
	keys := q.enumList("metric", metric.Keys())
	cats := q.enumList("category", metric.Categories())
	from, _ := q.single("from")
	to, _ := q.single("to")
	interval, _ := q.single("interval")
	win, errs := metric.ParseWindow(from, to, interval, s.now())
	for _, e := range errs {
		var pe *metric.ParamError
		if errors.As(e, &pe) {
			q.fail("%s", pe.Detail)
		} else {
			q.fail("%v", e)
		}
	}
	if err := q.err(); err != nil {
		return err
	}
	analysis, coverage, err := history(win.To)
	if err != nil {
		return err
	}
	var data []seriesEntry
	for _, d := range metric.Catalogue(scope) {
		if len(keys) > 0 && !plumb.Contains(keys, d.Key) || len(cats) > 0 && !plumb.Contains(cats, d.Category) {
			continue
		}
		source := analysis
		if d.Category == "coverage" {
			source = coverage
		}
		data = append(data, seriesEntry{Metric: d.Descriptor(), Dimensions: map[string]string{},
			Points: metric.Bucket(win, measurements(d.Key, scope, source))})
	}
	if data == nil {
		data = []seriesEntry{}
	}
	switch c.format {
	case formatNDJSON:
		w.Header().Set("Content-Type", "application/x-ndjson")
		enc := json.NewEncoder(w)
		for _, e := range data {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return nil
	case formatCSV:
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		cw := csv.NewWriter(w)
		cw.UseCRLF = true
		_ = cw.Write([]string{"metric", "timestamp", "value"})
		for _, e := range data {
			for _, p := range e.Points {
				_ = cw.Write([]string{e.Metric.Key, ts(p.Timestamp), strconv.FormatFloat(p.Value, 'f', -1, 64)})
			}
		}
		cw.Flush()
		return cw.Error()
	}
	return writeJSON(w, http.StatusOK, seriesResponse{Data: data,
		Meta: seriesMeta{From: ts(win.From), To: ts(win.To), Interval: string(win.Interval)}})
}

// measurements turns a totals history into one metric's values. Values are
// computed from the stored totals when read, so grades and size classes
// always follow the current rules, for old measurements too.
func measurements(key string, scope metric.Scope, history []plumb.TotalsAt) []metric.Measurement {
	out := make([]metric.Measurement, len(history))
	for i, h := range history {
		out[i] = metric.Measurement{At: h.At, Value: metric.SeriesValue(key, h.Totals, scope)}
	}
	return out
}
