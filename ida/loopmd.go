package ida

// kidList is the cells the blank can move to (tables.kids).
type kidList = struct {
	n uint8
	c [4]uint8
}

// mdFrame is what searchMDStack keeps of a node on the path while it
// searches below one of its children.
type mdFrame struct {
	kids  *kidList
	i     int // the next child to try
	blank int
	h     int
}

// searchMDStack is searchMD with an explicit stack instead of recursion:
// Go keeps no value in a register across a call, so the recursive loop
// spills and reloads its state around every child it descends into; here
// the state stays in registers and a node's frame is four words.
func (s *searcher) searchMDStack(blank, prev, g, h int) bool {
	tab := s.tab
	tiles := &s.pos.Tiles
	stack := &s.mdStack
	g0 := g
	lim := s.limit - g - 1   // largest child heuristic value that is not cut
	next := s.next - s.limit // relative: a cut child's f is limit + nh - lim
	expanded, generated := s.expanded, s.generated
	kids := &tab.kids[blank&15][(prev+1)&31]
	i, n := 0, int(kids.n)
	expanded++
	generated += int64(n)
	for {
		if i < n {
			c := int(kids.c[i&3]) & 15
			i++
			t := tiles[c]
			nh := h + int(tab.delta[t&15][c][blank&15])
			if nh > lim {
				if f := nh - lim; f < next {
					next = f
				}
				continue
			}
			s.moves[g&(maxDepth-1)] = t
			tiles[blank&15], tiles[c] = t, 0
			if nh == 0 {
				s.expanded, s.generated = expanded, generated
				if s.goal(g + 1) {
					// later children, here and on the path, are never generated
					s.generated -= int64(n - i)
					for d := g0; d < g; d++ {
						f := &stack[d&(maxDepth-1)]
						s.generated -= int64(int(f.kids.n) - f.i)
					}
					s.next = next + s.limit
					return true
				}
				tiles[c], tiles[blank&15] = t, 0
				continue
			}
			stack[g&(maxDepth-1)] = mdFrame{kids, i, blank, h}
			g++
			lim--
			kids = &tab.kids[c][(blank+1)&31]
			blank, h = c, nh
			i, n = 0, int(kids.n)
			expanded++
			generated += int64(n)
			if expanded&(checkEvery-1) == 0 {
				s.expanded, s.generated = expanded, generated
				if s.poll() {
					s.next = next + s.limit
					return true
				}
			}
			continue
		}
		if g == g0 {
			break
		}
		g--
		lim++
		f := &stack[g&(maxDepth-1)]
		c := blank
		kids, i, blank, h = f.kids, f.i, f.blank, f.h
		n = int(kids.n)
		tiles[c&15], tiles[blank&15] = s.moves[g&(maxDepth-1)], 0
	}
	s.expanded, s.generated = expanded, generated
	s.next = next + s.limit
	return false
}
