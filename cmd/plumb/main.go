// Command plumb is the Plumb server and its administration tool.
//
// The command line is declared as kong structs (one per command, with its
// flags as fields), each with a Run(*runEnv) error method that maps the
// flags to a call and prints the answer. To add a command: write the struct
// and its Run in cli.go (or in your own file when Run does more than one
// call), add a field for it to the cli struct (or to the parent command's
// struct), and its detailed help and examples to help.tmpl.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

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

// runEnv is what a command's Run method gets: the context and the process's
// environment and standard streams (tests pass their own).
type runEnv struct {
	ctx    context.Context
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	kctx   *kong.Context

	closers []func() error // what Run opened, closed after it (the database)
}

// exited is how kong's Exit (after --help or --version) unwinds parsing
// without ending the process.
type exited struct{ code int }

// newParser builds the command-line parser for the root cli struct.
func newParser(root *cli, getenv func(string) string, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(root,
		kong.Name("plumb"),
		kong.Description("Plumb, a self-hostable code-quality reporting service: the API server, its administration and the CI uploader, in one binary."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exited{code}) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: true, WrapUpperBound: 100}),
		kong.ValueFormatter(helpWithEnv),
		kong.Resolvers(envResolver(getenv)),
		kong.WithHyphenPrefixedParameters(true),
		kong.PostBuild(hideServerFlags),
		kong.PostBuild(addHelp),
		kong.Vars{"version": versionString()},
	)
}

// run parses args and runs the command they name. "plumb", "plumb help" and
// "plumb help COMMAND…" print help like --help does.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	if len(args) == 0 {
		args = []string{"--help"}
	} else if args[0] == "help" {
		args = append(append([]string{}, args[1:]...), "--help")
	}
	var root cli
	parser, err := newParser(&root, getenv, stdout, stderr)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(exited)
			if !ok {
				panic(r)
			}
			if e.code != 0 {
				err = usageError{"see the help above"}
			}
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		return parseError(err)
	}
	e := &runEnv{ctx: ctx, getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr, kctx: kctx}
	if n := kctx.Selected(); n != nil {
		if d, ok := n.Target.Addr().Interface().(interface {
			bindDB(*kong.Context, *runEnv) error
		}); ok {
			if err := d.bindDB(kctx, e); err != nil {
				return err
			}
		}
	}
	err = kctx.Run(e)
	for _, c := range e.closers {
		c()
	}
	// kong joins the command's error with its hooks' (none here): hand back
	// the command's own error, whose type says the exit status.
	if j, ok := err.(interface{ Unwrap() []error }); ok && len(j.Unwrap()) == 1 {
		err = j.Unwrap()[0]
	}
	return err
}

// parseError turns kong's parse errors into usage errors (exit status 2)
// that say how to get help.
func parseError(err error) error {
	var pe *kong.ParseError
	if errors.As(err, &pe) {
		msg := pe.Error()
		var ue usageError
		if errors.As(pe.Unwrap(), &ue) {
			msg = ue.msg
		}
		where := "plumb"
		if pe.Context != nil {
			if sel := pe.Context.Selected(); sel != nil {
				where = "plumb " + sel.Path()
			} else if p := pe.Context.Path; len(p) > 0 {
				// A command with subcommands and none given.
				if n := p[len(p)-1].Node(); n != nil && n.Type == kong.CommandNode {
					where = "plumb " + n.Path()
				}
			}
		}
		return usageError{fmt.Sprintf("%s; run '%s --help'", msg, where)}
	}
	return err
}

// firstOf is the first of values that is not "".
var firstOf = cmp.Or[string]
