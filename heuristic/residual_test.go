package heuristic

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeLevelDB writes the key-set files of nested levels (level i: r <= 2i,
// or gap <= 2i for a zero base) on the last k cells and builds their
// database with gapset's and gapdb's own code; it returns its path.
func writeLevelDB(t *testing.T, rows, cols, k int, base keyset.Base, levels [][]uint64) string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, keys := range levels {
		h := keyset.Header{Rows: rows, Cols: cols, Cells: k, Gap: 2 * i, Base: base}
		p := filepath.Join(dir, h.Name()+".keys")
		require.NoError(t, keyset.WriteFile(p, h, keys))
		paths = append(paths, p)
	}
	b, err := gapdb.FromKeyFiles(context.Background(), paths, -1, nil)
	require.NoError(t, err)
	path := filepath.Join(dir, fmt.Sprintf("%d.gapdb", k))
	require.NoError(t, b.Write(context.Background(), path))
	return path
}

// residualDBs enumerates the residual levels of a base up to r <= maxGap
// and the gap levels alike, and writes their databases on the cells given.
func residualDBs(t *testing.T, b Base, rows, cols, maxGap int, cells []int) (res, gaps []string) {
	t.Helper()
	rs, err := gapset.ResidualLevelSets(context.Background(), b.Base, rows, cols, maxGap, cells, nil)
	require.NoError(t, err)
	gs, err := gapset.LevelSets(context.Background(), rows, cols, maxGap, cells, nil)
	require.NoError(t, err)
	for _, k := range cells {
		res = append(res, writeLevelDB(t, rows, cols, k, b.ID(), rs[k]))
		gaps = append(gaps, writeLevelDB(t, rows, cols, k, keyset.Base{}, gs[k]))
	}
	return res, gaps
}

// On every board of 3x3 (the blank-aware 4-4 databases, and their max
// with the transpose's value) and 2x4: h + 2*level over residual
// databases is admissible, exact on the whole board where r is within its
// levels, at least the base and, with the Manhattan-gap bound, at least
// that; IDA* with it finds the BFS length of every board, as with its max
// with the gap databases' bound.
func TestResidualHeuristicEveryBoard(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		partition  string
		spec       string
		transpose  bool
		solveEvery int // solve every board (1) or every n-th
	}{
		{3, 3, "4-4", "pdbb:4-4", false, 7},
		{3, 3, "4-4", "pdbbr:4-4", true, 7},
		{2, 4, "1-4/5-7", "pdbb:1-4/5-7", false, 1},
		{3, 3, "", "wd", false, 7},
		{3, 3, "", "wd", true, 7},
		{2, 4, "", "wd", false, 1},
	} {
		n := tc.rows * tc.cols
		dir := t.TempDir() // walking distance needs no tables
		if tc.partition != "" {
			dir = blankDir(t, tc.partition, tc.rows, tc.cols)
		}
		r := New(Options{Rows: tc.rows, Cols: tc.cols, PDBDir: dir})
		b, err := r.Base(tc.spec)
		require.NoError(t, err)
		const maxGap = 4
		res, gaps := residualDBs(t, b, tc.rows, tc.cols, maxGap, []int{n, n - 3})
		r = New(Options{Rows: tc.rows, Cols: tc.cols, GapDBs: append(res, gaps...), PDBDir: dir})
		tr := map[bool]string{true: "r"}[tc.transpose]
		whole, err := r.Resolve(fmt.Sprintf("res%d%s:%d", maxGap, tr, n))
		require.NoError(t, err)
		proj, err := r.Resolve(fmt.Sprintf("res%d%s:%d", maxGap, tr, n-3))
		require.NoError(t, err)
		assert.Contains(t, proj.Name(), tc.spec)
		both, err := r.Resolve(fmt.Sprintf("max(res%d%s:%d,gap%d:%d)", maxGap, tr, n-3, maxGap, n-3))
		require.NoError(t, err)
		gapOnly, err := r.Resolve(fmt.Sprintf("gap%d:%d", maxGap, n-3))
		require.NoError(t, err)

		dist := encode.Distances(tc.rows, tc.cols)
		evs := map[string]ida.Evaluator{}
		for name, h := range map[string]ida.Heuristic{"whole": whole, "proj": proj, "both": both, "gap": gapOnly} {
			evs[name], err = h.NewEvaluator(tc.rows, tc.cols)
			require.NoError(t, err)
		}
		i, beyond := 0, 0
		for k, d := range dist {
			bd, err := encode.FromKey(k, tc.rows, tc.cols)
			require.NoError(t, err)
			p := position(bd)
			hb := b.H(k)
			v := map[string]int{}
			for name, ev := range evs {
				v[name] = ev.Root(&p)
				require.LessOrEqual(t, v[name], d, "%s %s on %s: not admissible", tc.spec, name, bd)
			}
			assert.Equal(t, min(d, hb+maxGap+2), v["whole"], "%s on %s: the whole board's levels are exact", tc.spec, bd)
			require.GreaterOrEqual(t, v["proj"], hb)
			require.Equal(t, max(v["proj"], v["gap"]), v["both"])
			if d-hb > maxGap {
				beyond++
			}
			if i++; i%tc.solveEvery == 0 {
				for _, h := range []ida.Heuristic{proj, both} {
					s, err := ida.Solve(bd, h, ida.Options{})
					require.NoError(t, err)
					require.Equal(t, d, s.Length, "%s with %s", bd, h.Name())
				}
			}
		}
		assert.Positive(t, beyond, "%s: some boards lie beyond the levels", tc.spec)
	}
}

