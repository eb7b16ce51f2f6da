// Package slide is the R x C sliding-tile puzzle (the 2x3 board of seed 004,
// the 3x3 8-puzzle, ...) as a search.Problem over the 64-bit keys of package
// encode, so the generic search core can solve it and list its farthest
// positions. The optimal 15-puzzle solver is package ida.
package slide

import (
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/search"
)

// Puzzle is an R x C board. States are encode keys (4 bits per cell, cell 0
// most significant); moves are labelled with the tile moved.
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

// Goal returns the goal's key.
func (p *Puzzle) Goal() uint64 { return encode.Goal(p.rows, p.cols).Key() }

// Board unpacks a key.
func (p *Puzzle) Board(key uint64) (encode.Board, error) { return encode.FromKey(key, p.rows, p.cols) }

func (p *Puzzle) at(key uint64, c int) int { return int(key>>p.shift[c]) & 15 }

func (p *Puzzle) blank(key uint64) int {
	for c := range p.shift {
		if p.at(key, c) == 0 {
			return c
		}
	}
	return -1
}

// Successors implements search.Problem, in encode.Neighbors order of the
// blank's neighbours (up, left, right, down).
func (p *Puzzle) Successors(key uint64, dst []search.Step[uint64]) []search.Step[uint64] {
	b := p.blank(key)
	for _, c := range p.nbr[b] {
		t := uint64(p.at(key, c))
		next := key&^(15<<p.shift[c]) | t<<p.shift[b]
		dst = append(dst, search.Step[uint64]{State: next, Move: int(t)})
	}
	return dst
}

// Hash implements search.Problem.
func (p *Puzzle) Hash(key uint64) uint64 { return key }

// Manhattan returns the Manhattan distance as a search.Bound, updated per
// move from the tile moved.
func (p *Puzzle) Manhattan() search.Bound[uint64] { return manhattan{p} }

type manhattan struct{ p *Puzzle }

func (m manhattan) Root(key uint64) int {
	h := 0
	for c := range m.p.shift {
		if t := m.p.at(key, c); t != 0 {
			h += m.p.dist[t][c]
		}
	}
	return h
}

func (m manhattan) Child(parent uint64, h int, st search.Step[uint64]) int {
	to, from := m.p.blank(parent), m.p.blank(st.State)
	return h + m.p.dist[st.Move][to] - m.p.dist[st.Move][from]
}
