package gapset

import "context"

// DepthFirst enumerates the configurations with gap at most maxGap by a
// depth-first reverse search from the goal with a visited map, as the paper
// describes it. It is the independent cross-check of the layered
// enumeration, for small boards only (the map holds every member). It
// returns the members' keys with their exact gaps.
func DepthFirst(ctx context.Context, rows, cols, maxGap int) (map[uint64]int, error) {
	g, err := checkArgs(rows, cols, maxGap, []int{rows * cols})
	if err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	// lowers[key] is the fewest distance-lowering moves on any path found
	// from the goal; a path with j of them has length M + 2j.
	lowers := map[uint64]int{}
	maxLowers := maxGap / 2
	var visit func(key uint64, j int) error
	visit = func(key uint64, j int) error {
		if old, ok := lowers[key]; ok && old <= j {
			return nil
		}
		lowers[key] = j
		if len(lowers)%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var next [4]uint64
		var up [4]bool
		n := 0
		g.successors(key, func(k uint64, raise bool) { next[n], up[n] = k, raise; n++ })
		for i := 0; i < n; i++ {
			nj := j
			if !up[i] {
				nj++
			}
			if nj > maxLowers {
				continue
			}
			if err := visit(next[i], nj); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(g.goal, 0); err != nil {
		return nil, err
	}
	out := make(map[uint64]int, len(lowers))
	for k, j := range lowers {
		out[k] = 2 * j
	}
	return out, nil
}
