package pdb

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
)

// Blank-aware databases (docs/proofs.md#blank-aware-databases).
//
// Build's table is minimised over the blank's cell, so one move can change
// it by 0 or by more than 1. A blank-aware table keeps the blank: its entry
// for the group's placement and the blank's cell is d_X(placement, blank),
// the fewest moves of the group's tiles that bring them home, the blank
// moving freely among the other cells. Moving another tile leaves it alone
// (the blank stays in its region of free cells) and moving a group tile
// changes it by exactly one (it is consistent, and has the parity of the
// group's Manhattan distance), so the sum over a partition changes by
// exactly one on every move and has Manhattan distance's parity: what the
// residual sets opt - h need (UnitStep).
//
// The same search as Build's computes it (the values of its (placement,
// blank region) states, kept as they are reached instead of only the
// first). A table is indexed by the rank of the group's cells followed by
// the blank's (placement.Rank of k+1 values: the placement's rank times its
// n-k free cells plus the blank's digit among them), n!/(n-k-1)! entries,
// and stored in the compact coding (Compact): 4 bits an entry, half the
// entry's excess over the group's Manhattan distance.

// BlankEntries is the number of entries of a blank-aware table of k tiles
// on n cells: the placements of the tiles and the blank, n!/(n-k-1)!.
func BlankEntries(n, k int) int { return Entries(n, k+1) }

// BuildBlank computes the blank-aware table of one group (see above) in
// the compact coding: (BlankEntries+1)/2 bytes, entry i in the low nibble
// of byte i/2 when i is even, else in the high one. At least two tiles
// must stay outside the group: with one, the parity of the permutation
// leaves states unreachable (and with none the blank's cell is fixed).
// prog and workers as for Build.
// Memory: Build's search table, a byte per entry while the values are
// gathered, then the compact table.
func BuildBlank(ctx context.Context, rows, cols int, group []uint8, workers int, prog Progress) ([]uint8, error) {
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, err
	}
	n, k := rows*cols, len(group)
	if k == 0 || k > n-3 {
		return nil, fmt.Errorf("blank-aware database of a group of %d tiles on %d cells: at least one tile, and two tiles outside the group", k, n)
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, err
	}
	workers = max(workers, 1)
	var vals []uint8
	if n-k <= 8 {
		vals, _, err = build[uint32](ctx, newGrid(rows, cols), group, workers, prog, true)
	} else {
		vals, _, err = build[uint64](ctx, newGrid(rows, cols), group, workers, prog, true)
	}
	if err != nil {
		return nil, err
	}
	return compactBlank(geo, group, vals, workers)
}

// compactBlank codes the kept values (one plus each) of a blank-aware
// table: every entry reached, at least its placement's distance, of its
// parity and within 30 of it.
func compactBlank(geo *encode.Geometry, group []uint8, vals []uint8, workers int) ([]uint8, error) {
	n, k := geo.N, len(group)
	f := n - k
	nib := make([]uint8, (len(vals)+1)/2)
	bad := forBlocks(geo, group, Entries(n, k), workers, func(r0 int, md []int8) int {
		for d, m := range md {
			base := (r0 + d) * f
			for j, v := range vals[base : base+f] {
				e := int(v) - 1 - int(m)
				if v == 0 || e < 0 || e&1 != 0 || e > 30 {
					return r0 + d
				}
				i := base + j
				nib[i>>1] |= uint8(e>>1) << (uint(i&1) << 2)
			}
		}
		return -1
	})
	if bad >= 0 {
		row := vals[bad*f : (bad+1)*f]
		return nil, fmt.Errorf("group %v: the entries of placement %d (%v, one plus each, 0: not reached) are not its Manhattan distance plus an even number up to 30", group, bad, row)
	}
	return nib, nil
}

// BuildBlankSet builds the blank-aware table of every group of part in
// turn (part.Blank is set in the result). The groups must cover every
// tile (Compact's rule). prog as for BuildSet.
func BuildBlankSet(ctx context.Context, part Partition, workers int, prog func(group, layer int, reached, total int64)) (*Databases, error) {
	part.Blank = true
	if err := part.checkCovers(); err != nil {
		return nil, err
	}
	s := &Databases{Part: part, Blank: true}
	for gi, g := range part.Groups {
		var pr Progress
		if prog != nil {
			pr = func(layer int, reached, total int64) { prog(gi, layer, reached, total) }
		}
		nib, err := BuildBlank(ctx, part.Rows, part.Cols, g, workers, pr)
		if err != nil {
			return nil, err
		}
		s.Nibbles = append(s.Nibbles, nib)
		s.Steps = append(s.Steps, 1)
	}
	return s, nil
}

// ErrNotUnitStep is wrapped by UnitStep's refusals.
var ErrNotUnitStep = errors.New("not a heuristic that changes by exactly one on every move")

// UnitStep reports whether the databases' sum changes by exactly one on
// every move and has Manhattan distance's parity: true of blank-aware
// databases, not of the tables minimised over the blank.
func (s *Databases) UnitStep() error {
	if s.Blank {
		return nil
	}
	return fmt.Errorf("%w: the %s databases take the minimum over the blank's cell, so one move can change their sum by 3 or more (a group's value by up to %d); build the blank-aware databases (gapset pdb build --blank)",
		ErrNotUnitStep, s.Part.Name, s.Step())
}

