package heuristic

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What a resolved gap heuristic does when it searches: its lengths (the
// BFS optimum), its nodes beside other heuristics', its name and counters,
// on 3x3 boards.

// boards3x3 are one of the two hardest 3x3 boards (31 moves), a board two
// moves from the goal, and one between.
func boards3x3(t *testing.T) []encode.Board {
	var bs []encode.Board
	for _, s := range []string{"8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 0 7 8", "8 1 3 4 0 2 7 6 5"} {
		b, err := encode.Parse(s, 3, 3)
		require.NoError(t, err)
		bs = append(bs, b)
	}
	return bs
}

// bfs3x3 is every 3x3 board's distance to the goal, computed once.
var bfs3x3 = sync.OnceValue(func() map[uint64]int { return encode.Distances(3, 3) })

// solveAll solves the boards with spec from r, checks each length against
// breadth-first search, and returns the results.
func solveAll(t *testing.T, r *Resolver, spec string, opt ida.Options) []ida.Result {
	t.Helper()
	truth := bfs3x3()
	h, err := r.Resolve(spec)
	require.NoError(t, err, spec)
	var out []ida.Result
	for _, b := range boards3x3(t) {
		res, err := ida.Solve(b, h, opt)
		require.NoError(t, err, "%s on %s", spec, b)
		require.Equal(t, truth[b.Key()], res.Length, "%s on %s", spec, b)
		out = append(out, res)
	}
	return out
}

func nodes(rs []ida.Result) int64 {
	var n int64
	for _, r := range rs {
		n += r.Expanded
	}
	return n
}

// h_G:4 ... h_G:8 from sets enumerated in memory find the optimum with no
// more nodes than h_G:2, and fewer with all the levels; a level that was
// not enumerated is named.
func TestGapLevelsUpTo8(t *testing.T) {
	r := New(Options{Rows: 3, Cols: 3, Cells: []int{9, 7}, MaxGap: 8})
	n := map[string]int64{}
	for _, spec := range []string{"md", "gap2:9", "gap4:9", "gap6:9", "gap8:9", "gap8:7"} {
		rs := solveAll(t, r, spec, ida.Options{})
		n[spec] = nodes(rs)
		if spec == "gap8:7" {
			assert.Equal(t, "gap8(Gap0_7+Gap2_7+Gap4_7+Gap6_7+Gap8_7)", rs[0].Heuristic)
		}
	}
	assert.LessOrEqual(t, n["gap2:9"], n["md"])
	assert.LessOrEqual(t, n["gap4:9"], n["gap2:9"])
	assert.LessOrEqual(t, n["gap6:9"], n["gap4:9"])
	assert.LessOrEqual(t, n["gap8:9"], n["gap6:9"])
	assert.Less(t, n["gap8:9"], n["gap2:9"])
	_, err := New(Options{Rows: 3, Cols: 3, Cells: []int{9}, MaxGap: 4}).Resolve("gap8")
	assert.ErrorContains(t, err, "no Gap6 set")
}

// gapGr asks every level about the transposed board too: the optimum, no
// more nodes; refused on a board that is not square.
func TestTransposedGapLevels(t *testing.T) {
	r := New(Options{Rows: 3, Cols: 3, Cells: []int{6}, MaxGap: 8})
	plain, transposed := solveAll(t, r, "gap8:6", ida.Options{}), solveAll(t, r, "gap8r:6", ida.Options{})
	assert.LessOrEqual(t, nodes(transposed), nodes(plain))
	_, err := New(Options{Rows: 3, Cols: 4, Cells: []int{6}}).Resolve("gap0r")
	assert.ErrorContains(t, err, "square")
}

// The name says which sets a heuristic reads and how; the counters say
// what it asked them.
func TestGapNamesAndCounters(t *testing.T) {
	for _, c := range []struct {
		spec string
		opt  Options
		name string
	}{
		{"gap0", Options{Cells: []int{9}}, "gap0(Gap0)"},
		{"gap0:4", Options{Cells: []int{4, 9}, NoSkip: true}, "gap0(Gap0_4)-noskip"},
		{"gap2:5", Options{Cells: []int{5, 9}, MaxGap: 2}, "gap2(Gap0_5+Gap2_5)"},
		{"gap2:9/4", Options{Cells: []int{4, 9}, MaxGap: 2}, "gap2(Gap0[Gap0_4]+Gap2[Gap2_4])"},
	} {
		c.opt.Rows, c.opt.Cols = 3, 3
		for _, res := range solveAll(t, New(c.opt), c.spec, ida.Options{}) {
			assert.Equal(t, c.name, res.Heuristic)
			assert.Positive(t, res.Counters["queries"], c.spec)
			if c.opt.NoSkip {
				assert.Zero(t, res.Counters["skipped"], c.spec)
			}
			if c.spec == "gap2:9/4" {
				assert.Contains(t, res.Counters, "filtered")
			}
		}
	}
}

// Key-set files feed the same heuristic; gap2 takes a Gap0 and a Gap2
// file, and a set of another board is refused.
func TestKeyFilesFeedGapLevels(t *testing.T) {
	dir := t.TempDir()
	// every 3x3 board as the Gap0 and the Gap2 superset: admissible (the
	// bound is Manhattan distance everywhere), and it adds nothing
	var all []uint64
	for k := range bfs3x3() {
		all = append(all, k)
	}
	slices.Sort(all)
	var files []string
	for _, gap := range []int{0, 2} {
		p := filepath.Join(dir, "g"+string(rune('0'+gap))+".keys")
		require.NoError(t, keyset.WriteFile(p, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: gap, Count: uint64(len(all))}, all))
		files = append(files, p)
	}
	r := New(Options{Rows: 3, Cols: 3, Keys: files})
	rs := solveAll(t, r, "gap2", ida.Options{})
	assert.Equal(t, "gap2(Gap0+Gap2)", rs[0].Heuristic)
	md := solveAll(t, r, "md", ida.Options{})
	assert.Equal(t, nodes(md), nodes(rs), "sets holding every board add nothing to Manhattan distance")
	_, err := New(Options{Rows: 4, Cols: 4, Keys: files[:1]}).Resolve("gap0")
	assert.ErrorContains(t, err, "a 3x3 set")
}

