package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	// The work location's file systems: a local path, gs://, s3:// and
	// memfs:// (tests).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
	"github.com/gapset/gapset/cluster/pipeline"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/enumflags"
	"github.com/urfave/cli/v2"
)

const description = `Enumerates a gap set as gapset enumerate does and writes the same key-set
files (byte for byte) and summary, as Apache Beam jobs: one job per step of
the layered search (every part of a layer expanded on its own, the
candidates grouped by target part and merged), then one job for the
key-set files. The layers live in a work directory (gapset-cluster-work/
in --work-dir, default --out-dir), with a manifest per step: a run that
fails or is stopped resumes there when run again with the same arguments
(--fresh starts over), and the end removes it. The pipeline passes
references to part files, never keys, so every worker must see the
work directory at the same path (one machine, or a shared file system),
or --work-dir is an object store URL (gs://BUCKET/PATH, s3://BUCKET/PATH):
then each worker copies the files it reads and writes through a scratch
directory (--local-tmp), and the command copies the key-set files from
there into --out-dir at the end.

Runners: --runner prism (default) runs Prism inside this process;
--runner universal submits to a job server (--endpoint HOST:PORT), e.g. a
separately started Prism, Flink or Spark job server, with
--environment_type LOOPBACK (workers in this process) or PROCESS/DOCKER
(workers start this binary with --worker). Beam's other options go after
a lone --. docs/cluster.md says what is verified.

Example:
  gapset-cluster enumerate --rows 3 --cols 4 --gap 2 --cells 12,8 --out-dir sets`

func newApp(e *env, beamArgs []string) *cli.App {
	app := &cli.App{
		Name:            "gapset-cluster",
		Usage:           "gapset's enumeration as Apache Beam jobs",
		Description:     "gapset-cluster enumerate --help describes the one command.\n" + cmdline.ExitHelp,
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: true,
		Commands:        []*cli.Command{enumerateCommand(e, beamArgs)},
	}
	cmdline.Prepare(app, e.cleanup)
	return app
}

