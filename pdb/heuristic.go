package pdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"path/filepath"
	"unsafe"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// Set is the loaded (or freshly built) databases of a partition.
type Set struct {
	Part   Partition
	Tables [][]uint8 // Tables[g] for Part.Groups[g]
	Steps  []int     // Steps[g]: largest change of Tables[g] along one move
}

// Step is the largest change of the additive bound along one move: a move
// changes one group's value (direct, and one group's reflected).
func (s *Set) Step() int {
	st := 1
	for _, x := range s.Steps {
		st = max(st, x)
	}
	return st
}

// Bytes is the memory the tables take.
func (s *Set) Bytes() int64 {
	var b int64
	for _, t := range s.Tables {
		b += int64(len(t))
	}
	return b
}

// ErrMissing is wrapped when a database file does not exist.
var ErrMissing = errors.New("pattern database not built")

// Load reads the databases of part from dir. A missing or corrupt file gives
// an error that says how to build it.
func Load(dir string, part Partition) (*Set, error) {
	s := &Set{Part: part}
	for _, g := range part.Groups {
		path := filepath.Join(dir, FileName(part.Rows, part.Cols, g))
		t, step, err := Read(path, part.Rows, part.Cols, g)
		hint := fmt.Sprintf("build it with: gapset pdb build --partition %s --rows %d --cols %d --out %s", part.Name, part.Rows, part.Cols, dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%w: %s is missing; %s", ErrMissing, path, hint)
		case err != nil:
			return nil, fmt.Errorf("%w; rebuild it with: gapset pdb build --partition %s --rows %d --cols %d --out %s", err, part.Name, part.Rows, part.Cols, dir)
		}
		s.Tables = append(s.Tables, t)
		s.Steps = append(s.Steps, step)
	}
	return s, nil
}

// Heuristic is the additive bound of a Set: the sum over groups. With Reflect
// (square boards only) it also looks up the board mirrored in the main
// diagonal, which maps the goal onto itself, and takes the larger sum: the
// same tables give a second, often larger, bound.
type Heuristic struct {
	Set     *Set
	Reflect bool
	// Dual also looks up the dual board (the inverse permutation: tile t
	// stands where the tile found on t's home cell belongs), and with
	// Reflect the dual of the mirrored board, when neither direct sum cuts.
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
	name := "pdb" + h.Set.Part.Name
	if h.Reflect {
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
	return h.Set.Step(), true
}

// NewTracker implements ida.TrackerMaker.
func (h *Heuristic) NewTracker(rows, cols int) (ida.Tracker, error) {
	p := h.Set.Part
	if rows != p.Rows || cols != p.Cols {
		return nil, fmt.Errorf("pattern databases %s are for %dx%d boards, not %dx%d", p.Name, p.Rows, p.Cols, rows, cols)
	}
	if h.Reflect && rows != cols {
		return nil, fmt.Errorf("reflected lookup needs a square board, not %dx%d", rows, cols)
	}
	if len(p.Groups) > maxGroups {
		return nil, fmt.Errorf("at most %d groups", maxGroups)
	}
	t := &tracker{n: rows * cols, reflect: h.Reflect, dual: h.Dual, parity: h.Dual, tables: h.Set.Tables}
	for gi, g := range p.Groups {
		t.groups = append(t.groups, g)
		for _, tile := range g {
			t.grpOf[tile] = uint8(gi)
		}
	}
	for c := 0; c < t.n; c++ {
		tc := c
		if rows == cols {
			tc = (c%cols)*cols + c/cols
		}
		t.cmap[c] = uint8(tc)
		if c < t.n-1 {
			t.tmap[c+1] = uint8(tc + 1) // tile c+1 lives at cell c in the goal
		}
	}
	t.good = dualGroups(rows, cols, p.Groups)
	if h.NoPrefetch {
		return noPrefetch{t}, nil
	}
	return t, nil
}

// dualGroups returns, for each blank cell c, the groups whose dual value is
// a proven lower bound (NOTES.md, "Dual lookups"): the groups that do not
// hold the tile whose home is c, and in whose goal placement c and the
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
	vd, vr, vu, vv                 [maxGroups]uint8 // group values: direct, reflected, dual, reflected dual
	dirtyD, dirtyR, dirtyU, dirtyV uint16           // groups whose value is stale
}

