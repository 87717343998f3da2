package openapi

import (
	"strings"
	"sync"
)

// Reference is the document as its readers see it (the web's API reference
// page): the operations with their parameters and responses resolved,
// and the named schemas. It is read from the same document Document
// serves.
type Reference struct {
	Title, Version, Description string
	Tags                        []Tag
	// Operations in the document's order: by path, then get, put, post,
	// delete.
	Operations []OperationDoc
	// Schemas are components/schemas, in the document's order.
	Schemas []NamedSchema
}

// Tag is a group of operations.
type Tag struct{ Name, Description string }

// OperationDoc is one operation as the document describes it.
type OperationDoc struct {
	Operation
	Tags                 []string
	Summary, Description string
	// Parameters are the path item's, then the operation's own.
	Parameters []ParameterDoc
	// Body is the request body's media types (none without a body).
	Body      []MediaDoc
	Responses []ResponseDoc
}

// ParameterDoc is a parameter, its reference resolved.
type ParameterDoc struct {
	Name, In, Description string
	Required              bool
	Schema                *Schema
}

// ResponseDoc is a response by its status code ("200"), its reference
// resolved.
type ResponseDoc struct {
	Status, Description string
	Media               []MediaDoc
}

// MediaDoc is one media type of a body.
type MediaDoc struct {
	Type   string
	Schema *Schema // nil when the media type has none
}

// NamedSchema is one of the document's components/schemas.
type NamedSchema struct {
	Name   string
	Schema *Schema
}

// Schema is a read-only view of one of the document's JSON Schemas.
type Schema struct{ s *schema }

func viewSchema(s *schema) *Schema {
	if s == nil {
		return nil
	}
	return &Schema{s}
}

// Ref is the name of the components/schemas entry the schema refers to,
// or "" when it is not a reference.
func (s *Schema) Ref() string {
	name, ok := strings.CutPrefix(s.s.Ref, "#/components/schemas/")
	if !ok {
		return ""
	}
	return name
}

// Types is the schema's type: one name, several (a 3.1 type array), or none.
func (s *Schema) Types() []string { return s.s.Type }

// Enum is the values the schema allows, if it lists them.
func (s *Schema) Enum() []any { return s.s.Enum }

// Items is the schema of an array's items, or nil.
func (s *Schema) Items() *Schema { return viewSchema(s.s.Items) }

// MarshalJSON is the schema as the document has it.
func (s *Schema) MarshalJSON() ([]byte, error) { return marshal(s.s) }

var reference = sync.OnceValue(func() Reference { return readReference(build()) })

// ReadReference returns the document's Reference.
func ReadReference() Reference { return reference() }

func readReference(d *document) Reference {
	ref := Reference{Title: d.Info.Title, Version: d.Info.Version, Description: d.Info.Description}
	for _, t := range d.Tags {
		ref.Tags = append(ref.Tags, Tag(t))
	}
	for _, path := range d.Paths.keys {
		item := d.Paths.vals[path]
		for _, m := range []struct {
			method string
			op     *operation
		}{{"GET", item.Get}, {"PUT", item.Put}, {"POST", item.Post}, {"DELETE", item.Delete}} {
			if m.op != nil {
				ref.Operations = append(ref.Operations, d.operationDoc(path, m.method, item, m.op))
			}
		}
	}
	for _, name := range d.Components.Schemas.keys {
		ref.Schemas = append(ref.Schemas, NamedSchema{Name: name, Schema: viewSchema(d.Components.Schemas.vals[name])})
	}
	return ref
}

func (d *document) operationDoc(path, method string, item *pathItem, op *operation) OperationDoc {
	o := OperationDoc{
		Operation: Operation{ID: op.OperationID, Method: method, Path: path},
		Tags:      op.Tags, Summary: op.Summary, Description: op.Description,
	}
	for _, p := range append(append([]*param(nil), item.Parameters...), op.Parameters...) {
		p = resolveRef(p, func(p *param) string { return p.Ref }, "#/components/parameters/", d.Components.Parameters)
		o.Parameters = append(o.Parameters, ParameterDoc{Name: p.Name, In: p.In, Description: p.Description, Required: p.Required, Schema: viewSchema(p.Schema)})
	}
	if op.RequestBody != nil {
		o.Body = mediaDocs(op.RequestBody.Content)
	}
	for _, code := range op.Responses.keys {
		r := resolveRef(op.Responses.vals[code], func(r *response) string { return r.Ref }, "#/components/responses/", d.Components.Responses)
		o.Responses = append(o.Responses, ResponseDoc{Status: code, Description: r.Description, Media: mediaDocs(r.Content)})
	}
	return o
}

// resolveRef follows v's references to entries of components (under
// prefix); what is not found stays as it is.
func resolveRef[V any](v V, refOf func(V) string, prefix string, components *omap[V]) V {
	for range 8 {
		name, ok := strings.CutPrefix(refOf(v), prefix)
		if !ok {
			return v
		}
		next, found := components.get(name)
		if !found {
			return v
		}
		v = next
	}
	return v
}

func mediaDocs(content *omap[*mediaType]) []MediaDoc {
	if content == nil {
		return nil
	}
	var out []MediaDoc
	for _, t := range content.keys {
		out = append(out, MediaDoc{Type: t, Schema: viewSchema(content.vals[t].Schema)})
	}
	return out
}