// UnitStep reports whether h changes by exactly one on every move and has
// Manhattan distance's parity, as the residual sets opt - h need: Manhattan
// distance, a Heuristic over blank-aware databases without the dual lookup
// (with or without the transpose), and the max of such bounds (two bounds
// of the same parity that each change by one: so does their max). Any other
// heuristic is refused with an error that says why.
func UnitStep(h ida.Heuristic) error {
	switch x := h.(type) {
	case ida.Manhattan, ida.WalkingDistance:
		// walking distance: a move changes one of its two tables' states
		// to a neighbour in a graph that the blank's row (column) splits
		// in two, so its distance changes by exactly one
		// (docs/proofs.md#residual-sets)
		return nil
	case *Heuristic:
		if err := x.DBs.UnitStep(); err != nil {
			return err
		}
		if x.Dual {
			return fmt.Errorf("%w: %s looks up the dual boards, whose values jump", ErrNotUnitStep, x.Name())
		}
		return nil
	case ida.Max:
		for _, p := range x.Parts {
			if err := UnitStep(p); err != nil {
				return fmt.Errorf("%s: %w", x.Name(), err)
			}
		}
		return nil
	}
	return fmt.Errorf("%w: %s is not known to have the property (Manhattan distance, walking distance and blank-aware pattern databases have it)", ErrNotUnitStep, h.Name())
}

// Lookup computes the databases' bound of whole boards, with no state
// between calls: for tools and enumerations that do not walk a search
// path (a search uses Heuristic). Safe for concurrent use.
type Lookup struct {
	s         *Databases
	n         int
	transpose bool
	tp        *encode.Transposition
	geo       *encode.Geometry
}

// NewLookup returns the lookup of the sum over the groups, with transpose
// the larger of the sums of the board and of its transpose (square boards
// only).
func (s *Databases) NewLookup(transpose bool) (*Lookup, error) {
	p := s.Part
	geo, err := encode.NewGeometry(p.Rows, p.Cols)
	if err != nil {
		return nil, err
	}
	l := &Lookup{s: s, n: p.Rows * p.Cols, transpose: transpose, geo: geo}
	if s.Nibbles != nil {
		if err := p.checkCovers(); err != nil {
			return nil, err
		}
	}
	if transpose {
		if l.tp, err = encode.NewSquareTransposition(p.Rows, p.Cols); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// Value is the bound of the board whose cell c holds tiles[c] (0: the
// blank), a valid board of the databases' size.
func (l *Lookup) Value(tiles []uint8) int {
	var pos [encode.MaxCells]uint8
	blank := 0
	for c, t := range tiles[:l.n] {
		pos[t] = uint8(c)
		if t == 0 {
			blank = c
		}
	}
	h := l.sum(&pos, blank)
	if l.transpose {
		var rpos [encode.MaxCells]uint8
		for t := 0; t < l.n; t++ {
			rpos[l.tp.Tile[t]] = l.tp.Cell[pos[t]]
		}
		h = max(h, l.sum(&rpos, int(l.tp.Cell[blank])))
	}
	return h
}

// Key is Value of the board with that key (encode.Board.Key).
func (l *Lookup) Key(key uint64) int {
	var tiles [encode.MaxCells]uint8
	for c := l.n - 1; c >= 0; c-- {
		tiles[c] = uint8(key & 15)
		key >>= 4
	}
	return l.Value(tiles[:l.n])
}

// sum is the additive bound of the board whose tile t stands on pos[t].
func (l *Lookup) sum(pos *[encode.MaxCells]uint8, blank int) int {
	s, md := 0, 0
	for gi, g := range l.s.Part.Groups {
		var used uint32
		r := 0
		for i, t := range g {
			r, used = placement.Step(r, used, pos[t], l.n-i)
			md += int(l.geo.Dist[t][pos[t]])
		}
		if l.s.Blank {
			r = r*(l.n-len(g)) + placement.Digit(used, uint(blank))
		}
		if l.s.Nibbles != nil {
			s += 2 * int(nibble(l.s.Nibbles[gi], r))
		} else {
			s += int(l.s.Tables[gi][r])
		}
	}
	if l.s.Nibbles != nil {
		return md + s
	}
	return s
}

// blankMax is the largest value of a blank-aware table.
func blankMax(geo *encode.Geometry, group []uint8, nib []uint8, workers int) int {
	f := geo.N - len(group)
	var top atomic.Int64
	forBlocks(geo, group, Entries(geo.N, len(group)), workers, func(r0 int, md []int8) int {
		m := int64(0)
		for d, dist := range md {
			for i := (r0 + d) * f; i < (r0+d+1)*f; i++ {
				m = max(m, int64(dist)+2*int64(nibble(nib, i)))
			}
		}
		for old := top.Load(); m > old && !top.CompareAndSwap(old, m); old = top.Load() {
		}
		return -1
	})
	return int(top.Load())
}
