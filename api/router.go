package api

import (
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/openapi"
)

// handlerFunc serves one matched route. Returning an error writes it as the
// spec's error body.
type handlerFunc func(w http.ResponseWriter, r *http.Request, c *call) error

// route is one method and path template, e.g. "/gh/{owner}/projects/{project}".
type route struct {
	method      string
	operationID string   // the OpenAPI operation it serves; "" for a route outside the document
	segments    []string // literal segments, or "{name}" for a parameter
	public      bool     // needs no token
	ingest      bool     // an ingestion endpoint: upload tokens are accepted too
	ownAuth     bool     // authenticates and counts itself (the qlty CLI's routes, qltycoverage.go)
	formats     []format // response formats the route can produce (first is the default)
	handle      handlerFunc
}

// router matches requests against the route table. It owns 404 and 405, so
// both carry the spec's error body.
type router struct {
	routes []*route
}

// operation adds the route of the OpenAPI operation with this id: the
// method and path come from the openapi package's endpoint tables, the one
// list of documented routes, with each path parameter under the short name
// handlers read (pathParamName: {ownerKeyOrId} is params["owner"]).
func (rt *router) operation(id string, formats []format, h handlerFunc) *route {
	op, ok := openapi.Lookup(id)
	if !ok {
		panic("api: no OpenAPI operation " + id)
	}
	segs := strings.Split(strings.TrimPrefix(op.Path, "/"), "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "{") {
			segs[i] = "{" + handlerParamName(seg[1:len(seg)-1]) + "}"
		}
	}
	r := rt.add(op.Method, "/"+strings.Join(segs, "/"), formats, h)
	r.operationID = id
	return r
}

// handlerParamName is the short name of an OpenAPI path parameter.
func handlerParamName(documented string) string {
	for short, name := range pathParamName {
		if name == documented {
			return short
		}
	}
	panic("api: no short name for path parameter " + documented)
}

// undocumented adds a route deliberately outside the OpenAPI document
// (the probes /healthz and /readyz, docs/api.md; GitHub's webhook
// /hooks/github, docs/pull-requests.md).
func (rt *router) undocumented(method, path string, formats []format, h handlerFunc) *route {
	return rt.add(method, path, formats, h)
}

func (rt *router) add(method, path string, formats []format, h handlerFunc) *route {
	r := &route{method: method, segments: strings.Split(strings.TrimPrefix(path, "/"), "/"), formats: formats, handle: h}
	rt.routes = append(rt.routes, r)
	return r
}

// pathParams are the decoded path parameters of a matched route.
type pathParams map[string]string

// match finds the route for a request. When the path matches but the method
// does not, it returns the allowed methods instead.
func (rt *router) match(method, escapedPath string) (*route, pathParams, []string, error) {
	raw := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, nil, nil, plumb.Errorf(plumb.EINVALID, "The request path has an invalid escape sequence in %q.", s)
		}
		segs[i] = d
	}
	var allowed []string
	for _, r := range rt.routes {
		params, ok := r.matchPath(segs)
		if !ok {
			continue
		}
		if r.method == method {
			return r, params, nil, nil
		}
		allowed = append(allowed, r.method)
	}
	sort.Strings(allowed)
	return nil, nil, allowed, nil
}

func (r *route) matchPath(segs []string) (pathParams, bool) {
	if len(segs) != len(r.segments) {
		return nil, false
	}
	var params pathParams
	for i, t := range r.segments {
		if strings.HasPrefix(t, "{") {
			// An empty segment is never a parameter: "/a/" and "/a//b" are
			// other paths (404), not an empty id.
			if segs[i] == "" {
				return nil, false
			}
			if params == nil {
				params = pathParams{}
			}
			params[t[1:len(t)-1]] = segs[i]
			continue
		}
		if t != segs[i] {
			return nil, false
		}
	}
	return params, true
}

// Route names the route a request goes to by its path template, such as
// "/gh/{owner}/projects/{project}/issues", or "" when none matches (a 404,
// a 405, or a path served in front of the API). Metrics label requests
// with it: a bounded set, unlike raw paths.
func (s *Server) Route(method, escapedPath string) string {
	rt, _, _, err := s.router.match(method, escapedPath)
	if err != nil || rt == nil {
		return ""
	}
	return "/" + strings.Join(rt.segments, "/")
}
