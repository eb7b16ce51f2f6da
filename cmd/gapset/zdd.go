package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/urfave/cli/v2"
)

func zddCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "zdd",
		Usage:     "count the ZDD nodes of the sets in .bdd files and store the counts in them",
		ArgsUsage: "FILE...",
		Description: "Converts each file's BDD into the ZDD of the same set and order (no key file needed) and\n" +
			"rewrites the file with the ZDD node count in its header (temporary file, then rename; nodes unchanged).\n" +
			"For files built with --zdd=false, or too big to build BDD and ZDD side by side.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the counts, leave the files alone"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdline.BadInputf("zdd needs at least one .bdd file")
			}
			pr := progress.New(e.stderr, c.Bool("quiet"))
			defer pr.Done()
			e.cleanup.WillWrite(c.Args().Slice()...) // rewritten in place: temporary file, then rename
			for _, path := range c.Args().Slice() {
				pr.Update(0, 0, true, "%s: loading", path)
				d, in, err := bdd.Load(path)
				if err != nil {
					if errors.Is(err, bdd.ErrFormat) || errors.Is(err, os.ErrNotExist) {
						return cmdline.BadInput(err)
					}
					return err
				}
				if in.ZDD {
					return cmdline.BadInputf("%s holds a ZDD already", path)
				}
				pr.Update(0, 0, true, "%s: converting %d BDD nodes", path, in.Nodes)
				nz, n, err := d.ZDDSize()
				if err != nil || n != in.Count {
					return fmt.Errorf("%s: the ZDD holds %d members, the BDD %d (%v)", path, n, in.Count, err)
				}
				zn := uint64(nz)
				if !c.Bool("dry-run") && zn != in.ZDDNodes {
					if in.ZDDNodes != 0 {
						return fmt.Errorf("%s: header says %d ZDD nodes, the conversion gives %d", path, in.ZDDNodes, zn)
					}
					pr.Update(0, 0, true, "%s: saving", path)
					meta := in.Meta()
					meta.ZDDNodes = zn
					out, err := bdd.Save(path, d, meta)
					if err != nil {
						return err
					}
					if out.Nodes != in.Nodes || out.FileSize != in.FileSize {
						return fmt.Errorf("%s: rewritten with %d nodes, %d bytes (was %d, %d)", path, out.Nodes, out.FileSize, in.Nodes, in.FileSize)
					}
				}
				fmt.Fprintf(e.stdout, "%s order=%s patterns=%d nodes=%d zdd_nodes=%d %s\n", in.Name(), in.Order.Name, in.Count, in.Nodes, zn, path)
			}
			return nil
		},
	}
}
