package bdd

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shuffledPass serves keys in a fixed random order, as a file read again
// and again would (BuildPasses must not rely on the source's order).
func shuffledPass(keys []uint64, seed uint64) (KeyPass, *int) {
	s := append([]uint64(nil), keys...)
	rand.New(rand.NewPCG(seed, 1)).Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	passes := 0
	return func(add func(uint64)) error {
		passes++
		for _, k := range s {
			add(k)
		}
		return nil
	}, &passes
}

func encoded(t *testing.T, d Graph) []byte {
	t.Helper()
	var vars int
	switch d := d.(type) {
	case *Diagram:
		vars = d.Order.Vars()
	case *LevelDiagram:
		vars = d.Order.Vars()
	}
	return encodedAs(t, d, 3, 3, vars/4)
}

func encodedAs(t *testing.T, d Graph, rows, cols, k int) []byte {
	t.Helper()
	var buf bytes.Buffer
	_, err := Encode(&buf, d, Meta{Rows: rows, Cols: cols, Cells: k})
	require.NoError(t, err)
	return buf.Bytes()
}

func TestBuildPassesEqualsInMemoryBuild(t *testing.T) {
	g0, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, set := range [][]uint64{g0, g2} {
		for _, k := range []int{4, 6, 9} {
			keys := project(set, k)
			for _, name := range []string{"natural", "reverse", "planes"} {
				o, err := NamedOrder(name, 3, 3, k)
				require.NoError(t, err)
				want, err := Build(keys, o, false)
				require.NoError(t, err)
				wantZ, err := Build(keys, o, true)
				require.NoError(t, err)
				// Budgets: everything at once, and a tenth of the set per pass.
				for _, budget := range []int{len(keys), len(keys)/10 + 200} {
					pass, passes := shuffledPass(keys, uint64(budget))
					d, z, err := BuildPasses(pass, o, true, budget, nil)
					require.NoError(t, err, "%s k=%d budget %d", name, k, budget)
					assert.Equal(t, uint64(len(keys)), d.Count)
					n, err := d.SatCount()
					require.NoError(t, err)
					assert.Equal(t, uint64(len(keys)), n)
					assert.Equal(t, want.NodeCount(), d.NodeCount(), "%s k=%d", name, k)
					assert.Equal(t, wantZ.NodeCount(), z.NodeCount(), "%s k=%d ZDD", name, k)
					assert.Equal(t, encoded(t, want), encoded(t, d), "%s k=%d: same file", name, k)
					if budget < len(keys) {
						assert.Greater(t, *passes, 2, "%s k=%d: a small budget takes several passes", name, k)
					} else {
						assert.Equal(t, 2, *passes, "count, then one pass")
					}
				}
				if k == 6 && name == "reverse" {
					d, _, err := BuildPasses(func(add func(uint64)) error {
						for _, key := range keys {
							add(key)
						}
						return nil
					}, o, false, len(keys), nil)
					require.NoError(t, err)
					checkMembership(t, rng, d, keys, k, 3, 3)
				}
			}
		}
	}
}

func TestBuildPassesErrors(t *testing.T) {
	_, g2 := sets3x3(t)
	keys := project(g2, 9)
	o, _ := NamedOrder("reverse", 3, 3, 9)
	pass, _ := shuffledPass(keys, 1)
	_, _, err := BuildPasses(pass, o, false, 1, nil)
	assert.ErrorIs(t, err, ErrBudget)

	// A source that yields a duplicate is refused by the builder.
	dup := append(append([]uint64(nil), keys[:50]...), keys[7])
	pass, _ = shuffledPass(dup, 2)
	_, _, err = BuildPasses(pass, o, false, len(dup), nil)
	assert.ErrorContains(t, err, "not strictly increasing")

	// A source that changes between passes is caught.
	calls := 0
	_, _, err = BuildPasses(func(add func(uint64)) error {
		calls++
		for _, key := range keys[:100+calls] {
			add(key)
		}
		return nil
	}, o, false, 1000, nil)
	assert.ErrorContains(t, err, "changed between passes")
}
