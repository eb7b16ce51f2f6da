package gapset

import "context"

// LevelSets is Sets for every level at once: one enumeration up to maxGap,
// and for each k in cells the sorted projections of the sets of gap <= 0,
// gap <= 2, ..., gap <= maxGap (out[k][i] holds gap <= 2i). The layers are
// exact, so the set of gap <= 2i is the union of the layers of levels 0..i.
// It is what h_G:2N needs on small boards: N+1 nested sets for the price of
// the largest one's enumeration.
func LevelSets(ctx context.Context, rows, cols, maxGap int, cells []int, progress func(Progress)) (map[int][][]uint64, error) {
	return ResidualLevelSets(ctx, nil, rows, cols, maxGap, cells, progress)
}

// ResidualLevelSets is LevelSets relative to a base heuristic h (nil:
// Manhattan distance): out[k][i] holds the projections onto the last k
// cells of R<=2i, the configurations whose optimum exceeds h by at most 2i
// (Base says which h qualify; one that does not is refused with ErrBase,
// at the goal or at the first move that shows it). In memory: boards up
// to 3x4.
func ResidualLevelSets(ctx context.Context, base Base, rows, cols, maxGap int, cells []int, progress func(Progress)) (map[int][][]uint64, error) {
	g, err := checkArgs(rows, cols, maxGap, cells)
	if err != nil {
		return nil, err
	}
	layers, err := memLayersOf(ctx, base, rows, cols, maxGap, -1, progress)
	if err != nil {
		return nil, err
	}
	out := make(map[int][][]uint64, len(cells))
	var scratch []uint64
	for _, k := range cells {
		for i := 0; i <= maxGap/2; i++ {
			var upTo []memLayer
			for _, l := range layers {
				if l.level <= i {
					upTo = append(upTo, l)
				}
			}
			var s []uint64
			s, scratch = unionProjected(upTo, k, g.N, scratch)
			out[k] = append(out[k], s)
		}
	}
	return out, nil
}
