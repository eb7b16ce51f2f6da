package main

import (
	"fmt"
	"strings"

	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/heuristic"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/pdb"
	"github.com/urfave/cli/v2"
)

// heuristicFlags are the flags that supply files to heuristics: gap sets
// and pattern databases. Their names are the heuristic package's options.
func heuristicFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: heuristic.OptPDB, Value: heuristic.DefaultPDBDir, Usage: "pattern database `DIR` (see gapset pdb build)", Action: cmdline.InputDirFlag("--" + heuristic.OptPDB)},
		&cli.StringSliceFlag{Name: heuristic.OptKeys, Usage: "key-set `FILE` (gapset enumerate) held exactly in memory; repeat for the Gap0 and Gap2 sets", Action: cmdline.InputsFlag("--" + heuristic.OptKeys)},
		&cli.StringSliceFlag{Name: heuristic.OptBDD, Usage: "BDD `FILE` of a gap set (a .bdd file, or the mapped form gapset build --map writes); repeat for the Gap0 and Gap2 sets", Action: cmdline.InputsFlag("--" + heuristic.OptBDD)},
		&cli.IntSliceFlag{Name: heuristic.OptCells, Usage: "enumerate in memory Gap0, Gap2, ..., Gap<max-gap> on the last `K` cells (K = rows*cols: whole boards; the 4x4 Gap0: about a minute); repeatable"},
		&cli.IntFlag{Name: heuristic.OptMaxGap, Usage: "largest gap `G` enumerated for --cells (even; the 4x4 board needs key files beyond 0)"},
		&cli.IntSliceFlag{Name: heuristic.OptDense, Value: cli.NewIntSlice(heuristic.DefaultDense()...), Usage: "bit tables of each gap set's projection on its last `K` cells (16^K bits: 4 is 8 KiB, 6 2 MiB), asked first, in order; repeatable; 0: none"},
		&cli.StringSliceFlag{Name: heuristic.OptGapDB, Usage: "gap database `FILE` (gapset gapdb), one a projection: gapG, gapGr and pdb78+gapG read their levels from it (the max over all given); repeatable", Action: cmdline.InputsFlag("--" + heuristic.OptGapDB)},
		&cli.BoolFlag{Name: heuristic.OptNoSkip, Usage: "query the gap sets at every node (no lower-bound-check skipping)"},
	}
}

// resolveHeuristics builds the heuristics of the specs from the command's
// flags, and refuses a heuristic flag that none of them reads.
// With beside, the checksums of database files checked whole before run
// beside the search (heuristic.Options.ChecksBeside): the caller holds its
// output until the resolver's Pending checks pass.
func resolveHeuristics(c *cli.Context, e *env, specs []string, beside bool) ([]ida.Heuristic, *heuristic.Resolver, error) {
	if err := heuristic.CheckDense(c.IntSlice(heuristic.OptDense)); err != nil {
		return nil, nil, cmdline.BadInput(err)
	}
	prog := progress.New(e.stderr, c.Bool("quiet"))
	rows, cols := c.Int("rows"), c.Int("cols")
	r := heuristic.New(heuristic.Options{
		Rows: rows, Cols: cols,
		Keys: c.StringSlice(heuristic.OptKeys), BDDs: c.StringSlice(heuristic.OptBDD), GapDBs: c.StringSlice(heuristic.OptGapDB),
		Cells: c.IntSlice(heuristic.OptCells), MaxGap: c.Int(heuristic.OptMaxGap),
		Dense: c.IntSlice(heuristic.OptDense), NameDense: c.IsSet(heuristic.OptDense),
		NoSkip: c.Bool(heuristic.OptNoSkip), PDBDir: c.String(heuristic.OptPDB), PDBVerified: pdbVerified(e), ChecksBeside: beside,
		Context: e.context,
		Progress: func(g int, pr gapset.Progress) {
			prog.Update(0, 0, false, "enumerating Gap%d of %dx%d: gap %d, Manhattan %d, %d members so far", g, rows, cols, pr.Gap, pr.Manhattan, pr.Members)
		},
		Note: func(s string) {
			if !c.Bool("quiet") {
				prog.Clear()
				fmt.Fprintf(e.stderr, "gapset: %s\n", s)
			}
		},
	})
	hs, err := r.ResolveAll(specs)
	prog.Done()
	r.SaveVerified() // best effort: without it the next load hashes again
	if err != nil {
		return nil, nil, cmdline.BadInput(err)
	}
	for _, f := range heuristicFlags() {
		name := f.Names()[0]
		if c.IsSet(name) && !r.Uses(name) {
			return nil, nil, cmdline.BadInputf("--%s does not apply to heuristic %s", name, cmdline.Truncate(strings.Join(specs, ","), 80))
		}
	}
	return hs, r, nil
}

// heuristicNames lists the registered names for help texts.
func heuristicNames() string { return heuristic.NameLines("  ", 100) }

// pdbVerified opens the record of databases checked whole (nil: none).
func pdbVerified(e *env) *pdb.Verified {
	if e.pdbRecord == "" {
		return nil
	}
	return pdb.OpenVerified(e.pdbRecord)
}
