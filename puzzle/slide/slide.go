// Package slide is the R x C sliding-tile puzzle (the 2x3 board of the web
// page "第4章: 幅優先探索", the 3x3 8-puzzle, ...) as a search.Problem over the 64-bit keys of package
// encode, so the generic search core can solve it and list its farthest
// positions. The optimal 15-puzzle solver is package ida.
package slide

import (
	"fmt"
	"strconv"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/puzzle"
	"github.com/gapset/gapset/puzzle/report"
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
	g *encode.Geometry
}

// New returns the R x C puzzle.
func New(rows, cols int) (*Puzzle, error) {
	g, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, err
	}
	return &Puzzle{g: g}, nil
}

// Rows and Cols give the board's size.
func (p *Puzzle) Rows() int { return p.g.Rows }

// Cols gives the board's width.
func (p *Puzzle) Cols() int { return p.g.Cols }

// Goal returns the goal state.
func (p *Puzzle) Goal() State { return p.State(encode.Goal(p.g.Rows, p.g.Cols)) }

// State returns the state of board b (of this puzzle's size).
func (p *Puzzle) State(b encode.Board) State { return State{Key: b.Key(), Blank: uint8(b.Blank())} }

// Board unpacks a state, validating it.
func (p *Puzzle) Board(s State) (encode.Board, error) {
	return encode.FromKey(s.Key, p.g.Rows, p.g.Cols)
}

func (p *Puzzle) at(key uint64, c uint8) uint64 { return key >> p.g.Shift[c] & 15 }

// Successors implements search.Problem, in encode.Neighbors order of the
// blank's neighbours (up, left, right, down).
func (p *Puzzle) Successors(s State, dst []search.Step[State]) []search.Step[State] {
	g := p.g
	for _, c := range g.Nbr[s.Blank][:g.NbrN[s.Blank]] {
		t := p.at(s.Key, c)
		dst = append(dst, search.Step[State]{State: State{Key: s.Key ^ t*g.Flip[c][s.Blank], Blank: c}, Move: int(t)})
	}
	return dst
}

// Hash implements search.Problem: the key alone decides the board.
func (p *Puzzle) Hash(s State) uint64 { return s.Key }

// Manhattan returns the Manhattan distance as a search.Bound, updated per
// move from the tile moved.
func (p *Puzzle) Manhattan() search.Bound[State] { return manhattan{p} }

type manhattan struct{ p *Puzzle }

func (m manhattan) Root(s State) int { return m.p.g.Manhattan(s.Key) }

// Child: the tile moved from the child's blank cell into the parent's.
func (m manhattan) Child(parent State, h int, st search.Step[State]) int {
	return h + int(m.p.g.Delta[st.Move][st.State.Blank][parent.Blank])
}

// Spec shows and checks the puzzle's states for package report.
func (p *Puzzle) Spec() report.Spec[State] {
	goal := p.Goal()
	board := func(k State) encode.Board {
		b, err := p.Board(k)
		if err != nil {
			panic(fmt.Sprintf("slide: key %#x is not a board: %v", k.Key, err)) // the search only makes valid keys
		}
		return b
	}
	return report.Spec[State]{
		Name:   fmt.Sprintf("slide %dx%d", p.Rows(), p.Cols()),
		Format: func(k State) string { return board(k).String() },
		Grid:   func(k State) string { return board(k).Grid() },
		Move: func(k State, t int) (State, error) {
			b := board(k)
			err := b.Move(t)
			return p.State(b), err
		},
		Goal:     func(k State) bool { return k == goal },
		MoveName: strconv.Itoa,
	}
}

// OneGoal is the rows x cols board for package puzzle's searches: its
// goal, its boards (encode.Parse), the Manhattan distance as its bound.
func OneGoal(rows, cols int) (puzzle.OneGoal[State], error) {
	p, err := New(rows, cols)
	if err != nil {
		return puzzle.OneGoal[State]{}, err
	}
	return puzzle.OneGoal[State]{Problem: p, Spec: p.Spec(), Goal: p.Goal(),
		Bound: func() search.Bound[State] { return p.Manhattan() },
		What:  fmt.Sprintf("board (%d numbers, blank 0)", rows*cols),
		Parse: func(s string) (State, error) {
			b, err := encode.Parse(s, rows, cols)
			if err != nil {
				return State{}, err
			}
			return p.State(b), nil
		}}, nil
}
