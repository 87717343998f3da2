// Command plumb is the Plumb server and its administration tool.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/plumbhq/plumb"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		if d := plumb.ErrorDetails(err); len(d) > 0 {
			fmt.Fprintln(os.Stderr, "plumb:", strings.Join(d, "; "))
		} else {
			fmt.Fprintln(os.Stderr, "plumb:", err)
		}
		os.Exit(exitCode(err))
	}
}

// usageError is a mistake on the command line (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func exitCode(err error) int {
	if _, ok := err.(usageError); ok {
		return 2
	}
	if e, ok := err.(interface{ ExitCode() int }); ok {
		return e.ExitCode()
	}
	return 1
}

const usage = `plumb: a self-hostable code-quality reporting service

Usage:
  plumb serve [flags]                       run the API server
  plumb demo [flags]                        load a demo dataset into a fresh database and serve it
  plumb migrate [flags]                     apply database migrations and exit
  plumb export [--out FILE] [flags]         write the whole dataset as JSON (stdout by default)
  plumb import FILE [flags]                 load a dataset into an empty database ('-' reads stdin)

Administration (all take the database flags):
  plumb user create LOGIN [--name NAME]
  plumb token create USER --name NAME       prints the new token once
  plumb token list USER
  plumb token revoke TOKEN_ID
  plumb workspace create KEY [--applications] [--avatar-url URL] [--provider-url URL]
  plumb workspace applications KEY on|off
  plumb member add WORKSPACE USER [--role member|admin]
  plumb member remove WORKSPACE USER
  plumb project create WORKSPACE/KEY [--default-branch main] [--components]
  plumb project components WORKSPACE/KEY on|off
  plumb project admin WORKSPACE/KEY USER
  plumb application add-project WORKSPACE APPLICATION PROJECT
  plumb project upload-token create WORKSPACE/PROJECT --name NAME   a project-scoped token for CI uploads, printed once
  plumb project upload-token list WORKSPACE/PROJECT                 (project admins use 'plumb upload-token', below)
  plumb project upload-token revoke TOKEN_ID

CI uploads and upload tokens, to a running server (all take the upload flags below):
  plumb upload coverage FILE [--format F] [--coverage-tag T] [--strip-prefix P] [--add-prefix P] [--module-path M]
                                            formats: lcov, cobertura, jacoco, clover, go, simplecov, istanbul (default: detected)
  plumb upload sarif FILE... [--analyzed-at TIME] [--strip-prefix P] [--add-prefix P] [--repo-root DIR]
                                            one upload per file
  plumb upload analysis --stats FILE [--sarif FILE]... [--full-tree=true|false] [--analyzed-at TIME] [--strip-prefix P] [--add-prefix P]
                                            the stats FILE is {"files":[{"path","lines","loc","complexity","duplicatedLines"}],
                                            "removed":["path",…]} or just the files array
  plumb build start --type analysis|format|ssh|coverage_setup [--status submitted|starting|running] [--message M] [--source S] [--committer LOGIN]
                                            prints only the build id: BUILD=$(plumb build start --type analysis)
  plumb build status ID --status STATUS [--reason R] [--exit-code N]
  plumb build finish ID --status succeeded|failed|skipped|rejected [--exit-code N] [--reason R]
                                            without --status, --exit-code 0 means succeeded and any other code failed
  plumb upload-token create --name NAME     a project admin creates an upload token for CI (plbu_…); prints only the secret
  plumb upload-token list                   the project's upload tokens, revoked ones included
  plumb upload-token revoke TOKEN_ID        the token answers 401 from now on
                                            (these three take --url, --token, --project, --timeout, --retries;
                                            --token must be a project admin's API token)
  FILE '-' reads stdin. Reports are streamed gzip-compressed; a progress bar shows on a terminal (never in CI logs).
  Commit, branch, tag and pull request come from GitHub Actions, GitLab CI, CircleCI, Buildkite or Jenkins,
  else from git; the flags override them.

Upload flags (flag, or environment variable):
  --url             PLUMB_URL              server URL (default http://127.0.0.1:8080)
  --token           PLUMB_TOKEN            a project admin's API token or the project's upload token (plbu_…); required
  --project         PLUMB_PROJECT          WORKSPACE/PROJECT; required
  --commit, --branch, --tag, --pr          the commit, branch, git tag and pull request number (default: detected)
  --timeout                                longest the command may take, retries included (default 10m; 0: no limit)
  --retries                                retries on network errors, 429 (after Retry-After) and 502/503/504, with
                                           exponential back-off (default 5); every retry sends the same Idempotency-Key
  Exit status: 0 done; 1 the server refused (4xx; its details are printed); 2 usage error (flags, missing token or
  project, unreadable file); 3 gave up: retries used up, timed out, network failure or server error (5xx).

Configuration (flag, or environment variable):
  --addr            PLUMB_ADDR             listen address (default 127.0.0.1:8080)
  --database        PLUMB_DATABASE_URL     database URL: sqlite:PATH or postgres://… (default sqlite:data/plumb.db)
  --redis-url       PLUMB_REDIS_URL        Redis for rate-limit counters shared by replicas (default: in-process)
  --db-max-conns    PLUMB_DB_MAX_CONNS     database connections per replica (default 20 on PostgreSQL)
  --db-max-idle-conns PLUMB_DB_MAX_IDLE_CONNS  idle connections kept (default: as db-max-conns)
  --db-conn-max-lifetime PLUMB_DB_CONN_MAX_LIFETIME  connection lifetime (default 30m)
  --rate-limit      PLUMB_RATE_LIMIT       requests per token per hour (default 5000)
  --max-body-bytes  PLUMB_MAX_BODY_BYTES   request body limit in bytes (default 1048576)
  --max-upload-bytes PLUMB_MAX_UPLOAD_BYTES upload (report) limit in bytes (default 2147483648)
  --request-timeout PLUMB_REQUEST_TIMEOUT  longest wait for a response to start, then 503 (default 30s)
  --base-url        PLUMB_BASE_URL         public base URL used in Link and Location headers (default: the address
                                           the connection reached)
  --trust-host      PLUMB_TRUST_HOST       without --base-url, links use the request's Host and X-Forwarded-Proto
                                           (only behind a proxy that sets both)
  --log-level       PLUMB_LOG_LEVEL        debug, info, warn or error (default info)
`

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return nil
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return cmdServe(ctx, rest, getenv, stdout, stderr)
	case "demo":
		return cmdDemo(ctx, rest, getenv, stdout, stderr)
	case "migrate":
		return cmdMigrate(ctx, rest, getenv, stdout)
	case "export":
		return cmdExport(ctx, rest, getenv, stdout)
	case "import":
		return cmdImport(ctx, rest, getenv, stdin, stdout)
	case "user", "token", "workspace", "member", "project", "application":
		return cmdAdmin(ctx, cmd, rest, getenv, stdout)
	case "upload-token":
		return cmdUploadToken(ctx, rest, getenv, stdout, stderr)
	case "upload":
		return cmdUpload(ctx, rest, getenv, stdin, stdout, stderr)
	case "build":
		return cmdBuild(ctx, rest, getenv, stdout, stderr)
	}
	return usageError{fmt.Sprintf("unknown command %q; run 'plumb help'", cmd)}
}
