package data

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gapset/gapset/encode"
)

func TestEmbeddedFiles(t *testing.T) {
	k := Korf100()
	require.Len(t, k, 100)
	assert.Equal(t, "1", k[0].ID)
	assert.Equal(t, "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2", k[0].Board.String())
	for i, in := range k {
		assert.Equal(t, strconv.Itoa(i+1), in.ID, "instance i at index i-1")
	}
	r := Random300()
	require.Len(t, r, 300)
	seen := map[uint64]bool{}
	for _, in := range r {
		seen[in.Board.Key()] = true
	}
	assert.Len(t, seen, 300)
}

// The lengths add up to Korf's published total, and each is a possible
// optimum of its board: at least its Manhattan distance, and of the same
// parity (every move changes the distance by one), which catches most
// slips of transcription.
func TestKorfLengths(t *testing.T) {
	total := 0
	for _, in := range Korf100() {
		id, err := strconv.Atoi(in.ID)
		require.NoError(t, err)
		l, m := KorfLength(id), in.Board.Manhattan()
		total += l
		assert.GreaterOrEqual(t, l, m, "korf %d", id)
		assert.Zero(t, (l-m)%2, "korf %d: length %d, Manhattan %d", id, l, m)
		assert.Equal(t, in, KorfInstance(id))
	}
	assert.Equal(t, 5305, total, "Korf 1985: average 53.05 moves")
	assert.Equal(t, 45, KorfLength(12))
	assert.Equal(t, 41, KorfLength(55))
	assert.Panics(t, func() { KorfLength(0) })
	assert.Panics(t, func() { KorfLength(101) })
	assert.Panics(t, func() { KorfInstance(101) })
}

// The paper's text states its Table 2 as ratios to Manhattan distance
// (nodes about 0.26 and time about 0.45 with the projected zero sets, nodes
// 0.06 and time about 0.19 with the gap-2 sets); the rows give them back.
func TestPaperTable2MatchesItsText(t *testing.T) {
	rows := PaperTable2()
	require.Len(t, rows, 7)
	base := rows[0]
	require.Equal(t, "M(c)", base.Heuristic)
	ratio := func(from, to int, f func(Table2Row) float64) float64 {
		var s float64
		for _, r := range rows[from:to] {
			s += f(r) / f(base)
		}
		return s / float64(to-from)
	}
	nodes := func(r Table2Row) float64 { return r.Nodes }
	secs := func(r Table2Row) float64 { return r.Seconds }
	assert.InDelta(t, 0.26, ratio(1, 4, nodes), 0.005)
	assert.InDelta(t, 0.45, ratio(1, 4, secs), 0.005)
	assert.InDelta(t, 0.06, ratio(5, 7, nodes), 0.005)
	assert.InDelta(t, 0.19, ratio(5, 7, secs), 0.005)
	rows[0].Nodes = 0
	assert.Equal(t, 1.32e8, PaperTable2()[0].Nodes, "each call a fresh table")
}

// Table 1: a projection onto more cells keeps more patterns, a gap-2 set
// holds its gap-0 set, and a file holds more bytes than nodes.
func TestPaperTable1(t *testing.T) {
	t1 := PaperTable1()
	require.Len(t, t1, 6)
	assert.Less(t, t1["Gap0_8"].Patterns, t1["Gap0_10"].Patterns)
	assert.Less(t, t1["Gap0_10"].Patterns, t1["Gap0_12"].Patterns)
	assert.Less(t, t1["Gap0_12"].Patterns, t1["Gap0"].Patterns)
	assert.Less(t, t1["Gap0_8"].Patterns, t1["Gap2_8"].Patterns)
	assert.Less(t, t1["Gap0_10"].Patterns, t1["Gap2_10"].Patterns)
	for name, r := range t1 {
		assert.Less(t, r.Nodes, r.FileSize, name)
	}
	_, ok := t1["Gap2_12"]
	assert.False(t, ok, "the paper could not build Gap2_12")
}

// The seventeen 80-move configurations: distinct, the blank in the first
// cell (the farthest from its goal cell), each a possible 80-move optimum
// (Manhattan distance at most 80 and of its parity), and the set closed
// under the transpose, which keeps every optimal length: a slip of
// transcription in one line breaks the pairing.
func TestHard80(t *testing.T) {
	h := Hard80()
	require.Len(t, h, 17)
	tr, err := encode.NewSquareTransposition(4, 4)
	require.NoError(t, err)
	keys := map[uint64]bool{}
	for _, in := range h {
		keys[in.Board.Key()] = true
	}
	require.Len(t, keys, 17)
	self := 0
	for _, in := range h {
		m := in.Board.Manhattan()
		assert.LessOrEqual(t, m, 80, in.ID)
		assert.Zero(t, (80-m)%2, "%s: Manhattan %d", in.ID, m)
		assert.Equal(t, 0, in.Board.Blank(), in.ID)
		k := in.Board.Key()
		assert.True(t, keys[tr.Key(k)], "%s: its transpose is not in the file", in.ID)
		if tr.Key(k) == k {
			self++
		}
	}
	assert.Equal(t, 5, self, "five are their own transposes, twelve pair up")
}
