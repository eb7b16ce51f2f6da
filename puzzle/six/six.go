// Package six is the 6-puzzle of M. Hiroi's pages "幅優先探索とスライドパズル"
// and "続・幅優先探索とスライドパズル" (xyzzy Lisp): six numbered pieces and a
// blank on the seven positions of a hexagonal graph, position 3 in the
// centre. A piece next to the blank slides into it. The goal is
// (1 2 3 4 5 6 0); all 7! = 5040 arrangements reach it.
package six

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/puzzle"
	"github.com/gapset/gapset/puzzle/report"
	"github.com/gapset/gapset/search"
)

// Cells is the number of positions.
const Cells = 7

// Adjacent lists the neighbours of each position, ascending: the pages'
// search order.
var adjacent = [Cells][]int{
	0: {1, 2, 3},
	1: {0, 3, 4},
	2: {0, 3, 5},
	3: {0, 1, 2, 4, 5, 6},
	4: {1, 3, 6},
	5: {2, 3, 6},
	6: {3, 4, 5},
}

// Neighbors returns the positions adjacent to position c.
func Neighbors(c int) []int { return append([]int(nil), adjacent[c]...) }

// Board packs an arrangement into 32 bits: 4 bits per position with
// position 0 in bits 27..24 (as encode's keys, most significant first), and
// the blank's position in bits 31..28 so moves need no scan. Equal
// arrangements are equal Boards.
type Board uint32

// Errors for bad boards.
var (
	ErrCount  = errors.New("wrong number of pieces")
	ErrSymbol = errors.New("unknown piece")
	ErrRepeat = errors.New("piece repeated")
)

// New makes a Board from the pieces at positions 0..6 (0 the blank).
func New(pieces []int) (Board, error) {
	if len(pieces) != Cells {
		return 0, fmt.Errorf("%w: got %d, the 6-puzzle has %d positions", ErrCount, len(pieces), Cells)
	}
	var seen [Cells]bool
	var b Board
	for c, v := range pieces {
		if v < 0 || v >= Cells {
			return 0, fmt.Errorf("%w: %d (pieces are 1..6, blank 0)", ErrSymbol, v)
		}
		if seen[v] {
			return 0, fmt.Errorf("%w: %d", ErrRepeat, v)
		}
		seen[v] = true
		b = b.with(c, uint8(v))
		if v == 0 {
			b = b&^(15<<28) | Board(c)<<28
		}
	}
	return b, nil
}

// Parse reads a board such as "(1 5 2 6 3 4 0)" or "1,5,2,6,3,4,0".
func Parse(s string) (Board, error) {
	pieces, err := encode.SplitNumbers(s) // strict: no "+1", "01", "1,,2" or unbalanced "(1 2"
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrSymbol, err)
	}
	return New(pieces)
}

// MustParse is Parse for constants in tests and examples.
func MustParse(s string) Board {
	b, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return b
}

// goal is (1 2 3 4 5 6 0): pieces in nibbles 27..0, the blank (position 6)
// in the top nibble.
const goal Board = 0x61234560

// Goal is (1 2 3 4 5 6 0).
func Goal() Board { return goal }

func shift(c int) uint { return uint(4 * (Cells - 1 - c)) }

// At returns the piece at position c (0 the blank).
func (b Board) At(c int) uint8 { return uint8(b>>shift(c)) & 15 }

// Blank returns the blank's position.
func (b Board) Blank() int { return int(b >> 28) }

func (b Board) with(c int, v uint8) Board {
	return b&^(15<<shift(c)) | Board(v)<<shift(c)
}

// Pieces returns the pieces at positions 0..6.
func (b Board) Pieces() []int {
	out := make([]int, Cells)
	for c := range out {
		out[c] = int(b.At(c))
	}
	return out
}

// String writes the board as the pages do: (1 5 2 6 3 4 0).
func (b Board) String() string {
	var sb strings.Builder
	sb.WriteByte('(')
	for c := 0; c < Cells; c++ {
		if c > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(int(b.At(c))))
	}
	sb.WriteByte(')')
	return sb.String()
}

// Move slides piece p into the blank; it fails when p is not next to it.
func (b Board) Move(p int) (Board, error) {
	blank := b.Blank()
	for _, c := range adjacent[blank] {
		if int(b.At(c)) == p && p != 0 {
			return b.slide(c), nil
		}
	}
	return b, fmt.Errorf("piece %d is not next to the blank in %s", p, b)
}

// slide moves the piece at position c (next to the blank) into the blank.
func (b Board) slide(c int) Board {
	blank := b.Blank()
	p := b.At(c)
	b = b.with(blank, p).with(c, 0)
	return b&^(15<<28) | Board(c)<<28
}

// Puzzle is the 6-puzzle as a search.Problem; moves are labelled with the
// piece moved.
type Puzzle struct{}

// Successors implements search.Problem, in the pages' order: the blank's
// neighbours by ascending position.
func (Puzzle) Successors(b Board, dst []search.Step[Board]) []search.Step[Board] {
	for _, c := range adjacent[b.Blank()] {
		dst = append(dst, search.Step[Board]{State: b.slide(c), Move: int(b.At(c))})
	}
	return dst
}

// Hash implements search.Problem.
func (Puzzle) Hash(b Board) uint64 { return uint64(b) }

// Spec shows and checks the puzzle's states for package report.
func Spec() report.Spec[Board] {
	goal := Goal()
	return report.Spec[Board]{
		Name:     "six",
		Format:   Board.String,
		Move:     Board.Move,
		Goal:     func(b Board) bool { return b == goal },
		MoveName: strconv.Itoa,
	}
}

// OneGoal is the 6-puzzle for package puzzle's searches: its goal, its
// boards read by Parse, its lower bound (Bound).
func OneGoal() puzzle.OneGoal[Board] {
	return puzzle.OneGoal[Board]{Problem: Puzzle{}, Spec: Spec(), Goal: Goal(),
		Bound: func() search.Bound[Board] { return NewBound() },
		Parse: Parse, What: "board (7 numbers, e.g. \"1 5 2 6 3 4 0\")"}
}
