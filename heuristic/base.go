package heuristic

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/pdb"
)

// A base is the heuristic h that residual sets are relative to
// (gapset.Base; docs/residual/README.md): `gapset enumerate --base` names
// it, the set files and gap databases record its spec and digest, and
// the residual heuristic adds their levels to it. Its spec is `md`
// (Manhattan distance: the gap sets themselves) or a heuristic spec of
// blank-aware databases: `pdbb:P`, `pdbbr:P` (with the transpose's value,
// symmetric, so canonical layers apply), `pdb78b`. Any other spec is
// refused with the reason pdb.UnitStep gives (pdb78 takes the minimum
// over the blank's cell: a move can change it by 3).

// ErrBase marks a base spec that cannot be used (unknown, or without the
// property the residual sets need). Bad input.
var ErrBase = errors.New("bad base heuristic")

// Base is a resolved base: the enumerator's view and the search's.
type Base struct {
	gapset.Base
	// Heuristic is the same bound for IDA* (a tracker: ida.TrackerMaker).
	Heuristic ida.Heuristic
}

// Base resolves a base spec on the options' board.
func (r *Resolver) Base(spec string) (Base, error) {
	rows, cols := r.opt.Rows, r.opt.Cols
	if spec == "md" {
		m, err := gapset.NewManhattanBase(rows, cols)
		return Base{Base: m, Heuristic: ida.Manhattan{}}, err
	}
	if len(spec) > keyset.BaseSpecLen {
		return Base{}, fmt.Errorf("%w: %s: a set file holds a base spec of at most %d bytes", ErrBase, quote(spec), keyset.BaseSpecLen)
	}
	h, err := r.Resolve(spec)
	if err != nil {
		return Base{}, fmt.Errorf("%w: %s: %w (a base is md, wd, or blank-aware databases: pdbb:PARTITION, pdbbr:PARTITION, pdb78b)", ErrBase, quote(spec), err)
	}
	if err := pdb.UnitStep(h); err != nil {
		return Base{}, fmt.Errorf("%w: %s: %w", ErrBase, quote(spec), err)
	}
	switch x := h.(type) {
	case ida.Manhattan:
		return r.Base("md")
	case ida.WalkingDistance:
		if _, err := x.NewTracker(rows, cols); err != nil {
			return Base{}, fmt.Errorf("%w: %s: %w", ErrBase, quote(spec), err)
		}
		id := keyset.Base{Spec: "wd", Digest: sha256.Sum256(fmt.Appendf(nil, "walking distance %dx%d", rows, cols))}
		return Base{Base: wdBase{rows: rows, cols: cols, id: id}, Heuristic: x}, nil
	case *pdb.Heuristic:
		look, err := x.DBs.NewLookup(x.Transpose)
		if err != nil {
			return Base{}, fmt.Errorf("%w: %s: %w", ErrBase, quote(spec), err)
		}
		id := keyset.Base{Spec: spec, Digest: blankDigest(x.DBs, x.Transpose)}
		return Base{Base: lookupBase{look: look, id: id, symmetric: x.Transpose}, Heuristic: x}, nil
	}
	return Base{}, fmt.Errorf("%w: %s changes by one a move, but is not a base the enumerator computes: use md, wd or blank-aware databases (pdbb:PARTITION, pdbbr:PARTITION, pdb78b)", ErrBase, quote(spec))
}

// blankDigest identifies blank-aware databases and the transpose mode:
// SHA-256 of the board, the groups, the mode and the tables (builds are
// deterministic: a loaded file and a build agree).
func blankDigest(s *pdb.Databases, transpose bool) [32]byte {
	h := sha256.New()
	p := s.Part
	fmt.Fprintf(h, "blank-aware %dx%d transpose=%v\n", p.Rows, p.Cols, transpose)
	for i, g := range p.Groups {
		fmt.Fprintf(h, "group %v\n", g)
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s.Nibbles[i])))
		h.Write(n[:])
		h.Write(s.Nibbles[i])
	}
	var d [32]byte
	copy(d[:], h.Sum(nil))
	return d
}

// lookupBase is a gapset.Base over a pdb.Lookup.
type lookupBase struct {
	look      *pdb.Lookup
	id        keyset.Base
	symmetric bool
}

