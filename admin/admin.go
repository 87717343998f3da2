// Package admin is the operator's actions on the store (users, tokens,
// workspaces, members, projects, applications) and the tables they print:
// what plumb's administration commands do once the CLI has parsed them.
package admin

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/sqlstore"
)

// Admin runs the operator's actions on an open store and writes what they
// did, or the listing asked for, to Out; notes for people (a secret's
// handling) go to Notes, when set.
type Admin struct {
	DB    *sqlstore.DB
	Out   io.Writer
	Notes io.Writer
}

// UsageError is a mistake in how an action was asked for (a malformed
// name, a destructive action without confirmation); nothing was changed.
// The CLI exits with status 2 for it.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// ExitCode is the CLI's exit status for it.
func (UsageError) ExitCode() int { return 2 }

// notConfirmed refuses a destructive action without --yes, saying what it
// would remove.
func notConfirmed(what string) error {
	return UsageError{what + "; nothing was deleted: pass --yes to delete"}
}

// UserCreate does what plumb user create does, printing the outcome to Out.
func (a *Admin) UserCreate(ctx context.Context, login string, p plumb.UserProfile) error {
	u := plumb.User{Login: login}
	for dst, src := range map[*string]*string{&u.Name: p.Name, &u.Email: p.Email, &u.AvatarURL: p.AvatarURL, &u.ProviderURL: p.ProviderURL} {
		if src != nil {
			*dst = *src
		}
	}
	u, err := a.DB.CreateUserWith(ctx, u)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "created user %s (%s)\n", u.Login, u.ID)
	return nil
}

// UserUpdate changes the profile fields given (plumb user update).
func (a *Admin) UserUpdate(ctx context.Context, login string, p plumb.UserProfile) error {
	if p == (plumb.UserProfile{}) {
		return UsageError{"plumb user update needs at least one of --name, --email, --avatar-url, --provider-url"}
	}
	u, err := a.DB.UpdateUser(ctx, login, p)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "updated user %s (%s): name %q, email %q, avatar URL %q, provider URL %q\n",
		u.Login, u.ID, u.Name, u.Email, u.AvatarURL, u.ProviderURL)
	return nil
}

// TokenCreate does what plumb token create does, printing the outcome to Out.
func (a *Admin) TokenCreate(ctx context.Context, user, name string) error {
	t, secret, err := a.DB.CreateToken(ctx, user, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "created token %s (%s); it is shown only now:\n%s\n", t.Name, t.ID, secret)
	return nil
}

// TokenList does what plumb token list does, printing the outcome to Out.
func (a *Admin) TokenList(ctx context.Context, user string) error {
	tokens, err := a.DB.ListTokens(ctx, user)
	if err != nil {
		return err
	}
	rows := make([]TokenRow, len(tokens))
	for i, t := range tokens {
		rows[i] = TokenRow{ID: t.ID, Name: t.Name, Created: t.CreatedAt, LastUsed: t.LastUsedAt, Revoked: t.RevokedAt}
	}
	return PrintTokens(a.Out, rows)
}

// TokenRevoke does what plumb token revoke does, printing the outcome to Out.
func (a *Admin) TokenRevoke(ctx context.Context, id string) error {
	if err := a.DB.RevokeToken(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "revoked token %s\n", id)
	return nil
}

// WorkspaceCreate does what plumb workspace create does, printing the outcome to Out.
func (a *Admin) WorkspaceCreate(ctx context.Context, in plumb.WorkspaceInput) error {
	w, err := a.DB.CreateWorkspace(ctx, in)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "created workspace %s (%s), applications %s\n", w.Key, w.ID, onOffText(w.ApplicationsEnabled))
	return nil
}

// WorkspaceApplications does what plumb workspace applications does, printing the outcome to Out.
func (a *Admin) WorkspaceApplications(ctx context.Context, key string, on bool) error {
	if err := a.DB.SetApplicationsEnabled(ctx, key, on); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "applications %s on workspace %s\n", onOffText(on), key)
	return nil
}

// MemberAdd does what plumb member add does, printing the outcome to Out.
func (a *Admin) MemberAdd(ctx context.Context, workspace, user, role string) error {
	if err := a.DB.AddMember(ctx, workspace, user, role); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "%s is %s of %s\n", user, role, workspace)
	return nil
}

// MemberRemove does what plumb member remove does, printing the outcome to Out.
func (a *Admin) MemberRemove(ctx context.Context, workspace, user string) error {
	if err := a.DB.RemoveMember(ctx, workspace, user); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "%s removed from %s\n", user, workspace)
	return nil
}

// ProjectCreate does what plumb project create does, printing the outcome to Out.
func (a *Admin) ProjectCreate(ctx context.Context, ref, branch string, components bool) error {
	ws, key, ok := strings.Cut(ref, "/")
	if !ok {
		return UsageError{"name the project as WORKSPACE/KEY"}
	}
	p, err := a.DB.CreateProject(ctx, plumb.ProjectInput{Workspace: ws, Key: key, DefaultBranch: branch, ComponentsEnabled: components})
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "created project %s/%s (%s), default branch %s, components %s\n", ws, p.Key, p.ID, p.DefaultBranch, onOffText(p.ComponentsEnabled))
	return nil
}

