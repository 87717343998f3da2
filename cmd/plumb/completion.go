package main

// Shell completion: "plumb completion bash|zsh" prints a script that asks
// "plumb __complete WORD…" for the commands and flags that may follow.

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/alecthomas/kong"
)

type completionCmd struct {
	Shell string `arg:"" name:"shell" enum:"bash,zsh" help:"bash or zsh."`
}

func (c *completionCmd) Run(e *runEnv) error { return printCompletion(e.stdout, c.Shell) }

const bashCompletion = `# plumb completion for bash: source <(plumb completion bash)
_plumb_complete() {
    local cur="${COMP_WORDS[COMP_CWORD]}" IFS=$'\n'
    COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" -- "$cur"))
}
complete -o default -F _plumb_complete plumb
`

func printCompletion(w io.Writer, shell string) error {
	switch shell {
	case "bash":
		_, err := io.WriteString(w, bashCompletion)
		return err
	case "zsh":
		_, err := io.WriteString(w, "#compdef plumb\n# plumb completion for zsh\nautoload -U +X bashcompinit && bashcompinit\n"+bashCompletion)
		return err
	}
	return usageError{fmt.Sprintf("completion: unknown shell %q (bash or zsh)", shell)}
}

type completeCmd struct {
	Words []string `arg:"" optional:"" passthrough:"" name:"words"`
}

func (c *completeCmd) Run(e *runEnv) error {
	for _, s := range completions(e.kctx.Model.Node, c.Words) {
		fmt.Fprintln(e.stdout, s)
	}
	return nil
}

// completions lists what may replace the last of words (the word being
// typed): the subcommands of the command the words before it name, or its
// flags when the word starts with '-'.
func completions(root *kong.Node, words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	node := root
	flags := func() map[string]*kong.Flag {
		m := map[string]*kong.Flag{}
		for _, group := range node.AllFlags(true) {
			for _, f := range group {
				m["--"+f.Name] = f
			}
		}
		return m
	}
	before, cur := words[:len(words)-1], words[len(words)-1]
	for i := 0; i < len(before); i++ {
		w := before[i]
		if strings.HasPrefix(w, "-") {
			// A flag that takes a value takes the next word, unless given as --flag=value.
			if f := flags()[w]; f != nil && !f.IsBool() && !strings.Contains(w, "=") {
				i++
			}
			continue
		}
		for _, child := range node.Children {
			if child.Name == w && child.Type == kong.CommandNode {
				node = child
				break
			}
		}
	}
	var out []string
	if strings.HasPrefix(cur, "-") {
		for name, f := range flags() {
			if !f.Hidden && strings.HasPrefix(name, cur) {
				out = append(out, name)
			}
		}
	} else {
		for _, child := range node.Children {
			if !child.Hidden && child.Type == kong.CommandNode && strings.HasPrefix(child.Name, cur) {
				out = append(out, child.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}
