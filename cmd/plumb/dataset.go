package main

import (
	"context"
	"errors"
	"io"
)

func cmdDemo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return errors.New("demo: not yet")
}
func cmdExport(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	return errors.New("export: not yet")
}
func cmdImport(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer) error {
	return errors.New("import: not yet")
}
