package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/plumbhq/plumb/admin"
)

// manageUploadTokens runs "plumb upload-token create|list|revoke": a project
// admin manages the project's upload tokens through the server's API, with
// the connection flags of the upload commands. (The operator, with the
// database at hand, has "plumb project upload-token …" in admin.go.) name is
// the new token's name (create), id the token to revoke (revoke).
func manageUploadTokens(ctx context.Context, e *runEnv, o *connFlags, verb, name, id string) error {
	getenv, stdout, stderr := e.getenv, e.stdout, e.stderr
	if verb == "create" && strings.TrimSpace(name) == "" || verb == "revoke" && strings.TrimSpace(id) == "" {
		return usageError{fmt.Sprintf("plumb upload-token %s: the name or token id is empty", verb)}
	}
	cl, err := o.client(getenv, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := o.withTimeout(ctx)
	defer cancel()
	switch verb {
	case "create":
		// The client does not repeat a create that may have reached the
		// server (it would make a second token).
		t, err := cl.CreateUploadToken(ctx, name)
		if err != nil {
			return callError(err)
		}
		if t.Token == "" {
			return &exitError{exitGaveUp, "the new upload token: the server's answer has no token"}
		}
		fmt.Fprintf(stderr, "created upload token %s (%s) for %s; the secret below is shown only now:\n", t.Name, t.ID, o.Project)
		fmt.Fprintln(stdout, t.Token)
		return nil
	case "list":
		tokens, err := cl.UploadTokens(ctx)
		if err != nil {
			return callError(err)
		}
		rows, err := admin.UploadTokenRows(tokens)
		if err != nil {
			return &exitError{exitGaveUp, "the upload tokens: " + err.Error()}
		}
		return admin.PrintTokens(stdout, rows)
	default: // revoke
		id := strings.TrimSpace(id)
		if err := cl.RevokeUploadToken(ctx, id); err != nil {
			return callError(err)
		}
		fmt.Fprintf(stdout, "revoked upload token %s\n", id)
		return nil
	}
}
