package zeroset

import (
	"context"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bfs gives the exact distance of every board, from the goal.
func bfs(rows, cols int) map[uint64]int {
	g := encode.Goal(rows, cols)
	dist := map[uint64]int{g.Key(): 0}
	queue := []encode.Board{g}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		next, _ := b.Successors()
		for _, n := range next {
			if _, ok := dist[n.Key()]; !ok {
				dist[n.Key()] = dist[b.Key()] + 1
				queue = append(queue, n)
			}
		}
	}
	return dist
}

// Gap0 is exactly the boards whose BFS distance equals their Manhattan
// distance, on 2x3 and 3x3; projections are the masked truth.
func TestGap0MatchesBFS(t *testing.T) {
	for _, sz := range [][2]int{{2, 3}, {3, 3}} {
		rows, cols := sz[0], sz[1]
		n := rows * cols
		var truth []uint64
		for key, d := range bfs(rows, cols) {
			b, err := encode.FromKey(key, rows, cols)
			require.NoError(t, err)
			if d == b.Manhattan() {
				truth = append(truth, key)
			}
		}
		cells := []int{n, n - 1, 4, 1}
		var layers []Progress
		got, err := Sets(context.Background(), rows, cols, cells, func(p Progress) { layers = append(layers, p) })
		require.NoError(t, err)
		for _, k := range cells {
			want := make([]uint64, len(truth))
			for i, key := range truth {
				want[i] = encode.Project(key, k)
			}
			slices.Sort(want)
			want = slices.Compact(want)
			assert.Equal(t, want, got[k], "%dx%d cells %d", rows, cols, k)
		}
		require.NotEmpty(t, layers)
		assert.Equal(t, len(truth), layers[len(layers)-1].Total)
		assert.Equal(t, 1, layers[0].Size)
	}
}

func TestBadArguments(t *testing.T) {
	_, err := Sets(context.Background(), 3, 3, []int{10}, nil)
	assert.Error(t, err)
	_, err = Sets(context.Background(), 9, 9, []int{4}, nil)
	assert.Error(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Sets(ctx, 3, 3, []int{9}, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestRadixSortMatchesSlicesSort(t *testing.T) {
	for _, n := range []int{0, 1, 5, 255, 256, 10000} {
		for _, mask := range []uint64{^uint64(0), 0xffffffff, 0xff00ff} {
			a := make([]uint64, n)
			x := uint64(n) + 1
			for i := range a {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				a[i] = x & mask
			}
			want := slices.Clone(a)
			slices.Sort(want)
			got, _ := radixSort(a, nil)
			assert.Equal(t, want, got, "n %d mask %#x", n, mask)
			assert.Equal(t, slices.Compact(slices.Clone(want)), compact(got))
		}
	}
}
