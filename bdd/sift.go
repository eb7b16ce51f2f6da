package bdd

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Search methods for OrderSearch.
var searchMethods = []string{"sift", "window", "block-sift", "block-window"}

// SearchMethods lists the variable-order search methods.
func SearchMethods() []string { return append([]string(nil), searchMethods...) }

// SearchOptions bound a variable-order search.
type SearchOptions struct {
	// Method: "sift" (Rudell's sifting of single variables), "window"
	// (every permutation of 3 adjacent variables, window after window),
	// "block-sift" (sifting of whole cells, 4 variables each, then of the
	// variables inside each cell: the result keeps each cell's bits
	// together, which the fast 16-way query layout needs), "block-window"
	// (windows of 3 cells, then "window" inside cells).
	Method string
	// Deadline stops the search (the best order found so far is kept);
	// zero: none.
	Deadline time.Time
	// MaxNodes caps the diagram while searching: a direction of moves is
	// abandoned, and undone, once a move takes the diagram past it; zero:
	// 4x the start size. Below the start size it is an error.
	MaxNodes int
	// MaxGrowth abandons a sifting direction once the diagram is this many
	// times the best size seen for the variable; zero: 1.2.
	MaxGrowth float64
	// Progress, if set, is called after every move.
	Progress func(nodes, best int, note string)
}

// SearchResult is the outcome of OrderSearch.
type SearchResult struct {
	Diagram    *Diagram // the BDD in the best order found
	Start      int      // nodes in the start order
	Swaps      int      // adjacent-level swaps done
	Passes     int      // full passes (over all variables or blocks)
	TimedOut   bool     // the deadline stopped the search
	LevelSizes []int    // nodes per level of the result
}

// OrderSearch looks for a variable order that gives d's set a smaller BDD,
// by swapping adjacent levels in place (the diagram stays canonical after
// every swap). It repeats passes of the method while they gain and the
// deadline allows. The result never has more nodes than d.
func OrderSearch(d *Diagram, opt SearchOptions) (SearchResult, error) {
	if !slices.Contains(searchMethods, opt.Method) {
		return SearchResult{}, fmt.Errorf("unknown search method %q (choose %s)", opt.Method, strings.Join(searchMethods, ", "))
	}
	r, err := newReorderer(d)
	if err != nil {
		return SearchResult{}, err
	}
	if opt.MaxNodes != 0 && opt.MaxNodes < r.size() {
		// every move starts above the cap: none could be tried
		return SearchResult{}, fmt.Errorf("max nodes %d is below the start diagram's %d nodes", opt.MaxNodes, r.size())
	}
	s := &searcher{r: r, opt: opt, start: r.size()}
	if s.opt.MaxGrowth == 0 {
		s.opt.MaxGrowth = 1.2
	}
	if s.opt.MaxNodes == 0 {
		s.opt.MaxNodes = 4*r.size() + 1024
	}
	block := strings.HasPrefix(opt.Method, "block")
	if block && cellShifts(d.Order) == nil {
		return SearchResult{}, fmt.Errorf("%s needs a start order that keeps each cell's 4 bits together", opt.Method)
	}
	window := strings.HasSuffix(opt.Method, "window")
	passes := 0
	for !s.timedOut() {
		before := r.size()
		if block {
			g := s.grouping(0, r.L/4, 4)
			if window {
				s.window(g)
			} else {
				s.sift(g)
			}
			for c := 0; c < r.L/4 && !s.timedOut(); c++ {
				g := s.grouping(4*c, 4, 1)
				if window {
					s.window(g)
				} else {
					s.sift(g)
				}
			}
		} else {
			g := s.grouping(0, r.L, 1)
			if window {
				s.window(g)
			} else {
				s.sift(g)
			}
		}
		passes++
		if r.size() >= before {
			break
		}
	}
	name := opt.Method
	out := r.export(name)
	return SearchResult{Diagram: out, Start: s.start, Swaps: r.swaps, Passes: passes, TimedOut: s.timedOut(),
		LevelSizes: r.levelSizes()}, nil
}

type searcher struct {
	r           *reorderer
	opt         SearchOptions
	start       int
	late        bool
	compactedAt int // swap count at the last compaction
}

// maybeCompact renumbers the diagram once the swaps since the last time
// have touched about as many nodes as it holds (a renumbering costs one
// pass over them).
func (s *searcher) maybeCompact() {
	if s.r.swaps-s.compactedAt > 64 {
		s.r.compact()
		s.compactedAt = s.r.swaps
	}
}

