package ida

import (
	"errors"
	"fmt"

	"github.com/gapset/gapset/encode"
)

// Set answers membership of a board in a gap set. Contains takes the key of
// the whole board (Position.Key); a set stored on fewer cells projects the
// key itself. Implementations must be safe for concurrent readers: one Set
// serves every search of a benchmark.
type Set interface {
	Contains(key uint64) bool
}

// BitTable is a set stored as one bit per pattern of the key's masked bits:
// key&mask indexes the bit. Bits returns the table, read only.
type BitTable interface {
	Bits() (words []uint64, mask uint64)
}

// Masked is implemented by sets stored on fewer cells than the board: Mask
// keeps the bits of the key the set looks at. The evaluator then memoises
// answers by the masked key, so moves outside the set's cells (half of all
// moves for an 8-cell set) are answered from a small cache, not the table.
type Masked interface {
	Mask() uint64
}

// memoBits sizes each level's direct-mapped memo: 65,536 entries, 576 KiB,
// which stays in the core's L2 cache (87% hits for Gap0_8 on Korf 9; 4,096
// entries gave 72%, 262,144 no more than 65,536).
const memoBits = 16

// Gap is the gap-set heuristic h_G:2N of Hasegawa & Yamamoto. Levels[i] must
// hold (a superset of) every configuration whose optimum exceeds its
// Manhattan distance M by at most 2i: Levels[0] a Gap0 set, Levels[1] a Gap2
// set, and so on. The bound is M + 2i for the first level i containing the
// board, and M + 2N + 2 when no level contains it (N = len(Levels) - 1).
// Supersets (projected sets) keep it admissible, because a board of gap 2m
// is in Levels[m] and so gets at most M + 2m.
//
// With one level this is h_G; with two, the paper's h_G:2.
type Gap struct {
	// Label is the report name; empty gives "gap0", "gap2", ... by levels.
	Label  string
	Levels []Set
	// Filters, when set, holds for some levels a cheaper superset of the
	// level (its projection onto fewer cells: Gap0_8 for Gap0). A board the
	// filter rejects is outside the level without asking the big set; the
	// answers, and so the nodes, stay the same.
	Filters []Set
	// Dense, when set, holds for some levels supersets small enough to be
	// bit tables in the core's caches (the level's projections onto its
	// last 4 and 6 cells: 8 KiB and 2 MiB), smallest first. They are tested
	// before the memo and the filter, the first (with one level, the first
	// two) inline in the search loop:
	// most questions of an IDA* search have the answer "no", and these give
	// most of them in a few nanoseconds. Answers and nodes stay the same.
	Dense [][]BitTable
	// NoSkip evaluates every level at every node instead of only where the
	// answer can change the cut decision (for comparison and tests).
	NoSkip bool
}

// Name implements Heuristic.
func (g Gap) Name() string {
	if g.Label != "" {
		return g.Label
	}
	return fmt.Sprintf("gap%d", 2*(len(g.Levels)-1))
}

// NewEvaluator implements Heuristic.
func (g Gap) NewEvaluator(rows, cols int) (Evaluator, error) {
	if len(g.Levels) == 0 {
		return nil, errors.New("gap heuristic without sets")
	}
	for i, s := range g.Levels {
		if s == nil {
			return nil, fmt.Errorf("gap heuristic: level %d has no set", i)
		}
	}
	if len(g.Filters) != 0 && len(g.Filters) != len(g.Levels) {
		return nil, fmt.Errorf("gap heuristic: %d filters for %d levels", len(g.Filters), len(g.Levels))
	}
	if len(g.Dense) != 0 && len(g.Dense) != len(g.Levels) {
		return nil, fmt.Errorf("gap heuristic: %d dense tables for %d levels", len(g.Dense), len(g.Levels))
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, err
	}
	ev := &gapEval{levels: g.Levels, top: 2 * len(g.Levels), noSkip: g.NoSkip, mul: geo.Flip}
	ev.dense = make([]denseTable, len(g.Levels))
	ev.more = make([][]denseTable, len(g.Levels))
	for i, tabs := range g.Dense {
		for k, d := range tabs {
			var t denseTable
			t.words, t.mask = d.Bits()
			if k == 0 {
				ev.dense[i] = t
			} else {
				ev.more[i] = append(ev.more[i], t)
			}
		}
	}
	ev.memo = make([]memo, len(g.Levels))
	ev.filters = make([]Set, len(g.Levels))
	copy(ev.filters, g.Filters)
	for i, s := range g.Levels {
		ev.memo[i] = newMemo(maskOf(s), rows*cols)
	}
	if len(g.Filters) > 0 {
		ev.fmemo = make([]memo, len(g.Levels))
		for i, f := range g.Filters {
			if f != nil {
				ev.fmemo[i] = newMemo(maskOf(f), rows*cols)
			}
		}
	}
	return ev, nil
}

