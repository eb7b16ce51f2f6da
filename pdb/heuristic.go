package pdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"path/filepath"

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
	// NoSkip computes the bound at every node (no lower-bound-check
	// skipping); for comparisons.
	NoSkip bool
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
	return ida.NewSkipEvaluator(tr, !h.NoSkip, h.Set.Step(), true), nil
}

// TrackerInfo implements ida.TrackerMaker.
func (h *Heuristic) TrackerInfo() (int, bool) { return h.Set.Step(), true }

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
	t := &tracker{n: rows * cols, reflect: h.Reflect, tables: h.Set.Tables}
	for gi, g := range p.Groups {
		t.groups = append(t.groups, g)
		for _, tile := range g {
			t.grpOf[tile] = uint8(gi)
		}
	}
	for c := 0; c < t.n; c++ {
		tc := (c%cols)*cols + c/cols
		t.cmap[c] = uint8(tc)
		if c < t.n-1 {
			t.tmap[c+1] = uint8(tc + 1) // tile c+1 lives at cell c in the goal
		}
	}
	return t, nil
}

const maxGroups = 16

type frame struct {
	vd, vr         [maxGroups]uint8 // group values, direct and reflected
	dirtyD, dirtyR uint16           // groups whose value is stale
}

// tracker follows the tile positions (and their mirror images) cheaply and
// looks up only the groups that moved since the last bound.
type tracker struct {
	n          int
	reflect    bool
	tables     [][]uint8
	groups     [][]uint8
	grpOf      [encode.MaxCells]uint8
	cmap, tmap [encode.MaxCells]uint8
	pos, rpos  [encode.MaxCells]uint8 // cell of each tile; of each mirrored tile
	frames     []frame
}

func (t *tracker) Reset(p *ida.Position) {
	for c := 0; c < t.n; c++ {
		if tile := p.Tiles[c]; tile != 0 {
			t.pos[tile] = uint8(c)
			t.rpos[t.tmap[tile]] = t.cmap[c]
		}
	}
	all := uint16(1)<<len(t.groups) - 1
	t.frames = append(t.frames[:0], frame{dirtyD: all, dirtyR: all})
}

func (t *tracker) Move(p *ida.Position, tile uint8, from, to int) {
	d := p.Depth
	if len(t.frames) <= d {
		t.frames = append(t.frames, frame{})
	}
	f := &t.frames[d]
	*f = t.frames[d-1]
	t.pos[tile] = uint8(to)
	f.dirtyD |= 1 << t.grpOf[tile]
	if t.reflect {
		rt := t.tmap[tile]
		t.rpos[rt] = t.cmap[to]
		f.dirtyR |= 1 << t.grpOf[rt]
	}
}

func (t *tracker) Undo(p *ida.Position, tile uint8, from, to int) {
	t.pos[tile] = uint8(from)
	if t.reflect {
		t.rpos[t.tmap[tile]] = t.cmap[from]
	}
}

func (t *tracker) lookup(g int, pos *[encode.MaxCells]uint8) uint8 {
	var used uint32
	r := 0
	n := t.n
	for i, tile := range t.groups[g] {
		r, used = rankDigit(r, used, pos[tile], n-i)
	}
	return t.tables[g][r]
}

func (t *tracker) Bound(p *ida.Position, need int) int {
	f := &t.frames[p.Depth]
	for m := f.dirtyD; m != 0; m &= m - 1 {
		g := bits.TrailingZeros16(m)
		f.vd[g] = t.lookup(g, &t.pos)
	}
	f.dirtyD = 0
	sd := 0
	for g := range t.groups {
		sd += int(f.vd[g])
	}
	if !t.reflect || sd > need {
		return sd // the reflected groups stay dirty until needed
	}
	for m := f.dirtyR; m != 0; m &= m - 1 {
		g := bits.TrailingZeros16(m)
		f.vr[g] = t.lookup(g, &t.rpos)
	}
	f.dirtyR = 0
	sr := 0
	for g := range t.groups {
		sr += int(f.vr[g])
	}
	return max(sd, sr)
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
