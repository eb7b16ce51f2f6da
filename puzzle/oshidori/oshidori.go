// Package oshidori is the stone-pair puzzle of M. Hiroi's page
// "幅優先探索とスライドパズル" (xyzzy Lisp): a row of cells
// holding black and white stones and two adjacent empty cells. A move takes
// two adjacent stones and slides the pair, order unchanged, into the empty
// cells. The classic row has 8 cells: start B W B W B W _ _, goal
// B B B W W W _ _.
package oshidori

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gapset/gapset/puzzle/report"
	"github.com/gapset/gapset/search"
)

// Cell contents.
const (
	Empty = 0
	Black = 1
	White = 2
)

// MinCells and MaxCells bound the length of a row.
const (
	MinCells = 4
	MaxCells = 16
)

// Row is one arrangement: 2 bits per cell (cell 0 in the lowest bits), the
// row's length and the position of the left empty cell. Equal arrangements
// are equal Rows.
type Row struct {
	bits uint32
	n    uint8
	gap  uint8
}

// Errors for bad rows.
var (
	ErrSymbol      = errors.New("unknown symbol")
	ErrLength      = errors.New("wrong length")
	ErrGap         = errors.New("need exactly two adjacent empty cells")
	ErrUnreachable = errors.New("goal unreachable")
)

// Parse reads a row such as "B W B W B W _ _" or "BWBWBW__": B black, W
// white, _ or . empty; spaces and commas between cells are optional.
func Parse(s string) (Row, error) {
	var cells []uint8
	for _, r := range s {
		switch r {
		case ' ', ',', '\t', '\n', '\r':
		case 'B', 'b':
			cells = append(cells, Black)
		case 'W', 'w':
			cells = append(cells, White)
		case '_', '.':
			cells = append(cells, Empty)
		default:
			return Row{}, fmt.Errorf("%w %q in %q (use B, W and _)", ErrSymbol, r, s)
		}
	}
	return New(cells)
}

// MustParse is Parse for constants.
func MustParse(s string) Row {
	r, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return r
}

// New makes a Row from cell contents (Empty, Black, White).
func New(cells []uint8) (Row, error) {
	if len(cells) < MinCells || len(cells) > MaxCells {
		return Row{}, fmt.Errorf("%w: %d cells (allowed %d..%d)", ErrLength, len(cells), MinCells, MaxCells)
	}
	r := Row{n: uint8(len(cells))}
	gap, empties := -1, 0
	for i, c := range cells {
		if c > White {
			return Row{}, fmt.Errorf("%w %d at cell %d", ErrSymbol, c, i)
		}
		if c == Empty {
			empties++
			if gap < 0 {
				gap = i
			}
		}
		r.bits |= uint32(c) << (2 * i)
	}
	if empties != 2 || cells[gap+1] != Empty {
		return Row{}, fmt.Errorf("%w, got %s", ErrGap, r.stringOf(cells))
	}
	r.gap = uint8(gap)
	return r, nil
}

// Len returns the number of cells.
func (r Row) Len() int { return int(r.n) }

// Gap returns the position of the left empty cell.
func (r Row) Gap() int { return int(r.gap) }

// At returns the content of cell i.
func (r Row) At(i int) uint8 { return uint8(r.bits>>(2*i)) & 3 }

// Count returns the number of black and white stones.
func (r Row) Count() (black, white int) {
	for i := 0; i < r.Len(); i++ {
		switch r.At(i) {
		case Black:
			black++
		case White:
			white++
		}
	}
	return
}

// Stones returns the colours left to right, empty cells skipped.
func (r Row) Stones() string {
	var sb strings.Builder
	for i := 0; i < r.Len(); i++ {
		if c := r.At(i); c != Empty {
			sb.WriteByte(" BW"[c])
		}
	}
	return sb.String()
}

func (r Row) stringOf(cells []uint8) string {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = string("_BW?"[min(int(c), 3)])
	}
	return strings.Join(parts, " ")
}

// String writes the row as "B W B W B W _ _".
func (r Row) String() string {
	cells := make([]uint8, r.Len())
	for i := range cells {
		cells[i] = r.At(i)
	}
	return r.stringOf(cells)
}

