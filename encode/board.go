// Package encode holds sliding-tile boards of R x C cells: parsing, printing,
// validation (including the parity test for solvability), moves, Manhattan
// distance and the 64-bit key of Hasegawa & Yamamoto with its projection onto
// the last k cells.
//
// Cells are numbered row-major from the top-left, tile numbers run 1..R*C-1
// and the blank is written 0. The goal is 1 2 ... R*C-1 followed by the blank
// in the last cell.
package encode

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxCells is the largest board this package supports: the key packs one
// cell into 4 bits of a uint64.
const MaxCells = 16

// Sentinel errors: callers test for them with errors.Is.
var (
	ErrSize       = errors.New("unsupported board size")
	ErrSyntax     = errors.New("not a number")
	ErrCount      = errors.New("wrong number of tiles")
	ErrRange      = errors.New("tile out of range")
	ErrRepeat     = errors.New("tile repeated")
	ErrUnsolvable = errors.New("unsolvable arrangement")
)

// Board is one arrangement of an R x C puzzle. Tiles[c] is the tile in cell c
// (0 for the blank). The zero value is not a valid board; use New, Parse or
// Goal.
type Board struct {
	Rows, Cols int
	Tiles      []uint8
}

// CheckSize reports whether an R x C board is supported. It never forms
// rows*cols before the bounds hold: the product of two huge sizes wraps
// around to a small one.
func CheckSize(rows, cols int) error {
	if rows < 2 || cols < 2 || rows > MaxCells/cols {
		return fmt.Errorf("%w: %dx%d (need at least 2x2 and at most %d cells)", ErrSize, rows, cols, MaxCells)
	}
	return nil
}

// Goal returns the goal board: 1..n-1 in order, blank in the last cell.
func Goal(rows, cols int) Board {
	n := rows * cols
	t := make([]uint8, n)
	for i := 0; i < n-1; i++ {
		t[i] = uint8(i + 1)
	}
	return Board{Rows: rows, Cols: cols, Tiles: t}
}

// New validates tiles as an R x C board: count, range, repeats and
// solvability.
func New(rows, cols int, tiles []int) (Board, error) {
	if err := CheckSize(rows, cols); err != nil {
		return Board{}, err
	}
	n := rows * cols
	if len(tiles) != n {
		return Board{}, fmt.Errorf("%w: got %d, a %dx%d board needs %d", ErrCount, len(tiles), rows, cols, n)
	}
	var seen [MaxCells]bool
	b := Board{Rows: rows, Cols: cols, Tiles: make([]uint8, n)}
	for i, v := range tiles {
		if v < 0 || v >= n {
			return Board{}, fmt.Errorf("%w: %d (allowed 0..%d)", ErrRange, v, n-1)
		}
		if seen[v] {
			return Board{}, fmt.Errorf("%w: %d", ErrRepeat, v)
		}
		seen[v] = true
		b.Tiles[i] = uint8(v)
	}
	if !b.Solvable() {
		return Board{}, fmt.Errorf("%w: %s cannot reach the goal (parity)", ErrUnsolvable, b)
	}
	return b, nil
}

// Parse reads one board: numbers separated by spaces and/or commas.
func Parse(s string, rows, cols int) (Board, error) {
	nums, err := splitNumbers(s)
	if err != nil {
		return Board{}, err
	}
	return New(rows, cols, nums)
}

func splitNumbers(s string) ([]int, error) { return SplitNumbers(s) }

// String prints the board as space-separated numbers, row-major.
func (b Board) String() string {
	var sb strings.Builder
	for i, t := range b.Tiles {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(int(t)))
	}
	return sb.String()
}

