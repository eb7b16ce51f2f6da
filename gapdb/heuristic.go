package gapdb

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
)

// Heuristic is h_G:2N read from gap databases: the Manhattan distance M
// plus 2v, where v is the largest entry, capped at N+1, over the databases
// (projections) and, with Transpose, over the board's transpose too. A
// database of gap <= 2n < 2N among them answers at most n+1 ("gap at
// least 2n+2"), so a big projection with few levels can join a small one
// with all of them. Each
// database's entry is the first level of its chain holding the board's
// projection, so with one database and no transpose this is ida.Gap over that
// chain, with the transpose it is the chain of transposed sets (heuristic's
// gapGr); with several it is the largest of those admissible bounds, and
// so admissible.
//
// As ida.Gap it asks only where the answer can change the cut (with d =
// need - M in 0..2N+1, whether every entry is at most d/2) and returns the
// same values, so it expands the same nodes; one read a database answers
// every level. Before a node's children are pushed their entries are
// prefetched (ida.Prefetcher), so that the misses of all of them are in
// flight at once.
type Heuristic struct {
	DBs []*DB
	// Levels is N+1: h_G:2N. A database of more levels serves it with its
	// entries capped at N+1.
	Levels    int
	Transpose bool
	// NoSkip computes the exact bound at every node (tests, comparisons).
	NoSkip bool
	// NoPrefetch turns off the prefetch (comparisons: nodes are the same).
	NoPrefetch bool
	// NoFilter asks the tables without the databases' filters
	// (comparisons: nodes are the same).
	NoFilter bool
	Label    string
}

// Name implements ida.Heuristic.
func (h Heuristic) Name() string {
	if h.Label != "" {
		return h.Label
	}
	s := fmt.Sprintf("gapdb%d", 2*h.Levels-2)
	if h.Transpose {
		s += "r"
	}
	return s
}

// maxDBs bounds the projections of one heuristic (each is a read a node).
const maxDBs = 16

// table is one database as the evaluator reads it.
type table struct {
	words  []byte
	proj   projector
	bits   int
	mask   uint16
	filter []byte // nil without one
	fmask  uint64
	// most is the largest entry the table holds, its "above" (its
	// levels): a question "every entry at most j?" with j >= most never
	// reads it. A database of fewer levels beside one of more (the
	// approximated gap-8 level of a spread cell set holds nearly every
	// pattern, so its database stops at gap 6) costs nothing where it
	// cannot answer.
	most int
}

// floor is the filter's entry of the board with key (0 without a filter):
// a lower bound of its entry, read from cache.
func (t *table) floor(key uint64) uint16 {
	if t.filter == nil {
		return 0
	}
	return nibble(t.filter, t.proj.pattern(key)&t.fmask)
}

// Check refuses a heuristic no evaluator can be made of: no database,
// more than 16, no level, or no database reaching its levels. A caller
// that checks it when the heuristic is put together refuses the input
// before any search.
func (h Heuristic) Check() error {
	if len(h.DBs) == 0 {
		return errors.New("gap database heuristic without databases")
	}
	if len(h.DBs) > maxDBs {
		return fmt.Errorf("%d gap databases: at most %d (one read each a node)", len(h.DBs), maxDBs)
	}
	if h.Levels < 1 {
		return fmt.Errorf("gap database heuristic of %d levels", h.Levels)
	}
	// A database of fewer levels still answers: its entry "above gap 2n"
	// (n+1) is the bound "gap at least 2n+2", one a larger h_G:2N reads the
	// same way. One database must reach 2N, or h_G:2N would be a smaller
	// heuristic under a larger name.
	top := 0
	for _, d := range h.DBs {
		top = max(top, d.Levels)
	}
	if top < h.Levels {
		return fmt.Errorf("no gap database holds gap <= %d (h_G:%d): the largest holds gap <= %d", 2*h.Levels-2, 2*h.Levels-2, 2*top-2)
	}
	return nil
}