// Move slides the stones at from and from+1 into the empty cells.
func (r Row) Move(from int) (Row, error) {
	if from < 0 || from+1 >= r.Len() || r.At(from) == Empty || r.At(from+1) == Empty {
		return r, fmt.Errorf("no pair of stones at cells %d,%d of %s", from, from+1, r)
	}
	return r.slide(from), nil
}

func (r Row) slide(from int) Row {
	pair := r.bits >> (2 * from) & 15
	r.bits &^= 15 << (2 * from)
	r.bits |= pair << (2 * int(r.gap))
	r.gap = uint8(from)
	return r
}

// Puzzle is oshidori as a search.Problem; a move is labelled with the left
// cell of the pair moved.
type Puzzle struct{}

// Successors implements search.Problem: pairs by ascending position.
func (Puzzle) Successors(r Row, dst []search.Step[Row]) []search.Step[Row] {
	for i := 0; i+1 < r.Len(); i++ {
		if r.At(i) != Empty && r.At(i+1) != Empty {
			dst = append(dst, search.Step[Row]{State: r.slide(i), Move: i})
		}
	}
	return dst
}

// Hash implements search.Problem.
func (Puzzle) Hash(r Row) uint64 { return uint64(r.bits) | uint64(r.n)<<32 | uint64(r.gap)<<40 }

// Goal returns the goal test for target. With freeGap the empty pair may end
// anywhere: a row matches when its stones, read left to right, are
// target's. It refuses a target of another length or other stone counts.
func Goal(start, target Row, freeGap bool) (func(Row) bool, error) {
	if start.Len() != target.Len() {
		return nil, fmt.Errorf("%w: the start has %d cells, the goal %d", ErrUnreachable, start.Len(), target.Len())
	}
	sb, sw := start.Count()
	tb, tw := target.Count()
	if sb != tb || sw != tw {
		return nil, fmt.Errorf("%w: the start has %d black and %d white stones, the goal %d and %d", ErrUnreachable, sb, sw, tb, tw)
	}
	if !freeGap {
		return func(r Row) bool { return r == target }, nil
	}
	want := target.Stones()
	return func(r Row) bool { return r.Stones() == want }, nil
}

// Spec shows and checks the puzzle's rows for package report; isGoal is the
// test made by Goal.
func Spec(isGoal func(Row) bool) report.Spec[Row] {
	return report.Spec[Row]{
		Name:     "oshidori",
		Format:   Row.String,
		Move:     Row.Move,
		Goal:     isGoal,
		MoveName: func(m int) string { return strconv.Itoa(m) + "," + strconv.Itoa(m+1) },
	}
}

// Record is the record of Solve: the path, with Extra "reachable" counting
// the arrangements reachable from the start (a line of its own in text).
type Record struct{ report.Path }

// Write renders the record as text or (format "json") as one JSON line.
func (r Record) Write(w io.Writer, format string) error {
	if err := r.Path.Write(w, format); err != nil || format == "json" {
		return err
	}
	_, err := fmt.Fprintf(w, "arrangements reachable from the start: %v\n", r.Extra["reachable"])
	return err
}

// Solve searches from start for target (with freeGap for any row holding
// target's stones in order) by breadth-first or, with bidir, bidirectional
// search, and returns the record checked by replaying it. Bidirectional
// search needs one goal row: it refuses freeGap.
func Solve(start, target Row, freeGap, bidir bool, opt search.Options) (Record, error) {
	isGoal, err := Goal(start, target, freeGap)
	if err != nil {
		return Record{}, err
	}
	var r search.Result[Row]
	rec := report.Path{Method: "bfs", Goal: target.String(), Dedup: opt.Dedup.String(), NoUndo: opt.NoUndo}
	switch {
	case bidir && freeGap:
		return Record{}, errors.New("bidirectional search needs one goal row, not a free empty pair")
	case bidir:
		rec.Method = "bidir"
		r, err = search.Bidirectional[Row](Puzzle{}, start, target, opt)
	default:
		r, err = search.BFS[Row](Puzzle{}, start, isGoal, opt)
	}
	if err != nil {
		return Record{}, err
	}
	all, err := search.Farthest[Row](Puzzle{}, start, search.Options{})
	if err != nil {
		return Record{}, err
	}
	if freeGap {
		rec.Goal = target.Stones() + " (empty pair anywhere)"
	}
	rec.Extra = map[string]any{"reachable": all.Reached}
	rec, err = Spec(isGoal).Path(rec, r)
	return Record{rec}, err
}
