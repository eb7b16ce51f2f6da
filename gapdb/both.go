package gapdb

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/keyset"
)

// Both is max(M + 2g, h + 2r) read from databases of both levels
// (Header.Both): M the Manhattan distance, h a base heuristic that changes
// by exactly one on every move, g and r the largest gap and residual
// levels (capped at Levels and ResLevels) over the databases and, with
// Transpose, over the board's transpose too. It is the bound of
// max(Residual, Heuristic) over the same projections (the maximum of two
// admissible bounds: docs/proofs.md#residual-sets), but each projection is
// one read: a pattern's entry holds both of its levels.
//
// It asks as the two do, only where the answer can change the cut, and for
// the maximum as a whole: a child whose M exceeds need is cut without the
// base or a table; else one whose h (tracker bound) exceeds need is cut
// without a table; else, with dG = need - M and dR = need - h, the gap
// level can change the cut only when dG < 2*Levels and the residual one
// only when dR < 2*ResLevels; when neither can nothing is read, and else
// one read a projection (after its filter) asks whether its gap level
// exceeds dG/2 or its residual level dR/2. The cut decisions are those of
// the exact bound, so the nodes are those of max(Residual, Heuristic).
type Both struct {
	// Base is h, as a tracker: its ID must be every database's Base.
	Base   ida.TrackerMaker
	BaseID keyset.Base
	DBs    []*DB
	// Levels and ResLevels are N+1 of the gap bound (gap <= 2N) and of
	// the residual one (r <= 2N_R): a database of more levels serves with
	// its entries capped.
	Levels, ResLevels int
	// Transpose asks each database about the board's transpose too: for a
	// base of the same value on both (symmetric), whose residual is then
	// the same (the gap is symmetric on any square board).
	Transpose bool
	// NoSkip computes the exact bound at every node (tests, comparisons).
	NoSkip bool
	// NoFilter asks the tables without the databases' filters
	// (comparisons: nodes are the same).
	NoFilter bool
	// NoPrefetch turns off the prefetch of the children's entries
	// (comparisons: nodes are the same).
	NoPrefetch bool
	Label      string
}

// Name implements ida.Heuristic.
func (h Both) Name() string {
	if h.Label != "" {
		return h.Label
	}
	r := ""
	if h.Transpose {
		r = "r"
	}
	return fmt.Sprintf("both%d+%d%s", 2*h.Levels-2, 2*h.ResLevels-2, r)
}

// Check refuses a heuristic no evaluator can be made of: no database or
// more than 16, one that is not of both levels or of another base, no
// level, or levels no database reaches.
func (h Both) Check() error {
	if h.BaseID.IsZero() {
		return errors.New("both levels without a base: the residual levels are of a base heuristic")
	}
	if len(h.DBs) == 0 || len(h.DBs) > maxDBs {
		return fmt.Errorf("%d databases of both levels: want 1..%d (one read each a node)", len(h.DBs), maxDBs)
	}
	if h.Levels < 1 || h.ResLevels < 1 {
		return fmt.Errorf("both levels: %d gap levels and %d residual levels, want at least 1 each", h.Levels, h.ResLevels)
	}
	topG, topR := 0, 0
	for _, d := range h.DBs {
		if !d.Both() {
			return fmt.Errorf("%s: %s holds one kind of level: gapset gapdb of gap and residual level files together makes a database of both", d.Path, d.Name())
		}
		if d.Base != h.BaseID {
			return fmt.Errorf("%s: %s holds the levels of %s, not of the base %s", d.Path, d.Name(), d.Base, h.BaseID)
		}
		topG, topR = max(topG, d.Levels), max(topR, d.ResLevels)
	}
	if topG < h.Levels || topR < h.ResLevels {
		return fmt.Errorf("no database of both levels holds gap <= %d and r <= %d: the largest hold gap <= %d and r <= %d", 2*h.Levels-2, 2*h.ResLevels-2, 2*topG-2, 2*topR-2)
	}
	return nil
}

