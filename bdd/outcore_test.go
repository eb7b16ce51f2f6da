package bdd

import (
	"bytes"
	"cmp"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The out-of-core build writes the same file as the in-memory one (same
// bytes: the format is canonical), whether each level fits one table or
// is reduced in parts, BDD and ZDD count alike, on the 3x3 gap sets and
// the 4x4 projections, in the cells and ranks encodings, with no bottom
// pass, a small one and the one the density chooses (budgets that force
// fewer levels in it); it leaves no scratch behind. (rudd's cross-check of
// the out-of-core build: TestOutOfCoreAgreesWithRudd, short enough for the
// race detector.) The ball's 8-cell projection, half the test's time, runs
// with GAPSET_SLOW=1; by default the 4x4 board is the whole ball's (ranks),
// and TestBottomPassNarrows builds the 8-cell projection out of core in
// both encodings.
func TestOutOfCoreEqualsInMemory(t *testing.T) {
	g0, g2 := sets3x3(t)
	ball := ball4x4(t)
	type tc struct {
		keys          []uint64
		rows, cols, k int
	}
	cases := []tc{{g0, 3, 3, 9}, {project(g2, 5), 3, 3, 5}, {project(ball, 16), 4, 4, 16}}
	if slowtest.On() {
		cases = append(cases, tc{project(ball, 8), 4, 4, 8})
	}
	dir := t.TempDir()
	for _, c := range cases {
		n := c.rows * c.cols
		h := keyset.Header{Rows: c.rows, Cols: c.cols, Cells: c.k, Gap: 2}
		path := filepath.Join(dir, h.Name()+".keys")
		require.NoError(t, keyset.WriteFile(path, h, c.keys))
		for _, enc := range []Encoding{Cells, Ranks} {
			if c.k == 16 && enc == Cells {
				continue // the slowest case: ranks only
			}
			o, err := NamedOrder("natural", c.rows, c.cols, c.k)
			require.NoError(t, err)
			kb := KeysBuild{Order: o, Encoding: enc, Count: uint64(len(c.keys)), ZDD: true}
			mem, err := BuildKeyFile(path, n, c.k, kb)
			require.NoError(t, err)
			want := encodedAs(t, mem.BDD, c.rows, c.cols, c.k)
			small := int64(2 << 10) // levels in parts
			if c.k == 16 {
				small = 12 << 10
			}
			density := bottomLevels(uint64(len(c.keys)), n, c.k, 0)
			// no bottom pass, a small one, the density's; budgets that fit
			// them and that force the fallback to fewer levels (and parts)
			for _, bottom := range []int{NoBottom, 2, 0} {
				for _, budget := range []int64{1 << 30, small} {
					msg := []any{"%s %v bottom %d budget %d", h.Name(), enc, bottom, budget}
					scratch := t.TempDir()
					got, err := BuildOutOfCore(path, n, c.k, kb, OutOfCore{Memory: budget, TempDir: scratch, Bottom: bottom})
					require.NoError(t, err, msg...)
					assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), msg...)
					assert.Equal(t, mem.ZDDNodes, got.ZDDNodes, msg...)
					assert.Equal(t, mem.BDD.LevelSizes(), got.BDD.LevelSizes(), msg...)
					assert.Equal(t, uint64(len(c.keys)), got.BDD.Count, msg...)
					assert.LessOrEqual(t, got.BDD.TableBytes, max(budget, 8<<10), msg...)
					wantBottom := map[int]int{NoBottom: 0, 2: 2, 0: density}[bottom]
					if budget == small {
						assert.Greater(t, slices.Max(got.BDD.Parts), 1, msg...)
						assert.LessOrEqual(t, got.BDD.Bottom, wantBottom, msg...)
						if bottom == 0 && c.k < 16 { // the 4x4 ball's deepest 16 levels fit 12 KiB
							assert.Less(t, got.BDD.Bottom, wantBottom, "the budget forces fewer levels: %v", msg)
						}
					}
					if budget == 1<<30 {
						assert.Equal(t, 1, slices.Max(got.BDD.Parts), msg...)
						assert.Equal(t, wantBottom, got.BDD.Bottom, msg...)
					}
					d := got.BDD.Diagram()
					require.NoError(t, got.BDD.Close())
					require.NoError(t, d.CheckCount(uint64(len(c.keys))), msg...)
					left, err := os.ReadDir(scratch)
					require.NoError(t, err)
					assert.Empty(t, left, msg...)
				}
			}
		}
	}
}

