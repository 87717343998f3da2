package main

// The command line: one kong struct per command, its flags and arguments as
// fields, and its Run method here when it is one call (the others' are in
// the command's file: upload.go, analyze.go, …). A command's detailed help
// and examples ("plumb COMMAND --help") are its block in help.tmpl.

import (
	"cmp"
	_ "embed"
	"fmt"
	"strings"
	"text/template"

	"github.com/alecthomas/kong"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/admin"
	"github.com/plumbhq/plumb/server"
	"github.com/plumbhq/plumb/sqlstore"
)

// cli is the root of the command line.
type cli struct {
	Version versionFlag `name:"version" help:"Print the version and exit."`

	Serve   serveCmd   `cmd:"" group:"Server" help:"Run the API server."`
	Demo    demoCmd    `cmd:"" group:"Server" help:"Load a demo dataset into a fresh database and serve it."`
	Migrate migrateCmd `cmd:"" group:"Server" help:"Apply database migrations and exit."`
	Export  exportCmd  `cmd:"" group:"Server" help:"Write the whole dataset as JSON (stdout by default)."`
	Import  importCmd  `cmd:"" group:"Server" help:"Load a dataset into an empty database ('-' reads stdin)."`

	User        userCmd        `cmd:"" group:"Administration (on the database)" help:"Create, list, disable and delete users; set their passwords."`
	Token       tokenCmd       `cmd:"" group:"Administration (on the database)" help:"Create, list and revoke users' API tokens."`
	Workspace   workspaceCmd   `cmd:"" group:"Administration (on the database)" help:"Create, list and delete workspaces; turn Applications on or off."`
	Member      memberCmd      `cmd:"" group:"Administration (on the database)" help:"Add, remove and list workspace members."`
	Project     projectCmd     `cmd:"" group:"Administration (on the database)" help:"Create, list, rename and delete projects; set their admins, components and upload tokens."`
	Application applicationCmd `cmd:"" group:"Administration (on the database)" help:"Add projects to applications."`

	Analyze     analyzeCmd     `cmd:"" group:"CI (to a running server)" help:"Measure a checkout (lines, complexity, duplication, issues) and upload it as an analysis."`
	Upload      uploadCmd      `cmd:"" group:"CI (to a running server)" help:"Upload coverage, SARIF or an analysis for a commit."`
	Build       buildCmd       `cmd:"" group:"CI (to a running server)" help:"Start a build and report its status."`
	Gate        gateCmd        `cmd:"" group:"CI (to a running server)" help:"Evaluate the quality gate for the current commit: exit 0 passed, 1 failed."`
	UploadToken uploadTokenCmd `cmd:"" name:"upload-token" group:"CI (to a running server)" help:"A project admin's upload tokens for CI, through the API."`

	Whoami   whoamiCmd   `cmd:"" group:"Your account (to a running server)" help:"Show the user an API token belongs to, and their workspaces."`
	Projects projectsCmd `cmd:"" group:"Your account (to a running server)" help:"List the projects an API token sees, as WORKSPACE/PROJECT."`
	Source   sourceCmd   `cmd:"" group:"Your account (to a running server)" help:"Print a file's source as the server keeps it."`

	VersionCmd versionCmd    `cmd:"" name:"version" group:"Other" help:"Print the version, commit and build details."`
	Completion completionCmd `cmd:"" group:"Other" help:"Print a shell completion script (bash or zsh)."`
	Complete   completeCmd   `cmd:"" name:"__complete" hidden:"" help:"Complete a command line (used by the completion script)."`
}

// dbCmd is embedded by every command that opens the database.
type dbCmd struct {
	DB     dbFlags     `embed:""`
	Server serverFlags `embed:""` // accepted and ignored (hidden)
}

// The arguments and flags several commands share, embedded where they
// stand (kong takes an embedded struct's fields in place).

type projectArg struct {
	Project string `arg:"" name:"workspace/key" help:"The project, as WORKSPACE/KEY."`
}

type workspaceArg struct {
	Workspace string `arg:"" name:"workspace" help:"The workspace's key."`
}

type loginArg struct {
	Login string `arg:"" name:"login" help:"The user's login or id."`
}

