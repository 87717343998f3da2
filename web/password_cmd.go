package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/plumbhq/plumb/sqlstore"
)

// SetUserPassword is 'plumb user password LOGIN': it reads a new password
// without echo from the terminal (asking twice), or the first line of stdin
// when stdin is not a terminal, and stores its argon2id hash.
func SetUserPassword(ctx context.Context, db *sqlstore.DB, login string, stdin io.Reader, stderr io.Writer) error {
	if _, err := db.FindUser(ctx, login); err != nil {
		return err
	}
	pw, err := readPassword(stdin, stderr)
	if err != nil {
		return err
	}
	hash, err := HashPassword(pw)
	if err != nil {
		return err
	}
	return db.SetPasswordHash(ctx, login, hash)
}

func readPassword(stdin io.Reader, stderr io.Writer) (string, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(stderr, "New password: ")
		a, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", err
		}
		fmt.Fprint(stderr, "Repeat it: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", err
		}
		if string(a) != string(b) {
			return "", errors.New("the two passwords differ; nothing changed")
		}
		return string(a), nil
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", errors.New("no password on stdin: pipe it in, e.g. 'printf %s \"$PW\" | plumb user password LOGIN'")
	}
	return line, nil
}
