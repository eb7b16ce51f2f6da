package ida

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func storedPairs(t *testing.T) []DuplicatePair {
	t.Helper()
	pairs, maxLen, kept, err := ReadDuplicatePairs(bytes.NewReader(defaultPairs))
	require.NoError(t, err)
	require.Equal(t, DefaultFSMLength, maxLen)
	require.Equal(t, 8838117, kept)
	return pairs
}

// shortlexLess orders move strings as the learning does: shorter first,
// then by direction in the order "ULRD".
func shortlexLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if x, y := strings.IndexByte(dirNames, a[i]), strings.IndexByte(dirNames, b[i]); x != y {
			return x < y
		}
	}
	return false
}

// Up to 5 moves the only duplicates are the moves that undo the previous
// one: the automaton is the loops' own rule, 5 states.
func TestFSMOfShortStringsIsTheUndoRule(t *testing.T) {
	for n := 2; n <= 5; n++ {
		f := NewFSM(n)
		assert.Equal(t, 4, f.Strings, "length %d", n)
		assert.Equal(t, 5, f.States(), "length %d", n)
		for _, s := range []string{"UD", "DU", "LR", "RL", "ULRD"} {
			assert.True(t, f.Prunes(s), "%s", s)
		}
		for _, s := range []string{"UULLDDRR", "ULDR", "RDLURDLU"} {
			assert.False(t, f.Prunes(s), "%s", s)
		}
	}
	assert.Equal(t, NewFSM(2).Next, moveRuleFSM(false).Next)
	assert.Equal(t, []int32{0, 0, 0, 0}, moveRuleFSM(true).Next)
}

// The blank going round a 2x2 square one and a half times each way has the
// same effect (the three tiles turned by one place, the blank in the
// opposite corner); the automaton keeps the shortlex-smaller string and
// prunes the other, and with it the whole turn of 12 moves.
func TestFSMPrunesTheRotation(t *testing.T) {
	l := newLearner(12)
	small, large := "RDLURD", "DRULDR"
	require.True(t, shortlexLess(small, large))
	require.True(t, l.sameEffect(parseMoves(small), parseMoves(large)))
	require.True(t, boxOf(parseMoves(small)).within(boxOf(parseMoves(large))))
	f := DefaultFSM()
	assert.True(t, f.Prunes(large))
	assert.False(t, f.Prunes(small))
	assert.True(t, f.Prunes("RDLURDLURDLU"))
	assert.False(t, NewFSM(5).Prunes(large), "6 moves are past a bound of 5")
	assert.Equal(t, DefaultFSMLength, f.MaxLen)
	assert.Equal(t, 19625, f.Strings)
	assert.Equal(t, 70051, f.States())
	t.Log(f)
}

// Every stored pair is what pruning needs: the long string's partner comes
// first in shortlex order, leaves the same board and stays inside the long
// string's bounding box; and no long string contains another (each is
// pruned only at its last move).
func TestStoredPairsAreSound(t *testing.T) {
	pairs := storedPairs(t)
	require.Len(t, pairs, 19625)
	l := newLearner(DefaultFSMLength)
	f := DefaultFSM()
	for _, p := range pairs {
		long, short := parseMoves(p.Long), parseMoves(p.Short)
		require.True(t, shortlexLess(p.Short, p.Long), "%s %s", p.Long, p.Short)
		require.True(t, l.sameEffect(long, short), "%s %s", p.Long, p.Short)
		require.True(t, boxOf(short).within(boxOf(long)), "%s %s", p.Long, p.Short)
		require.True(t, f.Prunes(p.Long), p.Long)
		require.False(t, f.Prunes(p.Short), p.Short)
		require.False(t, f.Prunes(p.Long[:len(p.Long)-1]), p.Long)
		require.False(t, f.Prunes(p.Long[1:]), p.Long)
	}
}

// DefaultFSM, compiled from the file's words, is the automaton of the
// pairs as ReadDuplicatePairs gives them.
func TestDefaultFSMIsThePairs(t *testing.T) {
	f := compilePairs(storedPairs(t), DefaultFSMLength, 0, time.Now())
	d := DefaultFSM()
	require.Equal(t, f.Next, d.Next)
	require.Equal(t, f.Strings, d.Strings)
	require.Equal(t, DefaultFSMLength, d.MaxLen)
}

// The stored pairs are the learning search's (all 14 moves unless -short:
// about 3 s and 1 GB).
func TestStoredPairsMatchLearning(t *testing.T) {
	n := DefaultFSMLength
	if testing.Short() {
		n = 11
	}
	pairs, kept := LearnDuplicates(n)
	var want []DuplicatePair
	for _, p := range storedPairs(t) {
		if len(p.Long) <= n {
			want = append(want, p)
		}
	}
	require.Equal(t, want, pairs)
	if n == DefaultFSMLength {
		assert.Equal(t, 8838117, kept)
	}
	var b bytes.Buffer
	require.NoError(t, WriteDuplicatePairs(&b, pairs, n, kept))
	if n == DefaultFSMLength {
		assert.Equal(t, defaultPairs, b.Bytes(), "fsm14.gz is what gen_fsm.go writes")
	}
	_, _, _, err := ReadDuplicatePairs(bytes.NewReader(b.Bytes()[:b.Len()-9]))
	assert.Error(t, err)
}

