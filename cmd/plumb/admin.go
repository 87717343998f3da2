package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// The administration commands, straight on the database. Each takes the
// open database and its arguments; cli.go parses the command line.

func userCreate(ctx context.Context, db *sqlstore.DB, login string, p plumb.UserProfile, stdout io.Writer) error {
	u := plumb.User{Login: login}
	for dst, src := range map[*string]*string{&u.Name: p.Name, &u.Email: p.Email, &u.AvatarURL: p.AvatarURL, &u.ProviderURL: p.ProviderURL} {
		if src != nil {
			*dst = *src
		}
	}
	u, err := db.CreateUserWith(ctx, u)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created user %s (%s)\n", u.Login, u.ID)
	return nil
}

func tokenCreate(ctx context.Context, db *sqlstore.DB, user, name string, stdout io.Writer) error {
	t, secret, err := db.CreateToken(ctx, user, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created token %s (%s); it is shown only now:\n%s\n", t.Name, t.ID, secret)
	return nil
}

func tokenList(ctx context.Context, db *sqlstore.DB, user string, stdout io.Writer) error {
	tokens, err := db.ListTokens(ctx, user)
	if err != nil {
		return err
	}
	rows := make([]tokenRow, len(tokens))
	for i, t := range tokens {
		rows[i] = tokenRow{ID: t.ID, Name: t.Name, Created: t.CreatedAt, LastUsed: t.LastUsedAt, Revoked: t.RevokedAt}
	}
	return printTokens(stdout, rows)
}

func tokenRevoke(ctx context.Context, db *sqlstore.DB, id string, stdout io.Writer) error {
	if err := db.RevokeToken(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "revoked token %s\n", id)
	return nil
}

func workspaceCreate(ctx context.Context, db *sqlstore.DB, in plumb.WorkspaceInput, stdout io.Writer) error {
	w, err := db.CreateWorkspace(ctx, in)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created workspace %s (%s), applications %s\n", w.Key, w.ID, onOffText(w.ApplicationsEnabled))
	return nil
}

func workspaceApplications(ctx context.Context, db *sqlstore.DB, key string, on bool, stdout io.Writer) error {
	if err := db.SetApplicationsEnabled(ctx, key, on); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "applications %s on workspace %s\n", onOffText(on), key)
	return nil
}

func memberAdd(ctx context.Context, db *sqlstore.DB, workspace, user, role string, stdout io.Writer) error {
	if err := db.AddMember(ctx, workspace, user, role); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s is %s of %s\n", user, role, workspace)
	return nil
}

func memberRemove(ctx context.Context, db *sqlstore.DB, workspace, user string, stdout io.Writer) error {
	if err := db.RemoveMember(ctx, workspace, user); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s removed from %s\n", user, workspace)
	return nil
}

func projectCreate(ctx context.Context, db *sqlstore.DB, ref, branch string, components bool, stdout io.Writer) error {
	ws, key, ok := strings.Cut(ref, "/")
	if !ok {
		return usageError{"name the project as WORKSPACE/KEY"}
	}
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: ws, Key: key, DefaultBranch: branch, ComponentsEnabled: components})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created project %s/%s (%s), default branch %s, components %s\n", ws, p.Key, p.ID, p.DefaultBranch, onOffText(p.ComponentsEnabled))
	return nil
}

func projectComponents(ctx context.Context, db *sqlstore.DB, ref string, on bool, stdout io.Writer) error {
	if err := db.SetComponentsEnabled(ctx, ref, on); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "components %s on project %s\n", onOffText(on), ref)
	return nil
}

func projectSources(ctx context.Context, db *sqlstore.DB, ref string, on bool, stdout io.Writer) error {
	ws, key, _ := strings.Cut(ref, "/")
	p, err := db.FindProjectByKeys(ctx, ws, key)
	if err != nil {
		return err
	}
	deleted, err := db.SetSourcesDisabled(ctx, p.ID, !on)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "sources %s on project %s", onOffText(on), ref)
	if deleted.Blobs > 0 || deleted.Commits > 0 {
		fmt.Fprintf(stdout, " (deleted the sources of %d commits, %d contents)", deleted.Commits, deleted.Blobs)
	}
	fmt.Fprintln(stdout)
	return nil
}

func projectAdmin(ctx context.Context, db *sqlstore.DB, ref, user string, stdout io.Writer) error {
	if err := db.AddProjectAdmin(ctx, ref, user); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s is admin of %s\n", user, ref)
	return nil
}

// The operator's upload-token commands; project admins use "plumb
// upload-token …" through the API (uploadtoken.go).

func projectUploadTokenCreate(ctx context.Context, db *sqlstore.DB, ref, name string, stdout io.Writer) error {
	if strings.TrimSpace(name) == "" {
		return usageError{"usage: plumb project upload-token create WORKSPACE/PROJECT --name NAME"}
	}
	t, secret, err := db.CreateUploadToken(ctx, ref, name, "cli")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created upload token %s (%s) for %s; it is shown only now:\n%s\n", t.Name, t.ID, ref, secret)
	return nil
}

