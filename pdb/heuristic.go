package pdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/safe"
)

// Databases is the loaded (or freshly built) databases of a partition.
type Databases struct {
	Part   Partition
	Tables [][]uint8 // Tables[g] for Part.Groups[g]
	Steps  []int     // Steps[g]: largest change of Tables[g] along one move
	// Nibbles, when set instead of Tables, are the tables in the compact
	// coding (see Compact): half the bytes, so half the cache lines.
	Nibbles [][]uint8
	// Sampled are the files Load checked only by samples (no known digest,
	// too large to build again at load): a caller should say so, and that
	// gapset verify checks them whole. Empty for the named partitions.
	Sampled []string
	// Blank marks blank-aware databases (Part.Blank, see BuildBlank): the
	// Nibbles are indexed by the rank of the tiles' cells and the blank's,
	// and every move changes the sum by exactly one.
	Blank bool
}

// Step is the largest change of the additive bound along one move: a move
// changes one group's value (direct, and one group's transposed).
func (s *Databases) Step() int {
	st := 1
	for _, x := range s.Steps {
		st = max(st, x)
	}
	return st
}

// Bytes is the memory the tables take.
func (s *Databases) Bytes() int64 {
	var b int64
	for _, t := range s.Tables {
		b += int64(len(t))
	}
	for _, t := range s.Nibbles {
		b += int64(len(t))
	}
	return b
}

// ErrMissing is wrapped when a database file does not exist.
var ErrMissing = errors.New("pattern database not built")

// Load reads the databases of part from dir, the groups' files at once
// (files of 1 MiB or more are mapped read-only: their tables must not be
// written), each checked as Read checks it: a file of a named partition's
// group whole, by its digest (see checkWhole). A missing or corrupt file
// gives an error that says how to build it. Files
// written compact (pdb build --compact) load as Nibbles, the others as
// Tables; a mix of the two is refused.
func Load(dir string, part Partition) (*Databases, error) { return LoadVerified(dir, part, nil) }

// LoadVerified is Load with a record of files checked whole before (nil:
// none): those unchanged since are not hashed again, and those hashed now
// are added to it (saved by the caller).
func LoadVerified(dir string, part Partition, v *Verified) (*Databases, error) {
	s, _, err := loadSet(dir, part, v, false)
	return s, err
}

// LoadBeside is LoadVerified for a caller that searches at once: the
// checksum of a mapped file that v records as hashed, the one check left
// for it, runs on another goroutine, and each of checks gives one such
// file's outcome. The tables may be searched meanwhile, but nothing found
// with them may be reported before every check has returned nil (a
// failure is the error LoadVerified would give).
func LoadBeside(dir string, part Partition, v *Verified) (s *Databases, checks []*safe.Pending, err error) {
	return loadSet(dir, part, v, true)
}

func loadSet(dir string, part Partition, v *Verified, later bool) (*Databases, []*safe.Pending, error) {
	data := make([][]uint8, len(part.Groups))
	compact := make([]bool, len(part.Groups))
	whole := make([]bool, len(part.Groups))
	s := &Databases{Part: part, Steps: make([]int, len(part.Groups)), Blank: part.Blank}
	errs := make([]error, len(part.Groups))
	pending := make([]*safe.Pending, len(part.Groups))
	hint := fmt.Sprintf("build it with: gapset pdb build --partition %s --rows %d --cols %d --out %s", part.Name, part.Rows, part.Cols, dir)
	if part.Blank {
		hint = strings.Replace(hint, " --out ", " --blank --out ", 1)
	}
	var wg safe.Group
	for i, g := range part.Groups {
		wg.Go(func() {
			path := filepath.Join(dir, part.fileName(g))
			var st stored
			st, errs[i] = readKind(path, part.Rows, part.Cols, g, part.Blank, v, later)
			data[i], compact[i], s.Steps[i], whole[i], pending[i] = st.data, st.compact, st.step, st.whole, st.later
			switch {
			case errors.Is(errs[i], fs.ErrNotExist):
				errs[i] = fmt.Errorf("%w: %s is missing; %s", ErrMissing, path, hint)
			case errs[i] != nil:
				errs[i] = fmt.Errorf("%w; re%s", errs[i], hint)
			}
		})
	}
	wg.Wait()
	var checks []*safe.Pending
	for _, p := range pending {
		if p != nil {
			checks = append(checks, safe.Start(func() error {
				if err := p.Wait(); err != nil {
					return fmt.Errorf("%w; re%s", err, hint)
				}
				return nil
			}))
		}
	}
	for _, err := range errs { // the first group's error, as one at a time would give
		if err != nil {
			return nil, nil, err
		}
	}
	for i := range compact {
		if compact[i] != compact[0] {
			return nil, nil, fmt.Errorf("%w: %s holds compact and byte tables; re%s", ErrCorrupt, dir, hint)
		}
	}
	for i, path := range part.Paths(dir) {
		if !whole[i] {
			s.Sampled = append(s.Sampled, path)
		}
	}
	if compact[0] {
		s.Nibbles = data
	} else {
		s.Tables = data
	}
	return s, checks, nil
}

