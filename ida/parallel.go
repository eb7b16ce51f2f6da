package ida

import (
	"cmp"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/safe"
)

// A parallel search splits each iteration (once the search has expanded
// splitNodes nodes; before that it runs as the sequential one): the
// calling goroutine expands the top of the tree to a frontier depth, with
// the iteration's cut test, and Options.Threads workers take the frontier's
// nodes in depth-first order from a shared counter and run the sequential
// loop below each. Every node is expanded once, either above the frontier
// or by one worker, so each iteration but the last expands exactly the
// sequential search's nodes. The first goal of the last iteration stops
// every worker (all of them finish it with Options.AllSolutions). Each
// worker has its own evaluator; the heuristic's tables are shared, read
// only.

// frontierPerThread is the frontier size aimed at per worker: enough
// subtrees that their uneven sizes even out between workers. An iteration
// aims at no more than a sixteenth of the previous iteration's nodes (the
// first at two per worker), so that sizing the frontier never costs more
// than a small part of a small search.
const frontierPerThread = 2048

// splitNodes: an iteration is split only once the search has expanded this
// many nodes (about the previous iteration's). Below it the calling
// goroutine searches alone: splitting costs a frontier pass and a replay
// per frontier node, which on Korf's 100 (most iterations a few thousand
// nodes) ate the second thread's gain.
const splitNodes = 1 << 16

// errHalted unwinds a worker after another one reached the goal or failed.
var errHalted = errors.New("halted")

type parallel struct {
	s       *searcher   // the calling goroutine's searcher: expands the top
	dry     *searcher   // sizes the frontier without counting
	workers []*searcher // one per thread
	depth   int         // the frontier depth, kept between iterations
	target  int
	cells   []uint8 // the frontier: depth blank cells per node, in DFS order
	taken   atomic.Int64
	halt    atomic.Bool
	nodes   atomic.Int64 // nodes the workers expanded, reported at polls
	mu      sync.Mutex   // guards what follows
	err     error        // the first worker's error (context, node limit)
	opt     Options
}

func newParallel(b encode.Board, h Heuristic, s *searcher, opt Options) (*parallel, error) {
	p := &parallel{s: s, depth: 1, target: 2 * opt.Threads, opt: opt}
	mk := func() (*searcher, error) {
		ev, err := h.NewEvaluator(b.Rows, b.Cols)
		if err != nil {
			return nil, err
		}
		w := newSearcher(b, s.tab, ev, opt)
		w.bindLoop()
		return w, nil
	}
	var err error
	if p.dry, err = mk(); err != nil {
		return nil, err
	}
	for range opt.Threads {
		w, err := mk()
		if err != nil {
			return nil, err
		}
		w.par = p
		w.stop = p.stopFunc(w)
		p.workers = append(p.workers, w)
	}
	return p, nil
}

// iterate runs one iteration with limit p.s.limit, leaving in p.s what the
// sequential loop would: the nodes, next, the solution and any stop error.
func (p *parallel) iterate() {
	s := p.s
	if minNodes := cmp.Or(p.opt.splitMin, splitNodes); s.expanded < minNodes {
		s.descend(s.pos.Blank, -1, 0, 0, s.pos.MD)
		return
	}
	if its := p.s.expanded; its > 0 {
		// the nodes so far are about those of the previous iteration
		p.target = int(min(max(its/16, int64(2*len(p.workers))), int64(frontierPerThread*len(p.workers))))
	}
	// Deepen the frontier until it is big enough (sized by the dry searcher,
	// whose nodes and counters do not count), then expand the top for real.
	for p.depth < s.limit {
		d := p.dry
		d.limit, d.next, d.found = s.limit, 1<<30, false
		p.cells = p.cells[:0]
		d.resetRoot(true)
		d.expandTo(p.depth, 0, &p.cells)
		if n := len(p.cells) / p.depth; n >= p.target || n == 0 || d.found {
			break
		}
		p.depth++
	}
	// s is at the root: every earlier expandTo came back to it or ended the
	// search.
	p.cells = p.cells[:0]
	if s.expandTo(p.depth, 0, &p.cells) || s.stopErr != nil {
		return
	}
	if len(p.cells) == 0 {
		return
	}
	p.taken.Store(0)
	p.halt.Store(s.found && !s.all)
	wg := safe.Group{OnPanic: func() { p.halt.Store(true) }} // the other workers stop at their next poll
	for _, w := range p.workers {
		w.limit, w.next, w.found, w.stopErr = s.limit, 1<<30, false, nil
		w.expanded, w.generated, w.solutions = 0, 0, 0
		wg.Go(func() { p.work(w) })
	}
	wg.Wait()
	for _, w := range p.workers {
		s.expanded += w.expanded
		s.generated += w.generated
		s.solutions += w.solutions
		s.next = min(s.next, w.next)
	}
	p.nodes.Store(0)
	if p.err != nil {
		s.stopErr = p.err
	}
}

