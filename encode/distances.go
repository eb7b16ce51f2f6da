package encode

import (
	"context"
	"fmt"
	"slices"

	"github.com/gapset/gapset/internal/placement"
)

// Distances returns the optimal number of moves to the goal of every board
// reachable from it, keyed by Board.Key, by breadth-first search from the
// goal. It holds every reachable board in a map: meant as ground truth for
// small boards (2x3: 360 boards, 3x3: 181,440, 2x4: 20,160), not for 4x4.
func Distances(rows, cols int) map[uint64]int {
	g := Goal(rows, cols)
	dist := map[uint64]int{g.Key(): 0}
	queue := []Board{g}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		d := dist[b.Key()]
		next, _ := b.Successors()
		for _, n := range next {
			if _, ok := dist[n.Key()]; !ok {
				dist[n.Key()] = d + 1
				queue = append(queue, n)
			}
		}
	}
	return dist
}

// GapKeys returns, sorted, the keys in dist (from Distances on the same
// R x C board) whose gap, optimum minus Manhattan distance, lies in lo..hi:
// the gap sets by exhaustive truth (lo = hi = 0: G0; lo = 0, hi = 2: the
// paper's Gap2, gap at most 2). It returns nil for an unsupported size.
func GapKeys(rows, cols int, dist map[uint64]int, lo, hi int) []uint64 {
	g, err := NewGeometry(rows, cols)
	if err != nil {
		return nil
	}
	var out []uint64
	for k, d := range dist {
		if gap := d - g.Manhattan(k); gap >= lo && gap <= hi {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Unreached marks, in DistanceTable, the permutations no move sequence
// reaches from the goal (the other parity).
const Unreached = 0xFF

// DistanceTable is Distances for boards too big for a map (3x4: 239,500,800
// boards): the optimal number of moves to the goal of every board, indexed
// by the rank of its key (placement.RankKey(key, n, n), n = rows*cols), and
// Unreached for the permutations of the other parity. It takes n! bytes
// (3x4: 479 MB) and about a minute on the 3x4 board; ctx stops it between
// layers.
func DistanceTable(ctx context.Context, rows, cols int) ([]uint8, error) {
	if err := CheckSize(rows, cols); err != nil {
		return nil, err
	}
	n := rows * cols
	if n > 12 {
		return nil, fmt.Errorf("a distance table of a %dx%d board: %d! bytes is too many (at most 12 cells)", rows, cols, n)
	}
	dist := make([]uint8, placement.Size(n, n))
	for i := range dist {
		dist[i] = Unreached
	}
	var pos [MaxCells]uint8
	goal := Goal(rows, cols)
	for c, t := range goal.Tiles {
		pos[c] = uint8(t)
	}
	start := placement.Rank(pos[:n], n)
	dist[start] = 0
	frontier := []uint32{uint32(start)}
	var next []uint32
	for d := 0; len(frontier) > 0; d++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if d+1 >= Unreached {
			return nil, fmt.Errorf("a board %d moves from the goal: more than a byte holds", d+1)
		}
		next = next[:0]
		for _, r := range frontier {
			placement.Unrank(int(r), pos[:n], n)
			blank := 0
			for pos[blank] != 0 {
				blank++
			}
			for _, c := range Neighbors(rows, cols, blank) {
				pos[blank], pos[c] = pos[c], 0
				if nr := placement.Rank(pos[:n], n); dist[nr] == Unreached {
					dist[nr] = uint8(d + 1)
					next = append(next, uint32(nr))
				}
				pos[c], pos[blank] = pos[blank], 0
			}
		}
		frontier, next = next, frontier
	}
	return dist, nil
}