func (s *searcher) timedOut() bool {
	if !s.late && !s.opt.Deadline.IsZero() && time.Now().After(s.opt.Deadline) {
		s.late = true
	}
	return s.late
}

func (s *searcher) report(best int, note string) {
	if s.opt.Progress != nil {
		s.opt.Progress(s.r.size(), best, note)
	}
}

// grouping is a run of consecutive blocks of levels starting at base.
type grouping struct {
	base  int
	sizes []int
}

func (s *searcher) grouping(base, n, size int) *grouping {
	g := &grouping{base: base}
	for i := 0; i < n; i++ {
		g.sizes = append(g.sizes, size)
	}
	return g
}

func (g *grouping) start(k int) int {
	p := g.base
	for _, s := range g.sizes[:k] {
		p += s
	}
	return p
}

// exchange swaps blocks k and k+1 (a*b adjacent-level swaps): each level
// of block k+1 bubbles up past the a levels of block k.
func (s *searcher) exchange(g *grouping, k int) {
	p := g.start(k)
	a, b := g.sizes[k], g.sizes[k+1]
	for j := 0; j < b; j++ {
		for l := p + a + j - 1; l >= p+j; l-- {
			s.r.swap(l)
		}
	}
	g.sizes[k], g.sizes[k+1] = b, a
}

// blockNodes is the node count of block k.
func (s *searcher) blockNodes(g *grouping, k int) int {
	p := g.start(k)
	n := 0
	for l := p; l < p+g.sizes[k]; l++ {
		n += len(s.r.byLv[l]) // may count a few dead nodes: only an ordering hint
	}
	return n
}

// sift moves each block (largest first) through every position of the
// grouping, nearer end first, and leaves it where the diagram was smallest.
func (s *searcher) sift(g *grouping) {
	n := len(g.sizes)
	if n < 2 {
		return
	}
	// Blocks are identified by their first variable, since positions change.
	type blk struct {
		v     uint8
		nodes int
	}
	var todo []blk
	for k := 0; k < n; k++ {
		todo = append(todo, blk{s.r.vars[g.start(k)], s.blockNodes(g, k)})
	}
	slices.SortStableFunc(todo, func(a, b blk) int { return b.nodes - a.nodes })
	for _, b := range todo {
		if s.timedOut() {
			return
		}
		s.maybeCompact()
		k := -1
		for j := 0; j < n; j++ {
			if s.r.vars[g.start(j)] == b.v {
				k = j
			}
		}
		best, bestPos := s.r.size(), k
		limit := func() bool {
			sz := s.r.size()
			return float64(sz) > s.opt.MaxGrowth*float64(best) || sz > s.opt.MaxNodes || s.timedOut()
		}
		move := func(down bool) {
			for {
				if down {
					if k == n-1 {
						return
					}
					s.exchange(g, k)
					k++
				} else {
					if k == 0 {
						return
					}
					s.exchange(g, k-1)
					k--
				}
				if sz := s.r.size(); sz < best {
					best, bestPos = sz, k
				}
				s.report(best, "sift")
				if limit() {
					return
				}
			}
		}
		downFirst := k >= n/2
		move(downFirst)
		if !s.timedOut() {
			move(!downFirst)
		}
		for k < bestPos {
			s.exchange(g, k)
			k++
		}
		for k > bestPos {
			s.exchange(g, k-1)
			k--
		}
	}
}

// window tries every permutation of each run of 3 adjacent blocks and keeps
// the best, run after run.
func (s *searcher) window(g *grouping) {
	n := len(g.sizes)
	if n < 2 {
		return
	}
	if n == 2 {
		before := s.r.size()
		s.exchange(g, 0)
		if s.r.size() >= before {
			s.exchange(g, 0)
		}
		return
	}
	for i := 0; i+2 < n && !s.timedOut(); i++ {
		s.maybeCompact()
		// Alternating exchanges of (i, i+1) and (i+1, i+2) visit all six
		// permutations; six of them are the identity again.
		seq := [6]int{i, i + 1, i, i + 1, i, i + 1}
		best, bestAt := s.r.size(), 0
		done := 0
		for ; done < 5; done++ {
			s.exchange(g, seq[done])
			if sz := s.r.size(); sz < best {
				best, bestAt = sz, done+1
			}
			if s.r.size() > s.opt.MaxNodes || s.timedOut() {
				done++
				break
			}
		}
		// Continue around the cycle to the best state.
		for state := done; state%6 != bestAt; state++ {
			s.exchange(g, seq[state%6])
		}
		s.report(best, "window")
	}
}
