package bdd

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ball4x4 returns the 4x4 boards within depth moves of the goal whose gap
// (distance - Manhattan) is at most 2, by breadth-first search: the first
// layers of the 4x4 gap <= 2 set, small enough for tests. Computed once.
func ball4x4(t testing.TB) []uint64 {
	t.Helper()
	cachedBall.once.Do(func() {
		const depth = 13
		g := encode.Goal(4, 4)
		geo, err := encode.NewGeometry(4, 4)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[uint64]bool{g.Key(): true}
		layer := []encode.Board{g}
		keys := []uint64{g.Key()}
		for d := 1; d <= depth; d++ {
			var next []encode.Board
			for _, b := range layer {
				succ, _ := b.Successors()
				for _, n := range succ {
					if k := n.Key(); !seen[k] {
						seen[k] = true
						next = append(next, n)
						if d-geo.Manhattan(k) <= 2 {
							keys = append(keys, k)
						}
					}
				}
			}
			layer = next
		}
		slices.Sort(keys)
		cachedBall.keys = keys
	})
	return cachedBall.keys
}

var cachedBall struct {
	once sync.Once
	keys []uint64
}

// The level-by-level builder gives the diagrams of the single-table one it
// replaced (kept in reftable_test.go): the same file bytes, whether saved
// as it is or converted into a Diagram first, on 3x3 whole boards and
// projections and on 4x4 projections, in every encoding, BDD and ZDD.
func TestLevelBuilderMatchesReference(t *testing.T) {
	g0, g2 := sets3x3(t)
	ball := ball4x4(t)
	require.Greater(t, len(ball), 5000)
	type tc struct {
		keys          []uint64
		rows, cols, k int
		orders        []string
	}
	cases := []tc{
		{g0, 3, 3, 9, OrderNames()}, {g2, 3, 3, 9, OrderNames()},
		{project(g2, 6), 3, 3, 6, []string{"natural", "reverse", "planes"}},
	}
	for _, k := range []int{8, 12, 16} {
		cases = append(cases, tc{project(ball, k), 4, 4, k, []string{"natural", "reverse", "planes-reverse"}})
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range cases {
		n := c.rows * c.cols
		for _, enc := range []Encoding{Cells, Tiles, Ranks, RanksReverse} {
			if enc == Tiles && c.k != n {
				continue
			}
			keys := slices.Clone(c.keys)
			enc.ConvertAll(keys, n, c.k)
			slices.Sort(keys)
			for _, name := range c.orders {
				o, err := NamedOrder(name, c.rows, c.cols, c.k)
				require.NoError(t, err)
				for _, zdd := range []bool{false, true} {
					msg := []any{"%dx%d k=%d %v %s zdd=%v", c.rows, c.cols, c.k, enc, name, zdd}
					want, err := refBuild(keys, o, zdd)
					require.NoError(t, err)
					ld, err := buildInPlace(slices.Clone(keys), o, zdd, nil)
					require.NoError(t, err)
					d := ld.Diagram()
					require.NoError(t, d.check(), msg...)
					require.Equal(t, want.NodeCount(), ld.NodeCount(), msg...)
					require.Equal(t, want.LevelSizes(), ld.LevelSizes(), msg...)
					require.Equal(t, ld.LevelSizes(), d.LevelSizes(), msg...)
					wb, lb, db := encodedAs(t, want, c.rows, c.cols, c.k), encodedAs(t, ld, c.rows, c.cols, c.k), encodedAs(t, d, c.rows, c.cols, c.k)
					require.True(t, bytes.Equal(wb, lb), msg...)
					require.True(t, bytes.Equal(wb, db), msg...)
					require.NoError(t, ld.CheckCount(uint64(len(keys))), msg...)
					require.NoError(t, d.CheckCount(uint64(len(keys))), msg...)
					if !zdd && name == "natural" {
						checkMembership(t, rng, d, keys, c.k, c.rows, c.cols)
					}
				}
			}
		}
	}
}

// Saving the builder's form and loading it back gives the set; a file
// streamed through Save equals the in-memory encoding.
func TestSaveLevelDiagram(t *testing.T) {
	keys := project(ball4x4(t), 10)
	o, err := NamedOrder("reverse", 4, 4, 10)
	require.NoError(t, err)
	ld, err := buildInPlace(slices.Clone(keys), o, false, nil)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "b.bdd")
	m := Meta{Rows: 4, Cols: 4, Cells: 10, Gap: 2}
	in, err := Save(path, ld, m)
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = Encode(&buf, ld, m)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(buf.Bytes(), b), "Save and Encode differ")
	assert.Equal(t, int64(len(b)), in.FileSize)
	d, in2, err := Load(path)
	require.NoError(t, err)
	assert.Equal(t, in, in2)
	assert.Equal(t, ld.NodeCount(), d.NodeCount())
	checkMembership(t, rand.New(rand.NewPCG(1, 1)), d, keys, 10, 4, 4)
	assert.Positive(t, ld.Bytes())

	// a writer that fails is reported, and Save leaves no file
	_, err = Encode(failWriter{}, ld, m)
	assert.Error(t, err)
	_, err = Save(filepath.Join(t.TempDir(), "no", "x.bdd"), ld, m)
	assert.Error(t, err)
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// A diagram that would need more nodes than a reference can index stops
// the build with an error instead of a wrong diagram.
func TestPoolOverflowIsAnError(t *testing.T) {
	g0, _ := sets3x3(t)
	o, err := NamedOrder("natural", 3, 3, 9)
	require.NoError(t, err)
	defer func(v int) { maxChunks = v }(maxChunks)
	maxChunks = 3 // three levels' first chunks
	_, err = Build(g0, o, false)
	assert.ErrorIs(t, err, ErrLevelFull)
	assert.ErrorContains(t, err, "the most 32-bit references reach")
	b, err := NewBuilder(o, false)
	require.NoError(t, err)
	for _, k := range g0 {
		if err = b.AddPermuted(k); err != nil {
			break
		}
	}
	assert.ErrorIs(t, err, ErrLevelFull)
	assert.ErrorContains(t, err, "the most 32-bit references reach")
}