func maskOf(s Set) uint64 {
	if m, ok := s.(Masked); ok {
		return m.Mask()
	}
	return ^uint64(0)
}

// gapEval keeps the board's key along the path (two nibbles change per
// move); every bound is a function of the position alone.
type gapEval struct {
	levels []Set
	top    int // 2N + 2: the bound's excess over M outside every level
	noSkip bool
	key    uint64         // Position.Key of the current position
	mul    [16][16]uint64 // encode.Geometry.Flip

	memo    []memo
	filters []Set          // per level, nil or a cheaper superset
	fmemo   []memo         // the filters' memos (nil without filters)
	dense   []denseTable   // per level, the first dense table (words nil: none)
	more    [][]denseTable // per level, the dense tables after the first
	denied  int64          // questions a dense table after the first answered "no"
	passed  int64          // questions past the first dense table (or without one)
	queries int64          // membership questions answered (by the sets or the memos)
	skipped int64          // pushes answered without any question
	hits    int64          // set lookups the memos answered
	vetoed  int64          // questions a filter answered "no"
}

// denseTable is a BitTable's table (words nil: none).
type denseTable struct {
	words []uint64
	mask  uint64
}

func (d *denseTable) has(key uint64) bool {
	k := key & d.mask
	return d.words[k>>6]&(1<<(k&63)) != 0
}

// memo is one level's direct-mapped cache of answers by masked key.
type memo struct {
	mask  uint64
	shift uint // 64 - log2(len(keys))
	keys  []uint64
	ans   []uint8 // 0 empty, 1 no, 2 yes
}

// newMemo sizes a memo: full size for the 15-puzzle, small for boards whose
// searches are too short to pay for zeroing half a megabyte.
func newMemo(mask uint64, cells int) memo {
	bits := memoBits
	if cells <= 12 {
		bits = 10
	}
	return memo{mask: mask, shift: uint(64 - bits), keys: make([]uint64, 1<<bits), ans: make([]uint8, 1<<bits)}
}

// contains asks level i, through its filter (if any) and memos.
func (e *gapEval) contains(i int, key uint64) bool {
	e.queries++
	if d := &e.dense[i]; d.words != nil && !d.has(key) {
		return false
	}
	return e.lookup(i, key)
}

// lookup asks level i past its first dense table: the other dense tables,
// the filter (if any), then the set, each of these two through its memo.
func (e *gapEval) lookup(i int, key uint64) bool {
	e.passed++
	for k := range e.more[i] {
		if !e.more[i][k].has(key) {
			e.denied++
			return false
		}
	}
	if f := e.filters[i]; f != nil {
		if !e.ask(f, &e.fmemo[i], key) {
			e.vetoed++
			return false
		}
	}
	return e.ask(e.levels[i], &e.memo[i], key)
}

// ask looks key up in set through memo m.
func (e *gapEval) ask(set Set, m *memo, key uint64) bool {
	k := key & m.mask
	slot := (k * 0x9E3779B97F4A7C15) >> m.shift
	if a := m.ans[slot]; a != 0 && m.keys[slot] == k {
		e.hits++
		return a == 2
	}
	in := set.Contains(key)
	m.keys[slot] = k
	m.ans[slot] = 1
	if in {
		m.ans[slot] = 2
	}
	return in
}

// full is the exact bound of the evaluator's position.
func (e *gapEval) full(p *Position) int { return e.bound(p.MD, e.key) }