// Heuristic is the additive bound of a partition's Databases: the sum over groups. With
// Transpose (square boards only) it also looks up the board's transpose
// (its image in the main diagonal), which maps the goal onto itself, and
// takes the larger sum: the same tables give a second, often larger, bound.
type Heuristic struct {
	DBs       *Databases
	Transpose bool
	// Dual also looks up the dual board (the inverse permutation: tile t
	// stands where the tile found on t's home cell belongs), and with
	// Transpose the dual of the transposed board, when neither direct sum cuts.
	// Only groups for which the bound is proven are summed (see dualGroups).
	// The bound is then raised by one where its parity differs from
	// Manhattan distance's: every solution's length has that parity, and
	// the dual values' parity varies, which would otherwise cost IDA*
	// iterations at limits no solution can have.
	Dual bool
	// NoSkip computes the bound at every node (no lower-bound-check
	// skipping); for comparisons.
	NoSkip bool
	// NoPrefetch turns off the prefetch of the children's entries (see
	// tracker.Prefetch); for comparisons: nodes and bounds are the same.
	NoPrefetch bool
	// Label overrides the name reported.
	Label string
}

// Name implements ida.Heuristic.
func (h *Heuristic) Name() string {
	if h.Label != "" {
		return h.Label
	}
	name := "pdb" + h.DBs.Part.Name
	if h.DBs.Blank {
		name += "+blank"
	}
	if h.Transpose {
		name += "+r"
	}
	if h.Dual {
		name += "+d"
	}

	return name
}

// NewEvaluator implements ida.Heuristic.
func (h *Heuristic) NewEvaluator(rows, cols int) (ida.Evaluator, error) {
	tr, err := h.NewTracker(rows, cols)
	if err != nil {
		return nil, err
	}
	// Each group's value is at least its tiles' Manhattan distance, so the
	// sum dominates Manhattan distance.
	step, _ := h.TrackerInfo()
	return ida.NewSkipEvaluator(tr, !h.NoSkip, step, true), nil
}

// TrackerInfo implements ida.TrackerMaker. The dual bound can change by a
// whole group's value in one move (a group leaves or joins the proven set),
// so with Dual the step is too large for skipping ever to apply.
func (h *Heuristic) TrackerInfo() (int, bool) {
	if h.Dual {
		return 1 << 10, true
	}
	return h.DBs.Step(), true
}

// NewTracker implements ida.TrackerMaker.
func (h *Heuristic) NewTracker(rows, cols int) (ida.Tracker, error) {
	p := h.DBs.Part
	if rows != p.Rows || cols != p.Cols {
		return nil, fmt.Errorf("pattern databases %s are for %dx%d boards, not %dx%d", p.Name, p.Rows, p.Cols, rows, cols)
	}
	if h.Transpose && rows != cols {
		return nil, fmt.Errorf("the transposed lookup needs a square board, not %dx%d", rows, cols)
	}
	if len(p.Groups) > maxGroups {
		return nil, fmt.Errorf("at most %d groups", maxGroups)
	}
	if h.DBs.Blank && (h.Dual || h.DBs.Nibbles == nil) {
		return nil, fmt.Errorf("blank-aware databases %s: no dual lookup, compact tables only", p.Name)
	}
	t := &tracker{n: rows * cols, cols: cols, transpose: h.Transpose, dual: h.Dual, parity: h.Dual, tables: h.DBs.Tables,
		nibs: h.DBs.Nibbles, blank: h.DBs.Blank}
	if t.nibs != nil {
		geo, err := encode.NewGeometry(rows, cols)
		if err != nil {
			return nil, err
		}
		t.dist = &geo.Dist
	}
	for gi, g := range p.Groups {
		t.groups = append(t.groups, g)
		t.nfree[gi] = t.n - len(g)
		w := int32(1)
		for i := len(g) - 1; i >= 0; i-- {
			t.grpOf[g[i]], t.idxIn[g[i]] = uint8(gi), uint8(i)
			t.wt[gi][i] = w // the product of the later digits' radices
			w *= int32(t.n - i)
		}
	}
	if rows == cols {
		tp, err := encode.NewSquareTransposition(rows, cols)
		if err != nil {
			return nil, err
		}
		t.cmap, t.tmap = tp.Cell, tp.Tile
	} else {
		for c := 0; c < t.n; c++ {
			t.cmap[c], t.tmap[c] = uint8(c), uint8(c) // no transpose: the identity
		}
	}
	t.good = dualGroups(rows, cols, p.Groups)
	if h.NoPrefetch {
		return noPrefetch{t}, nil
	}
	return t, nil
}

