package search

import (
	"fmt"
	"math"
	"time"
)

// Bound is an admissible lower bound on the moves left, kept incrementally
// along the search path.
type Bound[S comparable] interface {
	// Root returns the bound of the start state.
	Root(s S) int
	// Child returns the bound of step.State, reached from parent, whose
	// bound is h.
	Child(parent S, h int, step Step[S]) int
}

// DeepenOptions tune IterativeDeepening.
type DeepenOptions struct {
	// NoUndo skips a successor equal to the state the current one was
	// reached from (never move the same piece twice in a row).
	NoUndo bool
	// MaxDepth ends the search with ErrNotFound after the pass with this
	// limit fails. It must be set: depth-first search cannot tell an
	// unreachable goal from a far one.
	MaxDepth int
	// MaxNodes stops the search with ErrLimit after this many expansions
	// (0: no limit).
	MaxNodes int64
}

type deepener[S comparable] struct {
	p         Problem[S]
	goal      func(S) bool
	lb        Bound[S]
	opt       DeepenOptions
	limit     int
	next      int         // smallest depth + bound beyond the limit seen in this pass
	bufs      [][]Step[S] // one successor buffer per depth: no allocation per node
	path      []S
	moves     []int
	expanded  int64
	generated int64
	stopped   bool
}

// IterativeDeepening finds a shortest path from start to a goal state by
// depth-first passes with a growing depth limit. With a lower bound lb (nil
// for none) a node whose depth plus bound exceeds the limit is cut, the first
// limit is the start's bound, and each next limit is the smallest depth plus
// bound that the pass cut (so a bound that only changes by 2, as on sliding
// boards, skips the passes that cannot succeed). Without a bound the limit
// grows by one. The goal is tested at every node; a pass only finds goals
// beyond the previous limit, so the first one found is a shortest.
func IterativeDeepening[S comparable](p Problem[S], start S, goal func(S) bool, lb Bound[S], opt DeepenOptions) (Result[S], error) {
	t0 := time.Now()
	d := &deepener[S]{p: p, goal: goal, lb: lb, opt: opt}
	var res Result[S]
	h := 0
	if lb != nil {
		h = lb.Root(start)
	}
	d.path = append(d.path, start)
	var err error
	for d.limit = h; ; d.limit = d.next {
		if d.limit > opt.MaxDepth {
			err = fmt.Errorf("%w within %d moves (%w)", ErrNotFound, opt.MaxDepth, ErrDepthLimit)
			break
		}
		d.next = math.MaxInt
		e0, g0 := d.expanded, d.generated
		found := d.dfs(start, h, 0)
		res.Iterations = append(res.Iterations, Iteration{Limit: d.limit, Expanded: d.expanded - e0, Generated: d.generated - g0})
		if found {
			res.Path = append([]S(nil), d.path...)
			res.Moves = append([]int{}, d.moves...)
			break
		}
		if d.stopped {
			err = fmt.Errorf("%w: %d nodes expanded at depth limit %d", ErrLimit, d.expanded, d.limit)
			break
		}
		if d.next == math.MaxInt {
			err = fmt.Errorf("%w: every state reachable was searched", ErrNotFound)
			break
		}
	}
	res.Expanded, res.Generated = d.expanded, d.generated
	res.Elapsed = time.Since(t0)
	return res, err
}

// dfs searches below s (at depth g with bound h); d.path ends with s.
func (d *deepener[S]) dfs(s S, h, g int) bool {
	if d.goal(s) {
		return true
	}
	if g == d.limit {
		d.next = min(d.next, g+1)
		return false
	}
	if d.opt.MaxNodes > 0 && d.expanded >= d.opt.MaxNodes {
		d.stopped = true
		return false
	}
	d.expanded++
	for len(d.bufs) <= g {
		d.bufs = append(d.bufs, nil)
	}
	succ := d.p.Successors(s, d.bufs[g][:0])
	d.bufs[g] = succ
	for _, st := range succ {
		if d.opt.NoUndo && g > 0 && st.State == d.path[g-1] {
			continue
		}
		d.generated++
		nh := 0
		if d.lb != nil {
			nh = d.lb.Child(s, h, st)
			if f := g + 1 + nh; f > d.limit {
				d.next = min(d.next, f)
				continue
			}
		}
		d.path = append(d.path, st.State)
		d.moves = append(d.moves, st.Move)
		if d.dfs(st.State, nh, g+1) {
			return true
		}
		if d.stopped {
			return false
		}
		d.path = d.path[:g+1]
		d.moves = d.moves[:g]
	}
	return false
}
