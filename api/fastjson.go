package api

import (
	"encoding/json"
	"strconv"
)

// jsonAppender is implemented by row types that encode themselves without
// reflection, byte for byte as encoding/json would, for fast exports.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

// appendJSONString appends s as encoding/json writes it (HTML-safe escaping
// included), taking a fast path for plain printable ASCII.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func (v issueView) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, v.ID)
	b = append(b, `,"fingerprint":`...)
	b = appendJSONString(b, v.Fingerprint)
	b = append(b, `,"tool":`...)
	b = appendJSONString(b, v.Tool)
	b = append(b, `,"ruleKey":`...)
	b = appendJSONString(b, v.RuleKey)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, v.Message)
	b = append(b, `,"category":`...)
	b = appendJSONString(b, v.Category)
	b = append(b, `,"level":`...)
	b = appendJSONString(b, v.Level)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, v.Status)
	if v.DocumentationURL != "" {
		b = append(b, `,"documentationUrl":`...)
		b = appendJSONString(b, v.DocumentationURL)
	}
	b = append(b, `,"location":{"path":`...)
	b = appendJSONString(b, v.Location.Path)
	if v.Location.StartLine != nil {
		b = append(b, `,"startLine":`...)
		b = strconv.AppendInt(b, int64(*v.Location.StartLine), 10)
	}
	if v.Location.EndLine != nil {
		b = append(b, `,"endLine":`...)
		b = strconv.AppendInt(b, int64(*v.Location.EndLine), 10)
	}
	return append(b, "}}"...)
}
