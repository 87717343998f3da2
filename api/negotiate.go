package api

import (
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
)

// format is a response representation.
type format int

const (
	formatJSON format = iota
	formatNDJSON
	formatCSV
	formatMarkdown // a comparison's summary (docs/pull-requests.md)
	formatText     // a file's source (docs/sources.md)
)

var mediaTypes = map[format]string{
	formatJSON:     "application/json",
	formatNDJSON:   "application/x-ndjson",
	formatCSV:      "text/csv",
	formatMarkdown: "text/markdown",
	formatText:     "text/plain",
}

var (
	jsonOnly   = []format{formatJSON}
	allFormats = []format{formatJSON, formatNDJSON, formatCSV}
	textOnly   = []format{formatText}
)

type acceptRange struct {
	typ, sub string
	q        float64
}

func parseAccept(header string) []acceptRange {
	var out []acceptRange
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		fields := strings.Split(part, ";")
		mt := strings.ToLower(strings.TrimSpace(fields[0]))
		typ, sub, ok := strings.Cut(mt, "/")
		if !ok {
			if mt == "*" {
				typ, sub = "*", "*"
			} else {
				continue
			}
		}
		q := 1.0
		for _, p := range fields[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					q = f
				} else {
					q = 0
				}
			}
		}
		out = append(out, acceptRange{typ: strings.TrimSpace(typ), sub: strings.TrimSpace(sub), q: q})
	}
	return out
}

// quality is the q-value the most specific matching range gives a media type.
func quality(ranges []acceptRange, mediaType string) float64 {
	typ, sub, _ := strings.Cut(mediaType, "/")
	best, bestSpec := -1.0, -1
	for _, r := range ranges {
		spec := -1
		switch {
		case r.typ == typ && r.sub == sub:
			spec = 2
		case r.typ == typ && r.sub == "*":
			spec = 1
		case r.typ == "*" && r.sub == "*":
			spec = 0
		}
		if spec > bestSpec {
			best, bestSpec = r.q, spec
		}
	}
	if bestSpec < 0 {
		return 0
	}
	return best
}

// negotiate picks the response format for an Accept header among the offered
// ones. No header gives the first offer; equal q-values keep offer order (JSON
// first).
func negotiate(accept string, offers []format) (format, error) {
	if strings.TrimSpace(accept) == "" {
		return offers[0], nil
	}
	ranges := parseAccept(accept)
	best, bestQ := offers[0], 0.0
	for _, f := range offers {
		if q := quality(ranges, mediaTypes[f]); q > bestQ {
			best, bestQ = f, q
		}
	}
	if bestQ <= 0 {
		names := make([]string, len(offers))
		for i, f := range offers {
			names[i] = mediaTypes[f]
		}
		return 0, plumb.Errorf(plumb.ENOTACCEPTABLE, "The Accept header %q allows none of this endpoint's formats: %s.", accept, strings.Join(names, ", "))
	}
	return best, nil
}