// tracker follows the tile positions (and their mirror images) cheaply and
// looks up only the groups that moved since the last bound.
type tracker struct {
	n                     int
	reflect, dual, parity bool
	tables                [][]uint8
	groups                [][]uint8
	grpOf                 [encode.MaxCells]uint8
	cmap, tmap            [encode.MaxCells]uint8
	pos, rpos             [encode.MaxCells]uint8  // cell of each tile; of each mirrored tile
	dpos, rdpos           [encode.MaxCells]uint8  // the same on the dual board
	good                  [encode.MaxCells]uint16 // dualGroups
	frames                []frame
	pre                   []prefetched // pre[d]: the children of the node at depth d
}

// prefetched holds the entries Prefetch computed for a node's children:
// child k moves tile[k], and its changed group's entry is at index d[k] of
// the direct board's table (r[k] of the reflected board's). hit, on the
// child's own level, is k+1 for the child being searched (0: none).
type prefetched struct {
	n    int
	tile [4]uint8
	d, r [4]int32
	hit  int
}

// noPrefetch is the tracker without its Prefetch (Heuristic.NoPrefetch),
// so that the loops do not even list the children for it.
type noPrefetch struct{ t *tracker }

func (n noPrefetch) Reset(p *ida.Position)                          { n.t.Reset(p) }
func (n noPrefetch) Move(p *ida.Position, tile uint8, from, to int) { n.t.Move(p, tile, from, to) }
func (n noPrefetch) Undo(p *ida.Position, tile uint8, from, to int) { n.t.Undo(p, tile, from, to) }
func (n noPrefetch) Bound(p *ida.Position, need int) int            { return n.t.Bound(p, need) }

// level returns pre[d], growing pre as needed.
func (t *tracker) level(d int) *prefetched {
	for len(t.pre) <= d {
		t.pre = append(t.pre, prefetched{})
	}
	return &t.pre[d]
}

// Prefetch implements ida.TrackerPrefetcher: for each child (the tile on
// cell c moves into the blank's cell) it computes the index of the moved
// tile's group on the direct board, and on the reflected one with Reflect,
// and asks for the entries' cache lines; Move finds the indices again, and
// Bound reads the entries without ranking. The dual boards are not
// prefetched (their lookups are rarer and change two groups a move).
func (t *tracker) Prefetch(p *ida.Position, cells []uint8) {
	pr := t.level(p.Depth)
	pr.n = 0
	blank := uint8(p.Blank)
	for _, c := range cells {
		tile := p.Tiles[c]
		k := pr.n
		pr.tile[k] = tile
		g := int(t.grpOf[tile])
		t.pos[tile] = blank
		i := t.index(g, &t.pos)
		t.pos[tile] = c
		pr.d[k] = int32(i)
		prefetch(unsafe.Pointer(&t.tables[g][i]))
		if t.reflect {
			rt := t.tmap[tile]
			rg := int(t.grpOf[rt])
			t.rpos[rt] = t.cmap[blank]
			ri := t.index(rg, &t.rpos)
			t.rpos[rt] = t.cmap[c]
			pr.r[k] = int32(ri)
			prefetch(unsafe.Pointer(&t.tables[rg][ri]))
		}
		pr.n++
	}
}