type userArg struct {
	User string `arg:"" name:"user" help:"The user's login or id."`
}

type onOffArg struct {
	On string `arg:"" name:"on|off" enum:"on,off" help:"on or off."`
}

// yesFlag confirms a deletion.
type yesFlag struct {
	Yes bool `name:"yes" help:"Really delete; without it the command says what it would delete and stops."`
}

// bindDB binds, for the command's Run, the database its flags name: a Run
// that takes a *sqlstore.DB or an *admin.Admin gets it opened once; run
// closes it after the command.
func (c *dbCmd) bindDB(kctx *kong.Context, e *runEnv) error {
	var db *sqlstore.DB
	open := func() (*sqlstore.DB, error) {
		if db == nil {
			cfg := configOf(&c.Server, &c.DB)
			d, err := sqlstore.Open(e.ctx, cfg.Database, cfg.StoreOptions())
			if err != nil {
				return nil, err
			}
			db = d
			e.closers = append(e.closers, d.Close)
		}
		return db, nil
	}
	if err := kctx.BindToProvider(open); err != nil {
		return err
	}
	return kctx.BindToProvider(func() (*admin.Admin, error) {
		d, err := open()
		return &admin.Admin{DB: d, Out: e.stdout, Notes: e.stderr}, err
	})
}

// helpTemplates are the blocks of help.tmpl: each command's detailed help,
// by its path.
var helpTemplates = template.Must(template.New("help.tmpl").Parse(helpText))

//go:embed help.tmpl
var helpText string

