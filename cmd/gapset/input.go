package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
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
		return nil, badInput(err)
	}
	if in := c.String("input"); in != "" {
		if c.Args().Len() > 0 {
			return nil, badInputf("give boards either with --input or as arguments, not both")
		}
		var insts []encode.Instance
		var err error
		if in == "-" {
			insts, err = encode.ReadInstances(e.stdin, "stdin", rows, cols)
		} else {
			f, ferr := os.Open(in)
			if ferr != nil {
				return nil, badInput(ferr)
			}
			defer f.Close()
			insts, err = encode.ReadInstances(f, in, rows, cols)
		}
		if err != nil {
			return nil, badInput(err)
		}
		if len(insts) == 0 {
			return nil, badInputf("%s: no boards found", in)
		}
		return insts, nil
	}
	args := c.Args().Slice()
	if len(args) == 0 {
		return nil, badInputf("no boards given: pass a board as arguments (e.g. \"1 2 3 ... 0\") or use --input FILE")
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
			return nil, badInputf("argument %d: %v", i+1, err)
		}
		out = append(out, encode.Instance{ID: strconv.Itoa(i + 1), Line: i + 1, Board: b})
	}
	return out, nil
}

// checkFormat validates a --format value against the allowed ones.
func checkFormat(got string, allowed ...string) error {
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return badInputf("unknown --format %s (choose %s)", quoteArg(got), strings.Join(allowed, ", "))
}

func seconds(f float64) string { return fmt.Sprintf("%.3f", f) }

// maxWorkers bounds --workers and --jobs: more goroutines than this only
// cost memory.
const maxWorkers = 256

// noArgs refuses positional arguments of a command that takes none.
func noArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return badInputf("%s takes no arguments, got %s (flags start with --)", c.Command.FullName(), quoteArg(c.Args().First()))
	}
	return nil
}
