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
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyFiles writes nested levels (level i: r <= 2i of base, or gap <= 2i
// for a zero base) on the last k cells as key-set files in dir.
func keyFiles(t testing.TB, dir string, rows, cols, k int, base keyset.Base, levels [][]uint64) []string {
	t.Helper()
	var paths []string
	for i, keys := range levels {
		h := keyset.Header{Rows: rows, Cols: cols, Cells: k, Gap: 2 * i, Base: base}
		p := filepath.Join(dir, h.Name()+".keys")
		require.NoError(t, keyset.WriteFile(p, h, keys))
		paths = append(paths, p)
	}
	return paths
}

// buildDB builds the database of key-set files with a filter of f cells.
func buildDB(t testing.TB, dir, name string, paths []string, f int) string {
	t.Helper()
	b, err := gapdb.FromKeyFiles(context.Background(), paths, f, nil)
	require.NoError(t, err)
	out := filepath.Join(dir, name)
	require.NoError(t, b.Write(context.Background(), out))
	return out
}

// sepAndBoth enumerates the residual levels of b to r <= resGap and the
// gap levels to gap <= gapGap on the last k cells, and writes the residual
// database, the gap database and the database of both from the same
// files, each with a filter of f cells.
func sepAndBoth(t testing.TB, b Base, rows, cols, k, resGap, gapGap, f int) (res, gap, both string) {
	t.Helper()
	rs, err := gapset.ResidualLevelSets(context.Background(), b.Base, rows, cols, resGap, []int{k}, nil)
	require.NoError(t, err)
	gs, err := gapset.LevelSets(context.Background(), rows, cols, gapGap, []int{k}, nil)
	require.NoError(t, err)
	dir := t.TempDir()
	rp := keyFiles(t, dir, rows, cols, k, b.ID(), rs[k])
	gp := keyFiles(t, dir, rows, cols, k, keyset.Base{}, gs[k])
	return buildDB(t, dir, "res.gapdb", rp, f), buildDB(t, dir, "gap.gapdb", gp, f), buildDB(t, dir, "both.gapdb", append(gp, rp...), f)
}

// moveTo plays the move of the tile on cell c into the blank on p, as the
// solver does before Push (MD and depth updated); it returns the tile and
// the blank's old cell.
func moveTo(p *ida.Position, geo *encode.Geometry, c int) (uint8, int) {
	t, bl := p.Tiles[c], p.Blank
	p.MD += int(geo.Delta[t][c][bl])
	p.Tiles[bl], p.Tiles[c], p.Blank = t, 0, c
	p.Depth++
	return t, bl
}

// On every board of 3x3 (the blank-aware 4-4 databases, and their max
// with the transpose's value, asked about the transpose too) and 2x4, the
// database of both levels gives the bound of max(res, gap) over the two
// databases of the same level files, at the root of every board; it is
// admissible; every child's Push answers the cut as the exact bound does
// for every need (above need exactly when the bound is, never above the
// bound); and IDA* with it expands the nodes of max(res, gap) and finds the
// BFS length (every board of 2x4 and of 3x3 with pdbb:4-4, every 5th with
// pdbbr:4-4: GAPSET_SLOW=1 for all).
func TestBothEqualsMaxOfSeparateEveryBoard(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		partition  string
		spec       string
		transpose  bool
		k, f       int
		solveEvery int // solve every board (1) or every n-th (all with GAPSET_SLOW=1)
	}{
		{3, 3, "4-4", "pdbb:4-4", false, 6, 3, 1},
		{3, 3, "4-4", "pdbbr:4-4", true, 6, 3, 5},
		{2, 4, "1-4/5-7", "pdbb:1-4/5-7", false, 5, 2, 1},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			dir := blankDir(t, tc.partition, tc.rows, tc.cols)
			b, err := New(Options{Rows: tc.rows, Cols: tc.cols, PDBDir: dir}).Base(tc.spec)
			require.NoError(t, err)
			const resGap, gapGap = 2, 4 // other caps on each side
			res, gap, both := sepAndBoth(t, b, tc.rows, tc.cols, tc.k, resGap, gapGap, tc.f)
			r := New(Options{Rows: tc.rows, Cols: tc.cols, GapDBs: []string{res, gap, both}, PDBDir: dir})
			tr := map[bool]string{true: "r"}[tc.transpose]
			sep, err := r.Resolve(fmt.Sprintf("max(res%d%s:%d,gap%d%s:%d)", resGap, tr, tc.k, gapGap, tr, tc.k))
			require.NoError(t, err)
			one, err := r.Resolve(fmt.Sprintf("both%s:%d", tr, tc.k))
			require.NoError(t, err)
			assert.Contains(t, one.Name(), "BothDB4+2_")
			exact := New(Options{Rows: tc.rows, Cols: tc.cols, GapDBs: []string{both}, PDBDir: dir, NoSkip: true})
			ex, err := exact.Resolve("both" + tr)
			require.NoError(t, err)

			geo, err := encode.NewGeometry(tc.rows, tc.cols)
			require.NoError(t, err)
			evs := map[string]ida.Evaluator{}
			for name, h := range map[string]ida.Heuristic{"sep": sep, "one": one, "exact": ex, "push": one} {
				evs[name], err = h.NewEvaluator(tc.rows, tc.cols)
				require.NoError(t, err)
			}
			slow := slowtest.On()
			i, raised, pushes := 0, 0, 0
			for key, d := range encode.Distances(tc.rows, tc.cols) {
				bd, err := encode.FromKey(key, tc.rows, tc.cols)
				require.NoError(t, err)
				p := position(bd)
				v := evs["sep"].Root(&p)
				require.Equal(t, v, evs["one"].Root(&p), "%s: both levels in one entry against max(res, gap) of two", bd)
				require.Equal(t, v, evs["exact"].Root(&p))
				require.LessOrEqual(t, v, d, "%s: not admissible", bd)
				if v > max(p.MD, b.H(key)) {
					raised++
				}
				i++
				if i%11 == 0 { // every child's Push for every need that matters
					pe, xe := evs["push"], evs["exact"]
					pe.Root(&p)
					for _, c := range encode.Neighbors(tc.rows, tc.cols, p.Blank) {
						q := p
						tile, bl := moveTo(&q, geo, c)
						x := xe.Push(&q, tile, c, bl, 1<<20)
						xe.Pop(&p, tile, c, bl)
						for need := 0; need <= x+2; need++ {
							q := p
							moveTo(&q, geo, c)
							got := pe.Push(&q, tile, c, bl, need)
							pe.Pop(&p, tile, c, bl)
							require.Equal(t, x > need, got > need, "%s, tile %d moved, need %d: exact %d, pushed %d", bd, tile, need, x, got)
							require.LessOrEqual(t, got, x, "%s, tile %d moved, need %d", bd, tile, need)
							pushes++
						}
					}
				}
				if i%tc.solveEvery == 0 || slow {
					s1, err := ida.Solve(bd, sep, ida.Options{})
					require.NoError(t, err)
					s2, err := ida.Solve(bd, one, ida.Options{})
					require.NoError(t, err)
					require.Equal(t, d, s2.Length, "%s", bd)
					require.Equal(t, s1.Expanded, s2.Expanded, "%s: nodes", bd)
					require.Equal(t, s1.Generated, s2.Generated, "%s: nodes generated", bd)
				}
			}
			assert.Positive(t, raised, "the levels raise some bounds above max(md, h)")
			assert.Positive(t, pushes)
		})
	}
}