// position is the solver's position of a board.
func position(b encode.Board) ida.Position {
	p := ida.Position{Rows: b.Rows, Cols: b.Cols, Blank: b.Blank(), MD: b.Manhattan()}
	for c, t := range b.Tiles {
		p.Tiles[c] = uint8(t)
	}
	return p
}

// A base without the property is refused with the reason (the usual
// additive databases take the minimum over the blank's cell), as are an
// unknown one and pdbbr off square boards; md is the gap sets' base.
func TestBaseRefusals(t *testing.T) {
	dir := pdb44Dir(t)
	part, err := pdb.ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	part.Blank = true
	require.NoError(t, pdb.BuildFiles(context.Background(), part, dir, 1, false, nil, nil))
	r := New(Options{Rows: 3, Cols: 3, PDBDir: dir})
	_, err = r.Base("pdb44")
	require.ErrorIs(t, err, ErrBase)
	require.ErrorIs(t, err, pdb.ErrNotUnitStep)
	assert.ErrorContains(t, err, "minimum over the blank")
	_, err = r.Base("id") // inversion distance: a horizontal move leaves it
	require.ErrorIs(t, err, pdb.ErrNotUnitStep)
	_, err = r.Base("nosuch")
	assert.ErrorIs(t, err, ErrBase)
	_, err = New(Options{Rows: 2, Cols: 4, PDBDir: dir}).Base("pdbbr:1-4/5-7")
	assert.ErrorContains(t, err, "square board")
	_, err = New(Options{Rows: 3, Cols: 3, PDBDir: t.TempDir()}).Base("pdbb:4-4")
	assert.ErrorIs(t, err, pdb.ErrMissing, "the tables come from --pdb")
	md, err := r.Base("md")
	require.NoError(t, err)
	assert.True(t, md.ID().IsZero())
	b, err := r.Base("pdbbr:4-4")
	require.NoError(t, err)
	assert.True(t, b.Symmetric())
	assert.Equal(t, "pdbbr:4-4", b.ID().Spec)
	c, err := r.Base("pdbb:4-4")
	require.NoError(t, err)
	assert.False(t, c.Symmetric())
	assert.NotEqual(t, b.ID().Digest, c.ID().Digest, "the transpose mode is in the digest")
	d, err := New(Options{Rows: 3, Cols: 3, PDBDir: dir}).Base("pdbb:1.2.3.4/5.6.7.8")
	require.NoError(t, err)
	assert.Equal(t, c.ID().Digest, d.ID().Digest, "the same tables, however the partition is written")
}

