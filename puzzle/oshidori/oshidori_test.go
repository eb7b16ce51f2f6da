package oshidori

import (
	"strings"
	"testing"

	"github.com/gapset/gapset/search"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var start = MustParse("B W B W B W _ _")

func replay(t *testing.T, r search.Result[Row], goal func(Row) bool) {
	t.Helper()
	require.Equal(t, len(r.Path), len(r.Moves)+1)
	cur := r.Path[0]
	for i, m := range r.Moves {
		next, err := cur.Move(m)
		require.NoError(t, err, "move %d", i+1)
		require.Equal(t, r.Path[i+1], next)
		cur = next
	}
	assert.True(t, goal(cur), "ends at %s", cur)
}

func TestParse(t *testing.T) {
	r, err := Parse("BWBWBW__")
	require.NoError(t, err)
	assert.Equal(t, start, r)
	assert.Equal(t, "B W B W B W _ _", r.String())
	assert.Equal(t, 6, r.Gap())
	b, w := r.Count()
	assert.Equal(t, [2]int{3, 3}, [2]int{b, w})
	assert.Equal(t, "BWBWBW", r.Stones())
	for in, want := range map[string]error{
		"BWBWBX__":   ErrSymbol,
		"B W _":      ErrLength,
		"":           ErrLength,
		"BWBWB_W_":   ErrGap,
		"BWBWBW___":  ErrGap,
		"BWBWBWBW":   ErrGap,
		"BBBBBBBBB_": ErrGap,
	} {
		_, err := Parse(in)
		assert.ErrorIs(t, err, want, "%q", in)
	}
}

func TestMove(t *testing.T) {
	r, err := start.Move(3)
	require.NoError(t, err)
	assert.Equal(t, "B W B _ _ W W B", r.String())
	back, err := r.Move(6)
	require.NoError(t, err)
	assert.Equal(t, start, back, "a move is undone by moving the pair back")
	_, err = r.Move(2) // cells 2,3 hold a stone and a gap
	assert.Error(t, err)
	_, err = r.Move(7)
	assert.Error(t, err)
}

func TestSeedResults(t *testing.T) {
	cases := []struct {
		goal string
		free bool
		want int
	}{
		{"B B B W W W _ _", false, 4},
		{"W W W B B B _ _", false, 4},
		{"B B B W W W _ _", true, 3},
	}
	for _, c := range cases {
		goal, err := Goal(start, MustParse(c.goal), c.free)
		require.NoError(t, err)
		for _, d := range []search.Dedup{search.Map, search.Open, search.Linear} {
			r, err := search.BFS[Row](Puzzle{}, start, goal, search.Options{Dedup: d})
			require.NoError(t, err)
			assert.Equal(t, c.want, r.Length(), "%s free=%v %v", c.goal, c.free, d)
			replay(t, r, goal)
		}
		if !c.free {
			r, err := search.Bidirectional[Row](Puzzle{}, start, MustParse(c.goal), search.Options{})
			require.NoError(t, err)
			assert.Equal(t, c.want, r.Length(), "bidirectional %s", c.goal)
			replay(t, r, goal)
		}
	}
	// The page's solution, state by state.
	goal, _ := Goal(start, MustParse("BBBWWW__"), false)
	r, err := search.BFS[Row](Puzzle{}, start, goal, search.Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range r.Path {
		got = append(got, s.String())
	}
	assert.Equal(t, []string{"B W B W B W _ _", "B W B _ _ W W B", "B W B W W _ _ B", "B _ _ W W W B B", "B B B W W W _ _"}, got)
}

func TestAllArrangementsReachable(t *testing.T) {
	l, err := search.Farthest[Row](Puzzle{}, start, search.Options{})
	require.NoError(t, err)
	// 7 places for the empty pair times C(6,3) colourings.
	assert.Equal(t, 7*20, l.Reached)
	// Every reached row is a valid arrangement of 3 + 3 stones.
	assert.Equal(t, []string{"W B W B W B _ _"}, []string{l.Farthest[0].String()})
}

func TestUnreachableGoal(t *testing.T) {
	_, err := Goal(start, MustParse("BBWWWW__"), false)
	assert.ErrorIs(t, err, ErrUnreachable)
	_, err = Goal(start, MustParse("BBBWWWB__"), false)
	assert.ErrorIs(t, err, ErrUnreachable)
	// Same counts but a row where no pair can move: never reached.
	short := MustParse("B W _ _")
	goal, err := Goal(short, MustParse("W B _ _"), false)
	require.NoError(t, err)
	_, err = search.BFS[Row](Puzzle{}, short, goal, search.Options{})
	assert.ErrorIs(t, err, search.ErrNotFound)
}

// FuzzParse: Parse never panics, and what it accepts prints and parses back
// to the same row with one empty pair.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"B W B W B W _ _", "BBBWWW..", "bw__", "", "B W _", "ÿ__BW"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(r.String())
		require.NoError(t, err)
		require.Equal(t, r, back)
		require.Equal(t, Empty, int(r.At(r.Gap())))
		require.Equal(t, Empty, int(r.At(r.Gap()+1)))
		b, w := r.Count()
		require.Equal(t, r.Len()-2, b+w)
	})
}

// Solve gives the page's lengths with its record filled; bidirectional
// search needs one goal row.
func TestSolve(t *testing.T) {
	target := MustParse("B B B W W W _ _")
	rec, err := Solve(start, target, false, false, search.Options{})
	require.NoError(t, err)
	assert.Equal(t, 4, rec.Length)
	assert.Equal(t, "bfs", rec.Method)
	assert.Equal(t, "B B B W W W _ _", rec.Goal)
	assert.Equal(t, 7*20, rec.Extra["reachable"])
	var text, js strings.Builder
	require.NoError(t, rec.Write(&text, "text"))
	assert.True(t, strings.HasSuffix(text.String(), "\narrangements reachable from the start: 140\n"), text.String())
	require.NoError(t, rec.Write(&js, "json"))
	assert.Contains(t, js.String(), `"extra":{"reachable":140}`)
	assert.NotContains(t, js.String(), "arrangements")
	rec, err = Solve(start, target, false, true, search.Options{})
	require.NoError(t, err)
	assert.Equal(t, 4, rec.Length)
	assert.Equal(t, "bidir", rec.Method)
	rec, err = Solve(start, target, true, false, search.Options{})
	require.NoError(t, err)
	assert.Equal(t, 3, rec.Length)
	assert.Equal(t, "BBBWWW (empty pair anywhere)", rec.Goal)
	_, err = Solve(start, target, true, true, search.Options{})
	assert.ErrorContains(t, err, "needs one goal row")
	_, err = Solve(start, MustParse("BBWWWW__"), false, false, search.Options{})
	assert.ErrorIs(t, err, ErrUnreachable)
	short := MustParse("B W _ _")
	_, err = Solve(short, MustParse("W B _ _"), false, false, search.Options{})
	assert.ErrorIs(t, err, search.ErrNotFound)
}