// The database of both levels is refused with another base's tables (a
// database recording the same spec with another digest: "other tables"),
// and bothr with an asymmetric base; max(res, gap) and gap alone do not
// read it.
func TestBothRefusals(t *testing.T) {
	dir := blankDir(t, "1-4/5-7", 2, 4)
	b, err := New(Options{Rows: 2, Cols: 4, PDBDir: dir}).Base("pdbb:1-4/5-7")
	require.NoError(t, err)
	rs, err := gapset.ResidualLevelSets(context.Background(), b.Base, 2, 4, 2, []int{5}, nil)
	require.NoError(t, err)
	gs, err := gapset.LevelSets(context.Background(), 2, 4, 2, []int{5}, nil)
	require.NoError(t, err)
	kd := t.TempDir()
	forged := b.ID()
	forged.Digest[0] ^= 1
	wrong := buildDB(t, kd, "wrong.gapdb", append(keyFiles(t, kd, 2, 4, 5, keyset.Base{}, gs[5]), keyFiles(t, t.TempDir(), 2, 4, 5, forged, rs[5])...), 0)
	_, err = New(Options{Rows: 2, Cols: 4, GapDBs: []string{wrong}, PDBDir: dir}).Resolve("both:5")
	assert.ErrorContains(t, err, "other tables")

	_, _, both := sepAndBoth(t, b, 2, 4, 5, 2, 2, 0)
	r := New(Options{Rows: 2, Cols: 4, GapDBs: []string{both}, PDBDir: dir})
	_, err = r.Resolve("gap2:5")
	assert.ErrorContains(t, err, "1 of both levels, which both reads")
	_, err = r.Resolve("res2:5")
	assert.ErrorContains(t, err, "no residual database")
	_, err = r.Resolve("both:6")
	assert.ErrorContains(t, err, "no database of both levels on 6 cells")
	_, err = r.Resolve("bothr:5")
	assert.ErrorContains(t, err, "square board")
	h, err := r.Resolve("both:5")
	require.NoError(t, err)
	assert.Equal(t, "both(pdbb:1-4/5-7+BothDB2+2_5)", h.Name())
}

// The 3x4 sample of the residual tests (R<=0 and Gap<=2 on the last 8
// cells, relative to pdbb:1-6/7-11): the database of both levels gives
// max(res0:8,gap2:8)'s root bound, nodes and lengths on random boards, the
// base's optimal lengths.
func TestBoth3x4Sample(t *testing.T) {
	dir := blankDir(t, "1-6/7-11", 3, 4)
	b, err := New(Options{Rows: 3, Cols: 4, PDBDir: dir}).Base(base3x4)
	require.NoError(t, err)
	res, gap, both := sepAndBoth(t, b, 3, 4, 8, 0, 2, -1)
	r := New(Options{Rows: 3, Cols: 4, GapDBs: []string{res, gap, both}, PDBDir: dir})
	sep, err := r.Resolve("max(res0:8,gap2:8)")
	require.NoError(t, err)
	one, err := r.Resolve("both:8")
	require.NoError(t, err)
	raised := 0
	for _, inst := range encode.RandomInstances(52, 25, 3, 4) {
		bd := inst.Board
		truth, err := ida.Solve(bd, b.Heuristic, ida.Options{})
		require.NoError(t, err)
		s1, err := ida.Solve(bd, sep, ida.Options{})
		require.NoError(t, err)
		s2, err := ida.Solve(bd, one, ida.Options{})
		require.NoError(t, err)
		require.Equal(t, truth.Length, s2.Length, "%s", bd)
		require.Equal(t, s1.RootBound, s2.RootBound, "%s", bd)
		require.Equal(t, s1.Expanded, s2.Expanded, "%s", bd)
		if s2.RootBound > truth.RootBound {
			raised++
		}
	}
	assert.Positive(t, raised, "the levels raise some root bounds")
}