// The residual heuristic reads the residual databases only, and the gap
// heuristics the gap databases only; a database of another base's levels
// is refused.
func TestResidualDatabasesKeptApart(t *testing.T) {
	dir := blankDir(t, "1-4/5-7", 2, 4)
	r := New(Options{Rows: 2, Cols: 4, PDBDir: dir})
	b, err := r.Base("pdbb:1-4/5-7")
	require.NoError(t, err)
	res, gaps := residualDBs(t, b, 2, 4, 2, []int{5})
	only := New(Options{Rows: 2, Cols: 4, GapDBs: res, PDBDir: dir})
	_, err = only.Resolve("gap2:5")
	assert.ErrorContains(t, err, "no gap database on 5 cells given (--gapdb: 1 of residual levels, which resG reads)")
	only = New(Options{Rows: 2, Cols: 4, GapDBs: gaps, PDBDir: dir})
	_, err = only.Resolve("res2:5")
	assert.ErrorContains(t, err, "no residual database")
	d, err := gapdb.Open(res[0])
	require.NoError(t, err)
	_, err = gapdb.Heuristic{DBs: []*gapdb.DB{d}, Levels: 2}.NewEvaluator(2, 4)
	assert.ErrorContains(t, err, "residual levels of the base pdbb:1-4/5-7")
	other, err := New(Options{Rows: 2, Cols: 4, PDBDir: blankDir(t, "1,2,5,6/3,4,7", 2, 4)}).Base("pdbb:1.2.5.6/3.4.7")
	require.NoError(t, err)
	_, err = gapdb.Residual{Base: other.Heuristic.(ida.TrackerMaker), BaseID: other.ID(), DBs: []*gapdb.DB{d}, Levels: 2}.NewEvaluator(2, 4)
	assert.ErrorContains(t, err, "not of the base pdbb:1.2.5.6/3.4.7")
}

// blankDir builds the blank-aware databases of a partition of a small
// board into a directory of their own and returns it.
func blankDir(t testing.TB, partition string, rows, cols int) string {
	t.Helper()
	dir := t.TempDir()
	part, err := pdb.ParsePartition(partition, rows, cols)
	require.NoError(t, err)
	part.Blank = true
	require.NoError(t, pdb.BuildFiles(context.Background(), part, dir, 2, false, nil, nil))
	return dir
}

// SampleLevels estimates the residual levels from random boards solved
// with the base: on 3x3, where BFS gives them exactly, each level with
// many hits lands near its size.
func TestSampleLevels(t *testing.T) {
	dir := blankDir(t, "4-4", 3, 3)
	b, err := New(Options{Rows: 3, Cols: 3, PDBDir: dir}).Base("pdbb:4-4")
	require.NoError(t, err)
	s, err := SampleLevels(context.Background(), b, 3, 3, 4, 600, 7)
	require.NoError(t, err)
	require.Len(t, s.Levels, 3)
	exact := make([]float64, 3)
	for k, d := range encode.Distances(3, 3) {
		if r := d - b.H(k); r <= 4 {
			exact[r/2]++
		}
	}
	hits := 0
	for j, h := range s.Hits {
		hits += h
		if h >= 50 {
			assert.InEpsilon(t, exact[j], s.Levels[j], 0.35, "level r=%d from %d hits", 2*j, h)
		}
	}
	assert.LessOrEqual(t, hits, 600)
	assert.Contains(t, s.String(), "600 random boards")
}

// EstimateRun gives gapset.EstimateRun's estimate where the base's levels
// are known (3x3: bounded by the board's) or no samples are asked; else
// it says it samples, then samples (here stopped by the context at once:
// sampling the 4x4 board takes minutes).
func TestEstimateRunSamples(t *testing.T) {
	dir := blankDir(t, "4-4", 3, 3)
	b, err := New(Options{Rows: 3, Cols: 3, PDBDir: dir}).Base("pdbb:4-4")
	require.NoError(t, err)
	cfg := gapset.Layout{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{9}}.Config(t.TempDir())
	cfg.Base = b.Base
	never := func(string) { t.Fatal("no sampling, no note") }
	est, err := EstimateRun(context.Background(), cfg, b, 50, never)
	require.NoError(t, err)
	assert.Equal(t, gapset.EstimateRun(cfg), est)

	cfg4 := gapset.Layout{Rows: 4, Cols: 4, MaxGap: 2, Cells: []int{8}}.Config(t.TempDir())
	b4 := Base{Base: unmeasured{}, Heuristic: ida.Manhattan{}}
	cfg4.Base = b4.Base
	est, err = EstimateRun(context.Background(), cfg4, b4, 0, never)
	require.NoError(t, err)
	assert.False(t, est.Known, "no measured levels, none sampled")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var notes []string
	_, err = EstimateRun(ctx, cfg4, b4, 50, func(s string) { notes = append(notes, s) })
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"no measured levels of unmeasured: solving 50 random boards for the estimate"}, notes)
}

// unmeasured is a base of no measured levels (0 everywhere).
type unmeasured struct{}

