package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/urfave/cli/v2"
)

// boardFlags are the flags every command that reads boards shares.
func boardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "input", Aliases: []string{"i"}, Usage: "read boards from `FILE` (one per line, optional leading id, # comments); - reads stdin"},
		&cli.IntFlag{Name: "rows", Value: 4, Usage: "board rows"},
		&cli.IntFlag{Name: "cols", Value: 4, Usage: "board columns"},
	}
}

// readBoards collects the boards of a command: from --input, or from the
// arguments. Each argument holding a space or comma is one board; arguments
// that are bare numbers together form one board.
func readBoards(c *cli.Context, e *env) ([]encode.Instance, error) {
	rows, cols := c.Int("rows"), c.Int("cols")
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, cmdline.BadInput(err)
	}
	if in := c.String("input"); in != "" {
		if c.Args().Len() > 0 {
			return nil, cmdline.BadInputf("give boards either with --input or as arguments, not both")
		}
		var insts []encode.Instance
		var err error
		if in == "-" {
			insts, err = encode.ReadInstances(e.stdin, "stdin", rows, cols)
		} else {
			f, ferr := os.Open(in)
			if ferr != nil {
				return nil, cmdline.BadInput(ferr)
			}
			defer f.Close()
			insts, err = encode.ReadInstances(f, in, rows, cols)
		}
		if err != nil {
			return nil, cmdline.BadInput(err)
		}
		if len(insts) == 0 {
			return nil, cmdline.BadInputf("%s: no boards found", in)
		}
		return insts, nil
	}
	args := c.Args().Slice()
	if len(args) == 0 {
		return nil, cmdline.BadInputf("no boards given: pass a board as arguments (e.g. \"1 2 3 ... 0\") or use --input FILE")
	}
	joined := true
	for _, a := range args {
		if strings.ContainsAny(a, " ,\t") {
			joined = false
		}
	}
	if joined {
		args = []string{strings.Join(args, " ")}
	}
	var out []encode.Instance
	for i, a := range args {
		b, err := encode.Parse(a, rows, cols)
		if err != nil {
			return nil, cmdline.BadInputf("argument %d: %v", i+1, err)
		}
		out = append(out, encode.Instance{ID: strconv.Itoa(i + 1), Line: i + 1, Board: b})
	}
	return out, nil
}

// maxWorkers bounds --workers, --jobs and --threads: more goroutines than
// this only cost memory.
const maxWorkers = 256
