package encode

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/placement"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		want error
	}{
		{"1 2 3", ErrCount},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 1", ErrCount},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 0", ErrRange},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 -1 0", ErrRange},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 14 0", ErrRepeat},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", ErrUnsolvable},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 0", ErrSyntax},
	}
	for _, c := range cases {
		_, err := Parse(c.in, 4, 4)
		require.Error(t, err, c.in)
		assert.ErrorIs(t, err, c.want, c.in)
		assert.NotContains(t, err.Error(), "\n")
	}
	_, err := Parse("1 2 3", 5, 5)
	assert.ErrorIs(t, err, ErrSize)
}

func TestParseSeparators(t *testing.T) {
	a, err := Parse("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0", 4, 4)
	require.NoError(t, err)
	b, err := Parse(" 1, 2 3\t4 5 6 7 8 9 10 11 12 13 14 15 0 ", 4, 4)
	require.NoError(t, err)
	assert.True(t, a.Equal(b))
	assert.True(t, a.IsGoal())
	assert.Equal(t, 0, a.Manhattan())
}

func TestStringRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][2]int{{2, 3}, {3, 3}, {4, 4}, {3, 4}} {
		for i := 0; i < 200; i++ {
			b := Random(rng, sz[0], sz[1])
			back, err := Parse(b.String(), sz[0], sz[1])
			require.NoError(t, err)
			assert.True(t, b.Equal(back))
		}
	}
}

// The parity rule must agree with reachability: BFS from the goal reaches
// exactly the boards Solvable accepts, which are half of all permutations.
func TestSolvableMatchesReachability(t *testing.T) {
	for _, sz := range [][2]int{{2, 2}, {2, 3}, {3, 3}} {
		rows, cols := sz[0], sz[1]
		dist := Distances(rows, cols)
		seen := map[uint64]bool{}
		far := 0
		for k, d := range dist {
			seen[k] = true
			far = max(far, d)
		}
		// Known diameters: 2x2 6, 2x3 21, 3x3 31 moves.
		assert.Equal(t, map[[2]int]int{{2, 2}: 6, {2, 3}: 21, {3, 3}: 31}[sz], far, "%dx%d diameter", rows, cols)
		total := 1
		for i := 2; i <= rows*cols; i++ {
			total *= i
		}
		assert.Equal(t, total/2, len(seen), "%dx%d reachable", rows, cols)
		// Every permutation: Solvable iff reached.
		perm := make([]int, rows*cols)
		for i := range perm {
			perm[i] = i
		}
		count := 0
		permute(perm, 0, func(p []int) {
			tiles := make([]uint8, len(p))
			for i, v := range p {
				tiles[i] = uint8(v)
			}
			b := Board{Rows: rows, Cols: cols, Tiles: tiles}
			count++
			if b.Solvable() != seen[b.Key()] {
				t.Fatalf("%s: Solvable=%v reachable=%v", b, b.Solvable(), seen[b.Key()])
			}
		})
		assert.Equal(t, total, count)
	}
}

func permute(p []int, k int, f func([]int)) {
	if k == len(p) {
		f(p)
		return
	}
	for i := k; i < len(p); i++ {
		p[k], p[i] = p[i], p[k]
		permute(p, k+1, f)
		p[k], p[i] = p[i], p[k]
	}
}

func TestKeyMatchesPaperLayout(t *testing.T) {
	g := Goal(4, 4)
	// cell 0 (tile 1) in the most significant nibble, cell 15 (blank) in the least.
	assert.Equal(t, uint64(0x123456789abcdef0), g.Key())
	assert.Equal(t, uint64(0x9abcdef0), Project(g.Key(), 8))
	assert.Equal(t, uint64(0x789abcdef0), Project(g.Key(), 10))
	assert.Equal(t, uint64(0x56789abcdef0), Project(g.Key(), 12))
	assert.Equal(t, g.Key(), Project(g.Key(), 16))
}

func TestKeyRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sz := range [][2]int{{2, 3}, {3, 3}, {4, 4}} {
		for i := 0; i < 500; i++ {
			b := Random(rng, sz[0], sz[1])
			back, err := FromKey(b.Key(), sz[0], sz[1])
			require.NoError(t, err)
			require.True(t, b.Equal(back), "%s", b)
			// The projection keeps exactly the last k cells.
			for k := 1; k <= len(b.Tiles); k++ {
				p := Project(b.Key(), k)
				for c := 0; c < len(b.Tiles); c++ {
					nib := uint8(p >> (4 * uint(len(b.Tiles)-1-c)) & 15)
					if c >= len(b.Tiles)-k {
						require.Equal(t, b.Tiles[c], nib)
					} else {
						require.Zero(t, nib)
					}
				}
			}
		}
	}
	_, err := FromKey(0x1123456789abcdef, 4, 4)
	assert.ErrorIs(t, err, ErrRepeat)
	_, err = FromKey(1<<40, 3, 3)
	assert.Error(t, err)
}