// dualGroups returns, for each blank cell c, the groups whose dual value is
// a proven lower bound (docs/proofs.md#dual-lookups): the groups that do
// not hold the tile whose home is c, and in whose goal placement c and the
// blank's home are in the same region of free cells.
func dualGroups(rows, cols int, groups [][]uint8) (good [encode.MaxCells]uint16) {
	g := newGrid(rows, cols)
	n := g.n
	for gi, grp := range groups {
		var home uint32
		for _, t := range grp {
			home |= 1 << (t - 1)
		}
		reach := g.region(n-1, g.all&^home)
		for c := 0; c < n; c++ {
			if reach&(1<<c) != 0 {
				good[c] |= 1 << gi
			}
		}
	}
	return good
}

const maxGroups = 16

type frame struct {
	vd, vr, vu, vv                 [maxGroups]uint8 // group values: direct, transposed, dual, transposed dual
	dirtyD, dirtyR, dirtyU, dirtyV uint16           // groups whose value is stale
	dk, dr                         int32            // the move's change of the moved group's rank, direct and transposed
}

// tracker follows the tile positions (and their transposes) cheaply and
// looks up only the groups that moved since the last bound.
type tracker struct {
	n, cols                 int
	transpose, dual, parity bool
	tables                  [][]uint8
	nibs                    [][]uint8                               // compact tables (Databases.Nibbles), when tables is nil
	dist                    *[encode.MaxCells][encode.MaxCells]int8 // with nibs: tile distances, for the dual boards
	groups                  [][]uint8
	grpOf                   [encode.MaxCells]uint8
	idxIn                   [encode.MaxCells]uint8 // a tile's place in its group
	wt                      [maxGroups][encode.MaxCells]int32
	cmap, tmap              [encode.MaxCells]uint8  // the transpose's cell and tile maps (encode.Transposition)
	pos, rpos               [encode.MaxCells]uint8  // cell of each tile; of each transposed tile
	rtiles                  [encode.MaxCells]uint8  // the transposed board: tile on each cell
	rk, rr                  [maxGroups]int          // each group's rank (table index), direct and transposed
	dpos, rdpos             [encode.MaxCells]uint8  // the same on the dual board
	good                    [encode.MaxCells]uint16 // dualGroups
	frames                  []frame
	// pre[d] holds the rank changes Prefetch computed for the children of
	// the node at depth d, by the cell the tile moves from, so that Move
	// does not compute them again; valid until a new node at depth d.
	pre []prefetched
	// blank: the tables are blank-aware (Databases.Blank): an entry's
	// index is the group's rank times its free cells plus the blank's
	// digit among them, from the cells the group holds (used, rused).
	blank       bool
	nfree       [maxGroups]int
	used, rused [maxGroups]uint32
}

type prefetched struct {
	valid  bool
	dk, dr [encode.MaxCells]int32
}

// noPrefetch is the tracker without its Prefetch (Heuristic.NoPrefetch),
// so that the loops do not even list the children for it.
type noPrefetch struct{ t *tracker }

func (n noPrefetch) Reset(p *ida.Position)                          { n.t.Reset(p) }
func (n noPrefetch) Move(p *ida.Position, tile uint8, from, to int) { n.t.Move(p, tile, from, to) }
func (n noPrefetch) Undo(p *ida.Position, tile uint8, from, to int) { n.t.Undo(p, tile, from, to) }
func (n noPrefetch) Bound(p *ida.Position, need int) int            { return n.t.Bound(p, need) }