// rudd builds the out-of-core build's diagram with as many nodes, with the
// levels reduced in parts, on a 3x3 gap set and on random 4x4 keys. Every
// test that goes through rudd runs under -race in .ci/run: this one stays
// small.
func TestOutOfCoreAgreesWithRudd(t *testing.T) {
	_, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(21, 22))
	type tc struct {
		keys          []uint64
		rows, cols, k int
	}
	dir := t.TempDir()
	for _, c := range []tc{{project(g2, 5), 3, 3, 5}, {randomKeys(rng, 4, 4, 8, 3000), 4, 4, 8}} {
		h := keyset.Header{Rows: c.rows, Cols: c.cols, Cells: c.k, Gap: 2}
		path := filepath.Join(dir, h.Name()+".keys")
		require.NoError(t, keyset.WriteFile(path, h, c.keys))
		o, err := NamedOrder("natural", c.rows, c.cols, c.k)
		require.NoError(t, err)
		kb := KeysBuild{Order: o, Count: uint64(len(c.keys))}
		got, err := BuildOutOfCore(path, c.rows*c.cols, c.k, kb, OutOfCore{Memory: 2 << 10, TempDir: t.TempDir()})
		require.NoError(t, err, h.Name())
		assert.Greater(t, slices.Max(got.BDD.Parts), 1, "%s: levels in parts", h.Name())
		require.NoError(t, CheckRudd(path, o, got.BDD), h.Name())
		require.NoError(t, got.BDD.Close())
	}
}

// Bad input and budgets are refused with errors, and leave no scratch.
func TestOutOfCoreErrors(t *testing.T) {
	_, g2 := sets3x3(t)
	keys := project(g2, 5)
	path := filepath.Join(t.TempDir(), "Gap2_5.keys")
	require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 2}, keys))
	scratch := t.TempDir()
	oc := OutOfCore{Memory: 1 << 20, TempDir: scratch}
	_, err := BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "reverse", 5)}, oc)
	assert.ErrorContains(t, err, "natural order")
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5), Encoding: RanksReverse}, oc)
	assert.ErrorContains(t, err, "natural order")
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5), Count: uint64(len(keys)) + 1}, oc)
	assert.ErrorContains(t, err, "members from a file of")
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, OutOfCore{Memory: 16, TempDir: scratch})
	assert.ErrorIs(t, err, ErrBudget)
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, OutOfCore{TempDir: scratch})
	assert.ErrorIs(t, err, ErrBudget)
	_, err = BuildOutOfCore(filepath.Join(scratch, "none.keys"), 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, oc)
	assert.ErrorIs(t, err, os.ErrNotExist)
	// damage at the end of the key file is found (the checksum)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[len(b)-1] ^= 1
	require.NoError(t, os.WriteFile(path, b, 0o644))
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, oc)
	assert.ErrorIs(t, err, keyset.ErrFormat)
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, OutOfCore{Memory: 1 << 20, TempDir: filepath.Join(scratch, "absent")})
	assert.Error(t, err)
	left, err := os.ReadDir(scratch)
	require.NoError(t, err)
	assert.Empty(t, left)
}

// allPlacements is every pattern of k of the 3x3 board's cells (the last
// k, as projected keys), sorted.
func allPlacements(k int) []uint64 {
	tiles := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8}
	var out []uint64
	var place func(c int, key uint64)
	place = func(c int, key uint64) { // cell c of 9 gets one of the tiles left
		if c == 9 {
			out = append(out, key)
			return
		}
		for i := c; i < 9; i++ {
			tiles[c], tiles[i] = tiles[i], tiles[c]
			place(c+1, key|tiles[c]<<(4*(8-c)))
			tiles[c], tiles[i] = tiles[i], tiles[c]
		}
	}
	place(0, 0)
	return project(out, k)
}

