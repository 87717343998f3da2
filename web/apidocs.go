package web

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/plumbhq/plumb/openapi"
)

// The HTML API reference at /docs/api, rendered from Plumb's own OpenAPI
// document (the one GET /openapi.json serves): every operation with its
// parameters, request body, responses and examples, then every schema.
// Public, like /openapi.json; a small script filters it as one types.

type apiDoc struct {
	Title, Version, Description string
	Groups                      []apiGroup
	Schemas                     []apiSchema
}

type apiGroup struct {
	Name, Description string
	Ops               []apiOp
}

type apiOp struct {
	ID, Method, Path, Summary, Description string
	Params                                 []apiParam
	Body                                   []apiMedia
	Responses                              []apiResponse
	Search                                 string // the text the filter matches
}

type apiParam struct {
	Name, In, Type, Description string
	Required                    bool
}

type apiMedia struct {
	Type, Schema, SchemaRef, Example string
}

type apiResponse struct {
	Status, Description string
	Media               []apiMedia
}

type apiSchema struct {
	Name, JSON string
}

var (
	apiDocOnce sync.Once
	apiDocData apiDoc
	apiDocErr  error
)

func (s *Server) handleAPIDocs(w http.ResponseWriter, r *http.Request) {
	apiDocOnce.Do(func() { apiDocData, apiDocErr = buildAPIDoc(openapi.Document()) })
	if apiDocErr != nil {
		s.log.Error("API reference", "error", apiDocErr)
		s.renderError(w, r, http.StatusInternalServerError, "The API reference could not be built.")
		return
	}
	v, _ := s.signedIn(w, r)
	v.Title = "API reference"
	v.Crumbs = []crumb{{"API reference", ""}}
	v.Data = apiDocData
	s.render(w, r, http.StatusOK, "apidocs", v)
}

type obj = map[string]any

func str(m obj, k string) string { s, _ := m[k].(string); return s }

func pretty(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// resolve follows a local $ref ("#/components/parameters/pageLimit").
func resolve(doc obj, v any) obj {
	m, _ := v.(obj)
	for i := 0; i < 8 && m != nil; i++ {
		ref := str(m, "$ref")
		if !strings.HasPrefix(ref, "#/") {
			return m
		}
		var cur any = doc
		for _, part := range strings.Split(ref[2:], "/") {
			cm, _ := cur.(obj)
			cur = cm[part]
		}
		m, _ = cur.(obj)
	}
	return m
}

func schemaName(m obj) string {
	if ref := str(m, "$ref"); strings.HasPrefix(ref, "#/components/schemas/") {
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	if items, ok := m["items"].(obj); ok {
		if n := schemaName(items); n != "" {
			return n
		}
	}
	return ""
}

func typeOf(m obj) string {
	if m == nil {
		return ""
	}
	if n := schemaName(m); n != "" {
		return n
	}
	switch t := m["type"].(type) {
	case string:
		if t == "array" {
			if items, ok := m["items"].(obj); ok {
				return "array of " + typeOf(items)
			}
		}
		if e, ok := m["enum"].([]any); ok {
			var vals []string
			for _, x := range e {
				b, _ := json.Marshal(x)
				vals = append(vals, string(b))
			}
			return t + " (" + strings.Join(vals, ", ") + ")"
		}
		return t
	case []any:
		var parts []string
		for _, x := range t {
			parts = append(parts, x.(string))
		}
		return strings.Join(parts, " or ")
	}
	return "object"
}

func media(doc obj, content any) []apiMedia {
	cm, _ := content.(obj)
	var types []string
	for t := range cm {
		types = append(types, t)
	}
	sort.Strings(types)
	var out []apiMedia
	for _, t := range types {
		m, _ := cm[t].(obj)
		am := apiMedia{Type: t}
		if sch, ok := m["schema"].(obj); ok {
			am.SchemaRef = schemaName(sch)
			if am.SchemaRef == "" || str(sch, "$ref") == "" {
				am.Schema = pretty(sch)
			}
		}
		if ex, ok := m["example"]; ok {
			am.Example = pretty(ex)
		} else if exs, ok := m["examples"].(obj); ok {
			var parts []string
			for name, e := range exs {
				if em, ok := resolve(doc, e)["value"]; ok {
					parts = append(parts, "// "+name+"\n"+pretty(em))
				}
			}
			sort.Strings(parts)
			am.Example = strings.Join(parts, "\n\n")
		}
		out = append(out, am)
	}
	return out
}

func buildAPIDoc(raw []byte) (apiDoc, error) {
	var doc obj
	if err := json.Unmarshal(raw, &doc); err != nil {
		return apiDoc{}, err
	}
	info, _ := doc["info"].(obj)
	d := apiDoc{Title: str(info, "title"), Version: str(info, "version"), Description: str(info, "description")}
	groups := map[string]*apiGroup{}
	var order []string
	tags, _ := doc["tags"].([]any)
	for _, t := range tags {
		tm, _ := t.(obj)
		name := str(tm, "name")
		groups[name] = &apiGroup{Name: name, Description: str(tm, "description")}
		order = append(order, name)
	}
	paths, _ := doc["paths"].(obj)
	var pathNames []string
	for p := range paths {
		pathNames = append(pathNames, p)
	}
	sort.Strings(pathNames)
	for _, p := range pathNames {
		item, _ := paths[p].(obj)
		for _, method := range []string{"get", "post", "put", "patch", "delete"} {
			op, ok := item[method].(obj)
			if !ok {
				continue
			}
			o := apiOp{ID: str(op, "operationId"), Method: strings.ToUpper(method), Path: p, Summary: str(op, "summary"), Description: str(op, "description")}
			params, _ := op["parameters"].([]any)
			if common, ok := item["parameters"].([]any); ok {
				params = append(common, params...)
			}
			for _, x := range params {
				pm := resolve(doc, x)
				sch, _ := pm["schema"].(obj)
				req, _ := pm["required"].(bool)
				o.Params = append(o.Params, apiParam{Name: str(pm, "name"), In: str(pm, "in"), Type: typeOf(sch), Description: str(pm, "description"), Required: req})
			}
			if rb := resolve(doc, op["requestBody"]); rb != nil {
				o.Body = media(doc, rb["content"])
			}
			resps, _ := op["responses"].(obj)
			var codes []string
			for c := range resps {
				codes = append(codes, c)
			}
			sort.Strings(codes)
			for _, c := range codes {
				rm := resolve(doc, resps[c])
				o.Responses = append(o.Responses, apiResponse{Status: c, Description: str(rm, "description"), Media: media(doc, rm["content"])})
			}
			o.Search = strings.ToLower(strings.Join([]string{o.ID, o.Method, o.Path, o.Summary, o.Description}, " "))
			for _, pa := range o.Params {
				o.Search += " " + strings.ToLower(pa.Name)
			}
			tag := "Other"
			if ts, ok := op["tags"].([]any); ok && len(ts) > 0 {
				tag, _ = ts[0].(string)
			}
			g := groups[tag]
			if g == nil {
				g = &apiGroup{Name: tag}
				groups[tag] = g
				order = append(order, tag)
			}
			g.Ops = append(g.Ops, o)
		}
	}
	for _, name := range order {
		if len(groups[name].Ops) > 0 {
			d.Groups = append(d.Groups, *groups[name])
		}
	}
	comps, _ := doc["components"].(obj)
	schemas, _ := comps["schemas"].(obj)
	var names []string
	for n := range schemas {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d.Schemas = append(d.Schemas, apiSchema{Name: n, JSON: pretty(schemas[n])})
	}
	return d, nil
}
