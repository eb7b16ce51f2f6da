package main

import (
	"sort"
	"strings"

	"github.com/gapset/gapset/ida"
	"github.com/urfave/cli/v2"
)

// heuristicMakers maps --heuristic names to constructors. Constructors get
// the command's flags (for files such as --bdd or --pdb).
func heuristicMakers() map[string]func(c *cli.Context) (ida.Heuristic, error) {
	return map[string]func(c *cli.Context) (ida.Heuristic, error){
		"md":        func(*cli.Context) (ida.Heuristic, error) { return ida.Manhattan{}, nil },
		"lc":        func(*cli.Context) (ida.Heuristic, error) { return ida.LinearConflict{}, nil },
		"wd":        func(*cli.Context) (ida.Heuristic, error) { return ida.WalkingDistance{}, nil },
		"wd-noskip": func(*cli.Context) (ida.Heuristic, error) { return ida.WalkingDistance{NoSkip: true}, nil },
		"id":        func(*cli.Context) (ida.Heuristic, error) { return ida.InversionDistance{}, nil },
		"wdid": func(*cli.Context) (ida.Heuristic, error) {
			return ida.Max{Parts: []ida.Heuristic{ida.WalkingDistance{}, ida.InversionDistance{}}, Label: "wdid"}, nil
		},
		"wdlc": func(*cli.Context) (ida.Heuristic, error) {
			return ida.Max{Parts: []ida.Heuristic{ida.WalkingDistance{}, ida.LinearConflict{}}, Label: "wdlc"}, nil
		},
		"pdb78":        pdbHeuristic("7-8", 4, 4, true, "pdb78"),
		"pdb663":       pdbHeuristic("6-6-3", 4, 4, true, "pdb663"),
		"pdb555":       pdbHeuristic("5-5-5", 4, 4, true, "pdb555"),
		"pdb78-direct": pdbHeuristic("7-8", 4, 4, false, "pdb78-direct"),
		"pdb78-noskip": pdbHeuristic("7-8", 4, 4, true, "pdb78-noskip"),
		"pdb78+663":    pdbMaxHeuristic("pdb78+663", "7-8", "6-6-3"),
		"pdb44":        pdbHeuristic("4-4", 3, 3, false, "pdb44"),
		// gap sets (issue 6): sets from --keys, --bdd or --cells
		"gap0": func(c *cli.Context) (ida.Heuristic, error) { return gapHeuristic(c, 0, 0, 0) },
		"gap2": func(c *cli.Context) (ida.Heuristic, error) { return gapHeuristic(c, 2, 0, 0) },
		"gap4": func(c *cli.Context) (ida.Heuristic, error) { return gapHeuristic(c, 4, 0, 0) },
		"gap6": func(c *cli.Context) (ida.Heuristic, error) { return gapHeuristic(c, 6, 0, 0) },
		"gap8": func(c *cli.Context) (ida.Heuristic, error) { return gapHeuristic(c, 8, 0, 0) },
	}
}

func heuristicNames() string {
	var names []string
	for n := range heuristicMakers() {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func makeHeuristic(c *cli.Context, name string) (ida.Heuristic, error) {
	mk, ok := heuristicMakers()[name]
	if !ok {
		return nil, badInputf("unknown heuristic %q (choose %s)", name, heuristicNames())
	}
	h, err := mk(c)
	if err != nil {
		return nil, badInput(err)
	}
	return h, nil
}