// The bottom pass pairs each group's suffixes as the level passes pair a
// stream's: with any number of levels in it, groups of one key, full
// groups, missing groups and the real sets give the in-memory build's file
// and ZDD count, in both encodings.
func TestBottomPassPairsSuffixes(t *testing.T) {
	_, g2 := sets3x3(t)
	full := allPlacements(5) // every pattern: full groups, dense in ranks
	var fewOut, blockOut []uint64
	for i, key := range full {
		if i%997 != 5 {
			fewOut = append(fewOut, key) // all but a few
		}
		if i < 3000 || i >= 6000 {
			blockOut = append(blockOut, key) // whole groups missing
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	cases := []setCase{
		{"full", full, 3, 3, 5}, {"all but a few", fewOut, 3, 3, 5}, {"a block out", blockOut, 3, 3, 5},
		{"singletons", randomKeys(rng, 3, 3, 9, 300), 3, 3, 9}, {"Gap2_9", g2, 3, 3, 9},
		{"ball 8", project(ball4x4(t), 8), 4, 4, 8}, {"one key", g2[:1], 3, 3, 9},
	}
	for _, c := range cases {
		c.inMemory(t, func(path string, kb KeysBuild, mem Built, want []byte) {
			n, enc := c.rows*c.cols, kb.Encoding
			for _, b := range []int{1, 2, 3, 4, 5, 8, 11, 16} {
				msg := []any{"%s %v bottom %d", c.name, enc, b}
				got, err := BuildOutOfCore(path, n, c.k, kb, OutOfCore{Memory: 1 << 30, TempDir: t.TempDir(), Bottom: b})
				require.NoError(t, err, msg...)
				assert.Equal(t, min(b, 4*c.k), got.BDD.Bottom, msg...)
				assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), msg...)
				assert.Equal(t, mem.ZDDNodes, got.ZDDNodes, msg...)
				require.NoError(t, got.BDD.Close())
			}
		})
	}
}

// setCase is a set of keys of k of the cells of a board.
type setCase struct {
	name          string
	keys          []uint64
	rows, cols, k int
}

// inMemory writes c's key file and calls f, in the cells and the ranks
// encoding (natural order, ZDD counted), with the in-memory build of it
// and its file's bytes.
func (c setCase) inMemory(t *testing.T, f func(path string, kb KeysBuild, mem Built, want []byte)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "set.keys")
	require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: c.rows, Cols: c.cols, Cells: c.k, Gap: 2}, c.keys))
	o, err := NamedOrder("natural", c.rows, c.cols, c.k)
	require.NoError(t, err)
	for _, enc := range []Encoding{Cells, Ranks} {
		kb := KeysBuild{Order: o, Encoding: enc, Count: uint64(len(c.keys)), ZDD: true}
		mem, err := BuildKeyFile(path, c.rows*c.cols, c.k, kb)
		require.NoError(t, err)
		f(path, kb, mem, encodedAs(t, mem.BDD, c.rows, c.cols, c.k))
	}
}