func (t *tracker) Reset(p *ida.Position) {
	for c := 0; c < t.n; c++ {
		if tile := p.Tiles[c]; tile != 0 {
			t.pos[tile] = uint8(c)
			t.rpos[t.tmap[tile]] = t.cmap[c]
		}
	}
	for c := 0; c < t.n; c++ {
		t.setDual(nil, c, p.Tiles[c])
	}
	all := uint16(1)<<len(t.groups) - 1
	t.frames = append(t.frames[:0], frame{dirtyD: all, dirtyR: all, dirtyU: all, dirtyV: all})
	for d := range t.pre {
		t.pre[d] = prefetched{}
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
	t.rdpos[t.tmap[tile]] = t.cmap[c] // the dual of the mirror is the mirror of the dual
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
	// A new node at depth d: its children are not prefetched yet, and it
	// may be one its parent prefetched.
	own := t.level(d)
	own.n, own.hit = 0, 0
	if pr := &t.pre[d-1]; pr.n > 0 {
		for k := 0; k < pr.n; k++ {
			if pr.tile[k] == tile {
				own.hit = k + 1
				break
			}
		}
	}
	t.pos[tile] = uint8(to)
	f.dirtyD |= 1 << t.grpOf[tile]
	if t.reflect {
		rt := t.tmap[tile]
		t.rpos[rt] = t.cmap[to]
		f.dirtyR |= 1 << t.grpOf[rt]
	}
	if t.dual { // the tiles whose homes are from and to move on the dual board
		t.setDual(f, from, 0)
		t.setDual(f, to, tile)
	}
}

func (t *tracker) Undo(p *ida.Position, tile uint8, from, to int) {
	t.pos[tile] = uint8(from)
	if t.reflect {
		t.rpos[t.tmap[tile]] = t.cmap[from]
	}
	if t.dual {
		t.setDual(nil, from, tile)
		t.setDual(nil, to, 0)
	}
}

func (t *tracker) lookup(g int, pos *[encode.MaxCells]uint8) uint8 {
	return t.tables[g][t.index(g, pos)]
}

func (t *tracker) index(g int, pos *[encode.MaxCells]uint8) int {
	var used uint32
	r := 0
	n := t.n
	for i, tile := range t.groups[g] {
		r, used = rankDigit(r, used, pos[tile], n-i)
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
	if p.Depth < len(t.pre) && t.pre[p.Depth].hit != 0 {
		// The parent prefetched this node's entries: read them without
		// ranking (only the moved tile's groups can be stale here, and
		// values for the current board are right whatever was stale).
		own := &t.pre[p.Depth]
		pr, k := &t.pre[p.Depth-1], own.hit-1
		own.hit = 0
		tile := pr.tile[k]
		g := t.grpOf[tile]
		f.vd[g] = t.tables[g][pr.d[k]]
		f.dirtyD &^= 1 << g
		if t.reflect {
			rg := t.grpOf[t.tmap[tile]]
			f.vr[rg] = t.tables[rg][pr.r[k]]
			f.dirtyR &^= 1 << rg
		}
	}
	if t.reflect && f.dirtyD&(f.dirtyD-1) == 0 && f.dirtyR&(f.dirtyR-1) == 0 && f.dirtyD != 0 && f.dirtyR != 0 {
		// After a move one group is stale on each board: read both entries
		// before using either, so that their cache misses overlap. The
		// reflected value is then kept even when the direct sum cuts.
		gd, gr := bits.TrailingZeros16(f.dirtyD), bits.TrailingZeros16(f.dirtyR)
		vd, vr := t.tables[gd][t.index(gd, &t.pos)], t.tables[gr][t.index(gr, &t.rpos)]
		f.vd[gd], f.vr[gr] = vd, vr
		f.dirtyD, f.dirtyR = 0, 0
	}
	h := t.sum(&f.vd, &f.dirtyD, all, &t.pos)
	if h > need || !(t.reflect || t.dual) {
		return h // the other boards' groups stay dirty until needed
	}
	if t.reflect {
		if h = max(h, t.sum(&f.vr, &f.dirtyR, all, &t.rpos)); h > need {
			return h
		}
	}
	if !t.dual {
		return h
	}
	if h = max(h, t.sum(&f.vu, &f.dirtyU, t.good[p.Blank], &t.dpos)); h > need || !t.reflect {
		return h
	}
	return max(h, t.sum(&f.vv, &f.dirtyV, t.good[t.cmap[p.Blank]], &t.rdpos))
}

// sum adds the values of the groups in use, looking up those that are dirty.
func (t *tracker) sum(v *[maxGroups]uint8, dirty *uint16, use uint16, pos *[encode.MaxCells]uint8) int {
	for m := *dirty & use; m != 0; m &= m - 1 {
		g := bits.TrailingZeros16(m)
		v[g] = t.lookup(g, pos)
	}
	*dirty &^= use
	s := 0
	for m := use; m != 0; m &= m - 1 {
		s += int(v[bits.TrailingZeros16(m)])
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

// BuildSet builds every group of part in turn. prog, when set, gets the
// group's index with each layer report.
func BuildSet(ctx context.Context, part Partition, workers int, prog func(group, layer int, reached, total int64)) (*Set, error) {
	s := &Set{Part: part}
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
