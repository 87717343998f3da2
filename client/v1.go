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