// bound is the exact bound: M plus 2i for the first level i containing the
// board.
func (e *gapEval) bound(md int, key uint64) int {
	for i := range e.levels {
		if e.contains(i, key) {
			return md + 2*i
		}
	}
	return md + e.top
}

// Root implements Evaluator.
func (e *gapEval) Root(p *Position) int {
	e.key = p.Key()
	return e.full(p)
}

// Push implements Evaluator. The bound lies in [M, M+2N+2], so a node cuts
// (bound > need) for sure when M > need and never when M + 2N + 2 <= need;
// only in between can a query change the decision. There one query decides
// it (seed 002's skipping of lower-bound checks): with d = need - M and
// j = d/2, the bound exceeds need exactly when the board is outside the
// first j+1 levels; the sets are nested (projections of nested sets), so
// asking Levels[j] alone suffices. Outside it the gap exceeds 2j and
// M + 2j + 2 is a valid bound; inside it no cut happens and M is returned.
func (e *gapEval) Push(p *Position, tile uint8, from, to int, need int) int {
	// the blank's nibble is 0, so the tile's two nibbles flip by xor
	e.key ^= uint64(tile) * e.mul[from][to]
	if e.noSkip {
		return e.full(p)
	}
	d := need - p.MD
	if d < 0 || d >= e.top {
		e.skipped++
		return p.MD
	}
	j := d / 2
	if e.contains(j, e.key) {
		return p.MD
	}
	return p.MD + 2*j + 2
}

// Pop implements Evaluator.
func (e *gapEval) Pop(_ *Position, tile uint8, from, to int) {
	e.key ^= uint64(tile) * e.mul[from][to]
}

// Counters implements CounterReporter.
func (e *gapEval) Counters() map[string]int64 {
	c := map[string]int64{"queries": e.queries, "skipped": e.skipped, "memo_hits": e.hits}
	if len(e.fmemo) > 0 {
		c["filtered"] = e.vetoed
	}
	for _, d := range e.dense {
		if d.words != nil {
			// the first tables' "no"s are the questions that never got past
			c["dense_no"] = e.queries - e.passed + e.denied
			break
		}
	}
	return c
}

// searchGap is the specialised loop for Gap: the board's key at depth g is
// s.keys[g], the skipping test and the dense table are inline, so the only
// work beyond the Manhattan loop is the membership question where it can
// change the cut, and most questions end in one bit of a cached table.
// It visits exactly the nodes searchEval visits with a gapEval and keeps
// the same counters (tested).
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
	e := s.gap
	noSkip, top := e.noSkip, e.top
	for i := 0; i < n; i++ {
		c := int(kids.c[i])
		t := tiles[c]
		nh := h + int(tab.delta[t][c][blank])
		if nh > need && !noSkip {
			// cut by Manhattan alone: no question (counted as skipped by
			// the caller)
			if f := g + 1 + nh; f < s.next {
				s.next = f
			}
			continue
		}
		nkey := s.keys[g] ^ uint64(t)*tab.mul[blank][c]
		b := nh
		if noSkip {
			b = e.bound(nh, nkey)
		} else if d := need - nh; d < top {
			j := int(uint(d) >> 1) // d >= 0 here
			e.queries++
			if dt := &e.dense[j]; dt.words != nil && !dt.has(nkey) || !e.lookup(j, nkey) {
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

// searchGap1 is searchGap for the common case of one level (h_G) with a
// dense table and skipping on. With one level the question is asked
// exactly at the tight children (need = M); the first two dense tables are
// read inline there, so that only the questions both let through (about
// one in ten) leave the loop, through lookup. Like searchGap it reads the
// key from s.keys and keeps its state in the searcher: every value live
// across the recursive call costs a spill and a reload per child.
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
			// the first table, then the second, inline; the rest in lookup
			s.gap.queries++
			k, k2 := nkey&s.dmask, nkey&s.dmask2
			if s.dwords[k>>6]>>(k&63)&1 == 0 || s.dwords2[k2>>6]>>(k2&63)&1 == 0 && s.gap.deny() || !s.gap.lookup(0, nkey) {
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
// in searchGap1 as lookup would count it (past the first table, denied by a
// later one).
func (e *gapEval) deny() bool {
	e.passed++
	e.denied++
	return true
}
