package ida

// The search loops, side by side. Each expands the node it is called on
// and recurses into the children its cut test lets through; they differ
// only in what they know of the heuristic:
//
//   - searchMD: Manhattan distance alone, one table lookup per child;
//   - searchGap1: one gap level with dense tables (h_G), the question asked
//     inline at tight children;
//   - searchGap: any number of gap levels (h_G:2N), through GapLoop;
//   - searchEval: any Evaluator, through Push and Pop.
//
// The specialised loops visit exactly the nodes searchEval visits with the
// same heuristic and keep the same counters (tested). All of them return
// true when the goal was reached and the search stops (s.found) or the
// search must unwind (s.stopErr, or another worker's goal); the board is
// then left as it was at that node.
//
// State lives in the searcher, not in arguments: in Go every value live
// across the recursive call costs a spill and a reload per child.

// searchMD is the Manhattan-only loop: no interface calls, one table lookup
// per generated node, the path kept in a fixed array.
func (s *searcher) searchMD(blank, prev, g, h int) bool {
	s.expanded++
	if s.expanded&(checkEvery-1) == 0 && s.poll() {
		return true
	}
	tab := s.tab
	tiles := &s.pos.Tiles
	kids := &tab.kids[blank][prev+1]
	n := int(kids.n)
	limit := s.limit - g - 1 // largest child heuristic value that is not cut
	s.generated += int64(n)
	for i := 0; i < n; i++ {
		c := int(kids.c[i])
		t := tiles[c]
		nh := h + int(tab.delta[t][c][blank])
		if nh > limit {
			if f := g + 1 + nh; f < s.next {
				s.next = f
			}
			continue
		}
		s.moves[g] = t
		tiles[blank], tiles[c] = t, 0
		if nh == 0 {
			if s.goal(g + 1) {
				s.generated -= int64(n - 1 - i) // later children are never generated
				return true
			}
			tiles[c], tiles[blank] = t, 0
			continue
		}
		if s.searchMD(c, blank, g+1, nh) {
			s.generated -= int64(n - 1 - i)
			return true
		}
		tiles[c], tiles[blank] = t, 0
	}
	return false
}

// searchGap1 is the loop for one gap level (h_G) with a dense table and
// skipping on. With one level the question is asked exactly at the tight
// children (need = M); the first two dense tables are read inline there,
// so that only the questions both let through (about one in ten) leave the
// loop, through GapLoop.Ask. The board's key at depth g is s.keys[g].
func (s *searcher) searchGap1(blank, prev, g, h int) bool {
	s.expanded++
	if s.expanded&(checkEvery-1) == 0 && s.poll() {
		return true
	}
	tab := s.tab
	tiles := &s.pos.Tiles
	kids := &tab.kids[blank][prev+1]
	n := int(kids.n)
	need := s.limit - g - 1
	s.generated += int64(n)
	for i := 0; i < n; i++ {
		c := int(kids.c[i])
		t := tiles[c]
		nh := h + int(tab.delta[t][c][blank])
		x := need - nh
		if x < 0 {
			if f := g + 1 + nh; f < s.next {
				s.next = f
			}
			continue
		}
		nkey := s.keys[g] ^ uint64(t)*tab.mul[blank][c]
		if x == 0 {
			// the first table, then the second, inline; the rest in Ask
			s.gl.Queries++
			k, k2 := nkey&s.dmask, nkey&s.dmask2
			if s.dwords[k>>6]>>(k&63)&1 == 0 || s.dwords2[k2>>6]>>(k2&63)&1 == 0 && s.gl.deny() || !s.gl.Ask(0, nkey) {
				if f := g + 3 + nh; f < s.next {
					s.next = f
				}
				continue
			}
		}
		s.moves[g] = t
		tiles[blank], tiles[c] = t, 0
		if nh == 0 {
			if s.goal(g + 1) {
				s.generated -= int64(n - 1 - i) // later children are never generated
				return true
			}
		} else if s.keys[g+1] = nkey; s.searchGap1(c, blank, g+1, nh) {
			s.generated -= int64(n - 1 - i)
			return true
		}
		tiles[c], tiles[blank] = t, 0
	}
	return false
}

