package gapset

import (
	"fmt"
	"sync/atomic"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
)

// Base is the bound h a residual enumeration is layered by in Manhattan
// distance's place. For an h that is 0 at the goal and changes by exactly
// +1 or -1 on every move, the residual r = optimum - h behaves as the gap
// does: it is even, changes by 0 or 2 a move and never rises along an
// optimal path to the goal, so the sets R<=2j = {s : r(s) <= 2j} are found
// by the same reverse search from the goal, layered by h
// (docs/proofs.md#residual-sets). Manhattan distance is the base of the
// gap sets; a blank-aware additive pattern database is another.
type Base interface {
	// H is h of the board with this whole-board key (encode.Board.Key).
	// It is called from many goroutines at once.
	H(key uint64) int
	// ID identifies h in the set files and checkpoints it makes (zero:
	// Manhattan distance, whose sets are the gap sets).
	ID() keyset.Base
	// Symmetric reports whether h is the same on a square board and its
	// transpose (encode.Transposition): then the layers can be canonical
	// (Config.Transpose).
	Symmetric() bool
}

// ErrBase marks a base that cannot layer a residual enumeration: not 0 at
// the goal, or changed by other than +1 or -1 by a move the enumeration
// made. It wraps ErrArgs (bad input).
var ErrBase = fmt.Errorf("%w: base heuristic unfit for residual sets", ErrArgs)

// ManhattanBase is Manhattan distance as a Base: the enumeration takes the
// general path (each bound computed, every move checked) and writes the gap
// sets, byte for byte. It is the check of that path against the tables of
// the gap enumeration.
type ManhattanBase struct{ G *encode.Geometry }

// NewManhattanBase returns Manhattan distance of a rows x cols board.
func NewManhattanBase(rows, cols int) (ManhattanBase, error) {
	g, err := encode.NewGeometry(rows, cols)
	return ManhattanBase{g}, err
}

// H implements Base.
func (m ManhattanBase) H(key uint64) int { return m.G.Manhattan(key) }

// ID implements Base: zero, the gap sets' base.
func (ManhattanBase) ID() keyset.Base { return keyset.Base{} }

// Symmetric implements Base: the transpose keeps Manhattan distance.
func (ManhattanBase) Symmetric() bool { return true }

// checkBase refuses a base that a residual enumeration of g's board
// cannot use before any work: an ID a set file cannot hold, a bound other
// than 0 at the goal, an asymmetric base for canonical layers.
func checkBase(b Base, g *geometry, canonical bool) error {
	if err := b.ID().Check(); err != nil {
		return fmt.Errorf("%w: %v", ErrBase, err)
	}
	if h := b.H(g.goal); h != 0 {
		return fmt.Errorf("%w: %s is %d at the goal, not 0", ErrBase, b.ID(), h)
	}
	if canonical && !b.Symmetric() {
		return fmt.Errorf("%w: %s is not the same on a board and its transpose: canonical layers (transpose) need a symmetric base (its maximum with its transpose's value)", ErrBase, b.ID())
	}
	return nil
}

// violation is a move whose change of the base is not +1 or -1.
type violation struct {
	from, to uint64
	hFrom    int
	hTo      int
}

// expandBase writes into out the successors of keys whose move raises
// (raise) or lowers the base, computing it at both ends; a move that
// changes it by other than 1 is recorded (baseErr) and leads nowhere.
func (g *geometry) expandBase(keys, out []uint64, raise bool) int {
	j := 0
	for _, key := range keys {
		hp := g.base.H(key)
		b := g.blank(key)
		sb := g.Shift[b]
		for i := 0; i < int(g.NbrN[b]); i++ {
			sn := g.Shift[g.Nbr[b][i]]
			t := key >> sn & 15
			child := key - t<<sn + t<<sb
			switch hc := g.base.H(child); hc - hp {
			case 1:
				if raise {
					out[j] = child
					j++
				}
			case -1:
				if !raise {
					out[j] = child
					j++
				}
			default:
				g.bad.CompareAndSwap(nil, &violation{key, child, hp, hc})
			}
		}
	}
	return j
}

// baseErr reports the first move met whose change of the base was not +1
// or -1 (nil when none, or without a base).
func (g *geometry) baseErr() error {
	if g.bad == nil {
		return nil
	}
	v := g.bad.Load()
	if v == nil {
		return nil
	}
	rows, cols := g.Rows, g.Cols
	from, _ := encode.FromKey(v.from, rows, cols)
	to, _ := encode.FromKey(v.to, rows, cols)
	return fmt.Errorf("%w: %s changes by %+d on the move from %s (h = %d) to %s (h = %d); residual sets need a base that changes by exactly 1 on every move (a blank-aware additive database, not one that takes the minimum over the blank's cell)",
		ErrBase, g.base.ID(), v.hTo-v.hFrom, from, v.hFrom, to, v.hTo)
}

// withBase returns a copy of g layered by b (nil: Manhattan distance, by
// table).
func (g *geometry) withBase(b Base) *geometry {
	c := *g
	c.base, c.bad = b, new(atomic.Pointer[violation])
	return &c
}

// baseID is the ID of b, zero for none.
func baseID(b Base) keyset.Base {
	if b == nil {
		return keyset.Base{}
	}
	return b.ID()
}