// fsmOptions are the searches compared: without and with the automaton.
func fsmOptions(base Options) (Options, Options) {
	with := base
	with.FSM = DefaultFSM()
	return base, with
}

// On every 2x3, 3x3 and 2x4 board the automaton gives the BFS distance and
// the same (least) solution, and never expands more nodes than the search
// without it. (Learned without the bounding-box condition, the 14-move
// automaton has 11 more strings and gets 54 of the 360 2x3 boards wrong.)
// Of the 3x3 boards an eighth and the farthest by default (searchedBoards).
func TestFSMOptimalOnEverySmallBoard(t *testing.T) {
	for _, sz := range [][2]int{{2, 3}, {3, 3}, {2, 4}} {
		var plain, pruned int64
		keys, dist := searchedBoards(sz[0], sz[1])
		for _, key := range keys {
			d := dist[key]
			b, err := encode.FromKey(key, sz[0], sz[1])
			require.NoError(t, err)
			without, with := fsmOptions(Options{})
			p, err := Solve(b, Manhattan{}, without)
			require.NoError(t, err)
			r, err := Solve(b, Manhattan{}, with)
			require.NoError(t, err)
			if r.Length != d || p.Length != d {
				t.Fatalf("%s: lengths %d and %d with the automaton, BFS distance %d", b, p.Length, r.Length, d)
			}
			if r.Expanded > p.Expanded {
				t.Fatalf("%s: %d nodes with the automaton, %d without", b, r.Expanded, p.Expanded)
			}
			require.Equal(t, p.Moves, r.Moves, "%s", b)
			plain += p.Expanded
			pruned += r.Expanded
		}
		t.Logf("%dx%d: %d nodes, %d with the automaton", sz[0], sz[1], plain, pruned)
		assert.Less(t, pruned, plain*9/10, "%dx%d: the automaton should prune at least a tenth", sz[0], sz[1])
	}
}

// On 3x4 and 4x4 boards (random walks from the goal, and Korf's quick
// instances) the lengths and solutions are the same with the automaton,
// with no more nodes, through the Manhattan loop and the general loop.
func TestFSMSameLengthsOnLargerBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 4))
	var boards []encode.Board
	for i := 0; i < 60; i++ {
		rows := 3 + i%2
		b := encode.Goal(rows, 4)
		for range 30 + rng.IntN(40) {
			next, _ := b.Successors()
			b = next[rng.IntN(len(next))]
		}
		boards = append(boards, b)
	}
	for _, id := range korfQuick {
		boards = append(boards, korf(t, id))
	}
	for i, b := range boards {
		for _, h := range []Heuristic{Manhattan{}, mdEvaluator{}} {
			if i >= 60 && h != (Manhattan{}) {
				continue
			}
			without, with := fsmOptions(Options{})
			p, err := Solve(b, h, without)
			require.NoError(t, err)
			r, err := Solve(b, h, with)
			require.NoError(t, err)
			require.Equal(t, p.Moves, r.Moves, "%s %s", h.Name(), b)
			require.LessOrEqual(t, r.Expanded, p.Expanded, "%s %s", h.Name(), b)
		}
	}
	for _, id := range korfQuick {
		_, with := fsmOptions(Options{})
		r, err := Solve(korf(t, id), Manhattan{}, with)
		require.NoError(t, err)
		assert.Equal(t, data.KorfLength(id), r.Length, "korf %d", id)
	}
}

// Every loop takes the automaton: the gap loops' heuristics (run through
// the general loop), the general loop, BPMX with an inconsistent heuristic,
// and the parallel search, whose iterations with AllSolutions expand
// exactly the sequential search's nodes.
func TestFSMInEveryLoop(t *testing.T) {
	tr := truthOnce()
	boards, dists := sample3x3(tr, 80)
	hs := append(parallelHeuristics(t), holeyMD{})
	for _, h := range hs {
		for i, b := range boards {
			without, with := fsmOptions(Options{})
			p, err := Solve(b, h, without)
			require.NoError(t, err)
			r, err := Solve(b, h, with)
			require.NoError(t, err)
			require.Equal(t, dists[i], r.Length, "%s %s", h.Name(), b)
			require.Equal(t, p.Moves, r.Moves, "%s %s", h.Name(), b)
			require.LessOrEqual(t, r.Expanded, p.Expanded, "%s %s", h.Name(), b)
			with.BPMX = true
			x, err := Solve(b, h, with)
			require.NoError(t, err)
			require.Equal(t, dists[i], x.Length, "%s %s", h.Name(), b)
			_, with = fsmOptions(Options{AllSolutions: true})
			seq, err := Solve(b, h, with)
			require.NoError(t, err)
			with.Threads = 2
			par, err := Solve(b, h, with)
			require.NoError(t, err)
			require.Equal(t, seq.Iterations, par.Iterations, "%s %s", h.Name(), b)
			require.Equal(t, seq.Solutions, par.Solutions, "%s %s", h.Name(), b)
			with.AllSolutions = false
			par, err = Solve(b, h, with)
			require.NoError(t, err)
			require.Equal(t, dists[i], par.Length, "%s %s", h.Name(), b)
		}
	}
	_, err := Solve(boards[0], Manhattan{}, Options{FSM: DefaultFSM(), KeepUndo: true})
	assert.Error(t, err)
}