// NewEvaluator implements ida.Heuristic.
func (h Heuristic) NewEvaluator(rows, cols int) (ida.Evaluator, error) {
	for _, d := range h.DBs {
		if d.Both() {
			return nil, fmt.Errorf("%s: %s holds both levels in one entry: the combined heuristic (gapdb.Both) reads it", d.Path, d.Name())
		}
		if !d.Base.IsZero() {
			return nil, fmt.Errorf("%s: %s holds residual levels of the base %s, not gap levels: Manhattan distance plus them is not the bound they prove (the residual heuristic adds them to the base)", d.Path, d.Name(), d.Base)
		}
	}
	e, err := h.newEvaluator(rows, cols)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// newEvaluator is NewEvaluator for gap or residual levels alike.
func (h Heuristic) newEvaluator(rows, cols int) (*evaluator, error) {
	if err := h.Check(); err != nil {
		return nil, err
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, err
	}
	e := &evaluator{levels: uint16(h.Levels), top: 2 * h.Levels, noSkip: h.NoSkip, prefetch: !h.NoPrefetch, geo: geo, transpose: h.Transpose}
	for _, d := range h.DBs {
		if d.Rows != rows || d.Cols != cols {
			return nil, fmt.Errorf("%s: a %dx%d database, but the boards are %dx%d", d.Path, d.Rows, d.Cols, rows, cols)
		}
		t := table{words: d.table, proj: d.proj, bits: d.Bits, mask: d.mask, most: d.Levels}
		if !h.NoFilter {
			t.filter, t.fmask = d.filter, 1<<(4*d.FilterCells)-1
		}
		e.tabs = append(e.tabs, t)
	}
	if h.Transpose {
		tp, err := encode.NewSquareTransposition(rows, cols)
		if err != nil {
			return nil, err
		}
		e.tp = *tp
		n := rows * cols
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				e.rmul[a][b] = geo.Flip[e.tp.Cell[a]][e.tp.Cell[b]]
			}
		}
	}
	e.ways = len(e.tabs)
	if h.Transpose {
		e.ways *= 2
	}
	for w := 0; w < e.ways; w++ {
		e.wayTab = append(e.wayTab, &e.tabs[w%len(e.tabs)])
	}
	return e, nil
}

// evaluator keeps the board's key and, with transpose, its transpose's along
// the path; pre holds, per depth, the children's entry indexes computed by
// Prefetch, by the child's key (an index is a function of the key alone, so
// a stale slot is never wrong, only missed).
type evaluator struct {
	tabs      []table
	ways      int      // reads a question: databases, times 2 with transpose
	wayTab    []*table // the table each way reads
	levels    uint16
	top       int // 2N + 2
	noSkip    bool
	prefetch  bool
	transpose bool
	geo       *encode.Geometry
	key       uint64
	rkey      uint64
	tp        encode.Transposition
	rmul      [16][16]uint64
	pre       []prefetched
	memo      [2 * maxDBs]rankMemo

	queries, skipped, filtered, reads, hits, fetched int64
}

type prefetched struct {
	key [encode.MaxCells]uint64
	idx [encode.MaxCells][2 * maxDBs]uint64
}

// wayKey is the board's key (way < len(tabs)) or its transpose's.
func (e *evaluator) wayKey(way int) uint64 {
	if way >= len(e.tabs) {
		return e.rkey
	}
	return e.key
}

// index is the entry of the board (way < len(tabs)) or its transpose.
func (e *evaluator) index(way int) uint64 {
	return e.memo[way].index(&e.wayTab[way].proj, e.wayKey(way))
}

// floored reports whether a filter tells that some entry of the current
// board exceeds j (the question "every entry at most j?" answered "no"
// from cache).
func (e *evaluator) floored(j uint16) bool {
	for w := 0; w < e.ways; w++ {
		if t := e.wayTab[w]; t.most > int(j) && t.floor(e.wayKey(w)) > j {
			return true
		}
	}
	return false
}