// Grid prints the board as rows of right-aligned numbers, blank as '.'.
func (b Board) Grid() string {
	var sb strings.Builder
	w := len(strconv.Itoa(len(b.Tiles) - 1))
	for r := 0; r < b.Rows; r++ {
		for c := 0; c < b.Cols; c++ {
			if c > 0 {
				sb.WriteByte(' ')
			}
			t := b.Tiles[r*b.Cols+c]
			s := "."
			if t != 0 {
				s = strconv.Itoa(int(t))
			}
			sb.WriteString(strings.Repeat(" ", w-len(s)) + s)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Clone returns a deep copy.
func (b Board) Clone() Board {
	b.Tiles = append([]uint8(nil), b.Tiles...)
	return b
}

// Equal reports whether two boards have the same size and tiles.
func (b Board) Equal(o Board) bool {
	if b.Rows != o.Rows || b.Cols != o.Cols || len(b.Tiles) != len(o.Tiles) {
		return false
	}
	for i := range b.Tiles {
		if b.Tiles[i] != o.Tiles[i] {
			return false
		}
	}
	return true
}

// IsGoal reports whether b is the goal board.
func (b Board) IsGoal() bool { return b.Equal(Goal(b.Rows, b.Cols)) }

// Blank returns the cell of the blank.
func (b Board) Blank() int {
	for i, t := range b.Tiles {
		if t == 0 {
			return i
		}
	}
	return -1
}

// Solvable reports whether b can reach the goal. With an odd number of
// columns a move never changes the inversion count's parity, so it must be
// even; with an even number of columns a vertical move flips it and moves the
// blank one row, so inversions plus the blank's row distance from the last row
// must be even.
func (b Board) Solvable() bool {
	inv := 0
	for i := 0; i < len(b.Tiles); i++ {
		if b.Tiles[i] == 0 {
			continue
		}
		for j := i + 1; j < len(b.Tiles); j++ {
			if b.Tiles[j] != 0 && b.Tiles[j] < b.Tiles[i] {
				inv++
			}
		}
	}
	if b.Cols%2 == 1 {
		return inv%2 == 0
	}
	rowFromBottom := b.Rows - 1 - b.Blank()/b.Cols
	return (inv+rowFromBottom)%2 == 0
}

// Manhattan returns the sum over tiles of the row plus column distance to
// the tile's goal cell; the blank does not count.
func (b Board) Manhattan() int {
	m := 0
	for c, t := range b.Tiles {
		if t != 0 {
			m += distance(b.Cols, int(t), c)
		}
	}
	return m
}

// Neighbors returns the cells orthogonally adjacent to cell c, in the order
// up, left, right, down.
func Neighbors(rows, cols, c int) []int {
	r, k := c/cols, c%cols
	var out []int
	if r > 0 {
		out = append(out, c-cols)
	}
	if k > 0 {
		out = append(out, c-1)
	}
	if k < cols-1 {
		out = append(out, c+1)
	}
	if r < rows-1 {
		out = append(out, c+cols)
	}
	return out
}

// Move slides tile t into the blank in place. It fails when t is not a tile
// adjacent to the blank.
func (b *Board) Move(t int) error {
	if t <= 0 || t >= len(b.Tiles) {
		return fmt.Errorf("move %d: no such tile", t)
	}
	blank := b.Blank()
	for _, nb := range Neighbors(b.Rows, b.Cols, blank) {
		if int(b.Tiles[nb]) == t {
			b.Tiles[blank], b.Tiles[nb] = b.Tiles[nb], 0
			return nil
		}
	}
	return fmt.Errorf("move %d: tile is not next to the blank", t)
}

// Replay applies moves (tile numbers) to a copy of b and returns the result;
// it stops at the first illegal move.
func (b Board) Replay(moves []int) (Board, error) {
	cur := b.Clone()
	for i, m := range moves {
		if err := cur.Move(m); err != nil {
			return cur, fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	return cur, nil
}

// Successors returns the boards one move away, with the tile moved.
func (b Board) Successors() (boards []Board, tiles []int) {
	blank := b.Blank()
	for _, nb := range Neighbors(b.Rows, b.Cols, blank) {
		n := b.Clone()
		t := n.Tiles[nb]
		n.Tiles[blank], n.Tiles[nb] = t, 0
		boards = append(boards, n)
		tiles = append(tiles, int(t))
	}
	return boards, tiles
}