// deny counts a question that the second dense table answered "no" inline
// in searchGap1 as Ask would count it (past the first table, denied by a
// later one).
func (l *GapLoop) deny() bool {
	l.Passed++
	l.Denied++
	return true
}

// searchGap is the loop for any number of gap levels: the skipping test and
// the first dense table are inline, so the only work beyond the Manhattan
// loop is the membership question where it can change the cut, and most
// questions end in one bit of a cached table. Children cut by Manhattan
// distance alone are counted as skipped by descend.
func (s *searcher) searchGap(blank, prev, g, h int) bool {
	s.expanded++
	if s.expanded&(checkEvery-1) == 0 && s.poll() {
		return true
	}
	tab := s.tab
	tiles := &s.pos.Tiles
	kids := &tab.kids[blank][prev+1]
	n := int(kids.n)
	need := s.limit - g - 1 // largest child bound that is not cut
	s.generated += int64(n)
	l := s.gl
	noSkip, top := l.NoSkip, 2*l.Levels
	for i := 0; i < n; i++ {
		c := int(kids.c[i])
		t := tiles[c]
		nh := h + int(tab.delta[t][c][blank])
		if nh > need && !noSkip {
			if f := g + 1 + nh; f < s.next {
				s.next = f
			}
			continue
		}
		nkey := s.keys[g] ^ uint64(t)*tab.mul[blank][c]
		b := nh
		if noSkip {
			b = l.bound(nh, nkey)
		} else if d := need - nh; d < top {
			j := int(uint(d) >> 1) // d >= 0 here
			l.Queries++
			if dt := &l.First[j]; dt.Words != nil && !dt.Has(nkey) || !l.Ask(j, nkey) {
				b = nh + 2*j + 2
			}
		}
		if b > need {
			if f := g + 1 + b; f < s.next {
				s.next = f
			}
			continue
		}
		s.moves[g] = t
		tiles[blank], tiles[c] = t, 0
		if nh == 0 {
			if s.goal(g + 1) {
				s.generated -= int64(n - 1 - i) // later children are never generated
				return true
			}
			tiles[c], tiles[blank] = t, 0
			continue
		}
		if s.keys[g+1] = nkey; s.searchGap(c, blank, g+1, nh) {
			s.generated -= int64(n - 1 - i)
			return true
		}
		tiles[c], tiles[blank] = t, 0
	}
	return false
}

// bound is the exact gap bound of the board with Manhattan distance md and
// key: md plus 2j for the first level j holding it, md + 2N + 2 outside.
func (l *GapLoop) bound(md int, key uint64) int {
	for j := 0; j < l.Levels; j++ {
		if l.contains(j, key) {
			return md + 2*j
		}
	}
	return md + 2*l.Levels
}

// contains asks level j: its first dense table, then Ask.
func (l *GapLoop) contains(j int, key uint64) bool {
	l.Queries++
	d := &l.First[j]
	return (d.Words == nil || d.Has(key)) && l.Ask(j, key)
}

// searchEval is the general loop: the solver keeps Position (with its
// Manhattan distance) and the evaluator supplies the bound.
func (s *searcher) searchEval(prev int) bool {
	s.expanded++
	if s.expanded&(checkEvery-1) == 0 && s.poll() {
		return true
	}
	tab := s.tab
	p := &s.pos
	blank := p.Blank
	g := p.Depth
	n := int(tab.nbrN[blank])
	for i := 0; i < n; i++ {
		c := int(tab.nbr[blank][i])
		if c == prev && !s.keepUndo {
			continue
		}
		t := p.Tiles[c]
		md := p.MD
		p.Tiles[blank], p.Tiles[c] = t, 0
		p.Blank = c
		p.MD = md + int(tab.delta[t][c][blank])
		p.Depth = g + 1
		s.generated++
		h := s.eval.Push(p, t, c, blank, s.limit-g-1)
		if f := g + 1 + h; f > s.limit {
			if f < s.next {
				s.next = f
			}
		} else {
			s.moves[g] = t
			if p.MD != 0 {
				if s.searchEval(blank) {
					return true
				}
			} else if s.goal(g + 1) {
				return true
			}
		}
		p.Tiles[c], p.Tiles[blank] = t, 0
		p.Blank = blank
		p.MD = md
		p.Depth = g
		s.eval.Pop(p, t, c, blank)
	}
	return false
}