func (unmeasured) H(uint64) int    { return 0 }
func (unmeasured) ID() keyset.Base { return keyset.Base{Spec: "unmeasured", Digest: [32]byte{1}} }
func (unmeasured) Symmetric() bool { return true }

// hidePrefetch offers its base's tracker without the tracker's prefetch.
type hidePrefetch struct{ ida.TrackerMaker }

type plainTracker struct{ ida.Tracker }

func (h hidePrefetch) NewTracker(rows, cols int) (ida.Tracker, error) {
	tr, err := h.TrackerMaker.NewTracker(rows, cols)
	return plainTracker{tr}, err
}

// The residual and both-levels heuristics ask a prefetching base (a
// pattern database's tracker) for their children's entries before the
// children are pushed; that changes where the misses fall, not one node:
// the same nodes expanded and generated as without it, on every 2x4 board.
func TestResidualBasePrefetchKeepsNodes(t *testing.T) {
	const rows, cols, maxGap = 2, 4, 4
	dir := blankDir(t, "1-4/5-7", rows, cols)
	b, err := New(Options{Rows: rows, Cols: cols, PDBDir: dir}).Base("pdbb:1-4/5-7")
	require.NoError(t, err)
	res, gaps := residualDBs(t, b, rows, cols, maxGap, []int{5})
	r := New(Options{Rows: rows, Cols: cols, GapDBs: append(res, gaps...), PDBDir: dir})
	h, err := r.Resolve(fmt.Sprintf("res%d:5", maxGap))
	require.NoError(t, err)
	withPF, ok := h.(gapdb.Residual)
	require.True(t, ok, "%T", h)
	withoutPF := withPF
	withoutPF.Base = hidePrefetch{withPF.Base}
	ev, err := withPF.NewEvaluator(rows, cols)
	require.NoError(t, err)
	_, prefetches := ev.(ida.Prefetcher)
	require.True(t, prefetches, "the residual heuristic over a pattern database prefetches its entries")
	ev, err = withoutPF.NewEvaluator(rows, cols)
	require.NoError(t, err)
	_, prefetches = ev.(ida.Prefetcher)
	require.False(t, prefetches)
	n := 0
	for k := range encode.Distances(rows, cols) {
		bd, err := encode.FromKey(k, rows, cols)
		require.NoError(t, err)
		a, err := ida.Solve(bd, withPF, ida.Options{})
		require.NoError(t, err)
		c, err := ida.Solve(bd, withoutPF, ida.Options{})
		require.NoError(t, err)
		require.Equal(t, c.Length, a.Length, "%s", bd)
		require.Equal(t, c.Expanded, a.Expanded, "%s", bd)
		require.Equal(t, c.Generated, a.Generated, "%s", bd)
		n++
	}
	assert.Equal(t, 20160, n, "every 2x4 board")
}

// Walking distance changes by exactly one on every move of every 3x3 and
// 2x4 board (the reason pdb.UnitStep accepts it as a base:
// docs/proofs.md#residual-sets), is 0 at the goal only, and as a base
// gives the same value as the search's heuristic.
func TestWalkingDistanceUnitStep(t *testing.T) {
	for _, sz := range [][2]int{{3, 3}, {2, 4}} {
		rows, cols := sz[0], sz[1]
		b, err := New(Options{Rows: rows, Cols: cols}).Base("wd")
		require.NoError(t, err)
		assert.Equal(t, rows == cols, b.Symmetric())
		ev, err := ida.WalkingDistance{}.NewEvaluator(rows, cols)
		require.NoError(t, err)
		moves, boards := 0, 0
		for k := range encode.Distances(rows, cols) {
			boards++
			bd, err := encode.FromKey(k, rows, cols)
			require.NoError(t, err)
			h := b.H(k)
			if bd.IsGoal() {
				require.Zero(t, h)
			} else {
				require.Positive(t, h, "%s", bd)
			}
			p := position(bd)
			require.Equal(t, ev.Root(&p), h, "%s", bd)
			kids, _ := bd.Successors()
			for _, c := range kids {
				d := b.H(c.Key()) - h
				require.True(t, d == 1 || d == -1, "%s to %s: wd changes by %d", bd, c, d)
				moves++
			}
		}
		assert.Greater(t, moves, 2*boards, "every board's moves")
		assert.Equal(t, map[[2]int]int{{3, 3}: 181440, {2, 4}: 20160}[sz], boards, "every board")
	}
}
