// Command gapset is the command-line front end of the gapset toolkit: it
// solves sliding-tile puzzles optimally, generates instances, and (in the
// subcommands that later packages add) builds and reports gap-set BDDs.
//
// The command is thin: flags, files, progress and exit codes. The work lives
// in the packages it imports.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/urfave/cli/v2"
)

// Exit statuses: 0 success, 1 a failure while working, 2 bad input or usage.
const (
	exitFailure = 1
	exitInput   = 2
)

// inputError marks errors caused by the user's input (bad boards, flags,
// files); they exit with status 2.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func badInput(err error) error {
	if err == nil {
		return nil
	}
	return inputError{err}
}

func badInputf(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run executes the CLI and returns the exit status; tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	err := app.Run(args)
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "gapset: %v\n", err)
	var ie inputError
	if errors.As(err, &ie) {
		return exitInput
	}
	return exitFailure
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	env := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	var profile *os.File
	app := &cli.App{
		Name:  "gapset",
		Usage: "optimal sliding-tile puzzle search and gap sets stored as BDDs",
		Description: "Boards are written row-major as numbers separated by spaces or commas, blank 0;\n" +
			"the goal is 1 2 ... N-1 with the blank in the last cell.",
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {}, // run() reports errors and picks the status
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the whole command to `FILE` (read it with go tool pprof)"},
		},
		Before: func(c *cli.Context) error {
			path := c.String("cpuprofile")
			if path == "" {
				return nil
			}
			f, err := os.Create(path)
			if err != nil {
				return badInputf("--cpuprofile: %w", err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return err
			}
			profile = f
			return nil
		},
		After: func(*cli.Context) error {
			if profile == nil {
				return nil
			}
			pprof.StopCPUProfile()
			return profile.Close()
		},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return badInput(err)
		},
		Commands: []*cli.Command{
			solveCommand(env),
			genCommand(env),
			demoCommand(env),
			benchCommand(env),
			sixCommand(env),
			oshidoriCommand(env),
			slideCommand(env),
			enumerateCommand(env),
			countCommand(env),
			buildCommand(env),
			reportCommand(env),
			zddCommand(env),
			pdbCommand(env),
		},
	}
	markUsageErrors(app.Commands)
	return app
}

// markUsageErrors makes flag errors of every (sub)command exit with status 2.
func markUsageErrors(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return badInput(err) }
		}
		markUsageErrors(c.Subcommands)
	}
}

// env carries the process's streams to the commands (no globals).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// context is cancelled on SIGINT/SIGTERM (nil: never).
	context context.Context
}

func (e *env) ctx() context.Context {
	if e.context == nil {
		return context.Background()
	}
	return e.context
}