// The density chooses more levels for sparser sets, 6 to 8 for dense
// ones, at most maxBottom; the first stream's expected entries fall with
// them, to about a 64th of the keys for dense sets.
func TestBottomLevelsFromDensity(t *testing.T) {
	// Gap8_10a (2.0e10 of 2.9e10 patterns), Gap6_10 (4.97e9), Gap2_10,
	// Gap2_8, the whole gap <= 4 set (1.14e10 of 16!)
	assert.Equal(t, 8, bottomLevels(20e9, 16, 10, 0))
	assert.Equal(t, 10, bottomLevels(4_974_483_135, 16, 10, 0))
	assert.Equal(t, 16, bottomLevels(256_541_479, 16, 10, 0))
	assert.Equal(t, 12, bottomLevels(32_844_091, 16, 8, 0))
	assert.Equal(t, 32, bottomLevels(11_412_543_925, 16, 16, 0), "whole boards: the last 8 cells")
	assert.Equal(t, 4, bottomLevels(3, 3, 1, 0), "all 3 patterns of one cell of three: every level")
	assert.Equal(t, 4, bottomLevels(1, 3, 1, 0), "one of them: every level too (4 bits)")
	assert.Equal(t, 0, bottomLevels(20e9, 16, 10, NoBottom))
	assert.Equal(t, 3, bottomLevels(20e9, 16, 10, 3))
	assert.Equal(t, 4, bottomLevels(9, 3, 1, 12), "at most the variables")
	// all patterns: the groups are full, one entry per group
	assert.InDelta(t, 16.0*15*14*13*12*11*10*9*8*7/(7*8), expectedPrefixes(uint64(placement.Size(16, 10)), 16, 10, 8), 1)
	e := expectedPrefixes(20e9, 16, 10, 8)
	assert.Less(t, e, 20e9/30)
	assert.Greater(t, e, 20e9/64)
	assert.InDelta(t, 1e6, expectedPrefixes(1e6, 16, 16, 0), 0.5, "no bottom: one entry a key")
	assert.Zero(t, expectedPrefixes(0, 16, 10, 8))
	// the scratch if the bottom levels fit, and if they do not (one entry a key)
	g6 := EstimateBuild(4_974_483_135, 16, 10, false, OutOfCore{Memory: 6 << 30})
	assert.Equal(t, 10, g6.Bottom)
	assert.Less(t, 5*g6.Disk, g6.DiskAll, "Gap6_10: the first stream many times smaller than the keys (the node file remains)")
	none := EstimateBuild(4_974_483_135, 16, 10, false, OutOfCore{Memory: 6 << 30, Bottom: NoBottom})
	assert.InEpsilon(t, none.DiskAll, none.Disk, 1e-6)
	assert.Equal(t, g6.DiskAll, none.DiskAll)
	assert.Contains(t, g6.String(), "if the deepest levels do not fit")
	// a dense set is guessed from the patterns it misses (its complement's
	// diagram is the same size): Gap8_10a holds 69% of the 10-cell patterns
	all := uint64(placement.Size(16, 10))
	g8 := EstimateBuild(19_961_409_238, 16, 10, false, OutOfCore{Memory: 6 << 30})
	assert.InEpsilon(t, float64(all-19_961_409_238)/4, float64(g8.Nodes), 1e-6)
	assert.Less(t, g8.Nodes, g6.Nodes*2, "not a quarter of its 2e10 keys")
	assert.Zero(t, EstimateBuild(all, 16, 10, false, OutOfCore{Memory: 6 << 30}).Nodes, "every pattern: the True terminal alone")
	assert.Equal(t, g6.Nodes, uint64(4_974_483_135/4), "a sparse set: a quarter of its keys")
}

