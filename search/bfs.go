package search

import (
	"fmt"
	"math"
	"time"
)

// entry is one queue slot: a state, the entry it was reached from (-1 for a
// root), the move that reached it, and (bidirectional search) its side.
type entry[S comparable] struct {
	state  S
	parent int32
	move   int32
	back   bool
}

// queue is the breadth-first queue; entries are never removed, so an entry's
// position doubles as its number in the duplicate index and parent links
// stay valid.
type queue[S comparable] struct {
	p       Problem[S]
	opt     Options
	entries []entry[S]
	idx     index[S]
	buf     []Step[S]
	res     Result[S]
}

func newQueue[S comparable](p Problem[S], opt Options) (*queue[S], error) {
	idx, err := newIndex(opt.Dedup, p.Hash, opt.SizeHint)
	if err != nil {
		return nil, err
	}
	return &queue[S]{p: p, opt: opt, idx: idx, entries: make([]entry[S], 0, opt.SizeHint)}, nil
}

// add stores s as a new entry unless it is known; it returns the entry
// number of s and whether s was already known.
func (q *queue[S]) add(s S, parent int32, move int, back bool) (int32, bool, error) {
	n := len(q.entries)
	i, seen := q.idx.findOrAdd(s, int32(n))
	if seen {
		return i, true, nil
	}
	// The index took s already; the search stops here, so that is harmless.
	if n >= math.MaxInt32-1 || (q.opt.MaxStates > 0 && n >= q.opt.MaxStates) {
		return 0, false, fmt.Errorf("%w: %d states stored", ErrLimit, n)
	}
	q.entries = append(q.entries, entry[S]{state: s, parent: parent, move: int32(move), back: back})
	return i, false, nil
}

// expand lists the successors of entry i, dropping the undo move when asked.
func (q *queue[S]) expand(i int32) []Step[S] {
	e := q.entries[i]
	q.buf = q.p.Successors(e.state, q.buf[:0])
	q.res.Expanded++
	if q.opt.NoUndo && e.parent >= 0 {
		prev := q.entries[e.parent].state
		k := 0
		for _, st := range q.buf {
			if st.State != prev {
				q.buf[k] = st
				k++
			}
		}
		q.buf = q.buf[:k]
	}
	q.res.Generated += int64(len(q.buf))
	return q.buf
}

// chain returns the states and moves from the root of entry i's side to i.
func (q *queue[S]) chain(i int32) ([]S, []int) {
	var states []S
	var moves []int
	for ; i >= 0; i = q.entries[i].parent {
		states = append(states, q.entries[i].state)
		if q.entries[i].parent >= 0 {
			moves = append(moves, int(q.entries[i].move))
		}
	}
	reverse(states)
	reverse(moves)
	return states, moves
}

func (q *queue[S]) finish(t0 time.Time) Result[S] {
	q.res.Stored = len(q.entries)
	q.res.Elapsed = time.Since(t0)
	return q.res
}

func reverse[T any](a []T) {
	for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
		a[i], a[j] = a[j], a[i]
	}
}

// BFS finds a shortest path from start to a state satisfying goal. Like the
// breadth-first search pages, it tests the goal when a state is generated,
// not when it leaves the queue. On failure the Result still holds the work done.
func BFS[S comparable](p Problem[S], start S, goal func(S) bool, opt Options) (Result[S], error) {
	t0 := time.Now()
	q, err := newQueue(p, opt)
	if err != nil {
		return Result[S]{}, err
	}
	if _, _, err := q.add(start, -1, 0, false); err != nil {
		return q.finish(t0), err
	}
	if goal(start) {
		q.res.Path = []S{start}
		q.res.Moves = []int{}
		return q.finish(t0), nil
	}
	for front := int32(0); int(front) < len(q.entries); front++ {
		for _, st := range q.expand(front) {
			i, seen, err := q.add(st.State, front, st.Move, false)
			if err != nil {
				return q.finish(t0), err
			}
			if !seen && goal(st.State) {
				q.res.Path, q.res.Moves = q.chain(i)
				return q.finish(t0), nil
			}
		}
	}
	return q.finish(t0), ErrNotFound
}