// NewEvaluator implements ida.Heuristic.
func (h Both) NewEvaluator(rows, cols int) (ida.Evaluator, error) {
	if h.Base == nil {
		return nil, errors.New("both levels without a base tracker")
	}
	if err := h.Check(); err != nil {
		return nil, err
	}
	// g keeps the keys and ranks; its tables' gap fields are read here,
	// with the residual fields and the two-nibble filters beside them.
	g, err := Heuristic{DBs: h.DBs, Levels: h.Levels, Transpose: h.Transpose, NoSkip: h.NoSkip, NoPrefetch: true, NoFilter: true}.newEvaluator(rows, cols)
	if err != nil {
		return nil, err
	}
	tr, err := h.Base.NewTracker(rows, cols)
	if err != nil {
		return nil, err
	}
	e := &bothEval{g: g, tr: tr, resLevels: uint16(h.ResLevels), topG: 2 * h.Levels, topR: 2 * h.ResLevels, prefetch: !h.NoPrefetch && !h.NoSkip}
	e.pf, _ = tr.(ida.TrackerPrefetcher)
	for _, d := range h.DBs {
		f := bothTable{rshift: uint(d.GapBits()), rmask: d.rmask, mostG: uint16(d.Levels), mostR: uint16(d.ResLevels)}
		if !h.NoFilter && d.filter != nil {
			f.filter, f.fmask = d.filter, 1<<(4*d.FilterCells)-1
		}
		e.res = append(e.res, f)
	}
	return e, nil
}

// bothTable is what a database of both levels adds to its table as g
// reads it: the residual field and the filter of two nibbles a pattern.
type bothTable struct {
	rshift       uint
	rmask        uint16
	filter       []byte
	fmask        uint64
	mostG, mostR uint16 // the largest entries: "above" of each field
}

type bothEval struct {
	g         *evaluator
	tr        ida.Tracker
	res       []bothTable // a database each, as g.tabs
	resLevels uint16
	topG      int // 2 N_G + 2: a gap question is asked when need - M < topG
	topR      int
	prefetch  bool
	// pf is the base's prefetch (a pattern database's tracker): the
	// children's entries of its tables, asked for with the levels'.
	pf ida.TrackerPrefetcher

	cutMD, cutBase int64
}

func (e *bothEval) follow(tile uint8, from, to int) {
	g := e.g
	g.key ^= uint64(tile) * g.geo.Flip[from][to]
	if g.transpose {
		g.rkey ^= uint64(g.tp.Tile[tile]) * g.rmul[from][to]
	}
}

// levels is the largest gap and residual level of the current board, each
// capped.
func (e *bothEval) levels() (gv, rv uint16) {
	g := e.g
	for w := 0; w < g.ways; w++ {
		t, x := g.wayTab[w], &e.res[w%len(e.res)]
		en := e.read(t, g.index(w))
		gv, rv = max(gv, en&t.mask), max(rv, en>>x.rshift&x.rmask)
	}
	return min(gv, g.levels), min(rv, e.resLevels)
}

// read is a whole entry (both fields, the residual one above t.mask's).
func (e *bothEval) read(t *table, x uint64) uint16 {
	e.g.reads++
	return entryAt(t.words, x, t.bits, 0xff)
}

// exact is the bound itself.
func (e *bothEval) exact(p *ida.Position) int {
	gv, rv := e.levels()
	return max(p.MD+2*int(gv), e.tr.Bound(p, 1<<30)+2*int(rv))
}

// Root implements ida.Evaluator.
func (e *bothEval) Root(p *ida.Position) int {
	e.tr.Reset(p)
	g := e.g
	g.key = p.Key()
	if g.transpose {
		g.rkey = g.tp.Key(g.key)
	}
	return e.exact(p)
}

