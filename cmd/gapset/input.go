package main

import (
	"fmt"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/enumflags"
	"github.com/urfave/cli/v2"
)

// withSize is the flags of a command on an R x C board: --rows and --cols
// (defaults rows, cols; enumflags.Size), then its own.
func withSize(rows, cols int, own ...cli.Flag) []cli.Flag {
	return append(enumflags.Size(rows, cols), own...)
}

// boardFlags are the flags every command that reads boards shares.
func boardFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "input", Aliases: []string{"i"}, Usage: "read boards from `FILE` (one per line, optional leading id, # comments); - reads stdin", Action: cmdline.InputFlag("--input")},
	}, withSize(4, 4)...)
}

func quietFlag() cli.Flag { return enumflags.Quiet() }

// readBoards collects the boards of a command: from --input (a file, or
// - for stdin), or from the arguments (encode.ParseArgs).
func readBoards(c *cli.Context, e *env) ([]encode.Instance, error) {
	rows, cols := c.Int("rows"), c.Int("cols") // checked by withSize
	in := c.String("input")
	var insts []encode.Instance
	var err error
	switch {
	case in != "" && c.Args().Len() > 0:
		return nil, cmdline.BadInputf("give boards either with --input or as arguments, not both")
	case in == "-":
		insts, err = encode.ReadInstances(e.stdin, "stdin", rows, cols)
		if err == nil && len(insts) == 0 {
			err = fmt.Errorf("%s: no boards found", in)
		}
	case in != "":
		insts, err = encode.ReadInstanceFile(in, rows, cols)
	case c.Args().Len() == 0:
		return nil, cmdline.BadInputf("no boards given: pass a board as arguments (e.g. \"1 2 3 ... 0\") or use --input FILE")
	default:
		insts, err = encode.ParseArgs(c.Args().Slice(), rows, cols)
	}
	if err != nil {
		return nil, cmdline.BadInput(err)
	}
	return insts, nil
}

// maxWorkers bounds --workers, --jobs and --threads: more goroutines than
// this only cost memory.
const maxWorkers = 256