// rankMemo remembers the ranks of the patterns asked last. A move that
// neither starts nor ends on a projection's cells keeps its pattern, and a
// depth-first search asks the same few patterns again and again (a node's
// children, then theirs), so most ranks are found here; the rank is a
// function of the pattern alone, so a slot is never stale, only replaced.
type rankMemo struct {
	pat [rankMemoSize]uint64
	idx [rankMemoSize]uint64
}

const rankMemoSize = 64

func (m *rankMemo) index(p *projector, key uint64) uint64 {
	pat := p.pattern(key)
	s := (pat * 0x9e3779b97f4a7c15) >> 58 // the top 6 bits: rankMemoSize slots
	if m.pat[s] == pat+1 {
		return m.idx[s]
	}
	i := placement.RankKey(pat, p.n, p.k)
	m.pat[s], m.idx[s] = pat+1, i
	return i
}

func (e *evaluator) at(way int, x uint64) uint16 {
	t := e.wayTab[way]
	e.reads++
	return entryAt(t.words, x, t.bits, t.mask)
}

// value is the largest entry of the current board, capped at N+1.
func (e *evaluator) value() uint16 {
	v := uint16(0)
	for w := 0; w < e.ways; w++ {
		v = max(v, e.at(w, e.index(w)))
	}
	return min(v, e.levels)
}

// holds reports whether every entry of the current board is at most j,
// using the indexes pre gives when set.
func (e *evaluator) holds(j uint16, pre *[2 * maxDBs]uint64) bool {
	e.queries++
	// With pre the filter was asked already: Prefetch keeps indexes only
	// for the children it did not answer.
	if pre == nil && e.floored(j) {
		e.filtered++
		return false
	}
	for w := 0; w < e.ways; w++ {
		if e.wayTab[w].most <= int(j) {
			continue
		}
		var x uint64
		if pre != nil {
			x = pre[w]
		} else {
			x = e.index(w)
		}
		if e.at(w, x) > j {
			return false
		}
	}
	return true
}

// Root implements ida.Evaluator.
func (e *evaluator) Root(p *ida.Position) int {
	e.key = p.Key()
	if e.transpose {
		e.rkey = e.tp.Key(e.key)
	}
	return p.MD + 2*int(e.value())
}

// Push implements ida.Evaluator, as ida.Gap's: outside d = need - M in
// 0..2N+1 no question can change the cut; inside it, the board's gap
// exceeds d exactly when some entry exceeds j = d/2, and then M + 2j + 2
// is returned, else M.
func (e *evaluator) Push(p *ida.Position, tile uint8, from, to int, need int) int {
	e.key ^= uint64(tile) * e.geo.Flip[from][to]
	if e.transpose {
		e.rkey ^= uint64(e.tp.Tile[tile]) * e.rmul[from][to]
	}
	if e.noSkip {
		return p.MD + 2*int(e.value())
	}
	d := need - p.MD
	if d < 0 || d >= e.top {
		e.skipped++
		return p.MD
	}
	var pre *[2 * maxDBs]uint64
	if pd := p.Depth; pd < len(e.pre) && e.pre[pd].key[from] == e.key {
		pre = &e.pre[pd].idx[from]
		e.hits++
	}
	j := uint16(d / 2)
	if e.holds(j, pre) {
		return p.MD
	}
	return p.MD + 2*int(j) + 2
}

// Pop implements ida.Evaluator.
func (e *evaluator) Pop(_ *ida.Position, tile uint8, from, to int) {
	e.key ^= uint64(tile) * e.geo.Flip[from][to]
	if e.transpose {
		e.rkey ^= uint64(e.tp.Tile[tile]) * e.rmul[from][to]
	}
}