// Push implements ida.Evaluator (the skip: Both). A level above its
// question's j returns M + 2jG + 2 or h + 2jR + 2, need + 2 (the bounds
// have M's parity), as each heuristic alone does.
func (e *bothEval) Push(p *ida.Position, tile uint8, from, to int, need int) int {
	e.tr.Move(p, tile, from, to)
	e.follow(tile, from, to)
	g := e.g
	if g.noSkip {
		return e.exact(p)
	}
	m := p.MD
	if m > need {
		e.cutMD++
		return m
	}
	b := e.tr.Bound(p, need)
	if b > need {
		e.cutBase++
		return b
	}
	// jG and jR are the questions' levels; 15 (no level is above it) for
	// one that cannot change the cut.
	dG, dR := need-m, need-b
	jG, jR := uint16(15), uint16(15)
	if dG < e.topG {
		jG = uint16(dG / 2)
	}
	if dR < e.topR {
		jR = uint16(dR / 2)
	}
	if jG == 15 && jR == 15 {
		g.skipped++
		return max(m, b)
	}
	g.queries++
	for w := 0; w < g.ways; w++ {
		x := &e.res[w%len(e.res)]
		if x.filter == nil || x.mostG <= jG && x.mostR <= jR {
			continue
		}
		f := 2 * (g.wayTab[w].proj.pattern(g.wayKey(w)) & x.fmask)
		if nibble(x.filter, f) > jG {
			g.filtered++
			return m + 2*int(jG) + 2
		}
		if nibble(x.filter, f+1) > jR {
			g.filtered++
			return b + 2*int(jR) + 2
		}
	}
	for w := 0; w < g.ways; w++ {
		t, x := g.wayTab[w], &e.res[w%len(e.res)]
		if x.mostG <= jG && x.mostR <= jR {
			continue // its levels cannot pass the questions
		}
		en := e.read(t, g.index(w))
		if en&t.mask > jG {
			return m + 2*int(jG) + 2
		}
		if en>>x.rshift&x.rmask > jR {
			return b + 2*int(jR) + 2
		}
	}
	return max(m, b)
}

// Prefetch implements ida.Prefetcher: the base's entries of every child
// (when the base prefetches) and the cache lines of the entries of every
// child that Manhattan distance does not cut (whether its base cuts it is
// not known before its push), so that their misses are in flight at once. The ranks stay in g's memo, where Push finds them.
func (e *bothEval) Prefetch(p *ida.Position, cells []uint8, need int) {
	if !e.prefetch {
		return
	}
	if e.pf != nil {
		// every child: Move reads the rank changes it keeps for each cell
		e.pf.Prefetch(p, cells)
	}
	g := e.g
	key, rkey, blank := g.key, g.rkey, p.Blank
	for _, c := range cells {
		t := p.Tiles[c]
		if p.MD+int(g.geo.Delta[t][c][blank]) > need {
			continue
		}
		g.key = key ^ uint64(t)*g.geo.Flip[c][blank]
		if g.transpose {
			g.rkey = rkey ^ uint64(g.tp.Tile[t])*g.rmul[c][blank]
		}
		for w := 0; w < g.ways; w++ {
			tb := g.wayTab[w]
			prefetch(unsafe.Pointer(&tb.words[g.index(w)*uint64(tb.bits)>>3]))
			g.fetched++
		}
	}
	g.key, g.rkey = key, rkey
}

// Pop implements ida.Evaluator.
func (e *bothEval) Pop(p *ida.Position, tile uint8, from, to int) {
	e.tr.Undo(p, tile, from, to)
	e.follow(tile, from, to)
}

// Counters implements ida.CounterReporter: the gap databases' counters
// (queries: nodes that read a filter or a table; skipped: nodes whose
// levels could not change the cut) and the nodes cut by Manhattan distance
// or the base before any question.
func (e *bothEval) Counters() map[string]int64 {
	c := e.g.Counters()
	c["cut_md"], c["cut_base"] = e.cutMD, e.cutBase
	return c
}
