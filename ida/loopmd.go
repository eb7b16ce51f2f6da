package ida

// searchMDStack is searchMD with an explicit stack instead of recursion.
// Go keeps no value in a register across a call, so the recursive loop
// spills and reloads its state around every child it descends into; here
// the state stays in registers and a node's frame on the path is one word
// without pointers (no write barrier): its move list, the next child to
// try and its Manhattan distance. The frames and the depth are indexed by
// lim = limit - depth - 1, the largest child bound that is not cut, which
// the cut test needs anyway. Same nodes, same order, same counts as
// searchMD (tested).
func (s *searcher) searchMDStack(blank, prev, g, h int) bool {
	tab := s.tab
	tiles := &s.pos.Tiles
	lim0 := s.limit - g - 1
	lim := lim0
	next := s.next - s.limit // relative: a cut child's f is limit + nh - lim
	expanded := s.expanded + 1
	kidx := blank<<5 | (prev + 1) // the node's moves: tab.ops[kidx]
	i := 0                        // the next child to try
	s.generated += int64(tab.ops[kidx&511].n)
	for {
		k := &tab.ops[kidx&511]
		if i < int(k.n) {
			c := int(k.c[i&3]) & 15
			off := int(k.off[i&3])
			i++
			t := tiles[c]
			nh := h + int(tab.dflat[(int(t)<<8|off)&4095])
			if nh > lim {
				next = min(next, nh-lim)
				continue
			}
			b := kidx >> 5
			s.moves[(s.limit-1-lim)&(maxDepth-1)] = t
			tiles[b&15], tiles[c] = t, 0
			if nh == 0 {
				s.expanded = expanded
				if s.mdGoal(lim, lim0, kidx, i) {
					s.next = next + s.limit
					return true
				}
				tiles[c], tiles[b&15] = t, 0
				continue
			}
			s.mdStack[lim&(maxDepth-1)] = uint64(h)<<16 | uint64(i)<<12 | uint64(kidx)
			lim--
			kidx = c<<5 | (b + 1)
			h, i = nh, 0
			expanded++
			s.generated += int64(tab.ops[kidx&511].n)
			if expanded&(checkEvery-1) == 0 {
				s.expanded = expanded
				if s.poll() {
					s.next = next + s.limit
					return true
				}
			}
			continue
		}
		if lim == lim0 {
			break
		}
		lim++
		c := kidx >> 5 // the blank's cell: where the last tile came from
		f := s.mdStack[lim&(maxDepth-1)]
		kidx, i, h = int(f&511), int(f>>12)&7, int(f>>16)
		tiles[c&15], tiles[(kidx>>5)&15] = s.moves[(s.limit-1-lim)&(maxDepth-1)], 0
	}
	s.expanded = expanded
	s.next = next + s.limit
	return false
}

// mdGoal records the goal reached below the node whose frame would be at
// lim (its moves kidx, child i next). When the search stops there, the
// children not yet tried, there and on the path up to lim0, are never
// generated.
func (s *searcher) mdGoal(lim, lim0, kidx, i int) bool {
	if !s.goal(s.limit - lim) {
		return false
	}
	s.generated -= int64(int(s.tab.ops[kidx&511].n) - i)
	for l := lim + 1; l <= lim0; l++ {
		f := s.mdStack[l&(maxDepth-1)]
		s.generated -= int64(int(s.tab.ops[f&511].n) - int(f>>12)&7)
	}
	return true
}
