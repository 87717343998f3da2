package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/plumbhq/plumb/openapi"
)

// The HTML API reference at /docs/api, rendered from Plumb's own OpenAPI
// document (the one GET /openapi.json serves, read as openapi.Reference):
// every operation with its parameters, request body and responses, then
// every schema.
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
	Type, Schema, SchemaRef string
}

type apiResponse struct {
	Status, Description string
	Media               []apiMedia
}

type apiSchema struct {
	Name, JSON string
}

var apiDocData = sync.OnceValue(func() apiDoc { return buildAPIDoc(openapi.ReadReference()) })

func (s *Server) handleAPIDocs(w http.ResponseWriter, r *http.Request) {
	v, _ := s.signedIn(w, r)
	v.Title = "API reference"
	v.Crumbs = []crumb{{"API reference", ""}}
	v.Data = apiDocData()
	s.render(w, r, http.StatusOK, "apidocs", v)
}

// indented is v as indented JSON with its object keys sorted (and <, >, &
// escaped, as encoding/json does): the form the page shows schemas in. The
// model is typed; only this formatting goes through a generic value, to
// sort the keys.
func indented(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		return ""
	}
	b, _ = json.MarshalIndent(generic, "", "  ")
	return string(b)
}

// schemaName is the named schema s refers to, itself or as its items.
func schemaName(s *openapi.Schema) string {
	for ; s != nil; s = s.Items() {
		if n := s.Ref(); n != "" {
			return n
		}
	}
	return ""
}

// typeOf is how the page names a parameter's type.
func typeOf(s *openapi.Schema) string {
	if s == nil {
		return ""
	}
	if n := schemaName(s); n != "" {
		return n
	}
	switch t := s.Types(); len(t) {
	case 0:
		return "object"
	case 1:
		if t[0] == "array" && s.Items() != nil {
			return "array of " + typeOf(s.Items())
		}
		if e := s.Enum(); len(e) > 0 {
			var vals []string
			for _, x := range e {
				b, _ := json.Marshal(x)
				vals = append(vals, string(b))
			}
			return t[0] + " (" + strings.Join(vals, ", ") + ")"
		}
		return t[0]
	default:
		return strings.Join(t, " or ")
	}
}

// media lists a body's media types, sorted.
func media(content []openapi.MediaDoc) []apiMedia {
	var out []apiMedia
	for _, m := range content {
		am := apiMedia{Type: m.Type}
		if m.Schema != nil {
			am.SchemaRef = schemaName(m.Schema)
			if am.SchemaRef == "" || m.Schema.Ref() == "" {
				am.Schema = indented(m.Schema)
			}
		}
		out = append(out, am)
	}
	slices.SortFunc(out, func(a, b apiMedia) int { return strings.Compare(a.Type, b.Type) })
	return out
}

// methodOrder is the order of an path's operations on the page.
var methodOrder = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

func buildAPIDoc(ref openapi.Reference) apiDoc {
	d := apiDoc{Title: ref.Title, Version: ref.Version, Description: ref.Description}
	groups := map[string]*apiGroup{}
	var order []string
	for _, t := range ref.Tags {
		groups[t.Name] = &apiGroup{Name: t.Name, Description: t.Description}
		order = append(order, t.Name)
	}
	ops := slices.Clone(ref.Operations)
	slices.SortStableFunc(ops, func(a, b openapi.OperationDoc) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return slices.Index(methodOrder, a.Method) - slices.Index(methodOrder, b.Method)
	})
	for _, op := range ops {
		o := apiOp{ID: op.ID, Method: op.Method, Path: op.Path, Summary: op.Summary, Description: op.Description}
		for _, pm := range op.Parameters {
			o.Params = append(o.Params, apiParam{Name: pm.Name, In: pm.In, Type: typeOf(pm.Schema), Description: pm.Description, Required: pm.Required})
		}
		o.Body = media(op.Body)
		resps := slices.Clone(op.Responses)
		slices.SortFunc(resps, func(a, b openapi.ResponseDoc) int { return strings.Compare(a.Status, b.Status) })
		for _, r := range resps {
			o.Responses = append(o.Responses, apiResponse{Status: r.Status, Description: r.Description, Media: media(r.Media)})
		}
		o.Search = strings.ToLower(strings.Join([]string{o.ID, o.Method, o.Path, o.Summary, o.Description}, " "))
		for _, pa := range o.Params {
			o.Search += " " + strings.ToLower(pa.Name)
		}
		tag := "Other"
		if len(op.Tags) > 0 {
			tag = op.Tags[0]
		}
		g := groups[tag]
		if g == nil {
			g = &apiGroup{Name: tag}
			groups[tag] = g
			order = append(order, tag)
		}
		g.Ops = append(g.Ops, o)
	}
	for _, name := range order {
		if len(groups[name].Ops) > 0 {
			d.Groups = append(d.Groups, *groups[name])
		}
	}
	schemas := slices.Clone(ref.Schemas)
	slices.SortFunc(schemas, func(a, b openapi.NamedSchema) int { return strings.Compare(a.Name, b.Name) })
	for _, sc := range schemas {
		d.Schemas = append(d.Schemas, apiSchema{Name: sc.Name, JSON: indented(sc.Schema)})
	}
	return d
}