// saveBDD builds the keys into a BDD file of the given order name and
// encoding.
func saveBDD(t *testing.T, keys []uint64, orderName string, cells int, enc bdd.Encoding) string {
	t.Helper()
	order, err := bdd.NamedOrder(orderName, 3, 3, cells)
	require.NoError(t, err)
	keys = slices.Clone(keys)
	enc.ConvertAll(keys, 9, cells)
	d, err := bdd.Build(keys, order, false)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "g0.bdd")
	_, err = bdd.Save(path, d, bdd.Meta{Rows: 3, Cols: 3, Cells: cells, Gap: 0, Encoding: enc})
	require.NoError(t, err)
	return path
}

// A BDD file feeds h_G as the exact set it was built from does: the same
// nodes, with or without dense tables of its projections in front (which
// then answer some queries "no").
func TestBDDFeedsGapLikeKeys(t *testing.T) {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{5}, nil)
	require.NoError(t, err)
	path := saveBDD(t, sets[5], "natural", 5, bdd.Cells)
	viaBDD := solveAll(t, New(Options{Rows: 3, Cols: 3, BDDs: []string{path}}), "gap0", ida.Options{})
	viaKeys := solveAll(t, New(Options{Rows: 3, Cols: 3, Cells: []int{5}}), "gap0", ida.Options{})
	viaDense := solveAll(t, New(Options{Rows: 3, Cols: 3, BDDs: []string{path}, Dense: []int{2, 3}, NameDense: true}), "gap0", ida.Options{})
	var denied int64
	for i := range viaKeys {
		assert.Equal(t, viaKeys[i].Expanded, viaBDD[i].Expanded)
		assert.Equal(t, viaKeys[i].Expanded, viaDense[i].Expanded)
		assert.Equal(t, viaKeys[i].Counters["queries"], viaDense[i].Counters["queries"])
		assert.Equal(t, "gap0(Gap0_5.bdd)", viaBDD[i].Heuristic)
		assert.Equal(t, "gap0(Gap0_5.bdd<2,3>)", viaDense[i].Heuristic)
		denied += viaDense[i].Counters["dense_no"]
	}
	assert.Positive(t, denied)
}

