package api

import (
	"net/http"

	"github.com/plumbhq/plumb"
)

func todo() error { return plumb.Errorf(plumb.ENOTFOUND, "not yet") }

func (s *Server) handleFileMetrics(w http.ResponseWriter, r *http.Request, c *call) error {
	return todo()
}
func (s *Server) handleFileCoverage(w http.ResponseWriter, r *http.Request, c *call) error {
	return todo()
}
func (s *Server) handleListComponents(w http.ResponseWriter, r *http.Request, c *call) error {
	return todo()
}
func (s *Server) handleCreateComponent(w http.ResponseWriter, r *http.Request, c *call) error {
	return todo()
}
func (s *Server) handleReplaceComponent(w http.ResponseWriter, r *http.Request, c *call) error {
	return todo()
}
func (s *Server) handleDeleteComponent(w http.ResponseWriter, r *http.Request, c *call) error {
	return todo()
}
func (s *Server) handleComponentMetrics(w http.ResponseWriter, r *http.Request, c *call) error {
	return todo()
}
func (s *Server) handleComponentSeries(w http.ResponseWriter, r *http.Request, c *call) error {
	return todo()
}
