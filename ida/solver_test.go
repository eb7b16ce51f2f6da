package ida

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mdEvaluator runs Manhattan distance through the general Evaluator loop,
// so the two loops can be compared node for node.
type mdEvaluator struct{}

func (mdEvaluator) Name() string { return "md-eval" }
func (mdEvaluator) NewEvaluator(int, int) (Evaluator, error) {
	return &mdEval{}, nil
}

type mdEval struct{ pushes int64 }

func (e *mdEval) Root(p *Position) int { return p.MD }
func (e *mdEval) Push(p *Position, _ uint8, _, _ int, _ int) int {
	e.pushes++
	return p.MD
}
func (e *mdEval) Pop(*Position, uint8, int, int) {}
func (e *mdEval) Counters() map[string]int64     { return map[string]int64{"pushes": e.pushes} }

func TestOptimalOnEvery2x3And3x3Board(t *testing.T) {
	for _, sz := range [][2]int{{2, 3}, {3, 3}} {
		rows, cols := sz[0], sz[1]
		dist := encode.Distances(rows, cols)
		require.Equal(t, map[[2]int]int{{2, 3}: 360, {3, 3}: 181440}[sz], len(dist))
		far := 0
		for key, d := range dist {
			b, err := encode.FromKey(key, rows, cols)
			require.NoError(t, err)
			res, err := Solve(b, Manhattan{}, Options{})
			require.NoError(t, err)
			if res.Length != d {
				t.Fatalf("%s: IDA* length %d, BFS distance %d", b, res.Length, d)
			}
			end, err := b.Replay(res.Moves)
			require.NoError(t, err)
			require.True(t, end.IsGoal())
			far = max(far, res.Length)
		}
		// The published diameters: 21 moves for 2x3, 31 for the 8-puzzle.
		assert.Equal(t, map[[2]int]int{{2, 3}: 21, {3, 3}: 31}[sz], far)
	}
}

// The generated 4x4 Manhattan loop visits the nodes of the loop for any
// size in the same order, with the same counts and solutions, on boards a
// random walk away from the goal and on Korf instances, stopping at the
// first solution or counting them all.
func TestGenerated4x4LoopMatchesGenericLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var boards []encode.Board
	for i := 0; i < 300; i++ {
		b := encode.Goal(4, 4)
		for range 20 + rng.IntN(40) {
			next, _ := b.Successors()
			b = next[rng.IntN(len(next))]
		}
		boards = append(boards, b)
	}
	for _, id := range []int{12, 42, 55, 79, 97} {
		boards = append(boards, korf(t, id))
	}
	for i, b := range boards {
		for _, all := range []bool{false, i%3 == 0} {
			gen, err := Solve(b, Manhattan{}, Options{AllSolutions: all})
			require.NoError(t, err)
			ref, err := Solve(b, Manhattan{}, Options{AllSolutions: all, generic: true})
			require.NoError(t, err)
			require.Equal(t, ref.Moves, gen.Moves, "%s", b)
			require.Equal(t, ref.Iterations, gen.Iterations, "%s", b)
			require.Equal(t, ref.Generated, gen.Generated, "%s", b)
			require.Equal(t, ref.Solutions, gen.Solutions, "%s", b)
		}
	}
}

// The Manhattan loop and the general Evaluator loop visit the same nodes
// and find the same solutions.
func TestGeneralLoopMatchesFastLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	boards := []encode.Board{}
	for i := 0; i < 200; i++ {
		boards = append(boards, encode.Random(rng, 3, 3))
	}
	for _, id := range []int{42, 55} {
		boards = append(boards, korf(t, id))
	}
	for _, b := range boards {
		fast, err := Solve(b, Manhattan{}, Options{})
		require.NoError(t, err)
		gen, err := Solve(b, mdEvaluator{}, Options{})
		require.NoError(t, err)
		require.Equal(t, fast.Length, gen.Length, "%s", b)
		require.Equal(t, fast.Moves, gen.Moves, "%s", b)
		require.Equal(t, fast.Iterations, gen.Iterations, "%s", b)
		require.Equal(t, fast.Generated, gen.Counters["pushes"], "%s", b)
	}
}

// korfQuick are Korf instances that Manhattan distance solves in a
// moment; data.KorfLength has their published optimal lengths.
var korfQuick = []int{12, 42, 55, 79, 97, 8, 9}

// korf is Korf's instance id (t: for the callers' symmetry with other
// helpers; the embedded file cannot fail).
func korf(t testing.TB, id int) encode.Board {
	t.Helper()
	return data.KorfInstance(id).Board
}