// rankDelta is the change of group g's rank (placement.Rank) when the group's
// tile number i moves from cell a into the blank's cell b of a board whose
// tiles stand as in at. Along a row only that tile's digit changes, by one.
// Along a column its digit changes by cols less the group's earlier tiles
// on the cells in between, and each later tile in between gains (down) or
// loses (up) one: nothing else is passed over.
func (t *tracker) rankDelta(g, i, a, b int, at *[encode.MaxCells]uint8) int {
	w := &t.wt[g]
	switch b - a {
	case 1:
		return int(w[i])
	case -1:
		return -int(w[i])
	}
	d := t.cols * int(w[i])
	for x := min(a, b) + 1; x < max(a, b); x++ {
		if u := at[x]; u != 0 && int(t.grpOf[u]) == g {
			if j := int(t.idxIn[u]); j < i {
				d -= int(w[i])
			} else {
				d += int(w[j])
			}
		}
	}
	if b < a {
		return -d
	}
	return d
}

// Prefetch implements ida.TrackerPrefetcher: for each child (the tile on
// cell c moves into the blank's cell) it asks for the cache lines of the
// moved tile's group's entry on the direct board, and on the transposed one
// with Transpose (the ranks after the move, from rankDelta), so that several
// misses are in flight at once, and keeps the rank changes in pre for Move.
// The dual boards are not prefetched (their lookups are rarer and change two
// groups a move).
func (t *tracker) Prefetch(p *ida.Position, cells []uint8) {
	blank := p.Blank
	pr := t.level(p.Depth)
	pr.valid = true
	for _, c := range cells {
		tile := p.Tiles[c]
		g := int(t.grpOf[tile])
		dk := t.rankDelta(g, int(t.idxIn[tile]), int(c), blank, &p.Tiles)
		pr.dk[c] = int32(dk)
		// the child's blank is on c, the moved tile on the blank's cell
		moved := uint32(1)<<c | 1<<blank
		prefetch(t.addr(g, t.at(g, t.rk[g]+dk, t.used[g]^moved, int(c))))
		if t.transpose {
			rt := t.tmap[tile]
			rg := int(t.grpOf[rt])
			rc, rb := int(t.cmap[c]), int(t.cmap[blank])
			dr := t.rankDelta(rg, int(t.idxIn[rt]), rc, rb, &t.rtiles)
			pr.dr[c] = int32(dr)
			prefetch(t.addr(rg, t.at(rg, t.rr[rg]+dr, t.rused[rg]^(1<<rc|1<<rb), rc)))
		}
	}
}

// level returns pre[d], growing pre as needed.
func (t *tracker) level(d int) *prefetched {
	for len(t.pre) <= d {
		t.pre = append(t.pre, prefetched{})
	}
	return &t.pre[d]
}

func (t *tracker) Reset(p *ida.Position) {
	t.rtiles = [encode.MaxCells]uint8{}
	for c := 0; c < t.n; c++ {
		if tile := p.Tiles[c]; tile != 0 {
			t.pos[tile] = uint8(c)
			t.rpos[t.tmap[tile]] = t.cmap[c]
			t.rtiles[t.cmap[c]] = t.tmap[tile]
		}
	}
	for g, grp := range t.groups {
		t.rk[g], t.rr[g] = t.index(g, &t.pos), t.index(g, &t.rpos)
		t.used[g], t.rused[g] = 0, 0
		for _, tile := range grp {
			t.used[g] |= 1 << t.pos[tile]
			t.rused[g] |= 1 << t.rpos[tile]
		}
	}
	for c := 0; c < t.n; c++ {
		t.setDual(nil, c, p.Tiles[c])
	}
	all := uint16(1)<<len(t.groups) - 1
	t.frames = append(t.frames[:0], frame{dirtyD: all, dirtyR: all, dirtyU: all, dirtyV: all})
	for d := range t.pre {
		t.pre[d].valid = false
	}
}

// setDual puts on the dual board the tile whose home is cell home where
// the tile x found on that cell belongs (x 0: the blank, whose home is n-1):
// the dual board is the inverse of the board read as a permutation of home
// cells. f, when set, gets the changed groups marked.
func (t *tracker) setDual(f *frame, home int, x uint8) {
	if home == t.n-1 {
		return // the blank's home: no tile to place
	}
	tile := uint8(home + 1)
	c := uint8(t.n - 1)
	if x != 0 {
		c = x - 1
	}
	t.dpos[tile] = c
	t.rdpos[t.tmap[tile]] = t.cmap[c] // the dual of the transpose is the transpose of the dual
	if f != nil {
		f.dirtyU |= 1 << t.grpOf[tile]
		f.dirtyV |= 1 << t.grpOf[t.tmap[tile]]
	}
}

