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
		"md": func(*cli.Context) (ida.Heuristic, error) { return ida.Manhattan{}, nil },
		// gap sets (issue 6): sets from --keys, --bdd or --cells
		"gap0": func(c *cli.Context) (ida.Heuristic, error) { return gapHeuristic(c, 0, 0, 0) },
		"gap2": func(c *cli.Context) (ida.Heuristic, error) { return gapHeuristic(c, 2, 0, 0) },
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
