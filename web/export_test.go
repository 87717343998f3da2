package web

import "net/http"

// Patterns lists the web's route patterns ("GET /w/{ws}", …) in the order
// they were registered.
func (s *Server) Patterns() []string { return append([]string(nil), s.mux.patterns...) }

// Pattern is the route pattern that serves r ("" for a request the web
// leaves to the API).
func (s *Server) Pattern(r *http.Request) string {
	_, p := s.mux.Handler(r)
	return p
}
