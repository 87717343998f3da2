package complete

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

type cmdline struct {
	Verbose bool `name:"verbose"`
	Upload  struct {
		Coverage struct {
			URL    string `name:"url"`
			Force  bool   `name:"force"`
			Secret string `name:"secret" hidden:""`
		} `cmd:""`
		Sarif struct{} `cmd:""`
	} `cmd:""`
	User   struct{} `cmd:""`
	Hidden struct{} `cmd:"" hidden:""`
}

// Words offers the subcommands of the command typed so far, or its flags
// (hidden ones left out) after '-'; a flag's value is not a command.
func TestWords(t *testing.T) {
	k, err := kong.New(&cmdline{}, kong.Writers(io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		words []string
		want  []string
	}{
		{nil, []string{"upload", "user"}},
		{[]string{"u"}, []string{"upload", "user"}},
		{[]string{"up"}, []string{"upload"}},
		{[]string{"upload", ""}, []string{"coverage", "sarif"}},
		{[]string{"--verbose", "upload", "s"}, []string{"sarif"}},
		{[]string{"upload", "coverage", "--"}, []string{"--force", "--help", "--url", "--verbose"}},
		{[]string{"upload", "coverage", "--url", "user", ""}, nil},
		{[]string{"upload", "coverage", "--url=user", "--f"}, []string{"--force"}},
		{[]string{"nope", ""}, []string{"upload", "user"}},
	} {
		if got := Words(k.Model.Node, c.words); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.words, got, c.want)
		}
	}
}

// The script names the program; zsh's loads bash's through bashcompinit.
func TestScript(t *testing.T) {
	var b bytes.Buffer
	if err := Script(&b, "tool", "bash"); err != nil || !strings.Contains(b.String(), "complete -o default -F _tool_complete tool\n") || !strings.Contains(b.String(), `__complete "${COMP_WORDS[@]:1:COMP_CWORD}"`) {
		t.Errorf("bash: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := Script(&b, "tool", "zsh"); err != nil || !strings.HasPrefix(b.String(), "#compdef tool\n") || !strings.Contains(b.String(), "bashcompinit") {
		t.Errorf("zsh: %v\n%s", err, b.String())
	}
	if err := Script(io.Discard, "tool", "fish"); !errors.Is(err, ErrShell) {
		t.Errorf("fish: %v", err)
	}
}
