// Package slide is the R x C sliding-tile puzzle (the 2x3 board of seed 004,
// the 3x3 8-puzzle, ...) as a search.Problem over the 64-bit keys of package
// encode, so the generic search core can solve it and list its farthest
// positions. The optimal 15-puzzle solver is package ida.
package slide

import (
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/search"
)

// State is a board as the search sees it: its encode key (4 bits per cell,
// cell 0 most significant) and the blank's cell, kept so that a move needs
// no scan. Equal boards are equal States.
type State struct {
	Key   uint64
	Blank uint8
}

// Puzzle is an R x C board; moves are labelled with the tile moved.
type Puzzle struct {
	rows, cols int
	nbr        [][]int // nbr[c]: cells next to c, in encode.Neighbors order
	shift      []uint  // shift[c]: bit offset of cell c in a key
	dist       [][]int // dist[t][c]: Manhattan distance of tile t at cell c from home
}

// New returns the R x C puzzle.
func New(rows, cols int) (*Puzzle, error) {
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, err
	}
	n := rows * cols
	p := &Puzzle{rows: rows, cols: cols, nbr: make([][]int, n), shift: make([]uint, n), dist: make([][]int, n)}
	for c := 0; c < n; c++ {
		p.nbr[c] = encode.Neighbors(rows, cols, c)
		p.shift[c] = uint(4 * (n - 1 - c))
	}
	for t := 1; t < n; t++ {
		p.dist[t] = make([]int, n)
		for c := 0; c < n; c++ {
			h := t - 1
			p.dist[t][c] = abs(c/cols-h/cols) + abs(c%cols-h%cols)
		}
	}
	return p, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Rows and Cols give the board's size.
func (p *Puzzle) Rows() int { return p.rows }

// Cols gives the board's width.
func (p *Puzzle) Cols() int { return p.cols }

// Goal returns the goal state.
func (p *Puzzle) Goal() State { return p.State(encode.Goal(p.rows, p.cols)) }

// State returns the state of board b (of this puzzle's size).
func (p *Puzzle) State(b encode.Board) State { return State{Key: b.Key(), Blank: uint8(b.Blank())} }

// Board unpacks a state, validating it.
func (p *Puzzle) Board(s State) (encode.Board, error) { return encode.FromKey(s.Key, p.rows, p.cols) }

func (p *Puzzle) at(key uint64, c int) int { return int(key>>p.shift[c]) & 15 }

// Successors implements search.Problem, in encode.Neighbors order of the
// blank's neighbours (up, left, right, down).
func (p *Puzzle) Successors(s State, dst []search.Step[State]) []search.Step[State] {
	b := int(s.Blank)
	for _, c := range p.nbr[b] {
		t := uint64(p.at(s.Key, c))
		next := s.Key&^(15<<p.shift[c]) | t<<p.shift[b]
		dst = append(dst, search.Step[State]{State: State{Key: next, Blank: uint8(c)}, Move: int(t)})
	}
	return dst
}

// Hash implements search.Problem: the key alone decides the board.
func (p *Puzzle) Hash(s State) uint64 { return s.Key }

// Manhattan returns the Manhattan distance as a search.Bound, updated per
// move from the tile moved.
func (p *Puzzle) Manhattan() search.Bound[State] { return manhattan{p} }

type manhattan struct{ p *Puzzle }

func (m manhattan) Root(s State) int {
	h := 0
	for c := range m.p.shift {
		if t := m.p.at(s.Key, c); t != 0 {
			h += m.p.dist[t][c]
		}
	}
	return h
}

// Child: the tile moved from the child's blank cell into the parent's.
func (m manhattan) Child(parent State, h int, st search.Step[State]) int {
	d := m.p.dist[st.Move]
	return h + d[parent.Blank] - d[st.State.Blank]
}