// addHelp gives each command the detailed help ("plumb COMMAND --help")
// its block in help.tmpl holds.
func addHelp(k *kong.Kong) error {
	var walk func(n *kong.Node, path string) error
	walk = func(n *kong.Node, path string) error {
		if t := helpTemplates.Lookup(cmp.Or(path, "plumb")); t != nil {
			var b strings.Builder
			if err := t.Execute(&b, nil); err != nil {
				return err
			}
			n.Detail = b.String()
		}
		for _, c := range n.Children {
			if err := walk(c, strings.TrimSpace(path+" "+c.Name)); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(k.Model.Node, "")
}

// ---- server and dataset ----

type serveCmd struct {
	Server serverFlags `embed:""`
	DB     dbFlags     `embed:""`
}

// Run serves until the context ends (server.Serve).
func (c *serveCmd) Run(e *runEnv) error {
	cfg := configOf(&c.Server, &c.DB)
	cfg.Build = currentBuild()
	return server.Serve(e.ctx, cfg, newLogger(e.stderr, cfg.LogLevel))
}

type demoCmd struct {
	Server serverFlags `embed:""`
	DB     dbFlags     `embed:""`
	Data   string      `name:"data" placeholder:"DIR" default:"data" help:"Folder of the demo database (demo.db, recreated on every start) (default ${default})."`
}

func (c *demoCmd) Run(e *runEnv) error {
	for _, p := range e.kctx.Path {
		if p.Flag != nil && p.Flag.Name == "database" && !p.Resolved {
			return usageError{"plumb demo always uses <data>/demo.db, which it recreates; choose the folder with --data"}
		}
	}
	cfg := configOf(&c.Server, &c.DB)
	cfg.Build = currentBuild()
	return server.RunDemo(e.ctx, cfg, c.Data, newLogger(e.stderr, cfg.LogLevel), e.stdout, e.stderr)
}

type migrateCmd struct{ dbCmd }

// Run reports that the database is up to date: opening it applied the
// migrations.
func (c *migrateCmd) Run(e *runEnv, db *sqlstore.DB) error {
	fmt.Fprintln(e.stdout, "database is up to date")
	return nil
}

type exportCmd struct {
	dbCmd
	Out           string `name:"out" placeholder:"FILE" help:"Write to this file (complete or not at all) instead of stdout."`
	WithoutSource bool   `name:"without-source" help:"Leave the kept sources out (a smaller backup; docs/sources.md)."`
}

func (c *exportCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.Export(e.ctx, c.Out, c.WithoutSource)
}

type importCmd struct {
	dbCmd
	File string `arg:"" name:"file" help:"The dataset file; '-' reads stdin."`
}

func (c *importCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.Import(e.ctx, c.File, e.stdin)
}

// ---- administration ----

type userCmd struct {
	Create   userCreateCmd   `cmd:"" help:"Create a user."`
	Update   userUpdateCmd   `cmd:"" help:"Change a user's name, email, avatar or provider URL."`
	Password userPasswordCmd `cmd:"" help:"Set a user's web sign-in password."`
	List     userListCmd     `cmd:"" help:"List the users."`
	Disable  userDisableCmd  `cmd:"" help:"Disable a user: their API tokens and web sessions are refused."`
	Enable   userEnableCmd   `cmd:"" help:"Enable a disabled user again."`
	Delete   userDeleteCmd   `cmd:"" help:"Delete a user with their tokens, memberships and sessions (--yes)."`
}

type userListCmd struct{ dbCmd }

func (c *userListCmd) Run(e *runEnv, a *admin.Admin) error { return a.UserList(e.ctx) }

type userDisableCmd struct {
	dbCmd
	loginArg
}

func (c *userDisableCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.UserDisable(e.ctx, c.Login, true)
}

type userEnableCmd struct{ userDisableCmd } // the same argument

func (c *userEnableCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.UserDisable(e.ctx, c.Login, false)
}

type userDeleteCmd struct {
	dbCmd
	loginArg
	yesFlag
}

func (c *userDeleteCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.UserDelete(e.ctx, c.Login, c.Yes)
}

type userCreateCmd struct {
	dbCmd
	Login string `arg:"" name:"login" help:"The user's login."`
	Name  string `name:"name" help:"The user's display name."`
	userProfileFlags
}

func (c *userCreateCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.UserCreate(e.ctx, c.Login, c.profile(&c.Name))
}

type userPasswordCmd struct {
	dbCmd
	loginArg
}

func (c *userPasswordCmd) Run(e *runEnv, db *sqlstore.DB) error {
	return cmdUserPassword(e.ctx, db, c.Login, e.stdin, e.stdout, e.stderr)
}

type tokenCmd struct {
	Create tokenCreateCmd `cmd:"" help:"Create an API token for a user; it is printed once."`
	List   tokenListCmd   `cmd:"" help:"List a user's tokens (never their secrets)."`
	Revoke tokenRevokeCmd `cmd:"" help:"Revoke a token; it fails at once from then on."`
}

type tokenCreateCmd struct {
	dbCmd
	userArg
	Name string `name:"name" help:"What the token is for, such as laptop."`
}

func (c *tokenCreateCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.TokenCreate(e.ctx, c.User, c.Name)
}

type tokenListCmd struct {
	dbCmd
	userArg
}

func (c *tokenListCmd) Run(e *runEnv, a *admin.Admin) error { return a.TokenList(e.ctx, c.User) }

type tokenRevokeCmd struct {
	dbCmd
	ID string `arg:"" name:"token-id" help:"The token's id (from plumb token list)."`
}

func (c *tokenRevokeCmd) Run(e *runEnv, a *admin.Admin) error { return a.TokenRevoke(e.ctx, c.ID) }

type workspaceCmd struct {
	Create       workspaceCreateCmd       `cmd:"" help:"Create a workspace."`
	Applications workspaceApplicationsCmd `cmd:"" help:"Turn Applications on or off for a workspace."`
	List         workspaceListCmd         `cmd:"" help:"List the workspaces."`
	Delete       workspaceDeleteCmd       `cmd:"" help:"Delete a workspace with all of its projects and their data (--yes)."`
}

type workspaceListCmd struct{ dbCmd }

func (c *workspaceListCmd) Run(e *runEnv, a *admin.Admin) error { return a.WorkspaceList(e.ctx) }

type workspaceDeleteCmd struct {
	dbCmd
	Key string `arg:"" name:"key" help:"The workspace's key."`
	yesFlag
}

func (c *workspaceDeleteCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.WorkspaceDelete(e.ctx, c.Key, c.Yes)
}

type workspaceCreateCmd struct {
	dbCmd
	Key          string `arg:"" name:"key" help:"The workspace's key, as in /gh/KEY/…."`
	Applications bool   `name:"applications" help:"Enable Applications."`
	AvatarURL    string `name:"avatar-url" placeholder:"URL" help:"Avatar URL."`
	ProviderURL  string `name:"provider-url" placeholder:"URL" help:"Provider URL."`
}

func (c *workspaceCreateCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.WorkspaceCreate(e.ctx, plumb.WorkspaceInput{Key: c.Key, AvatarURL: c.AvatarURL, ProviderURL: c.ProviderURL, ApplicationsEnabled: c.Applications})
}

type workspaceApplicationsCmd struct {
	dbCmd
	Key string `arg:"" name:"key" help:"The workspace's key."`
	onOffArg
}

func (c *workspaceApplicationsCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.WorkspaceApplications(e.ctx, c.Key, c.On == "on")
}

type memberCmd struct {
	Add    memberAddCmd    `cmd:"" help:"Add a user to a workspace (or change their role)."`
	Remove memberRemoveCmd `cmd:"" help:"Remove a user from a workspace."`
	List   memberListCmd   `cmd:"" help:"List a workspace's members and their roles."`
}

type memberListCmd struct {
	dbCmd
	workspaceArg
}

func (c *memberListCmd) Run(e *runEnv, a *admin.Admin) error { return a.MemberList(e.ctx, c.Workspace) }

type memberAddCmd struct {
	dbCmd
	workspaceArg
	userArg
	Role string `name:"role" default:"member" placeholder:"member|admin" help:"member or admin (default ${default})."`
}

func (c *memberAddCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.MemberAdd(e.ctx, c.Workspace, c.User, c.Role)
}

type memberRemoveCmd struct {
	dbCmd
	workspaceArg
	userArg
}

func (c *memberRemoveCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.MemberRemove(e.ctx, c.Workspace, c.User)
}

type projectCmd struct {
	Create      projectCreateCmd      `cmd:"" help:"Create a project."`
	Components  projectComponentsCmd  `cmd:"" help:"Turn Components on or off for a project."`
	Sources     projectSourcesCmd     `cmd:"" help:"Keep a project's sources, or not (off deletes those kept)."`
	Admin       projectAdminCmd       `cmd:"" help:"Make a user admin of a project."`
	UploadToken projectUploadTokenCmd `cmd:"" name:"upload-token" help:"The operator's commands for a project's CI upload tokens."`
	List        projectListCmd        `cmd:"" help:"List the projects (of one workspace, or all)."`
	Rename      projectRenameCmd      `cmd:"" help:"Give a project a new key; its data stays."`
	Delete      projectDeleteCmd      `cmd:"" help:"Delete a project and all of its data (--yes)."`
	Gate        projectGateCmd        `cmd:"" help:"Show or set a project's quality gate."`
	CodeHost    projectCodeHostCmd    `cmd:"" name:"code-host" help:"Show or set a project's code-host connection."`
	Badges      projectBadgesCmd      `cmd:"" help:"Make a project's badges public or private; create or revoke its badge token."`
}

type projectListCmd struct {
	dbCmd
	Workspace string `arg:"" optional:"" name:"workspace" help:"Only this workspace's projects."`
}

func (c *projectListCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectList(e.ctx, c.Workspace)
}

type projectRenameCmd struct {
	dbCmd
	projectArg
	NewKey string `arg:"" name:"new-key" help:"The project's new key (in the same workspace)."`
}

func (c *projectRenameCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectRename(e.ctx, c.Project, c.NewKey)
}

type projectDeleteCmd struct {
	dbCmd
	projectArg
	yesFlag
}

func (c *projectDeleteCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectDelete(e.ctx, c.Project, c.Yes)
}

type projectCreateCmd struct {
	dbCmd
	projectArg
	DefaultBranch string `name:"default-branch" default:"main" placeholder:"BRANCH" help:"Default branch (default ${default})."`
	Components    bool   `name:"components" help:"Enable Components."`
}

func (c *projectCreateCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectCreate(e.ctx, c.Project, c.DefaultBranch, c.Components)
}

type projectComponentsCmd struct {
	dbCmd
	projectArg
	onOffArg
}

func (c *projectComponentsCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectComponents(e.ctx, c.Project, c.On == "on")
}

type projectSourcesCmd struct{ projectComponentsCmd } // the same arguments

func (c *projectSourcesCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectSources(e.ctx, c.Project, c.On == "on")
}

type projectAdminCmd struct {
	dbCmd
	projectArg
	userArg
}

func (c *projectAdminCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectAdmin(e.ctx, c.Project, c.User)
}

type projectUploadTokenCmd struct {
	Create projectUploadTokenCreateCmd `cmd:"" help:"Create an upload token for a project; it is printed once."`
	List   projectUploadTokenListCmd   `cmd:"" help:"List a project's upload tokens, revoked ones included."`
	Revoke projectUploadTokenRevokeCmd `cmd:"" help:"Revoke an upload token."`
}

type projectUploadTokenCreateCmd struct {
	dbCmd
	Project string `arg:"" name:"workspace/project" help:"The project, as WORKSPACE/PROJECT."`
	Name    string `name:"name" required:"" help:"What the token is for, such as github-actions."`
}

func (c *projectUploadTokenCreateCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectUploadTokenCreate(e.ctx, c.Project, c.Name)
}

type projectUploadTokenListCmd struct {
	dbCmd
	Project string `arg:"" name:"workspace/project" help:"The project, as WORKSPACE/PROJECT."`
}

func (c *projectUploadTokenListCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectUploadTokenList(e.ctx, c.Project)
}

type projectUploadTokenRevokeCmd struct {
	dbCmd
	ID string `arg:"" name:"token-id" help:"The upload token's id."`
}

func (c *projectUploadTokenRevokeCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectUploadTokenRevoke(e.ctx, c.ID)
}

type applicationCmd struct {
	AddProject applicationAddProjectCmd `cmd:"" name:"add-project" help:"Add a project to an application."`
}

type applicationAddProjectCmd struct {
	dbCmd
	workspaceArg
	Application string `arg:"" name:"application" help:"The application's name or id."`
	Project     string `arg:"" name:"project" help:"The project's key."`
}

func (c *applicationAddProjectCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ApplicationAddProject(e.ctx, c.Workspace, c.Application, c.Project)
}

// ---- CI ----

type uploadCmd struct {
	Coverage uploadCoverageCmd `cmd:"" help:"Upload a coverage report (lcov, cobertura, jacoco, clover, go, simplecov, istanbul)."`
	SARIF    uploadSARIFCmd    `cmd:"" name:"sarif" help:"Upload SARIF files, one upload each."`
	Analysis uploadAnalysisCmd `cmd:"" help:"Upload an analysis: per-file stats and SARIF files together."`
}

type uploadCoverageCmd struct {
	Conn        connFlags   `embed:""`
	Commit      commitFlags `embed:""`
	File        string      `arg:"" name:"file" help:"The coverage report; '-' reads stdin."`
	Format      string      `name:"format" placeholder:"FORMAT" help:"lcov, cobertura, jacoco, clover, go, simplecov or istanbul (default: detected by the server)."`
	CoverageTag string      `name:"coverage-tag" placeholder:"TAG" help:"Coverage tag, such as unit or integration."`
	StripPrefix string      `name:"strip-prefix" placeholder:"PREFIX" help:"Prefix removed from report paths."`
	AddPrefix   string      `name:"add-prefix" placeholder:"PREFIX" help:"Prefix added to report paths."`
	ModulePath  string      `name:"module-path" placeholder:"MODULE" help:"Go module path removed from Go cover profile paths (default: the module of ./go.mod, if any)."`
	UploadedAt  string      `name:"uploaded-at" placeholder:"TIME" help:"When the coverage was measured, RFC 3339, to add an older commit to the history (default: now)."`
	Source      bool        `name:"source" help:"Also send the source of the report's files, read from the checkout in the working directory (docs/sources.md)."`
	Change      changeFlags `embed:""`
}

type uploadSARIFCmd struct {
	Conn       connFlags   `embed:""`
	Commit     commitFlags `embed:""`
	Paths      pathFlags   `embed:""`
	Files      []string    `arg:"" name:"file" sep:"none" help:"SARIF 2.1.0 files; '-' reads stdin."`
	AnalyzedAt string      `name:"analyzed-at" placeholder:"TIME" help:"When the analysis ran, RFC 3339 (default: now)."`
}

type uploadAnalysisCmd struct {
	Conn       connFlags   `embed:""`
	Commit     commitFlags `embed:""`
	Paths      pathFlags   `embed:""`
	Stats      string      `name:"stats" required:"" placeholder:"FILE" help:"JSON file of per-file figures: {\"files\":[{\"path\",\"lines\",\"loc\",\"complexity\",\"duplicatedLines\"}],\"removed\":[\"path\",…]} or just the files array."`
	SARIF      []string    `name:"sarif" sep:"none" placeholder:"FILE" help:"SARIF file (repeatable)."`
	FullTree   bool        `name:"full-tree" default:"true" negatable:"" help:"The stats list every file of the tree: files not listed are gone (default ${default}; --full-tree=false or --no-full-tree for a partial analysis)."`
	AnalyzedAt string      `name:"analyzed-at" placeholder:"TIME" help:"When the analysis ran, RFC 3339 (default: now)."`
	Change     changeFlags `embed:""`
}

type buildCmd struct {
	Start  buildStartCmd  `cmd:"" help:"Create a running build; prints only its id."`
	Status buildStatusCmd `cmd:"" help:"Report a build's status."`
	Finish buildFinishCmd `cmd:"" help:"Report a build's final status."`
}

type buildStartCmd struct {
	Conn      connFlags   `embed:""`
	Commit    commitFlags `embed:""`
	Type      string      `name:"type" required:"" placeholder:"TYPE" help:"Build type: analysis, format, ssh or coverage_setup."`
	Status    string      `name:"status" placeholder:"STATUS" help:"Initial status: running (default: the job calling it runs), submitted or starting."`
	Message   string      `name:"message" placeholder:"TEXT" help:"Commit message (default: from the CI provider's environment where it gives one, else from git)."`
	Source    string      `name:"source" placeholder:"TEXT" help:"What started the build."`
	Committer string      `name:"committer" placeholder:"LOGIN" help:"Committer's login."`
}

type buildStatusCmd struct {
	Conn     connFlags   `embed:""`
	Commit   commitFlags `embed:""` // accepted and ignored (hidden)
	ID       string      `arg:"" name:"id" help:"The build's id, as build start printed it."`
	Status   string      `name:"status" placeholder:"STATUS" help:"The build's new status: submitted, starting, running, or a final one."`
	Reason   string      `name:"reason" placeholder:"TEXT" help:"Why the build has this status."`
	ExitCode string      `name:"exit-code" placeholder:"N" help:"The build's exit code."`
}

func (c *buildStatusCmd) Run(e *runEnv) error { return buildStatus(e.ctx, e, c, false) }

type buildFinishCmd struct{ buildStatusCmd }

func (c *buildFinishCmd) Run(e *runEnv) error { return buildStatus(e.ctx, e, &c.buildStatusCmd, true) }

type uploadTokenCmd struct {
	Create uploadTokenCreateCmd `cmd:"" help:"Create an upload token (plbu_…); prints only the secret."`
	List   uploadTokenListCmd   `cmd:"" help:"List the project's upload tokens, revoked ones included."`
	Revoke uploadTokenRevokeCmd `cmd:"" help:"Revoke an upload token; it answers 401 from then on."`
}

type uploadTokenCreateCmd struct {
	Conn connFlags `embed:""`
	Name string    `name:"name" required:"" help:"What the token is for, such as github-actions."`
}

func (c *uploadTokenCreateCmd) Run(e *runEnv) error {
	return manageUploadTokens(e.ctx, e, &c.Conn, "create", c.Name, "")
}

type uploadTokenListCmd struct {
	Conn connFlags `embed:""`
}

func (c *uploadTokenListCmd) Run(e *runEnv) error {
	return manageUploadTokens(e.ctx, e, &c.Conn, "list", "", "")
}

type uploadTokenRevokeCmd struct {
	Conn connFlags `embed:""`
	ID   string    `arg:"" name:"token-id" help:"The upload token's id."`
}

func (c *uploadTokenRevokeCmd) Run(e *runEnv) error {
	return manageUploadTokens(e.ctx, e, &c.Conn, "revoke", "", c.ID)
}