func TestMovesAndReplay(t *testing.T) {
	g := Goal(3, 3)
	b, err := g.Replay([]int{8, 5, 4})
	require.NoError(t, err)
	assert.Equal(t, "1 2 3 0 4 6 7 5 8", b.String())
	assert.Equal(t, 3, b.Manhattan())
	back, err := b.Replay([]int{4, 5, 8})
	require.NoError(t, err)
	assert.True(t, back.IsGoal())
	_, err = g.Replay([]int{1})
	assert.Error(t, err)
	_, err = g.Replay([]int{9})
	assert.Error(t, err)
	assert.Equal(t, "1 2 3\n4 5 6\n7 8 .\n", g.Grid())
}

func TestRandomIsSolvableAndSpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	counts := map[string]int{}
	const draws = 36000
	for i := 0; i < draws; i++ {
		b := Random(rng, 2, 3)
		require.True(t, b.Solvable())
		counts[b.String()]++
	}
	// 360 solvable 2x3 boards, each expected 100 times.
	assert.Len(t, counts, 360)
	for s, c := range counts {
		assert.InDelta(t, 100, c, 50, s)
	}
}

func TestReadInstances(t *testing.T) {
	src := "# header\n\n7 1 2 3 4 5 6 7 8 0  # trailing\n1,2,3,4,5,6,0,7,8\n"
	insts, err := ReadInstances(strings.NewReader(src), "x.txt", 3, 3)
	require.NoError(t, err)
	require.Len(t, insts, 2)
	assert.Equal(t, "7", insts[0].ID)
	assert.Equal(t, 3, insts[0].Line)
	assert.Equal(t, "2", insts[1].ID)
	assert.Equal(t, 4, insts[1].Line)

	_, err = ReadInstances(strings.NewReader("1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 8 7 0\n"), "x.txt", 3, 3)
	require.Error(t, err)
	var le *LineError
	require.True(t, errors.As(err, &le))
	assert.Equal(t, 2, le.Line)
	assert.ErrorIs(t, err, ErrUnsolvable)
	assert.Contains(t, err.Error(), "x.txt:2:")

	var sb strings.Builder
	require.NoError(t, WriteInstances(&sb, insts))
	again, err := ReadInstances(strings.NewReader(sb.String()), "", 3, 3)
	require.NoError(t, err)
	require.Len(t, again, 2)
	assert.True(t, again[1].Board.Equal(insts[1].Board))
}

func FuzzReadInstances(f *testing.F) {
	f.Add("1 2 3 4 5 6 7 8 0\n")
	f.Add("# c\n3 1,2,3,4,5,6,7,0,8\n")
	f.Add("1 2 3 4 5 6 7 8 8\n")
	f.Add("99999999999999999999 1 2\n")
	f.Fuzz(func(t *testing.T, src string) {
		insts, err := ReadInstances(strings.NewReader(src), "fuzz", 3, 3)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		for _, in := range insts {
			if !in.Board.Solvable() || len(in.Board.Tiles) != 9 {
				t.Fatalf("accepted bad board %v", in.Board)
			}
			back, err := Parse(in.Board.String(), 3, 3)
			if err != nil || !back.Equal(in.Board) {
				t.Fatalf("round trip failed for %s: %v", in.Board, err)
			}
		}
	})
}

func TestSplitNumbersStrict(t *testing.T) {
	for in, want := range map[string][]int{
		"1 2 3":      {1, 2, 3},
		"1,2, 3":     {1, 2, 3},
		"(1 5 2 0)":  {1, 5, 2, 0},
		" 0 ":        {0},
		"1 -2":       {1, -2},
		"\t10,\t11 ": {10, 11},
	} {
		got, err := SplitNumbers(in)
		require.NoError(t, err, "%q", in)
		assert.Equal(t, want, got, "%q", in)
	}
	for in, msg := range map[string]string{
		"+15":                    "not a number",
		"015":                    "leading zero",
		"1,,2":                   "empty field",
		",1":                     "empty field",
		"1 2,":                   "trailing comma",
		"(1 5 2 6 3 4 0":         "unbalanced",
		"1 5 2)":                 "unbalanced",
		"1x":                     "not a number",
		"\ufeff1":                "not a number",
		"99999999999999999999":   "out of range",
		"4294967311":             "out of range",
		strings.Repeat("7", 1e5): "out of range",
	} {
		_, err := SplitNumbers(in)
		require.Error(t, err, "%q", in)
		assert.Contains(t, err.Error(), msg, "%.30q", in)
		assert.Less(t, len(err.Error()), 80, "%.30q", in)
	}
}

// The ranked table holds the map's distances on the boards the map can
// hold, and Unreached for the other half of the permutations.
func TestDistanceTableMatchesDistances(t *testing.T) {
	for _, sz := range [][2]int{{2, 3}, {3, 3}, {2, 4}} {
		rows, cols := sz[0], sz[1]
		n := rows * cols
		want := Distances(rows, cols)
		got, err := DistanceTable(context.Background(), rows, cols)
		require.NoError(t, err)
		reached := 0
		for _, d := range got {
			if d != Unreached {
				reached++
			}
		}
		assert.Equal(t, len(want), reached)
		for k, d := range want {
			require.Equal(t, d, int(got[placement.RankKey(k, n, n)]), "%dx%d %#x", rows, cols, k)
		}
	}
	_, err := DistanceTable(context.Background(), 4, 4)
	assert.ErrorContains(t, err, "at most 12 cells")
}
