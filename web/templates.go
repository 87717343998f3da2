package web

import (
	"fmt"
	"html/template"
	"io/fs"
	"strings"
	"time"
)

var funcs = template.FuncMap{
	// when writes a time as a UTC date and time people read.
	"when": func(t any) string {
		switch x := t.(type) {
		case time.Time:
			if x.IsZero() {
				return "–"
			}
			return x.UTC().Format("2006-01-02 15:04 UTC")
		case *time.Time:
			if x == nil {
				return "–"
			}
			return x.UTC().Format("2006-01-02 15:04 UTC")
		}
		return "–"
	},
	// iso writes a time for a <time datetime> attribute.
	"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"short": shortID,
	"deref": func(p any) string {
		switch x := p.(type) {
		case *int:
			if x != nil {
				return fmt.Sprint(*x)
			}
		case *int64:
			if x != nil {
				return fmt.Sprint(*x)
			}
		case *string:
			if x != nil {
				return *x
			}
		}
		return ""
	},
	"join":  strings.Join,
	"add":   func(a, b int) int { return a + b },
	"lower": strings.ToLower,
	"sha": func(s string) string {
		if len(s) > 10 {
			return s[:10]
		}
		return s
	},
	"seconds": func(p *int64) string {
		if p == nil {
			return "–"
		}
		return (time.Duration(*p) * time.Second).String()
	},
}

// parseTemplates builds one template set per page: the layout, the page and
// its parts (templates/PAGE_*.html).
func (s *Server) parseTemplates() error {
	names, err := fs.Glob(assets, "templates/*.html")
	if err != nil {
		return err
	}
	s.pages = map[string]*template.Template{}
	for _, n := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if base == "layout" || strings.Contains(base, "_") {
			continue // the layout, and a page's parts (PAGE_PART.html)
		}
		files := []string{"templates/layout.html", n}
		parts, _ := fs.Glob(assets, "templates/"+base+"_*.html")
		t, err := template.New(base).Funcs(funcs).ParseFS(assets, append(files, parts...)...)
		if err != nil {
			return fmt.Errorf("web: template %s: %w", base, err)
		}
		s.pages[base] = t
	}
	return nil
}