func projectUploadTokenList(ctx context.Context, db *sqlstore.DB, ref string, stdout io.Writer) error {
	tokens, err := db.ListUploadTokens(ctx, ref)
	if err != nil {
		return err
	}
	rows := make([]tokenRow, len(tokens))
	for i, t := range tokens {
		rows[i] = tokenRow{ID: t.ID, Name: t.Name, CreatedBy: t.CreatedBy, Created: t.CreatedAt, LastUsed: t.LastUsedAt, Revoked: t.RevokedAt}
	}
	return printTokens(stdout, rows)
}

func projectUploadTokenRevoke(ctx context.Context, db *sqlstore.DB, id string, stdout io.Writer) error {
	if err := db.RevokeUploadToken(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "revoked upload token %s\n", id)
	return nil
}

func applicationAddProject(ctx context.Context, db *sqlstore.DB, workspace, application, project string, stdout io.Writer) error {
	if err := db.AddApplicationProject(ctx, workspace, application, project); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "project %s added to application %s\n", project, application)
	return nil
}

// ---- the operator's listings and removals ----

func userList(ctx context.Context, db *sqlstore.DB, stdout io.Writer) error {
	users, err := db.ListUsers(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LOGIN\tNAME\tEMAIL\tTOKENS\tWORKSPACES\tCREATED\tDISABLED\tID")
	for _, u := range users {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", u.Login, dash(u.Name), dash(u.Email), u.Tokens, u.Workspaces, when(&u.CreatedAt), when(u.DisabledAt), u.ID)
	}
	return tw.Flush()
}

func userDisable(ctx context.Context, db *sqlstore.DB, login string, disable bool, stdout io.Writer) error {
	u, err := db.SetUserDisabled(ctx, login, disable)
	if err != nil {
		return err
	}
	if disable {
		fmt.Fprintf(stdout, "disabled user %s (%s): their API tokens and web sessions are refused until 'plumb user enable %s'\n", u.Login, u.ID, u.Login)
	} else {
		fmt.Fprintf(stdout, "enabled user %s (%s)\n", u.Login, u.ID)
	}
	return nil
}

// confirmError refuses a destructive command without --yes, saying what it
// would remove.
func confirmError(what string) error {
	return usageError{what + "; nothing was deleted: pass --yes to delete"}
}

func userDelete(ctx context.Context, db *sqlstore.DB, login string, yes bool, stdout io.Writer) error {
	d, err := db.DeleteUser(ctx, login, !yes)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("user %s (%s) with %d token(s), %d membership(s), %d project admin role(s), %d session(s)", d.User.Login, d.User.ID, d.Tokens, d.Memberships, d.Admins, d.Sessions)
	if !yes {
		return confirmError("this deletes " + what)
	}
	fmt.Fprintf(stdout, "deleted %s\n", what)
	return nil
}

func workspaceList(ctx context.Context, db *sqlstore.DB, stdout io.Writer) error {
	rows, err := db.ListWorkspaces(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tMEMBERS\tPROJECTS\tAPPLICATIONS\tCREATED\tID")
	for _, w := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\n", w.Key, w.Members, w.Projects, onOffText(w.ApplicationsEnabled), when(&w.CreatedAt), w.ID)
	}
	return tw.Flush()
}

func workspaceDelete(ctx context.Context, db *sqlstore.DB, key string, yes bool, stdout io.Writer) error {
	w, d, err := db.DeleteWorkspace(ctx, key, !yes)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("workspace %s (%s), its members and applications, and %s", w.Key, w.ID, d)
	if !yes {
		return confirmError("this deletes " + what)
	}
	fmt.Fprintf(stdout, "deleted %s\n", what)
	return nil
}

func memberList(ctx context.Context, db *sqlstore.DB, workspace string, stdout io.Writer) error {
	rows, err := db.ListMembers(ctx, workspace)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LOGIN\tNAME\tROLE\tID")
	for _, m := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Login, dash(m.Name), m.Role, m.ID)
	}
	return tw.Flush()
}

func projectList(ctx context.Context, db *sqlstore.DB, workspace string, stdout io.Writer) error {
	rows, err := db.ListProjects(ctx, workspace)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECT\tDEFAULT BRANCH\tCOMPONENTS\tSNAPSHOTS\tBUILDS\tCREATED\tID")
	for _, p := range rows {
		fmt.Fprintf(tw, "%s/%s\t%s\t%s\t%d\t%d\t%s\t%s\n", p.Workspace, p.Key, p.DefaultBranch, onOffText(p.ComponentsEnabled), p.Snapshots, p.Builds, when(&p.CreatedAt), p.ID)
	}
	return tw.Flush()
}

func projectDelete(ctx context.Context, db *sqlstore.DB, ref string, yes bool, stdout io.Writer) error {
	d, err := db.DeleteProject(ctx, ref, !yes)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("project %s: %s", ref, d)
	if !yes {
		return confirmError("this deletes " + what)
	}
	fmt.Fprintf(stdout, "deleted %s\n", what)
	return nil
}

func projectRename(ctx context.Context, db *sqlstore.DB, ref, newKey string, stdout io.Writer) error {
	p, err := db.RenameProject(ctx, ref, newKey)
	if err != nil {
		return err
	}
	ws, _, _ := strings.Cut(ref, "/")
	fmt.Fprintf(stdout, "renamed project %s to %s/%s (%s); its data stays, URLs with the old key answer 404\n", ref, ws, p.Key, p.ID)
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
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
