package six

import "github.com/gapset/gapset/search"

// Distances returns the graph distance between every two positions,
// computed by a breadth-first search of the hexagonal graph from each.
func Distances() [Cells][Cells]int {
	var d [Cells][Cells]int
	for s := 0; s < Cells; s++ {
		for t := range d[s] {
			d[s][t] = -1
		}
		d[s][s] = 0
		queue := []int{s}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range adjacent[u] {
				if d[s][v] < 0 {
					d[s][v] = d[s][u] + 1
					queue = append(queue, v)
				}
			}
		}
	}
	return d
}

// Bound is the page's lower bound: the sum over pieces of the graph
// distance from its position to its home (piece p's home is position p-1).
// Each move changes one term by at most one, so it is admissible and the
// search keeps it incrementally.
type Bound struct {
	// cost[p][c] is the distance of piece p at position c from home.
	cost [Cells][Cells]int
}

// NewBound computes the table from the graph.
func NewBound() *Bound {
	d := Distances()
	b := &Bound{}
	for p := 1; p < Cells; p++ {
		b.cost[p] = d[p-1]
	}
	return b
}

// Cost returns the distance of piece p at position c from its home.
func (lb *Bound) Cost(p, c int) int { return lb.cost[p][c] }

// Root implements search.Bound.
func (lb *Bound) Root(b Board) int {
	h := 0
	for c := 0; c < Cells; c++ {
		h += lb.cost[b.At(c)][c]
	}
	return h
}

// Child implements search.Bound: the piece moved from the child's blank
// position into the parent's.
func (lb *Bound) Child(parent Board, h int, st search.Step[Board]) int {
	to, from := parent.Blank(), st.State.Blank()
	return h + lb.cost[st.Move][to] - lb.cost[st.Move][from]
}
