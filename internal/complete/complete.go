// Package complete is shell completion for a command line built with kong:
// Script prints a bash or zsh script that, as the user types, runs
// "PROGRAM __complete WORD…" for the candidates, and Words answers that
// question from the command line's model.
package complete

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/alecthomas/kong"
)

const bash = `# %[1]s completion for bash: source <(%[1]s completion bash)
_%[1]s_complete() {
    local cur="${COMP_WORDS[COMP_CWORD]}" IFS=$'\n'
    COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" -- "$cur"))
}
complete -o default -F _%[1]s_complete %[1]s
`

// ErrShell is the error of Script for a shell other than bash or zsh.
var ErrShell = errors.New("the shell is not bash or zsh")

// Script writes the completion script of program for shell, bash or zsh;
// the script runs "program __complete WORD…", which the program answers
// with Words.
func Script(w io.Writer, program, shell string) error {
	var err error
	switch shell {
	case "bash":
		_, err = fmt.Fprintf(w, bash, program)
	case "zsh":
		_, err = fmt.Fprintf(w, "#compdef %[1]s\n# %[1]s completion for zsh\nautoload -U +X bashcompinit && bashcompinit\n"+bash, program)
	default:
		err = ErrShell
	}
	return err
}

// Words lists what may replace the last of words (the word being
// typed): the subcommands of the command the words before it name, or its
// flags when the word starts with '-'.
func Words(root *kong.Node, words []string) []string {
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
