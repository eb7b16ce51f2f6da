package ida

// searchBPMX is the general loop with bidirectional pathmax (BPMX; Felner,
// Zahavi, Schaeffer and Holte, "Dual lookups in pattern databases", IJCAI
// 2005), for inconsistent heuristics such as dual lookups: a node's
// children are all evaluated before any is searched; a child's bound less
// one (the cost of the move) raises the node's bound h, which cuts the node
// when g + h exceeds the limit, and h less one raises each child's bound.
// What a child's search learns comes back up the same way and can cut its
// remaining siblings. The children are searched in the order of their
// bounds. Every raised value is still a lower bound on the
// distance to the goal, so the lengths stay optimal; with a consistent
// heuristic nothing is raised, only the evaluation order changes. It
// returns the node's raised bound and whether the search stops.
func (s *searcher) searchBPMX(st int32, h int) (int, bool) {
	s.expanded++
	if s.expanded&(checkEvery-1) == 0 && s.poll() {
		return h, true
	}
	tab := s.tab
	p := &s.pos
	blank := p.Blank
	g := p.Depth
	if s.pf != nil {
		s.prefetch(st, s.limit-g+1) // the need bpmxChild pushes with
	}
	var kids [4]bpmxKid
	m := 0
	for i := 0; i < int(tab.nbrN[blank]); i++ {
		ns := s.fsm[4*st+int32(tab.nbrDir[blank][i])]
		if ns < 0 {
			continue
		}
		c := int(tab.nbr[blank][i])
		hc := s.bpmxChild(c, blank, g, nil)
		kids[m] = bpmxKid{c: c, h: hc, md: p.MD + int(tab.delta[p.Tiles[c]][c][blank]), st: ns}
		m++
		h = max(h, hc-1)
	}
	// the children with the smallest bounds first, then the smallest
	// Manhattan distances, then in move order: in the last iteration the
	// goal tends to lie below them (Korf's 100 with pdb78: 13% fewer nodes
	// in all)
	for a := 1; a < m; a++ {
		for b := a; b > 0 && kids[b].before(&kids[b-1]); b-- {
			kids[b], kids[b-1] = kids[b-1], kids[b]
		}
	}
	for j := 0; j < m; j++ {
		k := &kids[j]
		if g+h > s.limit {
			s.next = min(s.next, g+h)
			return h, false
		}
		hc := max(k.h, h-1)
		if g+1+hc > s.limit {
			s.next = min(s.next, g+1+hc)
			continue
		}
		stop := false
		s.bpmxChild(k.c, blank, g, func() int {
			s.moves[g] = p.Tiles[blank]
			if p.MD == 0 {
				stop = s.goal(g + 1)
				return 0
			}
			hb, st := s.searchBPMX(k.st, hc)
			stop = st
			h = max(h, hb-1)
			return 0
		})
		if stop {
			return h, true
		}
	}
	return h, false
}

// bpmxKid is a child in searchBPMX: the blank's cell, the bound, the
// Manhattan distance and the move automaton's state.
type bpmxKid struct {
	c, h, md int
	st       int32
}

// before orders the children searchBPMX searches first.
func (k *bpmxKid) before(o *bpmxKid) bool {
	return k.h < o.h || k.h == o.h && k.md < o.md
}

// bpmxChild moves the blank from blank to c, evaluates the child, runs
// below (nil: nothing; the evaluation alone) and moves back. It returns the
// child's bound (0 at the goal).
func (s *searcher) bpmxChild(c, blank, g int, below func() int) int {
	p := &s.pos
	t := p.Tiles[c]
	md := p.MD
	p.Tiles[blank], p.Tiles[c] = t, 0
	p.Blank = c
	p.MD = md + int(s.tab.delta[t][c][blank])
	p.Depth = g + 1
	// need is 2 above the child's own: a child's bound cuts its parent (and
	// through it its siblings) only when it exceeds limit - g + 1, so an
	// evaluator that stops as soon as it cuts the child (the dual lookups)
	// goes on until it would cut the parent too.
	hc := s.eval.Push(p, t, c, blank, s.limit-g+1)
	if p.MD == 0 {
		hc = 0
	}
	if below == nil {
		s.generated++
	} else {
		below()
	}
	p.Tiles[c], p.Tiles[blank] = t, 0
	p.Blank = blank
	p.MD = md
	p.Depth = g
	s.eval.Pop(p, t, c, blank)
	return hc
}
