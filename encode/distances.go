package encode

import "slices"

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
