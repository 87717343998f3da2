package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// cmdAdmin runs the administration subcommands.
func cmdAdmin(ctx context.Context, noun string, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 {
		return usageError{fmt.Sprintf("plumb %s needs a subcommand; run 'plumb help'", noun)}
	}
	verb := args[0]
	var name, role, avatar, provider, branch string
	var apps, components bool
	extra := func(fs *flag.FlagSet) {
		fs.StringVar(&name, "name", "", "name")
		fs.StringVar(&role, "role", plumb.RoleMember, "member or admin")
		fs.StringVar(&avatar, "avatar-url", "", "avatar URL")
		fs.StringVar(&provider, "provider-url", "", "provider URL")
		fs.StringVar(&branch, "default-branch", "main", "default branch")
		fs.BoolVar(&apps, "applications", false, "enable Applications")
		fs.BoolVar(&components, "components", false, "enable Components")
	}
	db, pos, err := openFromFlags(ctx, noun+" "+verb, args[1:], getenv, extra)
	if err != nil {
		return err
	}
	defer db.Close()
	need := func(n int, shape string) error {
		if len(pos) != n {
			return usageError{fmt.Sprintf("usage: plumb %s %s %s", noun, verb, shape)}
		}
		return nil
	}
	onOff := func(s string) (bool, error) {
		switch s {
		case "on":
			return true, nil
		case "off":
			return false, nil
		}
		return false, usageError{fmt.Sprintf("expected on or off, got %q", s)}
	}
	switch noun + " " + verb {
	case "user create":
		if err := need(1, "LOGIN [--name NAME]"); err != nil {
			return err
		}
		u, err := db.CreateUser(ctx, pos[0], name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created user %s (%s)\n", u.Login, u.ID)
	case "token create":
		if err := need(1, "USER --name NAME"); err != nil {
			return err
		}
		t, secret, err := db.CreateToken(ctx, pos[0], name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created token %s (%s); it is shown only now:\n%s\n", t.Name, t.ID, secret)
	case "token list":
		if err := need(1, "USER"); err != nil {
			return err
		}
		tokens, err := db.ListTokens(ctx, pos[0])
		if err != nil {
			return err
		}
		rows := make([]tokenRow, len(tokens))
		for i, t := range tokens {
			rows[i] = tokenRow{ID: t.ID, Name: t.Name, Created: t.CreatedAt, LastUsed: t.LastUsedAt, Revoked: t.RevokedAt}
		}
		return printTokens(stdout, rows)
	case "token revoke":
		if err := need(1, "TOKEN_ID"); err != nil {
			return err
		}
		if err := db.RevokeToken(ctx, pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked token %s\n", pos[0])
	case "workspace create":
		if err := need(1, "KEY [--applications]"); err != nil {
			return err
		}
		w, err := db.CreateWorkspace(ctx, sqlstore.WorkspaceInput{Key: pos[0], AvatarURL: avatar, ProviderURL: provider, ApplicationsEnabled: apps})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created workspace %s (%s), applications %s\n", w.Key, w.ID, onOffText(w.ApplicationsEnabled))
	case "workspace applications":
		if err := need(2, "KEY on|off"); err != nil {
			return err
		}
		on, err := onOff(pos[1])
		if err != nil {
			return err
		}
		if err := db.SetApplicationsEnabled(ctx, pos[0], on); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "applications %s on workspace %s\n", onOffText(on), pos[0])
	case "member add":
		if err := need(2, "WORKSPACE USER [--role member|admin]"); err != nil {
			return err
		}
		if err := db.AddMember(ctx, pos[0], pos[1], role); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is %s of %s\n", pos[1], role, pos[0])
	case "member remove":
		if err := need(2, "WORKSPACE USER"); err != nil {
			return err
		}
		if err := db.RemoveMember(ctx, pos[0], pos[1]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s removed from %s\n", pos[1], pos[0])
	case "project create":
		if err := need(1, "WORKSPACE/KEY [--default-branch main] [--components]"); err != nil {
			return err
		}
		ws, key, ok := strings.Cut(pos[0], "/")
		if !ok {
			return usageError{"name the project as WORKSPACE/KEY"}
		}
		p, err := db.CreateProject(ctx, sqlstore.ProjectInput{Workspace: ws, Key: key, DefaultBranch: branch, ComponentsEnabled: components})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created project %s/%s (%s), default branch %s, components %s\n", ws, p.Key, p.ID, p.DefaultBranch, onOffText(p.ComponentsEnabled))
	case "project components":
		if err := need(2, "WORKSPACE/KEY on|off"); err != nil {
			return err
		}
		on, err := onOff(pos[1])
		if err != nil {
			return err
		}
		if err := db.SetComponentsEnabled(ctx, pos[0], on); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "components %s on project %s\n", onOffText(on), pos[0])
	case "project admin":
		if err := need(2, "WORKSPACE/KEY USER"); err != nil {
			return err
		}
		if err := db.AddProjectAdmin(ctx, pos[0], pos[1]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is admin of %s\n", pos[1], pos[0])
	case "project upload-token":
		// The operator's commands, straight on the database; project
		// admins use "plumb upload-token …" through the API.
		sub := ""
		if len(pos) > 0 {
			sub, pos = pos[0], pos[1:]
		}
		switch sub {
		case "create":
			if len(pos) != 1 || strings.TrimSpace(name) == "" {
				return usageError{"usage: plumb project upload-token create WORKSPACE/PROJECT --name NAME"}
			}
			t, secret, err := db.CreateUploadToken(ctx, pos[0], name, "cli")
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "created upload token %s (%s) for %s; it is shown only now:\n%s\n", t.Name, t.ID, pos[0], secret)
		case "list":
			if len(pos) != 1 {
				return usageError{"usage: plumb project upload-token list WORKSPACE/PROJECT"}
			}
			tokens, err := db.ListUploadTokens(ctx, pos[0])
			if err != nil {
				return err
			}
			rows := make([]tokenRow, len(tokens))
			for i, t := range tokens {
				rows[i] = tokenRow{ID: t.ID, Name: t.Name, CreatedBy: t.CreatedBy, Created: t.CreatedAt, LastUsed: t.LastUsedAt, Revoked: t.RevokedAt}
			}
			return printTokens(stdout, rows)
		case "revoke":
			if len(pos) != 1 {
				return usageError{"usage: plumb project upload-token revoke TOKEN_ID"}
			}
			if err := db.RevokeUploadToken(ctx, pos[0]); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "revoked upload token %s\n", pos[0])
		default:
			return usageError{"usage: plumb project upload-token create|list|revoke …"}
		}
	case "application add-project":
		if err := need(3, "WORKSPACE APPLICATION PROJECT"); err != nil {
			return err
		}
		if err := db.AddApplicationProject(ctx, pos[0], pos[1], pos[2]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "project %s added to application %s\n", pos[2], pos[1])
	default:
		return usageError{fmt.Sprintf("unknown command 'plumb %s %s'; run 'plumb help'", noun, verb)}
	}
	return nil
}

// tokenRow is one line of a token listing (user or upload tokens); secrets
// are never listed. CreatedBy is set for upload tokens only.
type tokenRow struct {
	ID, Name, CreatedBy string
	Created             time.Time
	LastUsed, Revoked   *time.Time
}

// printTokens prints a token listing; upload tokens (whose rows have
// CreatedBy) get a CREATED BY column.
func printTokens(w io.Writer, rows []tokenRow) error {
	withCreator := false
	for _, t := range rows {
		withCreator = withCreator || t.CreatedBy != ""
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if withCreator {
		fmt.Fprintln(tw, "ID\tNAME\tCREATED BY\tCREATED\tLAST USED\tREVOKED")
	} else {
		fmt.Fprintln(tw, "ID\tNAME\tCREATED\tLAST USED\tREVOKED")
	}
	for _, t := range rows {
		creator := ""
		if withCreator {
			creator = t.CreatedBy + "\t"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\t%s\t%s\n", t.ID, t.Name, creator, t.Created.Format("2006-01-02T15:04:05Z"), when(t.LastUsed), when(t.Revoked))
	}
	return tw.Flush()
}

func onOffText(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func when(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}
