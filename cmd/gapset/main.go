// Command gapset is the command-line front end of the gapset toolkit: it
// solves sliding-tile puzzles optimally, generates instances, enumerates gap
// sets, builds and reports their BDDs and pattern databases, and benchmarks
// heuristics.
//
// The command is thin: flags, files, progress and exit codes. The work lives
// in the packages it imports; the exit contract (statuses, one-line errors,
// flags after arguments, interrupts) in internal/cmdline.
package main

import (
	"context"
	"io"
	"os"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/pdb"
	"github.com/gapset/gapset/search"
	"github.com/urfave/cli/v2"
)

// limitErrors are the packages' limit sentinels: exit status 3.
var limitErrors = []error{ida.ErrNodeLimit, search.ErrLimit, search.ErrDepthLimit, bdd.ErrBudget, bdd.ErrLevelFull, bdd.ErrTooBig, gapdb.ErrTooBig}

func main() {
	os.Exit(cmdline.RunWithSignals("gapset", os.Stderr, func(ctx context.Context, c *cmdline.Cleanup) int {
		return runEnv(&env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, context: ctx, cleanup: c, pdbRecord: pdb.UserRecord()}, os.Args)
	}))
}

// run executes the CLI and returns the exit status; tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(&env{stdin: stdin, stdout: stdout, stderr: stderr, context: context.Background(), cleanup: cmdline.NewCleanup("gapset", stderr)}, args)
}

func runEnv(e *env, args []string) int {
	return cmdline.Run(e.context, newApp(e), args, e.stderr, limitErrors...)
}

func newApp(env *env) *cli.App {
	app := &cli.App{
		Name:            "gapset",
		Usage:           "optimal sliding-tile puzzle search and gap sets stored as BDDs",
		Description:     help("gapset") + "\n" + cmdline.ExitHelp,
		Reader:          env.stdin,
		Writer:          env.stdout,
		ErrWriter:       env.stderr,
		HideHelpCommand: true,
		// In the order --help lists them.
		Commands: []*cli.Command{solveCommand(env), genCommand(env), demoCommand(env), benchCommand(env),
			sixCommand(env), oshidoriCommand(env), slideCommand(env), enumerateCommand(env), approxCommand(env),
			countCommand(env), gapdbCommand(env), buildCommand(env), reportCommand(env), zddCommand(env), orderCommand(env),
			pdbCommand(env), verifyCommand(env)},
	}
	cmdline.AddCPUProfile(app)
	cmdline.Prepare(app, env.cleanup)
	return app
}

// env carries the process's streams to the commands (no globals).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// context is cancelled on SIGINT/SIGTERM.
	context context.Context
	// cleanup holds the outputs whose temporaries an interrupt removes
	// (nil: none).
	cleanup *cmdline.Cleanup
	// pdbRecord is the file that remembers the pattern databases checked
	// whole (pdb.Verified; empty: none, every load hashes them).
	pdbRecord string
}

// willWrite checks an output file flag's path before any work and has an
// interrupt remove its temporaries.
func (e *env) willWrite(flag, path string) error {
	if err := cmdline.CheckOutFile(flag, path); err != nil {
		return err
	}
	return e.cleanup.WillWrite(flag, path)
}
