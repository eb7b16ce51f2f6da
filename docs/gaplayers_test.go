package docs

import (
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readLayers reads a layers CSV (gap, manhattan, count).
func readLayers(t *testing.T, path string) map[[2]int]int64 {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"gap", "manhattan", "count"}, rows[0], path)
	out := map[[2]int]int64{}
	for _, r := range rows[1:] {
		g, err1 := strconv.Atoi(r[0])
		m, err2 := strconv.Atoi(r[1])
		n, err3 := strconv.ParseInt(r[2], 10, 64)
		require.NoError(t, err1)
		require.NoError(t, err2)
		require.NoError(t, err3)
		out[[2]int{g, m}] = n
	}
	return out
}

// The layers of a larger enumeration contain the smaller one's layer by
// layer: the gap <= 6 run's layers of gap 0, 2 and 4 are those of the gap
// <= 4 run (checked once gap6-layers.csv is committed).
func TestLargerEnumerationsExtendSmaller(t *testing.T) {
	const small, large = "gap-bound/gap4-layers.csv", "gap-bound/gap6-layers.csv"
	if _, err := os.Stat(large); os.IsNotExist(err) {
		t.Skip(large + " is not committed yet")
	}
	a, b := readLayers(t, small), readLayers(t, large)
	for k, n := range a {
		assert.Equal(t, n, b[k], "layer gap %d, Manhattan %d", k[0], k[1])
	}
	for k := range b {
		if k[0] <= 4 {
			_, ok := a[k]
			assert.True(t, ok, "layer gap %d, Manhattan %d is not in %s", k[0], k[1], small)
		}
	}
}
