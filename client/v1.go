package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/plumbhq/plumb/api/apiv1"
)

// The v1 endpoints a user's API token reads.

// User returns the token's user (GET /user).
func (c *Client) User(ctx context.Context) (apiv1.User, error) {
	var u apiv1.User
	err := c.do(ctx, &request{method: http.MethodGet, op: "the token's user", path: "/user", retrySafe: true}, &u)
	return u, err
}

// Workspaces returns every workspace the token's user can see (GET
// /workspaces, all pages).
func (c *Client) Workspaces(ctx context.Context) ([]apiv1.Workspace, error) {
	return listAll[apiv1.Workspace](ctx, c, "the workspaces", "/workspaces")
}

// Projects returns every project of the workspace the token's user can see
// (GET /gh/{owner}/projects, all pages).
func (c *Client) Projects(ctx context.Context, workspace string) ([]apiv1.Project, error) {
	return listAll[apiv1.Project](ctx, c, "the projects of workspace "+workspace, "/gh/"+url.PathEscape(workspace)+"/projects")
}

// listAll reads every page of a list, 100 elements a request.
// WithTimeout bounds the whole list, not each page.
func listAll[T any](ctx context.Context, c *Client, op, path string) ([]T, error) {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	all := []T{}
	for offset := 0; ; {
		var page struct {
			Data []T `json:"data"`
			Meta struct {
				HasMore bool `json:"hasMore"`
			} `json:"meta"`
		}
		q := url.Values{"page[limit]": {"100"}, "page[offset]": {strconv.Itoa(offset)}}
		if err := c.do(ctx, &request{method: http.MethodGet, op: op, path: path, query: q, retrySafe: true}, &page); err != nil {
			return nil, err
		}
		all = append(all, page.Data...)
		if !page.Meta.HasMore || len(page.Data) == 0 {
			return all, nil
		}
		offset += len(page.Data)
	}
}

// FileSource returns the kept text of a file at the commit ref resolves to
// (a branch, refs/heads/…, refs/tags/…, refs/pull/N or a SHA or prefix):
// GET …/files/source, Plumb's extension (docs/sources.md). A file without
// a kept source is a *Error with status 404 whose detail says why. A kept
// text is at most 16 MiB (the largest per-file cap a server may set).
func (c *Client) FileSource(ctx context.Context, workspace, project, ref, path string) ([]byte, error) {
	q := url.Values{}
	q.Set("reference", ref)
	q.Set("path", path)
	var body []byte
	err := c.do(ctx, &request{method: http.MethodGet, op: "the source of " + path, retrySafe: true,
		path:  "/gh/" + url.PathEscape(workspace) + "/projects/" + url.PathEscape(project) + "/files/source",
		query: q, accept: "text/plain", maxBody: 16<<20 + 1}, &body)
	return body, err
}

// ProjectInfo returns one project (GET /gh/{workspace}/projects/{project}).
func (c *Client) ProjectInfo(ctx context.Context, workspace, project string) (apiv1.Project, error) {
	var p apiv1.Project
	err := c.do(ctx, &request{method: http.MethodGet, op: "project " + workspace + "/" + project, retrySafe: true,
		path: "/gh/" + url.PathEscape(workspace) + "/projects/" + url.PathEscape(project)}, &p)
	return p, err
}