func (t *tracker) Move(p *ida.Position, tile uint8, from, to int) {
	d := p.Depth
	if len(t.frames) <= d {
		t.frames = append(t.frames, frame{})
	}
	f := &t.frames[d]
	*f = t.frames[d-1]
	// a new node at depth d: its children are not prefetched yet; the
	// parent's prefetch may hold this move's rank changes already
	t.level(d).valid = false
	pr := &t.pre[d-1]
	g := t.grpOf[tile]
	if pr.valid {
		f.dk = pr.dk[from]
	} else {
		f.dk = int32(t.rankDelta(int(g), int(t.idxIn[tile]), from, to, &p.Tiles))
	}
	t.rk[g] += int(f.dk)
	t.used[g] ^= 1<<from | 1<<to
	t.pos[tile] = uint8(to)
	f.dirtyD |= 1 << g
	if t.transpose {
		rt := t.tmap[tile]
		rg := t.grpOf[rt]
		a, b := t.cmap[from], t.cmap[to]
		if pr.valid {
			f.dr = pr.dr[from]
		} else {
			f.dr = int32(t.rankDelta(int(rg), int(t.idxIn[rt]), int(a), int(b), &t.rtiles))
		}
		t.rr[rg] += int(f.dr)
		t.rused[rg] ^= 1<<a | 1<<b
		t.rpos[rt] = b
		t.rtiles[a], t.rtiles[b] = 0, rt
		f.dirtyR |= 1 << rg
	}
	if t.dual { // the tiles whose homes are from and to move on the dual board
		t.setDual(f, from, 0)
		t.setDual(f, to, tile)
	}
}

// Undo reverts the ranks by the changes Move kept in the child's frame
// (p.Depth is the parent's again).
func (t *tracker) Undo(p *ida.Position, tile uint8, from, to int) {
	f := &t.frames[p.Depth+1]
	g := t.grpOf[tile]
	t.rk[g] -= int(f.dk)
	t.used[g] ^= 1<<from | 1<<to
	t.pos[tile] = uint8(from)
	if t.transpose {
		rt := t.tmap[tile]
		a, b := t.cmap[from], t.cmap[to]
		rg := t.grpOf[rt]
		t.rr[rg] -= int(f.dr)
		t.rused[rg] ^= 1<<a | 1<<b
		t.rpos[rt] = a
		t.rtiles[a], t.rtiles[b] = rt, 0
	}
	if t.dual {
		t.setDual(nil, from, tile)
		t.setDual(nil, to, 0)
	}
}

// index ranks group g's placement from the tiles' cells (placement.Rank, read
// through the tiles): at Reset, and for the dual boards.
func (t *tracker) index(g int, pos *[encode.MaxCells]uint8) int {
	var used uint32
	r := 0
	n := t.n
	for i, tile := range t.groups[g] {
		r, used = placement.Step(r, used, pos[tile], n-i)
	}
	return r
}

func (t *tracker) Bound(p *ida.Position, need int) int {
	h := t.bound(p, need)
	if t.parity {
		h += (h ^ p.MD) & 1
	}
	return h
}

func (t *tracker) bound(p *ida.Position, need int) int {
	f := &t.frames[p.Depth]
	all := uint16(1)<<len(t.groups) - 1
	if t.transpose && f.dirtyD&(f.dirtyD-1) == 0 && f.dirtyR&(f.dirtyR-1) == 0 && f.dirtyD != 0 && f.dirtyR != 0 {
		// After a move one group is stale on each board: read both entries
		// before using either, so that their cache misses overlap. The
		// transposed value is then kept even when the direct sum cuts.
		gd, gr := bits.TrailingZeros16(f.dirtyD), bits.TrailingZeros16(f.dirtyR)
		vd := t.entry(gd, t.at(gd, t.rk[gd], t.used[gd], p.Blank))
		vr := t.entry(gr, t.at(gr, t.rr[gr], t.rused[gr], int(t.cmap[p.Blank])))
		f.vd[gd], f.vr[gr] = vd, vr
		f.dirtyD, f.dirtyR = 0, 0
	}
	h := t.whole(p, t.sum(&f.vd, &f.dirtyD, all, &t.rk, &t.used, p.Blank, nil))
	if h > need || !(t.transpose || t.dual) {
		return h // the other boards' groups stay dirty until needed
	}
	if t.transpose {
		if h = max(h, t.whole(p, t.sum(&f.vr, &f.dirtyR, all, &t.rr, &t.rused, int(t.cmap[p.Blank]), nil))); h > need {
			return h
		}
	}
	if !t.dual {
		return h
	}
	if h = max(h, t.sum(&f.vu, &f.dirtyU, t.good[p.Blank], nil, nil, 0, &t.dpos)); h > need || !t.transpose {
		return h
	}
	return max(h, t.sum(&f.vv, &f.dirtyV, t.good[t.cmap[p.Blank]], nil, nil, 0, &t.rdpos))
}

