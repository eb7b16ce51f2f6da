// Command gapset is the command-line front end of the gapset toolkit: it
// solves sliding-tile puzzles optimally, generates instances, enumerates gap
// sets, builds and reports their BDDs and pattern databases, and benchmarks
// heuristics.
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
	"reflect"
	"runtime/pprof"
	"strings"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/search"

	"github.com/urfave/cli/v2"
)

// Exit statuses, the contract of README.md and --help.
const (
	exitFailure     = 1   // anything else
	exitInput       = 2   // bad input: flags, boards, files
	exitLimit       = 3   // a limit reached: nodes, depth, states, memory budget
	exitInterrupted = 130 // SIGINT or SIGTERM
)

// exitHelp is the contract as --help shows it.
const exitHelp = "Exit status: 0 done, 2 bad input (flags, boards, files: one line naming it),\n" +
	"3 a limit reached (nodes, depth, states, memory budget), 1 anything else, 130 interrupted."

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

// limitError marks a limit the user set (or the machine's budget) being
// reached; exit status 3.
type limitError struct{ err error }

func (e limitError) Error() string { return e.err.Error() }
func (e limitError) Unwrap() error { return e.err }

// limitErrors are the packages' limit sentinels.
var limitErrors = []error{ida.ErrNodeLimit, search.ErrLimit, search.ErrDepthLimit, bdd.ErrBudget}

func main() {
	os.Exit(runWithSignals(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// exitCode maps an error onto the contract.
func exitCode(err error) int {
	var le limitError
	if errors.As(err, &le) {
		return exitLimit
	}
	for _, l := range limitErrors {
		if errors.Is(err, l) {
			return exitLimit
		}
	}
	var ie inputError
	if errors.As(err, &ie) {
		return exitInput
	}
	return exitFailure
}

// run executes the CLI and returns the exit status; tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(&env{stdin: stdin, stdout: stdout, stderr: stderr}, args)
}

func runEnv(e *env, args []string) int {
	app := newApp(e)
	args, path, unknown := reorderArgs(app, args)
	if unknown != "" && unknown != "help" {
		fmt.Fprintf(e.stderr, "gapset: unknown command %s (gapset --help lists the commands)\n", quoteArg(unknown))
		return exitInput
	}
	e.command = strings.Join(path, " ")
	err := app.Run(args)
	if err == nil {
		return 0
	}
	if e.ctx().Err() != nil {
		return exitInterrupted // the signal handler reports it
	}
	fmt.Fprintf(e.stderr, "gapset: %v\n", err)
	return exitCode(err)
}

// quoteArg quotes a user's argument for an error line, cut to about 60
// bytes so a huge argument is not echoed whole.
func quoteArg(s string) string {
	if len(s) > 60 {
		return fmt.Sprintf("%q... (%d bytes)", s[:60], len(s))
	}
	return fmt.Sprintf("%q", s)
}

func newApp(env *env) *cli.App {
	stdin, stdout, stderr := env.stdin, env.stdout, env.stderr
	var profile *os.File
	app := &cli.App{
		Name:  "gapset",
		Usage: "optimal sliding-tile puzzle search and gap sets stored as BDDs",
		Description: "Boards are written row-major as numbers separated by spaces or commas, blank 0;\n" +
			"the goal is 1 2 ... N-1 with the blank in the last cell. Flags may come before or after\n" +
			"the arguments; \"--\" ends the flags.\n" + exitHelp,
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
		OnUsageError: usageError,
		Commands: []*cli.Command{
			solveCommand(env),
			genCommand(env),
			demoCommand(env),
			benchCommand(env),
			sixCommand(env),
			oshidoriCommand(env),
			slideCommand(env),
			enumerateCommand(env),
			approxCommand(env),
			countCommand(env),
			buildCommand(env),
			reportCommand(env),
			zddCommand(env),
			orderCommand(env),
			pdbCommand(env),
			verifyCommand(env),
		},
	}
	markUsageErrors(app.Commands)
	return app
}

// markUsageErrors makes flag errors of every (sub)command exit with status
// 2, and checks required flags itself: urfave/cli would print the whole
// help to stdout.
func markUsageErrors(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = usageError
		}
		if len(c.Subcommands) == 0 && !strings.Contains(c.Description, exitHelp) {
			c.Description = strings.TrimSpace(c.Description + "\n" + exitHelp) // every command's --help states the contract
		}
		var required []string
		for _, f := range c.Flags {
			if unsetRequired(f) {
				required = append(required, f.Names()[0])
			}
		}
		if action := c.Action; len(required) > 0 && action != nil {
			c.Action = func(ctx *cli.Context) error {
				for _, name := range required {
					if !ctx.IsSet(name) {
						return badInputf("--%s is required (gapset %s --help lists the flags)", name, ctx.Command.FullName())
					}
				}
				return action(ctx)
			}
		}
		markUsageErrors(c.Subcommands)
	}
}

// unsetRequired clears a flag's Required mark and reports whether it was
// set (by reflection: every urfave/cli flag type has the field).
func unsetRequired(f cli.Flag) bool {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return false
	}
	r := v.Elem().FieldByName("Required")
	if !r.IsValid() || r.Kind() != reflect.Bool || !r.Bool() {
		return false
	}
	r.SetBool(false)
	return true
}

// usageError is a flag the parser refused: one line and a hint, never the
// whole help.
func usageError(c *cli.Context, err error, _ bool) error {
	name := "gapset"
	if c != nil && c.Command != nil && c.Command.Name != "" {
		name = "gapset " + c.Command.FullName()
	}
	return badInputf("%v (%s --help lists the flags)", err, name)
}

// env carries the process's streams to the commands (no globals).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// context is cancelled on SIGINT/SIGTERM (nil: never).
	context context.Context
	// command is the command path being run ("pdb build").
	command string
	// cleanup holds the outputs whose temporaries an interrupt removes.
	cleanup *cleanup
}

func (e *env) ctx() context.Context {
	if e.context == nil {
		return context.Background()
	}
	return e.context
}
