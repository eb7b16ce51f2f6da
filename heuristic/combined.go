package heuristic

import (
	"fmt"
	"strconv"

	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/pdb"
)

// combinedEntries are the pattern databases together with the gap sets
// (ida.Combined): pdbP+gapG is max(the database P with its transposed lookup, h_G:G);
// pdbP+gapGr also asks the gap sets about the board's transpose;
// the -gapfirst forms ask the gap sets before the database's bound (same
// cuts, fewer database lookups, more questions).
func combinedEntries() []Entry {
	var es []Entry
	bases := []struct {
		name       string
		partitions []string // several: their maximum (pdb78+78mid, the fewest nodes)
		rows, cols int
		transpose  bool // as the database's own entry
	}{{"pdb78", []string{"7-8"}, 4, 4, true}, {"pdb78+78mid", []string{"7-8", "7-8-mid"}, 4, 4, true},
		{"pdb44", []string{"4-4"}, 3, 3, false}}
	for _, b := range bases {
		for g := 0; g <= maxRegisteredGap; g += 2 {
			for _, v := range []struct {
				suffix              string
				transpose, gapFirst bool
				what                string
			}{
				{"", false, false, ""},
				{"r", true, false, ", asking about the transpose too"},
				{"-gapfirst", false, true, ", the gap sets asked first"},
				{"r-gapfirst", true, true, ", asking about the transpose too, the gap sets first"},
			} {
				if v.gapFirst && b.rows != 4 {
					continue // the timing variants only for the 15-puzzle
				}
				name := b.name + "+gap" + strconv.Itoa(g) + v.suffix
				es = append(es, Entry{
					Name:    name,
					Args:    "K",
					Usage:   fmt.Sprintf("max(%s, h_G:%d)%s (K: the gap sets of K cells)", b.name, g, v.what),
					Options: append([]string{OptPDB}, gapOptions...),
					Make: func(r *Resolver, args string) (ida.Heuristic, error) {
						cells, filter, err := gapArgs(g, args)
						if err != nil || filter != 0 {
							return nil, fmt.Errorf("bad heuristic %s:%s: want %s or %s:K with cells K, e.g. %s:8", name, quote(args), name, name, name)
						}
						var parts []ida.Heuristic
						for _, p := range b.partitions {
							label := b.name
							if len(b.partitions) > 1 {
								label = "pdb" + p
							}
							h, err := r.pdbHeuristic(p, b.rows, b.cols, b.transpose, label)
							if err != nil {
								return nil, err
							}
							parts = append(parts, h)
						}
						var base ida.TrackerMaker = parts[0].(*pdb.Heuristic)
						if len(parts) > 1 {
							base = ida.Max{Parts: parts, Label: b.name}
						}
						var gh ida.Heuristic
						if len(r.opt.GapDBs) > 0 {
							var h gapdb.Heuristic
							h, err = r.gapDBHeuristic(g, cells, 0, false)
							gh = h.Looped()
						} else {
							gh, err = r.gapHeuristic(g, cells, 0)
						}
						if err != nil {
							return nil, err
						}
						label := name
						if args != "" {
							label += ":" + args
						}
						return ida.Combined{Base: base, Gap: gh, Transpose: v.transpose, GapFirst: v.gapFirst,
							NoSkip: r.opt.NoSkip, Label: label}, nil
					},
				})
			}
		}
	}
	return es
}