// Chosen dense tables are named in the label; a set that gets none says
// so ("--dense 0", or tables no smaller than the set) instead of "<>".
func TestDenseLabel(t *testing.T) {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{5}, nil)
	require.NoError(t, err)
	path := saveBDD(t, sets[5], "natural", 5, bdd.Cells)
	for _, c := range []struct {
		dense []int
		label string
	}{
		{[]int{2, 3}, "gap0(Gap0_5.bdd<2,3>)"},
		{[]int{0}, "gap0(Gap0_5.bdd<none>)"},
		{[]int{6}, "gap0(Gap0_5.bdd<none>)"},
		{[]int{0, 3}, "gap0(Gap0_5.bdd<3>)"},
	} {
		h, err := New(Options{Rows: 3, Cols: 3, BDDs: []string{path}, Dense: c.dense, NameDense: true}).Resolve("gap0")
		require.NoError(t, err, "%v", c.dense)
		assert.Equal(t, c.label, h.Name(), "%v", c.dense)
	}
}

// A BDD whose order interleaves cells (bit planes) cannot give dense
// tables; it is used without them.
func TestBDDWithoutDenseTables(t *testing.T) {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{9}, nil)
	require.NoError(t, err)
	path := saveBDD(t, sets[9], "planes", 9, bdd.Cells)
	for _, res := range solveAll(t, New(Options{Rows: 3, Cols: 3, BDDs: []string{path}}), "gap0", ida.Options{}) {
		assert.NotContains(t, res.Counters, "dense_no")
		assert.Positive(t, res.Counters["queries"])
	}
}

// A BDD in any encoding feeds h_G with the nodes of the cells encoding;
// ranks-reverse sets give dense tables too (projected back to cells),
// ranks and tiles sets are used without them, unless a filter set on fewer
// cells gives them.
func TestEncodedBDDsFeedGap(t *testing.T) {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{5, 9}, nil)
	require.NoError(t, err)
	filter := filepath.Join(t.TempDir(), "g0_5.keys")
	require.NoError(t, keyset.WriteFile(filter, keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 0}, sets[5]))
	var n []int64
	for _, enc := range []bdd.Encoding{bdd.Cells, bdd.Ranks, bdd.RanksReverse, bdd.Tiles} {
		path := saveBDD(t, sets[9], "natural", 9, enc)
		rs := solveAll(t, New(Options{Rows: 3, Cols: 3, BDDs: []string{path}}), "gap0", ida.Options{})
		for _, res := range rs {
			if enc == bdd.Cells || enc == bdd.RanksReverse {
				assert.Contains(t, res.Counters, "dense_no", "%v", enc)
			} else {
				assert.NotContains(t, res.Counters, "dense_no", "%v", enc)
			}
		}
		n = append(n, nodes(rs))
		rs = solveAll(t, New(Options{Rows: 3, Cols: 3, BDDs: []string{path}, Keys: []string{filter}, Dense: []int{2, 3}}), "gap0:9/5", ida.Options{})
		var denied int64
		for _, res := range rs {
			denied += res.Counters["dense_no"]
		}
		assert.Positive(t, denied, "%v with a filter: dense tables", enc)
		n = append(n, nodes(rs))
	}
	for _, x := range n[1:] {
		assert.Equal(t, n[0], x)
	}
}

