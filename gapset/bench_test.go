package gapset

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestG0Full4x4 enumerates the whole 4x4 G0 in memory and checks the
// paper's counts. Opt in: GAPSET_SLOW=1 go test -run G0Full -v ./gapset/
func TestG0Full4x4(t *testing.T) {
	slowtest.Skip(t, "enumerate the 4x4 G0 (about 1 GiB, tens of seconds)")
	sets, err := Sets(context.Background(), 4, 4, 0, []int{16, 12, 10, 8}, func(p Progress) {
		t.Logf("step %2d gap %d M %2d layer %10d members %11d %6.1fs rss %d MiB", p.Step, p.Gap, p.Manhattan, p.Layer, p.Members, p.Elapsed.Seconds(), p.RSS>>20)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{16, 12, 10, 8} {
		n := paperPatterns(t, k)
		if int64(len(sets[k])) != n {
			t.Errorf("Gap0 k=%d: %d members, the paper has %d", k, len(sets[k]), n)
		}
	}
}

func BenchmarkSortKeys(b *testing.B) {
	keys, err := memLayers(context.Background(), 4, 4, 0, 36, nil)
	if err != nil {
		b.Fatal(err)
	}
	var all []uint64
	for _, l := range keys {
		all = append(all, l.keys...)
	}
	// scramble the order deterministically
	for i := range all {
		j := int(uint64(i) * 0x9E3779B97F4A7C15 >> 40 % uint64(len(all)))
		all[i], all[j] = all[j], all[i]
	}
	buf, scratch := make([]uint64, len(all)), make([]uint64, len(all))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(buf, all)
		b.StartTimer()
		sortKeys(buf, scratch, 64, 2)
	}
	b.ReportMetric(float64(len(all)), "keys")
}

// paperPatterns is the paper's count (Table 1) of the 4x4 Gap0 set
// projected onto k cells.
func paperPatterns(t *testing.T, k int) int64 {
	name := keyset.Header{Rows: 4, Cols: 4, Cells: k}.Name()
	row, ok := data.PaperTable1()[name]
	require.True(t, ok, name)
	return row.Patterns
}

// TestEnumerateG0Full4x4 is the streaming path on the 4x4 G0 with the
// paper's projections. Opt in: GAPSET_SLOW=1 go test -run EnumerateG0 -v ./gapset/
func TestEnumerateG0Full4x4(t *testing.T) {
	slowtest.Skip(t, "enumerate the 4x4 G0 to disk (about 2 GiB of scratch)")
	res, err := Enumerate(context.Background(), Config{Rows: 4, Cols: 4, MaxGap: 0, Cells: []int{16, 12, 10, 8}, Dir: t.TempDir(), Memory: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Outputs {
		if want := paperPatterns(t, o.Cells); int64(o.Count) != want {
			t.Errorf("%s: %d members, the paper has %d", o.Name, o.Count, want)
		}
	}
	t.Logf("%.1fs, peak rss %d MiB, peak disk %d MiB", res.Elapsed.Seconds(), res.PeakRSS>>20, res.PeakDisk>>20)
}

// TestSampledKeySetFile solves random members of a whole-board key-set file
// with IDA* and checks that their gap is within the file's. Opt in:
// GAPSET_KEYS=/work/keys/issue4/g2full/Gap2.keys go test -run SampledKeySetFile -v ./gapset/
func TestSampledKeySetFile(t *testing.T) {
	path := os.Getenv("GAPSET_KEYS")
	if path == "" {
		t.Skip("set GAPSET_KEYS to a whole-board key-set file")
	}
	r, err := keyset.Open(path)
	require.NoError(t, err)
	h := r.Header()
	r.Close()
	require.Equal(t, h.Rows*h.Cols, h.Cells, "needs a whole-board set")
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	g, err := newGeometry(h.Rows, h.Cols)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(uint64(h.Count), 7))
	gaps := map[int]int{}
	for range 1000 {
		var b [8]byte
		_, err := f.ReadAt(b[:], keyset.HeaderSize+8*int64(rng.Uint64N(h.Count)))
		require.NoError(t, err)
		key := binary.LittleEndian.Uint64(b[:])
		board, err := encode.FromKey(key, h.Rows, h.Cols)
		require.NoError(t, err)
		res, err := ida.Solve(board, ida.Manhattan{}, ida.Options{})
		require.NoError(t, err)
		gap := res.Length - g.Manhattan(key)
		if h.Exact {
			assert.Equal(t, h.Gap, gap, "%s", board)
		} else {
			assert.LessOrEqual(t, gap, h.Gap, "%s", board)
		}
		gaps[gap]++
	}
	t.Logf("%s: gaps of 1000 sampled members: %v", h.Name(), gaps)
}