func enumerateCommand(e *env, beamArgs []string) *cli.Command {
	return &cli.Command{
		Name:        "enumerate",
		Usage:       "enumerate a gap set as Beam jobs and write its projections as key-set files",
		Description: description,
		Flags: append(enumflags.Flags("the work directory of an earlier run ("+pipeline.WorkName+"/)"),
			&cli.StringFlag{Name: "work-dir", Usage: "keep the work directory " + pipeline.WorkName + "/ (layers, projections, manifests) in `DIR` (default: --out-dir; gs:// and s3:// URLs too); a stopped run resumes from it",
				Action: func(_ *cli.Context, v string) error {
					if pipeline.IsURL(v) {
						return cmdline.InputIf(pipeline.CheckURL(v), gapset.ErrArgs)
					}
					return cmdline.CheckWritableDir("--work-dir", v)
				}},
			&cli.StringFlag{Name: "local-tmp", Usage: "the workers' scratch directory `DIR` for an object store --work-dir (default: the system's temporary directory)",
				Action: func(_ *cli.Context, v string) error { return cmdline.CheckWritableDir("--local-tmp", v) }},
			&cli.IntFlag{Name: "prefix-bits", Value: gapset.DefaultPrefixBits, Usage: "split the layers by the top `N` key bits (2^N parts, at most 8): the elements of each job",
				Action: func(_ *cli.Context, v int) error { return cmdline.InRange("--prefix-bits", v, 0, 8) }},
			&cli.IntFlag{Name: "lanes", Value: runtime.GOMAXPROCS(0), Usage: "copies of each stage, each with a share of the elements: Prism runs a stage as one bundle, so this is its parallelism (default: the CPUs this process may use)",
				Action: func(_ *cli.Context, v int) error { return cmdline.InRange("--lanes", v, 1, 256) }},
			&cli.IntFlag{Name: "memory", Value: 256, Usage: "MiB for one element's work buffers; bigger parts are written in pieces",
				Action: func(_ *cli.Context, v int) error { return cmdline.InRange("--memory", v, 16, 1<<20) }},
			&cli.StringFlag{Name: "runner", Value: "prism", Usage: "Beam runner: prism (in-process) or universal (a job server at --endpoint)",
				Action: func(_ *cli.Context, v string) error {
					if v != "prism" && v != "universal" {
						return cmdline.BadInputf("unknown --runner %s (choose prism or universal)", cmdline.Quote(v))
					}
					return nil
				}},
			&cli.StringFlag{Name: "endpoint", Usage: "the job server's `HOST:PORT` (--runner universal)"},
			&cli.StringFlag{Name: "environment_type", Usage: "where the workers run: LOOPBACK (in this process), PROCESS, DOCKER or EXTERNAL (default: LOOPBACK for prism, DOCKER for a job server)"},
			&cli.StringFlag{Name: "log-level", Value: "off", Usage: "Prism's and Beam's own log on stderr: off, error, warn, info or debug"},
		),
		Action: func(c *cli.Context) error {
			if err := cmdline.NoArgs(c); err != nil {
				return err
			}
			l, err := enumflags.Layout(c)
			if err != nil {
				return err
			}
			l.PrefixBits, l.Memory = c.Int("prefix-bits"), int64(c.Int("memory"))<<20
			if l.PrefixBits == 0 {
				l.PrefixBits = -1 // one part (Layout's 0 is the default)
			}
			if err := l.Check(); err != nil {
				return cmdline.BadInput(err)
			}
			runner, endpoint := c.String("runner"), c.String("endpoint")
			if runner == "universal" && endpoint == "" {
				return cmdline.BadInputf("--runner universal needs --endpoint HOST:PORT (the job server)")
			}
			if runner == "prism" && endpoint != "" {
				return cmdline.BadInputf("--endpoint is for --runner universal (prism runs in this process)")
			}
			envType := strings.ToLower(c.String("environment_type"))
			switch envType {
			case "", "loopback", "process", "docker", "external":
			default:
				return cmdline.BadInputf("unknown --environment_type %s (choose LOOPBACK, PROCESS, DOCKER or EXTERNAL)", cmdline.Quote(envType))
			}
			level, ok := logLevels[c.String("log-level")]
			if !ok {
				return cmdline.BadInputf("unknown --log-level %s (choose off, error, warn, info or debug)", cmdline.Quote(c.String("log-level")))
			}
			outDir := c.String("out-dir")
			if err := cmdline.CheckOutDir("--out-dir", outDir); err != nil {
				return err
			}
			cfg := l.Config(outDir)
			if err := e.cleanup.WillWrite("--out-dir", cfg.OutputPaths()...); err != nil {
				return err
			}
			if runner == "universal" {
				// Beam itself waits two minutes and then names no address.
				if err := reachable(endpoint); err != nil {
					return cmdline.BadInputf("--endpoint %s: no job server answers there (%v)", cmdline.Quote(endpoint), err)
				}
			}
			if err := setBeamFlags(endpoint, envType, beamArgs); err != nil {
				return err
			}
			beam.Init()
			// Prism and the SDK log every job at INFO through log/slog (set
			// up by beam.Init): the progress is one line per step instead.
			slog.SetDefault(slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level})))
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return err
			}
			work := c.String("work-dir")
			if work == "" {
				work = outDir
			}
			opt := pipeline.Options{Layout: l, OutDir: outDir, WorkDir: work, Fresh: c.Bool("fresh"), Runner: runner,
				LocalTmp: c.String("local-tmp"), Lanes: c.Int("lanes"), FailAt: e.failAt}
			if !c.Bool("quiet") {
				opt.Progress = func(s string) { fmt.Fprintf(e.stderr, "gapset-cluster: %s\n", s) }
			}
			res, err := pipeline.Enumerate(e.context, opt)
			if err != nil {
				return cmdline.InputIf(err, gapset.ErrArgs, gapset.ErrForeign, gapset.ErrDamaged)
			}
			return res.Write(e.stdout, c.String("format"))
		},
	}
}

// logLevels are --log-level's values; "off" is above every level used.
var logLevels = map[string]slog.Level{"off": slog.LevelError + 4, "error": slog.LevelError, "warn": slog.LevelWarn,
	"info": slog.LevelInfo, "debug": slog.LevelDebug}

// setBeamFlags sets the Beam options the command documents and parses the
// rest (after --) into Beam's flags, which are the flag package's: one
// pipeline configuration per process. A runner that starts workers as
// processes gets this binary as the worker.
func setBeamFlags(endpoint, envType string, rest []string) error {
	fs := flag.CommandLine
	fs.Init(os.Args[0], flag.ContinueOnError) // report, not exit
	fs.SetOutput(io.Discard)
	if err := fs.Parse(rest); err != nil {
		return cmdline.BadInputf("Beam option after --: %v", err)
	}
	if fs.NArg() > 0 {
		return cmdline.BadInputf("Beam option after --: %s is not a flag", cmdline.Quote(fs.Arg(0)))
	}
	set := func(name, v string) error {
		if v == "" {
			return nil
		}
		if err := fs.Set(name, v); err != nil {
			return cmdline.BadInputf("--%s %s: %v", name, cmdline.Quote(v), err)
		}
		return nil
	}
	if err := set("endpoint", endpoint); err != nil {
		return err
	}
	if err := set("environment_type", envType); err != nil {
		return err
	}
	if envType != "" && envType != "loopback" && fs.Lookup("worker_binary").Value.String() == "" {
		if self, err := os.Executable(); err == nil {
			return set("worker_binary", self)
		}
	}
	return nil
}

// reachable tells whether a TCP connection to the job server's address can
// be made within a few seconds.
func reachable(endpoint string) error {
	conn, err := net.DialTimeout("tcp", endpoint, 5*time.Second)
	if err != nil {
		return err
	}
	return conn.Close()
}
