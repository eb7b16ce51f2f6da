package gapset

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// residuals is the BFS truth: opt - h of every board of dist.
func residuals(dist map[uint64]int, h func(uint64) int) map[uint64]int {
	r := make(map[uint64]int, len(dist))
	for k, d := range dist {
		r[k] = d - h(k)
	}
	return r
}

// residualKeys is the keys whose residual is at most hi, sorted.
func residualKeys(r map[uint64]int, hi int) []uint64 {
	var out []uint64
	for k, v := range r {
		if v <= hi {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// The theory of docs/proofs.md#residual-sets on every state of 3x3 and
// 2x4: the blank-aware additive database is 0 at the goal and changes by
// exactly 1 on every move, so r = opt - h is even, non-negative, changes
// by 0 or 2 a move, and never rises along an optimal path to the goal (a
// move to a neighbour one closer). The usual database (min over the
// blank's cell) has moves that change it by 3.
func TestResidualNeverRises(t *testing.T) {
	for _, sz := range [][2]int{{3, 3}, {2, 4}} {
		rows, cols := sz[0], sz[1]
		dist := encode.Distances(rows, cols)
		base := newTestBase(t, rows, cols, testSplits[sz])
		bases := []*testBase{base}
		if rows == cols {
			bases = append(bases, base.symmetric(t))
		}
		for _, b := range bases {
			res := residuals(dist, b.H)
			rmax, optimalMoves := 0, 0
			for k, d := range dist {
				bd, err := encode.FromKey(k, rows, cols)
				require.NoError(t, err)
				r := res[k]
				h := d - r
				require.True(t, r >= 0 && r%2 == 0, "%s %s: r = %d", b.spec, bd, r)
				rmax = max(rmax, r)
				next, _ := bd.Successors()
				for _, nb := range next {
					nk := nb.Key()
					nr := res[nk]
					dh := dist[nk] - nr - h
					require.True(t, dh == 1 || dh == -1, "%s: h changes by %d from %s to %s", b.spec, dh, bd, nb)
					require.Contains(t, []int{-2, 0, 2}, nr-r)
					if dist[nk] == d-1 {
						optimalMoves++
						require.LessOrEqual(t, nr, r, "%s: r rises from %s to %s on an optimal path", b.spec, bd, nb)
					}
				}
			}
			assert.Equal(t, 0, b.H(encode.Goal(rows, cols).Key()))
			assert.Greater(t, optimalMoves, len(dist)-1, "every board but the goal has an optimal move")
			assert.GreaterOrEqual(t, rmax, 4, "%s: r is not trivially 0", b.spec)
		}
		// The usual additive database breaks the property.
		m := residuals(dist, base.min().H)
		big := 0
		for k := range dist {
			bd, _ := encode.FromKey(k, rows, cols)
			next, _ := bd.Successors()
			for _, nb := range next {
				nk := nb.Key()
				if dh := (dist[nk] - m[nk]) - (dist[k] - m[k]); dh > 1 || dh < -1 {
					big++
				}
			}
		}
		assert.Positive(t, big, "%dx%d: the min over the blank's cell changes by 3 somewhere", rows, cols)
	}
}

// Every residual level of one enumeration is the BFS filter r <= 2i, whole
// and projected, on 3x3 (also canonical-free with the symmetric base) and
// 2x4; with Manhattan distance as the base it is LevelSets, the gap sets.
func TestResidualLevelSetsMatchBFS(t *testing.T) {
	const maxGap = 8
	for _, sz := range [][2]int{{3, 3}, {2, 4}} {
		rows, cols := sz[0], sz[1]
		n := rows * cols
		dist := encode.Distances(rows, cols)
		base := newTestBase(t, rows, cols, testSplits[sz])
		bases := []Base{base}
		if rows == cols {
			bases = append(bases, base.symmetric(t))
		}
		cells := []int{n, n - 2, n - 4}
		for _, b := range bases {
			sets, err := ResidualLevelSets(context.Background(), b, rows, cols, maxGap, cells, nil)
			require.NoError(t, err)
			res := residuals(dist, b.H)
			for i := 0; i <= maxGap/2; i++ {
				want := residualKeys(res, 2*i)
				require.NotEmpty(t, want)
				assert.Equal(t, want, sets[n][i], "%s %dx%d r<=%d", b.ID().Spec, rows, cols, 2*i)
				for _, k := range cells[1:] {
					assert.Equal(t, projectAll(want, k), sets[k][i], "%s %dx%d r<=%d k=%d", b.ID().Spec, rows, cols, 2*i, k)
				}
			}
			gap0 := encode.GapKeys(rows, cols, dist, 0, 0)
			assert.Subset(t, sets[n][0], gap0, "R<=0 holds Gap0")
			assert.Greater(t, len(sets[n][0]), len(gap0))
		}
		md, err := NewManhattanBase(rows, cols)
		require.NoError(t, err)
		viaBase, err := ResidualLevelSets(context.Background(), md, rows, cols, maxGap, cells, nil)
		require.NoError(t, err)
		gaps, err := LevelSets(context.Background(), rows, cols, maxGap, cells, nil)
		require.NoError(t, err)
		assert.Equal(t, gaps, viaBase, "Manhattan distance as a base: the gap sets")
	}
}

// A base without the property is refused at the first move that shows
// it, with ErrBase naming the move; one not 0 at the goal before any work.
func TestResidualRefusesBadBase(t *testing.T) {
	base := newTestBase(t, 3, 3, testSplits[[2]int{3, 3}])
	_, err := ResidualLevelSets(context.Background(), base.min(), 3, 3, 4, []int{9}, nil)
	require.ErrorIs(t, err, ErrBase)
	require.ErrorIs(t, err, ErrArgs)
	assert.ErrorContains(t, err, "changes by +3")
	assert.ErrorContains(t, err, "test-bpdb-min")
	assert.ErrorContains(t, err, "blank-aware")

	_, err = ResidualLevelSets(context.Background(), shifted{base}, 3, 3, 4, []int{9}, nil)
	require.ErrorIs(t, err, ErrBase)
	assert.ErrorContains(t, err, "is 1 at the goal")
}

// shifted is a base plus one: never 0 at the goal.
type shifted struct{ *testBase }

func (s shifted) H(key uint64) int { return s.testBase.H(key) + 1 }

// Enumerate relative to a base writes the residual sets (the in-memory
// enumeration's, whole and projected), named Res and recording the base;
// canonical layers with a symmetric base write the same files; tiny
// buffers spill and merge alike.
func TestResidualEnumerateFiles(t *testing.T) {
	for _, tc := range []struct {
		rows, cols, gap int
		exact           bool
		inChunk         int
		symmetric       bool
	}{
		{3, 3, 4, false, 256, true},
		{3, 3, 6, true, 1 << 20, true},
		{2, 4, 6, false, 256, false},
	} {
		n := tc.rows * tc.cols
		base := newTestBase(t, tc.rows, tc.cols, testSplits[[2]int{tc.rows, tc.cols}])
		if tc.symmetric {
			base = base.symmetric(t)
		}
		layers, err := memLayersOf(context.Background(), base, tc.rows, tc.cols, tc.gap, -1, nil)
		require.NoError(t, err)
		var sel []memLayer
		for _, l := range layers {
			if !tc.exact || 2*l.level == tc.gap {
				sel = append(sel, l)
			}
		}
		cells := []int{n, n - 3}
		var outs [][]byte
		for _, transpose := range []bool{false, tc.symmetric} {
			dir := t.TempDir()
			res, err := enumerate(context.Background(), Config{Rows: tc.rows, Cols: tc.cols, MaxGap: tc.gap, Exact: tc.exact, Cells: cells,
				Dir: dir, Memory: 1 << 24, Base: base, Transpose: transpose, Packed: true}, tc.inChunk)
			require.NoError(t, err, "%+v", tc)
			require.Len(t, res.Outputs, len(cells))
			for _, out := range res.Outputs {
				r, err := keyset.OpenResidual(out.Path)
				require.NoError(t, err)
				var keys []uint64
				for k, ok := r.Next(); ok; k, ok = r.Next() {
					keys = append(keys, k)
				}
				require.NoError(t, r.Err())
				h := r.Header()
				r.Close()
				want, _ := unionProjected(sel, out.Cells, n, nil)
				assert.Equal(t, want, keys, "%+v k=%d", tc, out.Cells)
				assert.Equal(t, base.ID(), h.Base)
				assert.True(t, strings.HasPrefix(h.Name(), map[bool]string{false: "Res", true: "R"}[tc.exact]), h.Name())
				b, err := os.ReadFile(out.Path)
				require.NoError(t, err)
				outs = append(outs, b)
			}
		}
		if tc.symmetric {
			assert.Equal(t, outs[:2], outs[2:], "canonical layers: the same files")
		}
	}
}

// Manhattan distance as a base takes the general path (each bound
// computed, each move checked) and writes the gap enumeration's files byte
// for byte: plain, exact, canonical, with cell sets, spilling.
func TestManhattanBaseSameFiles(t *testing.T) {
	for _, tc := range []struct {
		Config
		inChunk int
	}{
		{Config{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{9, 6, 4}}, 1 << 20},
		{Config{Rows: 3, Cols: 3, MaxGap: 4, Exact: true, Cells: []int{9, 5}, Transpose: true, Packed: true}, 256},
		{Config{Rows: 2, Cols: 4, MaxGap: 6, Cells: []int{8, 6}, Sets: []encode.CellSet{0x0C3}}, 256},
	} {
		{
			inChunk := tc.inChunk
			ref := tc.Config
			ref.Dir, ref.Memory = t.TempDir(), 1<<24
			_, err := enumerate(context.Background(), ref, inChunk)
			require.NoError(t, err)
			md, err := NewManhattanBase(tc.Rows, tc.Cols)
			require.NoError(t, err)
			cfg := ref
			cfg.Dir, cfg.Base = t.TempDir(), md
			_, err = enumerate(context.Background(), cfg, inChunk)
			require.NoError(t, err)
			assert.Equal(t, readOutputs(t, ref.Dir), readOutputs(t, cfg.Dir), "%+v", tc)
		}
	}
}

// A residual run stopped and resumed writes the bytes of one never
// stopped; its checkpoint is refused to a run of another base, or of none,
// and left alone.
func TestResidualCheckpoint(t *testing.T) {
	base := newTestBase(t, 3, 3, testSplits[[2]int{3, 3}])
	cfg := Config{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{9, 6}, Memory: 1 << 24, Base: base}
	ref := cfg
	ref.Dir = t.TempDir()
	_, err := Enumerate(context.Background(), ref)
	require.NoError(t, err)

	cfg.Dir = t.TempDir()
	cfg.Checkpoint = filepath.Join(cfg.Dir, CheckpointName)
	stopAfter(t, cfg, 14)
	manifest, err := os.ReadFile(filepath.Join(cfg.Checkpoint, manifestName))
	require.NoError(t, err)
	assert.Contains(t, string(manifest), `"base": "test-bpdb"`)
	other := newTestBase(t, 3, 3, [][]uint8{{1, 2, 4, 5}, {3, 6, 7, 8}})
	for name, b := range map[string]Base{"another base": other, "no base": nil, "the symmetric one": base.symmetric(t)} {
		c := cfg
		c.Base = b
		_, err := Enumerate(context.Background(), c)
		require.ErrorIs(t, err, ErrCheckpoint, name)
		assert.ErrorContains(t, err, "test-bpdb", name)
		after, err := os.ReadFile(filepath.Join(cfg.Checkpoint, manifestName))
		require.NoError(t, err)
		assert.Equal(t, manifest, after, "%s: the checkpoint is untouched", name)
	}
	resumed := false
	cfg.OnResume = func(Resumed) { resumed = true }
	_, err = Enumerate(context.Background(), cfg)
	require.NoError(t, err)
	assert.True(t, resumed)
	assert.Equal(t, readOutputs(t, ref.Dir), readOutputs(t, cfg.Dir))
}

// Canonical layers need a symmetric base: refused before any work.
func TestResidualTransposeNeedsSymmetricBase(t *testing.T) {
	base := newTestBase(t, 3, 3, testSplits[[2]int{3, 3}])
	dir := t.TempDir()
	err := Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Dir: dir, Base: base, Transpose: true}.Check()
	require.ErrorIs(t, err, ErrBase)
	assert.ErrorContains(t, err, "symmetric")
	require.NoError(t, Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Dir: dir, Base: base.symmetric(t), Transpose: true}.Check())
	// Off square boards Transpose is ignored, as for the gap sets.
	b24 := newTestBase(t, 2, 4, testSplits[[2]int{2, 4}])
	require.NoError(t, Config{Rows: 2, Cols: 4, MaxGap: 2, Cells: []int{8}, Dir: dir, Base: b24, Transpose: true}.Check())
}

// A residual run is estimated from its base's measured levels (the 3x4
// table's) or, without them, not at all until levels are given (sampled):
// never from the gap sets' growth.
func TestResidualEstimate(t *testing.T) {
	cfg := Config{Rows: 3, Cols: 4, MaxGap: 4, Cells: []int{12, 8}, Base: fixedBase{"pdbb:1-6/7-11"}}
	e := EstimateRun(cfg)
	require.True(t, e.Known)
	assert.Equal(t, []float64{7074514, 32805144, 72552838}, e.Levels)
	assert.InDelta(t, 7074514+32805144+72552838, e.Members, 1)
	gap := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 2, Cells: []int{8}})
	require.True(t, gap.Known)
	cfg4 := Config{Rows: 4, Cols: 4, MaxGap: 2, Cells: []int{8}, Base: fixedBase{"pdb78b"}}
	assert.False(t, EstimateRun(cfg4).Known, "no measured levels of this base on 4x4")
	s := EstimateRunLevels(cfg4, []float64{1e11, 3e11})
	require.True(t, s.Known)
	assert.Equal(t, 4e11, s.Members)
	assert.Greater(t, s.CPU, gap.CPU)
}

// fixedBase is a base of a given spec for the estimate, which never asks
// its values (0 everywhere).
type fixedBase struct{ spec string }

func (f fixedBase) H(key uint64) int { return 0 }
func (f fixedBase) ID() keyset.Base {
	return keyset.Base{Spec: f.spec, Digest: [32]byte{1}}
}
func (fixedBase) Symmetric() bool { return true }