// Levels from different sources make one h_G: Gap0 and Gap2 from key
// files, Gap4 from a BDD (ranks, as Gap6_10 is at full size) give the
// nodes of the levels enumerated in memory, and every length is optimal.
func TestBDDLevelBesideKeyLevels(t *testing.T) {
	const cells = 6
	dir := t.TempDir()
	var keys []string
	for _, g := range []int{0, 2} {
		sets, err := gapset.Sets(context.Background(), 3, 3, g, []int{cells}, nil)
		require.NoError(t, err)
		path := filepath.Join(dir, "g"+string(rune('0'+g))+".keys")
		require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 3, Cols: 3, Cells: cells, Gap: g}, sets[cells]))
		keys = append(keys, path)
	}
	sets, err := gapset.Sets(context.Background(), 3, 3, 4, []int{cells}, nil)
	require.NoError(t, err)
	order, err := bdd.NamedOrder("natural", 3, 3, cells)
	require.NoError(t, err)
	b, err := bdd.BuildKeys(slices.Clone(sets[cells]), 9, cells, bdd.KeysBuild{Order: order, Encoding: bdd.Ranks})
	require.NoError(t, err)
	g4 := filepath.Join(dir, "g4.bdd")
	_, err = b.Save(g4, keyset.Header{Rows: 3, Cols: 3, Cells: cells, Gap: 4}, bdd.Ranks)
	require.NoError(t, err)

	mixed := solveAll(t, New(Options{Rows: 3, Cols: 3, Keys: keys, BDDs: []string{g4}}), "gap4", ida.Options{})
	inMemory := solveAll(t, New(Options{Rows: 3, Cols: 3, Cells: []int{cells}, MaxGap: 4}), "gap4", ida.Options{})
	md := solveAll(t, New(Options{Rows: 3, Cols: 3}), "md", ida.Options{})
	for i := range mixed {
		assert.Equal(t, "gap4(Gap0_6+Gap2_6+Gap4_6.bdd)", mixed[i].Heuristic)
		assert.Equal(t, inMemory[i].Expanded, mixed[i].Expanded, "board %d", i)
	}
	assert.Less(t, nodes(mixed), nodes(md))
}

// Every admissible heuristic finds the same number of optimal solutions when
// the last iteration is finished.
func TestAllSolutionsAgree(t *testing.T) {
	r := New(Options{Rows: 3, Cols: 3, Cells: []int{9}, MaxGap: 2})
	all := ida.Options{AllSolutions: true}
	md, gap := solveAll(t, r, "md", all), solveAll(t, r, "gap2", all)
	for i := range md {
		assert.Equal(t, md[i].Solutions, gap[i].Solutions)
	}
	assert.Greater(t, md[0].Solutions, int64(1))
}

// Each table-free heuristic gives the Manhattan-only lengths on 4x4 boards.
func TestTableFreeHeuristicsSolve(t *testing.T) {
	r := New(Options{Rows: 4, Cols: 4})
	var boards []encode.Board
	for _, s := range []string{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12", "2 3 4 8 1 6 7 12 5 9 11 15 13 10 14 0"} {
		b, err := encode.Parse(s, 4, 4)
		require.NoError(t, err)
		boards = append(boards, b)
	}
	lengths := func(spec string) []int {
		h, err := r.Resolve(spec)
		require.NoError(t, err, spec)
		var ls []int
		for _, b := range boards {
			res, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err, spec)
			ls = append(ls, res.Length)
		}
		return ls
	}
	want := lengths("md")
	assert.Equal(t, []int{1, 9}, want[:2])
	for _, spec := range []string{"lc", "wd", "wd-noskip", "id", "wdid", "wdlc"} {
		assert.Equal(t, want, lengths(spec), spec)
	}
}
