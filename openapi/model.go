package openapi

import (
	"bytes"
	"encoding/json"
)

// This file holds the subset of the OpenAPI 3.1 object model the v1
// description needs. Struct field order is the order of the JSON output;
// maps whose order matters to a reader (paths, properties, responses) are
// ordered maps, so the document is deterministic and reads in spec order.

type document struct {
	OpenAPI    string           `json:"openapi"`
	Info       info             `json:"info"`
	Servers    []server         `json:"servers,omitempty"`
	Tags       []tag            `json:"tags"`
	Security   []secReq         `json:"security"`
	Paths      *omap[*pathItem] `json:"paths"`
	Components components       `json:"components"`
}

type info struct {
	Title       string  `json:"title"`
	Version     string  `json:"version"`
	Description string  `json:"description,omitempty"`
	License     license `json:"license"`
}

type license struct {
	Name       string `json:"name"`
	Identifier string `json:"identifier"`
}

type server struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

type tag struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// secReq is a Security Requirement Object.
type secReq map[string][]string

type components struct {
	Schemas         *omap[*schema]         `json:"schemas"`
	Parameters      *omap[*param]          `json:"parameters"`
	Headers         *omap[*header]         `json:"headers"`
	Responses       *omap[*response]       `json:"responses"`
	SecuritySchemes *omap[*securityScheme] `json:"securitySchemes"`
}

type securityScheme struct {
	Type         string `json:"type"`
	Scheme       string `json:"scheme"`
	BearerFormat string `json:"bearerFormat,omitempty"`
	Description  string `json:"description,omitempty"`
}

type pathItem struct {
	Parameters []*param   `json:"parameters,omitempty"`
	Get        *operation `json:"get,omitempty"`
	Put        *operation `json:"put,omitempty"`
	Post       *operation `json:"post,omitempty"`
	Delete     *operation `json:"delete,omitempty"`
}

type operation struct {
	Tags        []string         `json:"tags"`
	Summary     string           `json:"summary"`
	Description string           `json:"description,omitempty"`
	OperationID string           `json:"operationId"`
	Security    *[]secReq        `json:"security,omitempty"` // non-nil only to override the global requirement
	Parameters  []*param         `json:"parameters,omitempty"`
	RequestBody *requestBody     `json:"requestBody,omitempty"`
	Responses   *omap[*response] `json:"responses"`
}

// param is a Parameter Object, or a Reference Object when Ref is set.
type param struct {
	Ref         string  `json:"$ref,omitempty"`
	Name        string  `json:"name,omitempty"`
	In          string  `json:"in,omitempty"`
	Description string  `json:"description,omitempty"`
	Required    bool    `json:"required,omitempty"`
	Style       string  `json:"style,omitempty"`
	Explode     *bool   `json:"explode,omitempty"`
	Schema      *schema `json:"schema,omitempty"`
}

type requestBody struct {
	Description string            `json:"description,omitempty"`
	Required    bool              `json:"required"`
	Content     *omap[*mediaType] `json:"content"`
}

// response is a Response Object, or a Reference Object when Ref is set.
type response struct {
	Ref         string            `json:"$ref,omitempty"`
	Description string            `json:"description,omitempty"`
	Headers     *omap[*header]    `json:"headers,omitempty"`
	Content     *omap[*mediaType] `json:"content,omitempty"`
}

// header is a Header Object, or a Reference Object when Ref is set.
type header struct {
	Ref         string  `json:"$ref,omitempty"`
	Description string  `json:"description,omitempty"`
	Required    bool    `json:"required,omitempty"`
	Schema      *schema `json:"schema,omitempty"`
}

type mediaType struct {
	Schema *schema `json:"schema"`
	// CSVColumns lists the header row of a text/csv body, in order.
	CSVColumns []string `json:"x-csv-columns,omitempty"`
}

// schema is a JSON Schema 2020-12 object (the subset used here), or a
// reference when Ref is set.
type schema struct {
	Ref                  string         `json:"$ref,omitempty"`
	Type                 types          `json:"type,omitempty"`
	Format               string         `json:"format,omitempty"`
	Description          string         `json:"description,omitempty"`
	Enum                 []any          `json:"enum,omitempty"`
	Default              any            `json:"default,omitempty"`
	Minimum              *int           `json:"minimum,omitempty"`
	Maximum              *int           `json:"maximum,omitempty"`
	MinLength            *int           `json:"minLength,omitempty"`
	MaxLength            *int           `json:"maxLength,omitempty"`
	Pattern              string         `json:"pattern,omitempty"`
	Items                *schema        `json:"items,omitempty"`
	MinItems             *int           `json:"minItems,omitempty"`
	MaxItems             *int           `json:"maxItems,omitempty"`
	OneOf                []*schema      `json:"oneOf,omitempty"`
	Properties           *omap[*schema] `json:"properties,omitempty"`
	Required             []string       `json:"required,omitempty"`
	AdditionalProperties any            `json:"additionalProperties,omitempty"` // false or *schema
}

// types is a schema's type: a single name, or a 3.1 type array.
type types []string

func (t types) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return marshal(t[0])
	}
	return marshal([]string(t))
}

// omap is a map that marshals its entries in insertion order.
type omap[V any] struct {
	keys []string
	vals map[string]V
}

func newOmap[V any]() *omap[V] { return &omap[V]{vals: map[string]V{}} }

// set adds or replaces an entry; a new key goes last.
func (m *omap[V]) set(key string, v V) *omap[V] {
	if _, ok := m.vals[key]; !ok {
		m.keys = append(m.keys, key)
	}
	m.vals[key] = v
	return m
}

func (m *omap[V]) get(key string) (V, bool) {
	v, ok := m.vals[key]
	return v, ok
}

func (m *omap[V]) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := marshal(m.vals[k])
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping (descriptions contain & and
// <) and without the encoder's trailing newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