// Prefetch implements ida.Prefetcher: for each child that Push will ask
// (its need - M in 0..2N+1) the indexes of its entries are computed, kept
// for Push, and their cache lines asked for.
func (e *evaluator) Prefetch(p *ida.Position, cells []uint8, need int) {
	if !e.prefetch || e.noSkip {
		return
	}
	d := p.Depth + 1
	for len(e.pre) <= d {
		e.pre = append(e.pre, prefetched{})
	}
	pr := &e.pre[d]
	blank := p.Blank
	key, rkey := e.key, e.rkey
	for _, c := range cells {
		t := p.Tiles[c]
		x := need - (p.MD + int(e.geo.Delta[t][c][blank]))
		if x < 0 || x >= e.top {
			continue
		}
		ck := key ^ uint64(t)*e.geo.Flip[c][blank]
		e.key = ck
		if e.transpose {
			e.rkey = rkey ^ uint64(e.tp.Tile[t])*e.rmul[c][blank]
		}
		if e.floored(uint16(x / 2)) {
			continue // Push answers from the filter
		}
		pr.key[c] = ck
		for w := 0; w < e.ways; w++ {
			tb := e.wayTab[w]
			if tb.most <= x/2 {
				continue // holds does not read it
			}
			i := e.index(w)
			pr.idx[c][w] = i
			prefetch(unsafe.Pointer(&tb.words[i*uint64(tb.bits)>>3]))
			e.fetched++
		}
	}
	e.key, e.rkey = key, rkey
}

// Counters implements ida.CounterReporter.
func (e *evaluator) Counters() map[string]int64 {
	return map[string]int64{"queries": e.queries, "skipped": e.skipped, "filtered": e.filtered, "db_reads": e.reads,
		"prefetched": e.fetched, "prefetch_hits": e.hits}
}

// Looped is h as nested levels behind ida.GapLoop, for ida.Combined (which
// asks about the transpose image itself, so h.Transpose must be false): level j
// holds a board when every database's entry of it is at most j, one read a
// database.
func (h Heuristic) Looped() ida.Heuristic { return looped{h} }

type looped struct{ Heuristic }

type loopEvaluator struct {
	*evaluator
	loop ida.GapLoop
}

// NewEvaluator implements ida.Heuristic.
func (l looped) NewEvaluator(rows, cols int) (ida.Evaluator, error) {
	if l.Transpose {
		return nil, errors.New("gap database levels: the transpose image is the combining heuristic's to ask")
	}
	ev, err := l.Heuristic.NewEvaluator(rows, cols)
	if err != nil {
		return nil, err
	}
	e := &loopEvaluator{evaluator: ev.(*evaluator)}
	e.loop = ida.GapLoop{Levels: l.Levels, NoSkip: l.NoSkip, First: make([]ida.DenseBits, l.Levels), Ask: e.ask}
	return e, nil
}

// GapLoop implements ida.GapLooper.
func (e *loopEvaluator) GapLoop() *ida.GapLoop { return &e.loop }

func (e *loopEvaluator) ask(j int, key uint64) bool {
	e.loop.Passed++
	for w := range e.tabs {
		if t := &e.tabs[w]; t.most > j && int(t.floor(key)) > j {
			e.filtered++
			return false
		}
	}
	for w := range e.tabs {
		t := &e.tabs[w]
		if t.most <= j {
			continue
		}
		e.reads++
		if int(entryAt(t.words, e.memo[w].index(&t.proj, key), t.bits, t.mask)) > j {
			return false
		}
	}
	return true
}

// PrefetchKey implements ida.GapPrefetcher: the cache line of every
// database's entry of the board, unless a filter answers the question
// about level j (ask then reads no table).
func (e *loopEvaluator) PrefetchKey(key uint64, j int) {
	if !e.prefetch {
		return
	}
	for w := range e.tabs {
		if t := &e.tabs[w]; t.most > j && int(t.floor(key)) > j {
			return
		}
	}
	for w := range e.tabs {
		t := &e.tabs[w]
		if t.most <= j {
			continue
		}
		prefetch(unsafe.Pointer(&t.words[e.memo[w].index(&t.proj, key)*uint64(t.bits)>>3]))
		e.fetched++
	}
}