// ProjectComponents does what plumb project components does, printing the outcome to Out.
func (a *Admin) ProjectComponents(ctx context.Context, ref string, on bool) error {
	if err := a.DB.SetComponentsEnabled(ctx, ref, on); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "components %s on project %s\n", onOffText(on), ref)
	return nil
}

// ProjectSources does what plumb project sources does, printing the outcome to Out.
func (a *Admin) ProjectSources(ctx context.Context, ref string, on bool) error {
	ws, key, _ := strings.Cut(ref, "/")
	p, err := a.DB.FindProjectByKeys(ctx, ws, key)
	if err != nil {
		return err
	}
	deleted, err := a.DB.SetSourcesDisabled(ctx, p.ID, !on)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "sources %s on project %s", onOffText(on), ref)
	if deleted.Blobs > 0 || deleted.Commits > 0 {
		fmt.Fprintf(a.Out, " (deleted the sources of %d commits, %d contents)", deleted.Commits, deleted.Blobs)
	}
	fmt.Fprintln(a.Out)
	return nil
}

// ProjectAdmin does what plumb project admin does, printing the outcome to Out.
func (a *Admin) ProjectAdmin(ctx context.Context, ref, user string) error {
	if err := a.DB.AddProjectAdmin(ctx, ref, user); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "%s is admin of %s\n", user, ref)
	return nil
}

// The operator's upload-token commands; project admins use "plumb
// upload-token …" through the API (uploadtoken.go).

// ProjectUploadTokenCreate does what plumb project upload-token create does, printing the outcome to Out.
func (a *Admin) ProjectUploadTokenCreate(ctx context.Context, ref, name string) error {
	if strings.TrimSpace(name) == "" {
		return UsageError{"usage: plumb project upload-token create WORKSPACE/PROJECT --name NAME"}
	}
	t, secret, err := a.DB.CreateUploadToken(ctx, ref, name, "cli")
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "created upload token %s (%s) for %s; it is shown only now:\n%s\n", t.Name, t.ID, ref, secret)
	return nil
}

// ProjectUploadTokenList does what plumb project upload-token list does, printing the outcome to Out.
func (a *Admin) ProjectUploadTokenList(ctx context.Context, ref string) error {
	tokens, err := a.DB.ListUploadTokens(ctx, ref)
	if err != nil {
		return err
	}
	rows := make([]TokenRow, len(tokens))
	for i, t := range tokens {
		rows[i] = TokenRow{ID: t.ID, Name: t.Name, CreatedBy: t.CreatedBy, Created: t.CreatedAt, LastUsed: t.LastUsedAt, Revoked: t.RevokedAt}
	}
	return PrintTokens(a.Out, rows)
}

// ProjectUploadTokenRevoke does what plumb project upload-token revoke does, printing the outcome to Out.
func (a *Admin) ProjectUploadTokenRevoke(ctx context.Context, id string) error {
	if err := a.DB.RevokeUploadToken(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "revoked upload token %s\n", id)
	return nil
}

// ApplicationAddProject does what plumb application add-project does, printing the outcome to Out.
func (a *Admin) ApplicationAddProject(ctx context.Context, workspace, application, project string) error {
	if err := a.DB.AddApplicationProject(ctx, workspace, application, project); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "project %s added to application %s\n", project, application)
	return nil
}

// ---- the operator's listings and removals ----