func (b lookupBase) H(key uint64) int { return b.look.Key(key) }
func (b lookupBase) ID() keyset.Base  { return b.id }
func (b lookupBase) Symmetric() bool  { return b.symmetric }

// wdBase is walking distance as a gapset.Base. Its tables are built from
// the board's size alone (no files), so its digest names the size. It is
// the same on a square board and its transpose: the vertical table of one
// is the horizontal table of the other, and the goal's blank (the last
// cell) stays in place.
type wdBase struct {
	rows, cols int
	id         keyset.Base
}

// H computes the bound from scratch (a tracker a call: safe for
// concurrent use; a residual enumeration of the 4x4 board would want a
// faster path, the small boards do not).
func (b wdBase) H(key uint64) int {
	p := ida.Position{Rows: b.rows, Cols: b.cols}
	n := b.rows * b.cols
	for c := n - 1; c >= 0; c-- {
		p.Tiles[c] = uint8(key & 15)
		if p.Tiles[c] == 0 {
			p.Blank = c
		}
		key >>= 4
	}
	tr, err := ida.WalkingDistance{}.NewTracker(b.rows, b.cols)
	if err != nil { // the size was checked when the base was made
		panic(err)
	}
	tr.Reset(&p)
	return tr.Bound(&p, 1<<30)
}
func (b wdBase) ID() keyset.Base { return b.id }
func (b wdBase) Symmetric() bool { return b.rows == b.cols }

// Sample is SampleLevels' result: the estimated members of each exact
// residual level r = 0, 2, ..., and how many sampled boards fell in each
// (the fewer, the rougher: a level of h hits is known within about
// 1/sqrt(h)).
type Sample struct {
	Levels []float64
	Hits   []int
	Boards int
}

// String describes the sample for the estimate's line.
func (s Sample) String() string {
	var parts []string
	for j, h := range s.Hits {
		parts = append(parts, fmt.Sprintf("r=%d: %d", 2*j, h))
	}
	return fmt.Sprintf("levels sampled from %d random boards solved optimally (%s)", s.Boards, strings.Join(parts, ", "))
}

// EstimateRun is gapset.EstimateRun, with the levels of a base that has
// no measured ones estimated from n random boards solved optimally (n 0:
// not estimated); note hears what it does.
func EstimateRun(ctx context.Context, cfg gapset.Config, b Base, n int, note func(string)) (gapset.Estimate, error) {
	est := gapset.EstimateRun(cfg)
	if est.Known || cfg.Base == nil || n <= 0 {
		return est, nil
	}
	note(fmt.Sprintf("no measured levels of %s: solving %d random boards for the estimate", b.ID().Spec, n))
	s, err := SampleLevels(ctx, b, cfg.Rows, cfg.Cols, cfg.MaxGap, n, 1)
	if err != nil {
		return est, err
	}
	note(s.String())
	return gapset.EstimateRunLevels(cfg, s.Levels), nil
}

// SampleLevels estimates the exact residual levels r = 0, 2, ..., maxGap
// of the base's board: boards drawn at random (seeded) are solved
// optimally with the base as the heuristic, and each level's share of
// them times the board's n!/2 configurations is its size. A level no
// board fell in is given the size of one board of the sample (an upper
// bound's worth: the estimate errs high).
func SampleLevels(ctx context.Context, b Base, rows, cols, maxGap, boards int, seed uint64) (Sample, error) {
	levels := maxGap/2 + 1
	s := Sample{Hits: make([]int, levels), Boards: boards}
	for i, inst := range encode.RandomInstances(seed, boards, rows, cols) {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		res, err := ida.Solve(inst.Board, b.Heuristic, ida.Options{Context: ctx})
		if err != nil {
			return s, fmt.Errorf("sampling board %d: %w", i+1, err)
		}
		if r := res.Length - b.H(inst.Board.Key()); r <= maxGap {
			s.Hits[r/2]++
		}
	}
	total := 0.5
	for i := 2; i <= rows*cols; i++ {
		total *= float64(i)
	}
	for _, h := range s.Hits {
		s.Levels = append(s.Levels, total*float64(max(h, 1))/float64(boards))
	}
	return s, nil
}
