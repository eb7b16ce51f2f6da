package bdd

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The ZDD converted from the BDD is the ZDD built from the keys: same node
// count, same file, same members.
func TestZDDOfEqualsZDDFromKeys(t *testing.T) {
	g0, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(7, 8))
	sets := [][]uint64{g0, g2, randomKeys(rng, 4, 4, 8, 3000), {}}
	for si, set := range sets {
		rows, cols, ks := 3, 3, []int{3, 6, 9}
		if si == 2 {
			rows, cols, ks = 4, 4, []int{8}
		}
		for _, k := range ks {
			keys := set
			if si < 2 {
				keys = project(set, k)
			}
			for _, name := range OrderNames() {
				o, err := NamedOrder(name, rows, cols, k)
				require.NoError(t, err)
				b, err := Build(keys, o, false)
				require.NoError(t, err)
				want, err := Build(keys, o, true)
				require.NoError(t, err)
				got, err := b.ZDDOf()
				require.NoError(t, err)
				require.NoError(t, got.check(), "%s k=%d", name, k)
				assert.Equal(t, want.NodeCount(), got.NodeCount(), "set %d %s k=%d", si, name, k)
				n, err := got.SatCount()
				require.NoError(t, err)
				assert.Equal(t, uint64(len(keys)), n)
				zn, zm, err := b.ZDDSize()
				require.NoError(t, err)
				assert.Equal(t, got.NodeCount(), zn)
				assert.Equal(t, n, zm)
				if len(keys) > 0 {
					assert.Greater(t, got.NodeCount(), 0)
					assert.Equal(t, encodedAs(t, want, rows, cols, k), encodedAs(t, got, rows, cols, k), "set %d %s k=%d: same file", si, name, k)
					if name == "reverse" || name == "planes" {
						checkMembership(t, rng, got, keys, k, rows, cols)
					}
				}
			}
		}
	}
	o, _ := NamedOrder("natural", 3, 3, 9)
	z, err := Build(g0[:10], o, true)
	require.NoError(t, err)
	_, err = z.ZDDOf()
	assert.Error(t, err, "a ZDD is not converted again")
}
