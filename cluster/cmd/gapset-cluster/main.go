// Command gapset-cluster runs gapset's enumeration as Apache Beam jobs
// (package cluster/pipeline): `gapset-cluster enumerate` writes the same
// key-set files and summary as `gapset enumerate`, on Prism in-process or
// on a job server. The command is thin: flags, Beam's options, progress
// and exit codes (internal/cmdline's contract).
//
// A runner that starts workers as processes (PROCESS, DOCKER) starts this
// binary with --worker: main then hands the arguments to Beam's flags and
// beam.Init runs the SDK harness, before the command line is parsed.
package main

import (
	"context"
	"flag"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/gapset/gapset/internal/cmdline"
)

func main() {
	if isWorker(os.Args[1:]) {
		flag.Parse()
		beam.Init() // the SDK harness: it does not return in worker mode
		os.Exit(cmdline.ExitFailure)
	}
	os.Exit(cmdline.RunWithSignals("gapset-cluster", os.Stderr, func(ctx context.Context, c *cmdline.Cleanup) int {
		return run(&env{stdout: os.Stdout, stderr: os.Stderr, context: ctx, cleanup: c, failAt: os.Getenv(failAtEnv)}, os.Args)
	}))
}

// failAtEnv names the test hook: "STEP/LEVEL/PART" makes that
// part's merge fail (see pipeline.Options.FailAt).
const failAtEnv = "GAPSET_CLUSTER_FAIL_AT"

// isWorker tells the worker's command line (--worker, as Beam's boot
// program starts it) from a user's.
func isWorker(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		a = strings.TrimLeft(a, "-")
		return a == "worker" || a == "worker=true"
	})
}

// env carries the process's streams and context to the command (no
// globals but Beam's own flags).
type env struct {
	stdout, stderr io.Writer
	context        context.Context
	cleanup        *cmdline.Cleanup
	failAt         string
}

// run executes the command line and returns the exit status: what follows
// a lone "--" goes to Beam's flags.
func run(e *env, args []string) int {
	var beamArgs []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, beamArgs = args[:i], args[i+1:]
	}
	return cmdline.Run(e.context, newApp(e, beamArgs), args, e.stderr)
}