// sum adds the values of the groups in use, looking up those that are
// dirty: at the ranks kept in rk (with the groups' cells used and the
// blank's cell, for blank-aware tables), or (rk nil) ranked from the cells
// in pos.
func (t *tracker) sum(v *[maxGroups]uint8, dirty *uint16, use uint16, rk *[maxGroups]int, used *[maxGroups]uint32, blank int, pos *[encode.MaxCells]uint8) int {
	for m := *dirty & use; m != 0; m &= m - 1 {
		g := bits.TrailingZeros16(m)
		if rk != nil {
			v[g] = t.entry(g, t.at(g, rk[g], used[g], blank))
		} else {
			v[g] = t.entry(g, t.index(g, pos))
			if t.nibs != nil { // a group's true value: its distance plus twice the entry
				m := 0
				for _, tile := range t.groups[g] {
					m += int(t.dist[tile][pos[tile]])
				}
				v[g] = uint8(m + 2*int(v[g]))
			}
		}
	}
	*dirty &^= use
	s := 0
	for m := use; m != 0; m &= m - 1 {
		s += int(v[bits.TrailingZeros16(m)])
	}
	return s
}

// at is the index of group g's entry: its placement's rank r, or in a
// blank-aware table the rank of the placement and the blank's cell, the
// blank's digit counted among the cells the group leaves free.
func (t *tracker) at(g, r int, used uint32, blank int) int {
	if !t.blank {
		return r
	}
	return r*t.nfree[g] + placement.Digit(used, uint(blank))
}

// entry is group g's table entry at rank r: its value, or with compact
// tables half its excess over the group's Manhattan distance.
func (t *tracker) entry(g, r int) uint8 {
	if t.nibs != nil {
		return nibble(t.nibs[g], r)
	}
	return t.tables[g][r]
}

// addr is the address of group g's entry at rank r, for prefetching.
func (t *tracker) addr(g, r int) unsafe.Pointer {
	if t.nibs != nil {
		return unsafe.Pointer(&t.nibs[g][r>>1])
	}
	return unsafe.Pointer(&t.tables[g][r])
}

// whole is the additive bound from a sum of entries over every group of
// a board (the direct or the transposed one, whose distance is the same).
func (t *tracker) whole(p *ida.Position, s int) int {
	if t.nibs != nil {
		return p.MD + 2*s
	}
	return s
}

// Value returns the bound of a whole board (for tests and tools).
func (h *Heuristic) Value(b encode.Board) (int, error) {
	tr, err := h.NewTracker(b.Rows, b.Cols)
	if err != nil {
		return 0, err
	}
	var p ida.Position
	p.Rows, p.Cols = b.Rows, b.Cols
	copy(p.Tiles[:], b.Tiles)
	p.Blank = b.Blank()
	p.MD = b.Manhattan()
	tr.Reset(&p)
	return tr.Bound(&p, 1<<30), nil
}

// BuildSet builds every group of part in turn (with part.Blank, the
// blank-aware tables: BuildBlankSet). prog, when set, gets the group's
// index with each layer report.
func BuildSet(ctx context.Context, part Partition, workers int, prog func(group, layer int, reached, total int64)) (*Databases, error) {
	if part.Blank {
		return BuildBlankSet(ctx, part, workers, prog)
	}
	s := &Databases{Part: part}
	for gi, g := range part.Groups {
		var pr Progress
		if prog != nil {
			pr = func(layer int, reached, total int64) { prog(gi, layer, reached, total) }
		}
		t, step, err := Build(ctx, part.Rows, part.Cols, g, workers, pr)
		if err != nil {
			return nil, err
		}
		s.Tables = append(s.Tables, t)
		s.Steps = append(s.Steps, step)
	}
	return s, nil
}
