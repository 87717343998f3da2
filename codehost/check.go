package codehost

import (
	"context"
	"fmt"
	"net/http"
)

// CheckConnection asks the host for the target's repository with its token
// (GitHub: GET /repos/{owner}/{repo}; GitLab: GET /api/v4/projects/:id) and
// returns the repository's full name as the host answers it; an error
// carries the host's answer (an *HTTPError for a non-2xx one).
func (c *Client) CheckConnection(ctx context.Context, t Target) (string, error) {
	switch t.Kind {
	case GitHub:
		var out struct {
			FullName string `json:"full_name"`
		}
		err := c.call(ctx, t, http.MethodGet, c.base(t)+"/repos/"+t.Repository, nil, &out)
		return out.FullName, err
	case GitLab:
		var out struct {
			PathWithNamespace string `json:"path_with_namespace"`
		}
		err := c.call(ctx, t, http.MethodGet, c.gitlabProject(t), nil, &out)
		return out.PathWithNamespace, err
	}
	return "", fmt.Errorf("unknown code host kind %q", t.Kind)
}