// A bottom pass whose tables pass the budget part way goes on with fewer
// levels from where it stands (once or several times, in the BDD's and the
// ZDD's builds): the file, the ZDD count and the level sizes are the
// in-memory build's, on full, dense, clustered and sparse sets, in both
// encodings, at budgets from a few KiB up. The sparse set has 1,000 keys
// (3,000 with GAPSET_SLOW=1: three times the test's time, the same
// narrowings).
func TestBottomPassNarrows(t *testing.T) {
	sparse := 1000
	if slowtest.On() {
		sparse = 3000
	}
	_, g2 := sets3x3(t)
	full := allPlacements(5)
	rng := rand.New(rand.NewPCG(21, 22))
	// dense first, then sparse: the tables grow late, past the estimate
	var late []uint64
	for i, key := range full {
		if i < len(full)/2 || rng.IntN(3) == 0 {
			late = append(late, key)
		}
	}
	// the first group's suffixes in whole blocks of 4: levels L-1 and L-2
	// get their first nodes after the levels above them, so that dropping
	// those renumbers the chunks kept
	var blocks []uint64
	for _, key := range full {
		if key>>16 != full[0]>>16 {
			if rng.IntN(3) > 0 {
				blocks = append(blocks, key)
			}
			continue
		}
		lo, whole := key&15&^3, true
		for c := 1; c < 5; c++ {
			whole = whole && (key>>(4*c)&15 < lo || key>>(4*c)&15 > lo+3)
		}
		if whole && lo+3 < 9 {
			blocks = append(blocks, key)
		}
	}
	cases := []setCase{
		{"full", full, 3, 3, 5}, {"late", late, 3, 3, 5}, {"blocks first", blocks, 3, 3, 5}, {"Gap2_9", g2, 3, 3, 9},
		{"ball 8", project(ball4x4(t), 8), 4, 4, 8}, {"sparse", randomKeys(rng, 4, 4, 16, sparse), 4, 4, 16},
	}
	var midway, twice, zddNarrowed int
	for _, c := range cases {
		c.inMemory(t, func(path string, kb KeysBuild, mem Built, want []byte) {
			n, enc, o := c.rows*c.cols, kb.Encoding, kb.Order
			for _, budget := range []int64{6 << 10, 12 << 10, 24 << 10, 48 << 10} {
				msg := []any{"%s %v budget %d", c.name, enc, budget}
				narrowed := 0
				kb.Progress = func(stage string, done, total uint64) {
					if strings.Contains(stage, "passed the budget") && strings.Contains(stage, "going on with") {
						narrowed++
						if done > 0 && done < total {
							midway++
						}
					}
				}
				got, err := BuildOutOfCore(path, n, c.k, kb, OutOfCore{Memory: budget, TempDir: t.TempDir(), Bottom: 16})
				require.NoError(t, err, msg...)
				assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), msg...)
				assert.Equal(t, mem.ZDDNodes, got.ZDDNodes, msg...)
				assert.Equal(t, mem.BDD.LevelSizes(), got.BDD.LevelSizes(), msg...)
				// the ZDD from 16 levels too (the count's build starts
				// from the BDD's)
				before := narrowed
				open := func() (source, error) {
					r, err := keyset.Open(path)
					return &keySource{r: r, enc: enc, n: n, k: c.k, mask: maskOf(o.Vars())}, err
				}
				z, err := buildLevels(open, kb.Count, o, true, 16, OutOfCore{Memory: budget, TempDir: t.TempDir()}, kb.Progress, nil)
				require.NoError(t, err, msg...)
				assert.Equal(t, mem.ZDDNodes, uint64(z.NodeCount()), msg...)
				if narrowed > before {
					zddNarrowed++
				}
				require.NoError(t, z.Close())
				if narrowed > 0 {
					assert.Less(t, got.BDD.Bottom, min(16, 4*c.k), msg...)
				}
				if narrowed > 2 { // the BDD's and the ZDD's, at least one twice
					twice++
				}
				require.NoError(t, got.BDD.Close())
			}
		})
	}
	t.Logf("%d narrowings part way, %d builds narrowing more than twice", midway, twice)
	assert.Greater(t, midway, 20, "passes narrowed part way")
	assert.Positive(t, twice, "a pass narrowed more than once")
	assert.Greater(t, zddNarrowed, 10, "ZDD passes narrowed")
}

// chains makes a group's node top-down with remembered single suffixes;
// the level-by-level pairing it replaced (sibling suffixes paired, one
// level at a time) is the oracle: on random groups of random widths, BDD
// and ZDD, both asked in turn of one table, every group gets the same
// node, so both made the same nodes.
func TestChainsEqualPairing(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 37))
	pairing := func(tb *table, L, top int, g []suffix) uint32 {
		grp := slices.Clone(g)
		for l := L - 1; l >= top; l-- {
			n := 0
			for i := 0; i < len(grp); i++ {
				e := grp[i]
				lo, hi := e.id, False
				if e.s&1 == 1 {
					lo, hi = False, e.id
				} else if i+1 < len(grp) && grp[i+1].s == e.s|1 {
					hi = grp[i+1].id
					i++
				}
				grp[n] = suffix{e.s >> 1, tb.mk(l, lo, hi)}
				n++
			}
			grp = grp[:n]
		}
		return grp[0].id
	}
	for _, zdd := range []bool{false, true} {
		for _, b := range []int{1, 5, 12, 32} {
			L := b + 3
			tb := newTable(zdd, L)
			ch := newChains(L)
			for range 300 {
				size := 1 + rng.IntN(40)
				seen := map[uint32]bool{}
				var g []suffix
				for range size {
					s := rng.Uint32()
					if rng.IntN(3) == 0 && len(g) > 0 { // near another: shared upper bits
						s = g[0].s ^ uint32(rng.IntN(4))
					}
					s &= uint32(uint64(1)<<uint(b) - 1)
					if !seen[s] {
						seen[s] = true
						g = append(g, suffix{s, True})
					}
				}
				slices.SortFunc(g, func(x, y suffix) int { return cmp.Compare(x.s, y.s) })
				want := pairing(tb, L, L-b, g)
				require.Equal(t, want, ch.set(tb, L-b, g), "zdd %v b %d", zdd, b)
				require.NoError(t, tb.err)
			}
			assert.NotEmpty(t, ch.memo)
		}
	}
}
