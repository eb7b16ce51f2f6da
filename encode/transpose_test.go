package encode

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// transposed returns the image of b under tr as a board, failing the test
// when the key is not a valid Cols x Rows board.
func transposed(t *testing.T, tr *Transposition, b Board) Board {
	t.Helper()
	out, err := FromKey(tr.Key(b.Key()), b.Cols, b.Rows)
	require.NoError(t, err, "%s", b)
	return out
}

// Boards transposed by hand: the tile in row r, column k moves to row k,
// column r and takes the name of the tile whose home is its own home's
// image.
func TestTranspositionByHand(t *testing.T) {
	cases := []struct {
		rows, cols int
		in, out    string
	}{
		// 2x3 homes 1..5 go to the 3x2 homes 1 3 5 2 4
		{2, 3, "4 1 3  0 2 5", "2 0  1 3  5 4"},
		{3, 3, "8 1 3  4 0 2  7 6 5", "6 2 3  1 0 8  7 4 5"},
	}
	for _, c := range cases {
		in, err := Parse(c.in, c.rows, c.cols)
		require.NoError(t, err)
		want, err := Parse(c.out, c.cols, c.rows)
		require.NoError(t, err)
		tr, err := NewTransposition(c.rows, c.cols)
		require.NoError(t, err)
		got := transposed(t, tr, in)
		assert.True(t, want.Equal(got), "%s: got %s, want %s", in, got, want)
	}
	tr, err := NewTransposition(2, 3)
	require.NoError(t, err)
	assert.Equal(t, []uint8{0, 3, 1, 4, 2, 5}, tr.Order[:6], "column-major reading of 2x3")
}

// Transposing twice gives the board back, the goal goes to the goal, and
// Manhattan distance is kept, on random boards of every shape.
func TestTranspositionInvolution(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sz := range [][2]int{{2, 2}, {2, 3}, {3, 2}, {3, 3}, {2, 8}, {3, 4}, {4, 3}, {4, 4}} {
		rows, cols := sz[0], sz[1]
		tr, err := NewTransposition(rows, cols)
		require.NoError(t, err)
		back, err := NewTransposition(cols, rows)
		require.NoError(t, err)
		assert.Equal(t, Goal(cols, rows).Key(), tr.Key(Goal(rows, cols).Key()), "%dx%d", rows, cols)
		for c := 0; c < rows*cols; c++ {
			require.Equal(t, uint8(c), tr.Order[tr.Cell[c]])
		}
		for i := 0; i < 200; i++ {
			b := Random(rng, rows, cols)
			tb := transposed(t, tr, b)
			require.Equal(t, b.Manhattan(), tb.Manhattan(), "%s", b)
			require.Equal(t, b.Key(), back.Key(tb.Key()), "%s", b)
		}
	}
	_, err := NewTransposition(5, 4)
	assert.ErrorIs(t, err, ErrSize)
	_, err = NewSquareTransposition(3, 4)
	assert.ErrorContains(t, err, "square")
	m, err := NewSquareTransposition(4, 4)
	require.NoError(t, err)
	assert.Equal(t, 4, m.Rows)
}

// By BFS truth every board and its transpose are equally far from the goal,
// and an optimal solution transposed move by move solves the transposed
// board: consecutive images are one move apart and the last is the goal.
func TestTranspositionKeepsDistances(t *testing.T) {
	for _, sz := range [][2]int{{3, 3}, {2, 3}, {2, 4}} {
		rows, cols := sz[0], sz[1]
		dist := Distances(rows, cols)
		image := dist
		if rows != cols {
			image = Distances(cols, rows)
		}
		tr, err := NewTransposition(rows, cols)
		require.NoError(t, err)
		for k, d := range dist {
			m, ok := image[tr.Key(k)]
			require.True(t, ok, "%#x transposes to an unreachable board", k)
			require.Equal(t, d, m, "%#x", k)
		}
		i := 0
		for k, d := range dist {
			if i++; i%997 != 0 {
				continue
			}
			b, err := FromKey(k, rows, cols)
			require.NoError(t, err)
			tb := transposed(t, tr, b)
			for ; d > 0; d-- {
				kids, _ := b.Successors()
				next := -1
				for j, kid := range kids {
					if dist[kid.Key()] == d-1 {
						next = j
						break
					}
				}
				require.GreaterOrEqual(t, next, 0, "%s", b)
				b = kids[next]
				tn := transposed(t, tr, b)
				tkids, _ := tb.Successors()
				found := false
				for _, kid := range tkids {
					found = found || kid.Equal(tn)
				}
				require.True(t, found, "%s -> %s is not a move", tb, tn)
				tb = tn
			}
			require.True(t, tb.IsGoal(), "%s", tb)
		}
	}
}