// A level's slots widen their index as the level grows (the fingerprint
// narrowing, down to none at 32 bits): started narrow, the levels outgrow
// them many times over, and the diagram is still the reference's.
func TestSlotsWidenPastTheirIndexBits(t *testing.T) {
	_, g2 := sets3x3(t)
	o, err := NamedOrder("reverse", 3, 3, 9)
	require.NoError(t, err)
	want, err := refBuild(g2, o, false)
	require.NoError(t, err)
	defer func(v uint) { startIB = v }(startIB)
	for _, ib := range []uint{1, 3, 30} {
		startIB = ib
		got, err := Build(g2, o, false)
		require.NoError(t, err, "start at %d index bits", ib)
		assert.Equal(t, want.NodeCount(), got.NodeCount(), "start at %d index bits", ib)
		assert.True(t, bytes.Equal(encodedAs(t, want, 3, 3, 9), encodedAs(t, got, 3, 3, 9)), "start at %d index bits", ib)
		checkMembership(t, rand.New(rand.NewPCG(2, 2)), got, g2, 9, 3, 3)
	}
}

// Counts wider than 32 bits are counted exactly (the 4-byte counts give
// way to 8-byte ones), and wider than 64 bits refused.
func TestSatCountWidths(t *testing.T) {
	o, err := NamedOrder("natural", 3, 3, 9)
	require.NoError(t, err)
	// one node at level 0: x0 = 0 and anything below: 2^35 members
	d := &Diagram{Order: o, Nodes: []Node{{}, {}, {Lo: True, Hi: False, Level: 0}}, Root: 2}
	n, err := d.SatCount()
	require.NoError(t, err)
	assert.Equal(t, uint64(1)<<35, n)
	// a node at level 1 with a parent at level 0: 2^34 + 2^34
	d = &Diagram{Order: o, Nodes: []Node{{}, {}, {Lo: True, Hi: False, Level: 1}, {Lo: 2, Hi: True, Level: 0}}, Root: 3}
	n, err = d.SatCount()
	require.NoError(t, err)
	assert.Equal(t, uint64(1)<<34+uint64(1)<<35, n)
	o16, err := NamedOrder("natural", 4, 4, 16)
	require.NoError(t, err)
	_, err = (&Diagram{Order: o16, Nodes: []Node{{}, {}}, Root: True}).SatCount()
	assert.ErrorIs(t, err, errOverflow)
}