// work runs w's loop below frontier nodes until none is left or the
// search halts.
func (p *parallel) work(w *searcher) {
	d := p.depth
	n := int64(len(p.cells) / d)
	for !p.halt.Load() {
		i := p.taken.Add(1) - 1
		if i >= n {
			return
		}
		path := p.cells[int(i)*d : int(i+1)*d]
		w.resetRoot(w.loop == loopEval)
		st := w.replay(path)
		prev := p.s.root.Blank
		if d >= 2 {
			prev = int(path[d-2])
		}
		if w.descend(w.pos.Blank, prev, st, d, w.pos.MD) && w.stopErr != nil {
			return
		}
	}
}

// goal records a worker's solution of length d: the first one found is
// the search's; without AllSolutions it halts every worker.
func (p *parallel) goal(w *searcher, d int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.s
	if s.all || !s.found {
		w.solutions++ // without AllSolutions, only the first counts
	}
	if !s.found {
		s.found, s.depth = true, d
		copy(s.sol[:d], w.moves[:d])
	}
	if s.all {
		return false
	}
	p.halt.Store(true)
	return true
}

// stopFunc is a worker's poll: it reports its nodes for the node limit and
// stops when another worker halted the search.
func (p *parallel) stopFunc(w *searcher) func() error {
	var reported int64
	return func() error {
		total := p.nodes.Add(w.expanded-reported) + p.s.expanded
		reported = w.expanded
		var err error
		switch {
		case p.halt.Load():
			err = errHalted
		case p.opt.Context != nil && p.opt.Context.Err() != nil:
			err = p.opt.Context.Err()
		case p.opt.MaxNodes > 0 && total > p.opt.MaxNodes:
			err = errNodeLimit(total, w.limit)
		default:
			return nil
		}
		if err != errHalted {
			p.mu.Lock()
			if p.err == nil {
				p.err = err
			}
			p.mu.Unlock()
			p.halt.Store(true)
		}
		return err
	}
}

// resetRoot puts s back at the root board, and its evaluator when eval
// (only the general loops follow the path with it).
func (s *searcher) resetRoot(eval bool) {
	s.pos = s.root
	if eval && s.eval != nil {
		s.eval.Root(&s.pos)
	}
}

// replay moves the blank along path (cells, from the root), following the
// evaluator with the same bounds the iteration asked along that path. It
// returns the move automaton's state at the path's end.
func (s *searcher) replay(path []uint8) int32 {
	p := &s.pos
	st := int32(0)
	for g, c8 := range path {
		c, blank := int(c8), p.Blank
		st = s.fsm[4*st+int32(direction(s.tab.cols, blank, c))]
		t := p.Tiles[c]
		p.Tiles[blank], p.Tiles[c] = t, 0
		p.Blank = c
		p.MD += int(s.tab.delta[t][c][blank])
		p.Depth = g + 1
		s.moves[g] = t
		if s.loop == loopEval {
			s.eval.Push(p, t, c, blank, s.limit-g-1)
		}
	}
	if s.loop != loopEval && s.loop != loopMD {
		s.keys[len(path)] = p.Key()
	}
	return st
}

// expandTo expands the nodes above depth d below the current node (s.pos,
// the move automaton in state st) with the iteration's cut test, as the
// general loop does, and appends to fr the path (blank cells) of every
// node at depth d that is not cut. It returns true when the search stops.
func (s *searcher) expandTo(d int, st int32, fr *[]uint8) bool {
	p := &s.pos
	g := p.Depth
	if g == d {
		*fr = append(*fr, s.cells[:d]...)
		return false
	}
	s.expanded++
	blank := p.Blank
	for i := 0; i < int(s.tab.nbrN[blank]); i++ {
		ns := s.fsm[4*st+int32(s.tab.nbrDir[blank][i])]
		if ns < 0 {
			continue
		}
		c := int(s.tab.nbr[blank][i])
		t := p.Tiles[c]
		md := p.MD
		p.Tiles[blank], p.Tiles[c] = t, 0
		p.Blank = c
		p.MD = md + int(s.tab.delta[t][c][blank])
		p.Depth = g + 1
		s.generated++
		h := p.MD
		if s.eval != nil {
			h = s.eval.Push(p, t, c, blank, s.limit-g-1)
		}
		if f := g + 1 + h; f > s.limit {
			s.next = min(s.next, f)
		} else {
			s.moves[g], s.cells[g] = t, uint8(c)
			if p.MD == 0 {
				if s.goal(g + 1) {
					return true
				}
			} else if s.expandTo(d, ns, fr) {
				return true
			}
		}
		p.Tiles[c], p.Tiles[blank] = t, 0
		p.Blank = blank
		p.MD = md
		p.Depth = g
		if s.eval != nil {
			s.eval.Pop(p, t, c, blank)
		}
	}
	return false
}