// UserList does what plumb user list does, printing the outcome to Out.
func (a *Admin) UserList(ctx context.Context) error {
	users, err := a.DB.ListUsers(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(a.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LOGIN\tNAME\tEMAIL\tTOKENS\tWORKSPACES\tCREATED\tDISABLED\tID")
	for _, u := range users {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", u.Login, dash(u.Name), dash(u.Email), u.Tokens, u.Workspaces, when(&u.CreatedAt), when(u.DisabledAt), u.ID)
	}
	return tw.Flush()
}

// UserDisable does what plumb user disable (or, with disable false, plumb user enable) does, printing the outcome to Out.
func (a *Admin) UserDisable(ctx context.Context, login string, disable bool) error {
	u, err := a.DB.SetUserDisabled(ctx, login, disable)
	if err != nil {
		return err
	}
	if disable {
		fmt.Fprintf(a.Out, "disabled user %s (%s): their API tokens and web sessions are refused until 'plumb user enable %s'\n", u.Login, u.ID, u.Login)
	} else {
		fmt.Fprintf(a.Out, "enabled user %s (%s)\n", u.Login, u.ID)
	}
	return nil
}

// UserDelete does what plumb user delete does, printing the outcome to Out.
func (a *Admin) UserDelete(ctx context.Context, login string, yes bool) error {
	d, err := a.DB.DeleteUser(ctx, login, !yes)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("user %s (%s) with %d token(s), %d membership(s), %d project admin role(s), %d session(s)", d.User.Login, d.User.ID, d.Tokens, d.Memberships, d.Admins, d.Sessions)
	if !yes {
		return notConfirmed("this deletes " + what)
	}
	fmt.Fprintf(a.Out, "deleted %s\n", what)
	return nil
}

// WorkspaceList does what plumb workspace list does, printing the outcome to Out.
func (a *Admin) WorkspaceList(ctx context.Context) error {
	rows, err := a.DB.ListWorkspaces(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(a.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tMEMBERS\tPROJECTS\tAPPLICATIONS\tCREATED\tID")
	for _, w := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\n", w.Key, w.Members, w.Projects, onOffText(w.ApplicationsEnabled), when(&w.CreatedAt), w.ID)
	}
	return tw.Flush()
}

// WorkspaceDelete does what plumb workspace delete does, printing the outcome to Out.
func (a *Admin) WorkspaceDelete(ctx context.Context, key string, yes bool) error {
	w, d, err := a.DB.DeleteWorkspace(ctx, key, !yes)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("workspace %s (%s), its members and applications, and %s", w.Key, w.ID, d)
	if !yes {
		return notConfirmed("this deletes " + what)
	}
	fmt.Fprintf(a.Out, "deleted %s\n", what)
	return nil
}

// MemberList does what plumb member list does, printing the outcome to Out.
func (a *Admin) MemberList(ctx context.Context, workspace string) error {
	rows, err := a.DB.ListMembers(ctx, workspace)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(a.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LOGIN\tNAME\tROLE\tID")
	for _, m := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Login, dash(m.Name), m.Role, m.ID)
	}
	return tw.Flush()
}

// ProjectList does what plumb project list does, printing the outcome to Out.
func (a *Admin) ProjectList(ctx context.Context, workspace string) error {
	rows, err := a.DB.ListProjects(ctx, workspace)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(a.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECT\tDEFAULT BRANCH\tCOMPONENTS\tSNAPSHOTS\tBUILDS\tCREATED\tID")
	for _, p := range rows {
		fmt.Fprintf(tw, "%s/%s\t%s\t%s\t%d\t%d\t%s\t%s\n", p.Workspace, p.Key, p.DefaultBranch, onOffText(p.ComponentsEnabled), p.Snapshots, p.Builds, when(&p.CreatedAt), p.ID)
	}
	return tw.Flush()
}

// ProjectDelete does what plumb project delete does, printing the outcome to Out.
func (a *Admin) ProjectDelete(ctx context.Context, ref string, yes bool) error {
	d, err := a.DB.DeleteProject(ctx, ref, !yes)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("project %s: %s", ref, d)
	if !yes {
		return notConfirmed("this deletes " + what)
	}
	fmt.Fprintf(a.Out, "deleted %s\n", what)
	return nil
}

// ProjectRename does what plumb project rename does, printing the outcome to Out.
func (a *Admin) ProjectRename(ctx context.Context, ref, newKey string) error {
	p, err := a.DB.RenameProject(ctx, ref, newKey)
	if err != nil {
		return err
	}
	ws, _, _ := strings.Cut(ref, "/")
	fmt.Fprintf(a.Out, "renamed project %s to %s/%s (%s); its data stays, URLs with the old key answer 404\n", ref, ws, p.Key, p.ID)
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// TokenRow is one line of a token listing (user or upload tokens); secrets
// are never listed. CreatedBy is set for upload tokens only.
type TokenRow struct {
	ID, Name, CreatedBy string
	Created             time.Time
	LastUsed, Revoked   *time.Time
}

// UploadTokenRows are upload tokens as the API answers them
// (GET …/upload-tokens), as rows of a token listing; a time that is not
// RFC 3339 is an error.
func UploadTokenRows(tokens []apiv1.UploadToken) ([]TokenRow, error) {
	rows := make([]TokenRow, 0, len(tokens))
	for _, t := range tokens {
		parse := func(field, s string) (time.Time, error) {
			v, err := time.Parse(time.RFC3339, s)
			if err != nil {
				return v, fmt.Errorf("token %s: %s %q is not an RFC 3339 time", t.ID, field, s)
			}
			return v, nil
		}
		r := TokenRow{ID: t.ID, Name: t.Name, CreatedBy: dash(t.CreatedBy)}
		var err error
		if r.Created, err = parse("createdAt", t.CreatedAt); err != nil {
			return nil, err
		}
		for _, f := range []struct {
			name string
			in   *string
			out  **time.Time
		}{{"lastUsedAt", t.LastUsedAt, &r.LastUsed}, {"revokedAt", t.RevokedAt, &r.Revoked}} {
			if f.in != nil {
				v, err := parse(f.name, *f.in)
				if err != nil {
					return nil, err
				}
				*f.out = &v
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// PrintTokens prints a token listing; upload tokens (whose rows have
// CreatedBy) get a CREATED BY column.
func PrintTokens(w io.Writer, rows []TokenRow) error {
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
		fmt.Fprintf(tw, "%s\t%s\t%s%s\t%s\t%s\n", t.ID, t.Name, creator, when(&t.Created), when(t.LastUsed), when(t.Revoked))
	}
	return tw.Flush()
}

func onOffText(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// when prints a time in UTC, "-" for none.
func when(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}