func TestKorfEasyInstances(t *testing.T) {
	for _, id := range korfQuick {
		b, want := korf(t, id), data.KorfLength(id)
		res, err := Solve(b, Manhattan{}, Options{})
		require.NoError(t, err)
		assert.Equal(t, want, res.Length, "korf %d", id)
		require.NoError(t, Verify(b, res.Moves))
		var e, g int64
		for _, it := range res.Iterations {
			e += it.Expanded
			g += it.Generated
		}
		assert.Equal(t, res.Expanded, e)
		assert.Equal(t, res.Generated, g)
		assert.Equal(t, b.Manhattan(), res.Iterations[0].Limit)
		assert.Equal(t, want, res.Iterations[len(res.Iterations)-1].Limit)
	}
}

func TestGoalAndNodeLimit(t *testing.T) {
	res, err := Solve(encode.Goal(4, 4), Manhattan{}, Options{})
	require.NoError(t, err)
	assert.Equal(t, 0, res.Length)
	assert.Empty(t, res.Moves)

	res, err = Solve(korf(t, 1), Manhattan{}, Options{MaxNodes: 1 << 20})
	assert.True(t, errors.Is(err, ErrNodeLimit), "%v", err)
	assert.GreaterOrEqual(t, res.Expanded, int64(1<<20), "the work done before giving up is reported")
	assert.Less(t, res.Expanded, int64(1<<22), "and the limit stopped it")
	assert.Empty(t, res.Moves)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Solve(korf(t, 1), Manhattan{}, Options{Context: ctx})
	assert.ErrorIs(t, err, context.Canceled)

	bad := encode.Board{Rows: 3, Cols: 3, Tiles: []uint8{1, 2, 3, 4, 5, 6, 8, 7, 0}}
	_, err = Solve(bad, Manhattan{}, Options{})
	assert.ErrorIs(t, err, encode.ErrUnsolvable)
}

func TestVerifyRejectsWrongSolutions(t *testing.T) {
	b := korf(t, 55)
	res, err := Solve(b, Manhattan{}, Options{})
	require.NoError(t, err)
	assert.Error(t, Verify(b, res.Moves[:len(res.Moves)-1]))
	moves := append([]int(nil), res.Moves...)
	moves[3], moves[4] = moves[4], moves[3]
	assert.Error(t, Verify(b, moves))
}

// fakeBits is a random bit table over the last cells of a 4x4 key.
type fakeBits struct {
	words []uint64
	mask  uint64
}

func (f fakeBits) Bits() ([]uint64, uint64) { return f.words, f.mask }
func (f fakeBits) has(key uint64) bool {
	k := key & f.mask
	return f.words[k>>6]>>(k&63)&1 != 0
}

// fakeLevel holds the goal and the boards both tables let through whose
// hash is not a multiple of 3: not a gap set, but the loops must ask it the
// same questions and make the same cuts.
type fakeLevel struct{ d1, d2 fakeBits }

func (f fakeLevel) Contains(key uint64) bool {
	if key == encode.Goal(4, 4).Key() {
		return true
	}
	return f.d1.has(key) && f.d2.has(key) && (key*0x9E3779B97F4A7C15)>>62 != 0
}

// The generated 4x4 gap loop makes the cuts of searchGap1, asks the same
// questions and finds the same solutions.
func TestGenerated4x4GapLoopMatchesGenericLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	mk := func(cells int) fakeBits {
		f := fakeBits{words: make([]uint64, (1<<(4*cells)+63)/64), mask: 1<<(4*cells) - 1}
		for i := range f.words {
			f.words[i] = rng.Uint64() | rng.Uint64() // about 3/4 ones
		}
		goal := encode.Goal(4, 4).Key() & f.mask
		f.words[goal>>6] |= 1 << (goal & 63)
		return f
	}
	lv := fakeLevel{mk(3), mk(4)}
	h := Gap{Levels: []Set{lv}, Dense: [][]BitTable{{lv.d1, lv.d2}}}
	var boards []encode.Board
	for i := 0; i < 200; i++ {
		b := encode.Goal(4, 4)
		for range 20 + rng.IntN(30) {
			next, _ := b.Successors()
			b = next[rng.IntN(len(next))]
		}
		boards = append(boards, b)
	}
	boards = append(boards, korf(t, 12), korf(t, 42))
	for i, b := range boards {
		for _, all := range []bool{false, i%3 == 0} {
			// the set is not admissible: a solution shorter than the root
			// bound is reported as an error, by both loops alike
			gen, errGen := Solve(b, h, Options{AllSolutions: all})
			ref, errRef := Solve(b, h, Options{AllSolutions: all, generic: true})
			require.Equal(t, errRef, errGen, "%s", b)
			require.Equal(t, ref.Moves, gen.Moves, "%s", b)
			require.Equal(t, ref.Iterations, gen.Iterations, "%s", b)
			require.Equal(t, ref.Counters, gen.Counters, "%s", b)
			require.Positive(t, gen.Counters["queries"], "%s", b)
			require.Equal(t, ref.Solutions, gen.Solutions, "%s", b)
		}
	}
}
