package main

// Shell completion (package complete): "plumb completion bash|zsh" prints a
// script that asks "plumb __complete WORD…" for the commands and flags that
// may follow.

import (
	"errors"
	"fmt"

	"github.com/plumbhq/plumb/internal/complete"
)

type completionCmd struct {
	Shell string `arg:"" name:"shell" enum:"bash,zsh" help:"bash or zsh."`
}

func (c *completionCmd) Run(e *runEnv) error {
	err := complete.Script(e.stdout, "plumb", c.Shell)
	if errors.Is(err, complete.ErrShell) {
		return usageError{fmt.Sprintf("completion: unknown shell %q (bash or zsh)", c.Shell)}
	}
	return err
}

type completeCmd struct {
	Words []string `arg:"" optional:"" passthrough:"" name:"words"`
}

func (c *completeCmd) Run(e *runEnv) error {
	for _, s := range complete.Words(e.kctx.Model.Node, c.Words) {
		fmt.Fprintln(e.stdout, s)
	}
	return nil
}
