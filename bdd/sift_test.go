package bdd

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameFile asserts that two diagrams are the same canonical BDD (equal
// files), the strongest equality this package has.
func sameFile(t *testing.T, a, b *Diagram, msg string) {
	t.Helper()
	var fa, fb bytes.Buffer
	m := Meta{Rows: 3, Cols: 3, Cells: a.Order.Vars() / 4}
	_, err := Encode(&fa, a, m)
	require.NoError(t, err, msg)
	_, err = Encode(&fb, b, m)
	require.NoError(t, err, msg)
	require.Equal(t, fa.Bytes(), fb.Bytes(), msg)
}

// Every swap must leave the reduced BDD of the same set in the swapped
// order: after each of a random sequence of swaps, the exported diagram is
// the one built from the keys in that order.
func TestSwapKeepsTheCanonicalBDD(t *testing.T) {
	g0, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		keys []uint64
		k    int
	}{{project(g0, 6), 6}, {project(g2, 9), 9}, {randomKeys(rng, 4, 4, 8, 3000), 8}} {
		o, _ := NamedOrder("natural", 3, 3, c.k)
		if c.k == 8 {
			o, _ = NamedOrder("natural", 4, 4, 8)
		}
		d, err := Build(c.keys, o, false)
		require.NoError(t, err)
		r, err := newReorderer(d)
		require.NoError(t, err)
		for step := 0; step < 40; step++ {
			r.swap(rng.IntN(r.L - 1))
			if step%7 == 6 {
				r.compact()
			}
			got := r.export("x")
			require.NoError(t, got.check())
			want, err := Build(c.keys, got.Order, false)
			require.NoError(t, err)
			require.Equal(t, want.NodeCount(), r.size(), "live count after step %d", step)
			sameFile(t, want, got, "after a swap")
		}
	}
}

func TestOrderSearchNeverGrowsAndKeepsTheSet(t *testing.T) {
	g0, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(13, 14))
	for _, k := range []int{6, 9} {
		for _, set := range [][]uint64{g0, g2} {
			keys := project(set, k)
			for _, start := range []string{"natural", "reverse", "planes"} {
				o, _ := NamedOrder(start, 3, 3, k)
				d, err := Build(keys, o, false)
				require.NoError(t, err)
				for _, m := range SearchMethods() {
					res, err := OrderSearch(d, SearchOptions{Method: m})
					if start == "planes" && (m == "block-sift" || m == "block-window") {
						require.Error(t, err, "blocks need cells together")
						continue
					}
					require.NoError(t, err)
					got := res.Diagram
					assert.LessOrEqual(t, got.NodeCount(), d.NodeCount(), "%s from %s", m, start)
					assert.Equal(t, d.NodeCount(), res.Start)
					require.NoError(t, got.Order.Validate())
					if m == "block-sift" || m == "block-window" {
						assert.NotNil(t, cellShifts(got.Order), "block methods keep cells together")
					}
					n, err := got.SatCount()
					require.NoError(t, err)
					require.Equal(t, uint64(len(keys)), n)
					checkMembership(t, rng, got, keys, k, 3, 3)
					// Built from the keys in the found order: the same BDD.
					want, err := Build(keys, got.Order, false)
					require.NoError(t, err)
					sameFile(t, want, got, m+" from "+start)
				}
			}
		}
	}
}

// Sifting must find a strictly smaller BDD where one plainly exists: the
// bit planes are far worse than keeping cells together on these sets.
func TestSiftImprovesABadOrder(t *testing.T) {
	g0, _ := sets3x3(t)
	keys := project(g0, 9)
	o, _ := NamedOrder("planes", 3, 3, 9)
	d, err := Build(keys, o, false)
	require.NoError(t, err)
	res, err := OrderSearch(d, SearchOptions{Method: "sift"})
	require.NoError(t, err)
	assert.Less(t, res.Diagram.NodeCount(), d.NodeCount())
	assert.Greater(t, res.Swaps, 0)
	sum := 0
	for _, s := range res.LevelSizes {
		sum += s
	}
	assert.Equal(t, res.Diagram.NodeCount(), sum)
}

func TestOrderSearchRefusesZDDAndUnknownMethod(t *testing.T) {
	g0, _ := sets3x3(t)
	o, _ := NamedOrder("natural", 3, 3, 4)
	z, err := Build(project(g0, 4), o, true)
	require.NoError(t, err)
	_, err = OrderSearch(z, SearchOptions{Method: "sift"})
	assert.Error(t, err)
	d, _ := Build(project(g0, 4), o, false)
	_, err = OrderSearch(d, SearchOptions{Method: "annealing"})
	assert.ErrorContains(t, err, "unknown search method")
}

func TestOrderFileRoundTrip(t *testing.T) {
	o, _ := NamedOrder("column-reverse", 4, 4, 10)
	o.Name = "found"
	back, err := ParseOrder(o.Format(4, 4), 4, 4, 10)
	require.NoError(t, err)
	assert.Equal(t, o, back)
	nat, err := ParseOrder("natural", 4, 4, 10)
	require.NoError(t, err)
	assert.Equal(t, "natural", nat.Name)
	// a file may not borrow a named order's name for other bits
	renamed, err := ParseOrder(strings.Replace(o.Format(4, 4), "name found", "name natural", 1), 4, 4, 10)
	require.NoError(t, err)
	assert.Equal(t, o.Bits, renamed.Bits)
	assert.NotEqual(t, "natural", renamed.Name)
	for _, bad := range []string{"1,2,3", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 30",
		"x", "name " + string(make([]byte, 40))} {
		_, err := ParseOrder(bad, 4, 4, 8)
		assert.Error(t, err, bad)
	}
}