// Bidirectional finds a shortest path from start to goal by searching from
// both ends in one queue: each entry remembers its side, and a successor
// already stored by the other side joins the two halves. The backward half
// uses Successors as predecessors, so every move must be undoable by one
// move (true of sliding puzzles and oshidori).
func Bidirectional[S comparable](p Problem[S], start, goal S, opt Options) (Result[S], error) {
	t0 := time.Now()
	q, err := newQueue(p, opt)
	if err != nil {
		return Result[S]{}, err
	}
	if _, _, err := q.add(start, -1, 0, false); err != nil {
		return q.finish(t0), err
	}
	if start == goal {
		q.res.Path = []S{start}
		q.res.Moves = []int{}
		return q.finish(t0), nil
	}
	if _, _, err := q.add(goal, -1, 0, true); err != nil {
		return q.finish(t0), err
	}
	for front := int32(0); int(front) < len(q.entries); front++ {
		back := q.entries[front].back
		for _, st := range q.expand(front) {
			i, seen, err := q.add(st.State, front, st.Move, back)
			if err != nil {
				return q.finish(t0), err
			}
			if seen && q.entries[i].back != back {
				q.res.Path, q.res.Moves, err = q.join(front, i)
				return q.finish(t0), err
			}
		}
	}
	return q.finish(t0), ErrNotFound
}

// join builds the path through the meeting move a -> b (entries of opposite
// sides): the forward chain to its end, then the backward chain read from
// its meeting end to the goal. The backward chain was built with moves
// pointing towards its meeting end, so the labels of its moves read in the
// other direction are looked up again among the successors.
func (q *queue[S]) join(a, b int32) ([]S, []int, error) {
	fwd, bwd := a, b
	if q.entries[a].back {
		fwd, bwd = b, a
	}
	states, moves := q.chain(fwd)
	first := len(states)
	for i := bwd; i >= 0; i = q.entries[i].parent {
		states = append(states, q.entries[i].state)
	}
	for k := first - 1; k < len(states)-1; k++ {
		m, ok := moveBetween(q.p, states[k], states[k+1], q.buf[:0])
		if !ok {
			return nil, nil, fmt.Errorf("internal error: bidirectional search joined states that are not one move apart (is every move undoable?)")
		}
		moves = append(moves, m)
	}
	return states, moves, nil
}

// moveBetween returns the label of a move from s to t.
func moveBetween[S comparable](p Problem[S], s, t S, buf []Step[S]) (int, bool) {
	for _, st := range p.Successors(s, buf) {
		if st.State == t {
			return st.Move, true
		}
	}
	return 0, false
}

// Layers is the outcome of a breadth-first search run to exhaustion.
type Layers[S comparable] struct {
	// Sizes[d] is the number of states at distance d from the start.
	Sizes []int
	// Farthest holds the states at the largest distance, len(Sizes)-1, in
	// the order the search stored them.
	Farthest []S
	Reached  int
	Work     Result[S] // Generated, Stored, Expanded, Elapsed
}

// Depth is the largest distance from the start.
func (l Layers[S]) Depth() int { return len(l.Sizes) - 1 }

// Farthest runs a breadth-first search from start until no new state
// appears and returns the size of every layer and the last layer's states.
func Farthest[S comparable](p Problem[S], start S, opt Options) (Layers[S], error) {
	t0 := time.Now()
	q, err := newQueue(p, opt)
	if err != nil {
		return Layers[S]{}, err
	}
	if _, _, err := q.add(start, -1, 0, false); err != nil {
		return Layers[S]{}, err
	}
	var out Layers[S]
	layerStart, layerEnd := 0, 1
	for layerStart < layerEnd {
		out.Sizes = append(out.Sizes, layerEnd-layerStart)
		for front := layerStart; front < layerEnd; front++ {
			for _, st := range q.expand(int32(front)) {
				if _, _, err := q.add(st.State, int32(front), st.Move, false); err != nil {
					out.Work = q.finish(t0)
					return out, err
				}
			}
		}
		layerStart, layerEnd = layerEnd, len(q.entries)
	}
	last := len(q.entries) - out.Sizes[len(out.Sizes)-1]
	for _, e := range q.entries[last:] {
		out.Farthest = append(out.Farthest, e.state)
	}
	out.Reached = len(q.entries)
	out.Work = q.finish(t0)
	return out, nil
}
