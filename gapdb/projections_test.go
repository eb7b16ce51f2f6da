package gapdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rootBound is the evaluator's exact bound of one board.
func rootBound(ev ida.Evaluator, b encode.Board) int {
	p := ida.Position{Rows: b.Rows, Cols: b.Cols, Blank: b.Blank(), MD: b.Manhattan()}
	copy(p.Tiles[:], b.Tiles)
	return ev.Root(&p)
}

// Several projections (any cells), each with its transpose on the square
// board: on every board of 3x3 and 2x4 the bound is at most the BFS
// distance and at least each projection's own, the largest is reached, and
// searches find the optimal lengths.
func TestProjectionsAdmissible(t *testing.T) {
	for _, c := range []struct {
		tr    *truth
		cells [][]int
	}{
		{truth3x3(), [][]int{{0, 1, 3, 4}, {2, 5, 8}, {4, 5, 7, 8}, {1, 3, 5, 7}}},
		{truth2x4(), [][]int{{0, 1, 4, 5}, {2, 3, 6, 7}, {1, 2, 5, 6, 7}}},
	} {
		tr := c.tr
		var dbs []*DB
		for _, cells := range c.cells {
			dbs = append(dbs, build(t, tr.rows, tr.cols, cells, tr.levels))
		}
		transpose := tr.rows == tr.cols
		all := Heuristic{DBs: dbs, Levels: len(tr.levels), Transpose: transpose}
		evAll, err := all.NewEvaluator(tr.rows, tr.cols)
		require.NoError(t, err)
		var evs []ida.Evaluator
		for _, d := range dbs {
			ev, err := Heuristic{DBs: []*DB{d}, Levels: len(tr.levels), Transpose: transpose}.NewEvaluator(tr.rows, tr.cols)
			require.NoError(t, err)
			evs = append(evs, ev)
		}
		raised := 0
		for key, dist := range tr.dist {
			b, err := encode.FromKey(key, tr.rows, tr.cols)
			require.NoError(t, err)
			h := rootBound(evAll, b)
			require.LessOrEqual(t, h, dist, "%s", b)
			best := 0
			for _, ev := range evs {
				best = max(best, rootBound(ev, b))
			}
			require.Equal(t, best, h, "%s", b)
			if h > b.Manhattan() {
				raised++
			}
		}
		assert.Greater(t, raised, len(tr.dist)/10)
		for _, b := range boards(t, tr, 40, 7) {
			r := solve(t, b, all)
			assert.Equal(t, tr.dist[b.Key()], r.Length, "%s", b)
		}
	}
}

// Whole boards (all cells): the entry is the board's gap level itself.
func TestWholeBoardIsExact(t *testing.T) {
	tr := truth3x3()
	d := build(t, 3, 3, lastCells(9, 9), tr.levels)
	geo, err := encode.NewGeometry(3, 3)
	require.NoError(t, err)
	var counts [16]uint64
	for key, dist := range tr.dist {
		gap := dist - geo.Manhattan(key)
		assert.Equal(t, min(gap/2, 3), d.Value(key))
		counts[min(gap/2, 3)]++
	}
	// the counts cover the unreachable half of the placements too (above)
	counts[3] += d.Entries - uint64(len(tr.dist))
	assert.Equal(t, counts, d.Counts)
}

// levelFiles writes the levels of tr projected onto the last 6 cells as
// key-set files in dir, gap 0 first.
func levelFiles(t *testing.T, tr *truth, dir string) []string {
	var paths []string
	for i, l := range tr.levels {
		p := filepath.Join(dir, keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 2 * i}.Name()+".keys")
		proj := make(map[uint64]bool)
		for _, k := range l {
			proj[encode.Project(k, 6)] = true
		}
		var keys []uint64
		for k := range proj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		require.NoError(t, keyset.WriteFile(p, keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 2 * i}, keys))
		paths = append(paths, p)
	}
	return paths
}

// A plan says what its build takes before it reads a key: the memory is
// the built table and filter, the file the file written; Fits refuses
// (ErrTooBig, a limit) what the memory or the disk given cannot hold, and
// unknown figures (0, negative) refuse nothing.
func TestPlanFits(t *testing.T) {
	dir := t.TempDir()
	plan, err := PlanKeyFiles(levelFiles(t, truth3x3(), dir), 0)
	require.NoError(t, err)
	assert.Regexp(t, `^GapDB4_6: 60480 patterns at 2 bits; [0-9]+ keys to read; 0\.0 GiB of memory, a 0\.0 GiB file; about 0s$`, plan.Estimate())
	b, err := plan.Build(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(len(b.Table())+len(b.Filter())), plan.Memory())
	out := filepath.Join(dir, "g.gapdb")
	require.NoError(t, b.Write(context.Background(), out))
	st, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, uint64(st.Size()), plan.FileBytes())
	h, err := ReadHeader(out)
	require.NoError(t, err)
	assert.Regexp(t, `^GapDB4_6 levels=3 bits=2 entries=60480 filter_cells=0 bytes=[0-9]+ digest=[0-9a-f]{8} build=1\.5s -> `+regexp.QuoteMeta(out)+`$`, h.Built(out, 1500*time.Millisecond))

	var told Header
	built, err := plan.BuildFile(context.Background(), filepath.Join(dir, "f.gapdb"), nil, func(h Header) { told = h })
	require.NoError(t, err)
	assert.Equal(t, h.Name(), told.Name(), "told the header before writing")
	assert.Equal(t, h.Digest(), built.Digest(), "the same database as Build and Write")
	_, err = PlanKeyFiles([]string{filepath.Join(dir, "none.keys")}, 0)
	assert.Error(t, err)
	wrong := *plan
	wrong.paths = []string{filepath.Join(dir, "none.keys")}
	_, err = wrong.BuildFile(context.Background(), filepath.Join(dir, "g2.gapdb"), nil, nil)
	assert.ErrorIs(t, err, ErrInput, "a file gone since the plan: bad input")
	assert.NoFileExists(t, filepath.Join(dir, "g2.gapdb"))

	assert.NoError(t, plan.Fits(plan.Memory(), int64(plan.FileBytes()), dir))
	assert.NoError(t, plan.Fits(0, -1, dir))
	assert.NoError(t, plan.FitsMachine(out), "a small table fits this machine")
	err = plan.Fits(plan.Memory()-1, -1, dir)
	assert.ErrorIs(t, err, ErrTooBig)
	assert.Equal(t, "GapDB4_6: the table takes 0.0 GiB of memory, 0.0 GiB are available", err.Error())
	err = plan.Fits(0, int64(plan.FileBytes())-1, dir)
	assert.ErrorIs(t, err, ErrTooBig)
	assert.Equal(t, "GapDB4_6: the file takes 0.0 GiB, "+dir+" has 0.0 GiB free", err.Error())
}

// Key-set files in any order give the database the builder gives; wrong
// sets of files are refused.
func TestFromKeyFiles(t *testing.T) {
	tr := truth3x3()
	dir := t.TempDir()
	paths := levelFiles(t, tr, dir)
	want := build(t, 3, 3, lastCells(9, 6), tr.levels)
	b, err := FromKeyFiles(context.Background(), []string{paths[2], paths[0], paths[1]}, testFilter(6), nil)
	require.NoError(t, err)
	out := filepath.Join(dir, "g.gapdb")
	require.NoError(t, b.Write(context.Background(), out))
	got, err := Open(out)
	require.NoError(t, err)
	defer got.Close()
	assert.Equal(t, want.Table(), got.Table())
	assert.Equal(t, want.Filter(), got.Filter())
	assert.NotEmpty(t, got.Filter())
	assert.Equal(t, want.Counts, got.Counts)
	require.Len(t, got.Sources, 3)
	assert.Equal(t, "Gap4_6.keys", got.Sources[0].Name)
	assert.Equal(t, "GapDB4_6", got.Name())

	_, err = FromKeyFiles(context.Background(), []string{paths[0], paths[2]}, -1, nil)
	assert.ErrorIs(t, err, ErrLevels)
	assert.ErrorContains(t, err, "no level file of gap 2")
	_, err = FromKeyFiles(context.Background(), []string{paths[0], paths[0]}, -1, nil)
	assert.ErrorIs(t, err, ErrLevels)
	assert.ErrorContains(t, err, "both of gap 0")
	_, err = NewBuilder(4, 4, lastCells(16, 11), 5, 0)
	assert.ErrorIs(t, err, ErrTooBig)

	// An interrupt stops the reading and the writing: nothing renamed.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = FromKeyFiles(done, paths, -1, nil)
	assert.ErrorIs(t, err, context.Canceled)
	stopped := filepath.Join(dir, "stopped.gapdb")
	assert.ErrorIs(t, b.Write(done, stopped), context.Canceled)
	left, _ := filepath.Glob(filepath.Join(dir, "*stopped*"))
	assert.Empty(t, left, "an interrupted write leaves its file or a temporary")
}

// A byte changed anywhere is found at load: in the header by its CRC, in
// the table by its chunk's.
func TestOpenFindsDamage(t *testing.T) {
	tr := truth3x3()
	d := build(t, 3, 3, []int{0, 2, 4, 6, 8}, tr.levels)
	raw, err := os.ReadFile(d.Path)
	require.NoError(t, err)
	for _, off := range []int{13, 200, int(d.TableOff) + 5, len(raw) - 1} {
		bad := append([]byte(nil), raw...)
		bad[off] ^= 4
		p := filepath.Join(t.TempDir(), "bad.gapdb")
		require.NoError(t, os.WriteFile(p, bad, 0o644))
		_, err := Open(p)
		assert.ErrorIs(t, err, ErrFormat, "byte %d", off)
	}
	p := filepath.Join(t.TempDir(), "short.gapdb")
	require.NoError(t, os.WriteFile(p, raw[:len(raw)-1], 0o644))
	_, err = Open(p)
	assert.ErrorIs(t, err, ErrFormat)
}

// A header whose cells were edited, its CRC made again, describes another
// projection than its table's: refused at load, for every other set of as
// many cells (with and without a filter), as the database itself loads.
func TestOpenRefusesHeaderOfOtherCells(t *testing.T) {
	tr := truth3x3()
	cells := []int{0, 2, 4, 6, 8}
	for _, f := range []int{0, testFilter(len(cells))} {
		d := buildFiltered(t, 3, 3, cells, tr.levels, f)
		raw, err := os.ReadFile(d.Path)
		require.NoError(t, err)
		hl, err := HeaderLen(raw)
		require.NoError(t, err)
		others := 0
		for mask := uint(0); mask < 1<<9; mask++ {
			if bits.OnesCount(mask) != len(cells) {
				continue
			}
			var set []int
			for c := range 9 {
				if mask>>c&1 != 0 {
					set = append(set, c)
				}
			}
			if slices.Equal(set, cells) {
				continue
			}
			others++
			bad := slices.Clone(raw)
			for i, c := range set {
				bad[16+i] = byte(c)
			}
			binary.LittleEndian.PutUint32(bad[hl-4:], crc32.Checksum(bad[:hl-4], castagnoli))
			p := filepath.Join(t.TempDir(), "other.gapdb")
			require.NoError(t, os.WriteFile(p, bad, 0o644))
			_, err := Open(p)
			assert.ErrorIs(t, err, ErrFormat, "cells %v, filter %d", set, f)
		}
		assert.Equal(t, 125, others)
	}
}

func FuzzDecodeHeader(f *testing.F) {
	h := Header{Rows: 3, Cols: 3, Cells: []int{1, 4, 7}, Levels: 5, Sources: []Source{{Gap: 2, Exact: true, Count: 9, Name: "Gap2_3.keys"}}}
	require.NoError(f, h.layout())
	f.Add(h.encode(), false)
	f.Add(h.encode(), true)
	f.Add([]byte(magic), true)
	both := Header{Rows: 3, Cols: 3, Cells: []int{3, 4, 5, 6, 7, 8}, Levels: 3, ResLevels: 2, FilterCells: 2, Base: testBase,
		Sources: []Source{{Gap: 0, Name: "Gap0_6.keys"}, {Gap: 0, Res: true, Name: "Res0_6.keys"}, {Gap: 2, Res: true}, {Gap: 2}, {Gap: 4}}}
	require.NoError(f, both.layout())
	both.Counts[0], both.ResCounts[1] = both.Entries, both.Entries
	f.Add(both.encode(), true)
	f.Fuzz(func(t *testing.T, b []byte, fixCRC bool) {
		// fixCRC: past the CRC, to the checks of the fields
		if hl, err := HeaderLen(b); fixCRC && err == nil && hl <= len(b) {
			binary.LittleEndian.PutUint32(b[hl-4:], crc32.Checksum(b[:hl-4], castagnoli))
		}
		h, err := DecodeHeader(b)
		if err != nil {
			return
		}
		// what decodes encodes to the same bytes
		out := h.encode()
		hl, _ := HeaderLen(b)
		assert.Equal(t, b[:hl], out[:hl])
	})
}

// The database built from the enumerator's key-set files of a cell set is
// the one the builder makes from the whole-board levels on the same cells
// (BFS truth on 3x3, LevelSets on 3x4): the same table, so the same bound
// on every board; and a database of a set and one of the last cells
// together give searches of optimal length.
func TestFromEnumeratorCellSets(t *testing.T) {
	for _, tc := range []struct {
		rows, cols, gap int
		cells           []int
		sets            []encode.CellSet
	}{
		{3, 3, 4, []int{6}, []encode.CellSet{0x1C7, 0x155, 0x00F}},
		{3, 4, 2, []int{8}, []encode.CellSet{0x0F0F, 0x0B9B}},
	} {
		n := tc.rows * tc.cols
		var whole [][]uint64
		if n == 9 {
			whole = truth3x3().levels
		} else {
			sets, err := gapset.LevelSets(context.Background(), tc.rows, tc.cols, tc.gap, []int{n}, nil)
			require.NoError(t, err)
			whole = sets[n]
		}
		dir := t.TempDir()
		for gap := 0; gap <= tc.gap; gap += 2 {
			_, err := gapset.Enumerate(context.Background(), gapset.Config{Rows: tc.rows, Cols: tc.cols, MaxGap: gap,
				Cells: tc.cells, Sets: tc.sets, Dir: dir, Packed: gap == 2, Transpose: true})
			require.NoError(t, err)
		}
		var dbs []*DB
		for _, s := range append([]encode.CellSet{encode.LastCells(n, tc.cells[0])}, tc.sets...) {
			var paths []string
			for gap := tc.gap; gap >= 0; gap -= 2 {
				h := keyset.Header{Rows: tc.rows, Cols: tc.cols, Gap: gap}.OnCells(s)
				paths = append(paths, filepath.Join(dir, h.Name()+".keys"))
			}
			b, err := FromKeyFiles(context.Background(), paths, testFilter(s.Len()), nil)
			require.NoError(t, err, "%s", s)
			out := filepath.Join(dir, s.Hex()+".gapdb")
			require.NoError(t, b.Write(context.Background(), out))
			got, err := Open(out)
			require.NoError(t, err)
			t.Cleanup(got.Close)
			want := build(t, tc.rows, tc.cols, s.Cells(), whole)
			assert.Equal(t, s.Cells(), got.Cells)
			assert.Equal(t, want.Counts, got.Counts, "%dx%d %s", tc.rows, tc.cols, s)
			assert.True(t, bytes.Equal(want.Table(), got.Table()), "%dx%d %s: the tables differ", tc.rows, tc.cols, s)
			assert.True(t, bytes.Equal(want.Filter(), got.Filter()), "%dx%d %s: the filters differ", tc.rows, tc.cols, s)
			dbs = append(dbs, got)
		}
		if n == 9 {
			tr := truth3x3()
			h := Heuristic{DBs: dbs[:2], Levels: tc.gap/2 + 1}
			for _, b := range boards(t, tr, 30, 5) {
				r := solve(t, b, h)
				assert.Equal(t, tr.dist[b.Key()], r.Length, "%s", b)
			}
		}
	}
	// Files of two cell sets do not make one database.
	dir := t.TempDir()
	for gap := 0; gap <= 2; gap += 2 {
		_, err := gapset.Enumerate(context.Background(), gapset.Config{Rows: 3, Cols: 3, MaxGap: gap, Sets: []encode.CellSet{0x1C7, 0x155}, Dir: dir})
		require.NoError(t, err)
	}
	_, err := FromKeyFiles(context.Background(), []string{filepath.Join(dir, "Gap0_6c01C7.keys"), filepath.Join(dir, "Gap2_5c0155.keys")}, -1, nil)
	assert.ErrorIs(t, err, ErrLevels)
	assert.ErrorContains(t, err, "on the cells 0+2+4+6+8")
}

// A database of fewer levels joins one with all of them: a big projection
// exact to gap 2 beside a small one to gap 4 answers what the chain of the
// big projection's levels topped by the small one's gap-4 level answers
// (the levels are exact, so the small projection's entry never exceeds the
// big one's below its top), the bound stays within the BFS distance on
// every board, and without a database that reaches gap 4 there is no h_G:4.
func TestFewerLevelsJoin(t *testing.T) {
	tr := truth3x3()
	big, small := lastCells(9, 6), lastCells(9, 4)
	dBig := build(t, 3, 3, big, tr.levels[:2])
	dSmall := build(t, 3, 3, small, tr.levels)
	for _, transpose := range []bool{false, true} {
		h := Heuristic{DBs: []*DB{dBig, dSmall}, Levels: 3, Transpose: transpose}
		ev, err := h.NewEvaluator(3, 3)
		require.NoError(t, err)
		mixed := chain(t, 3, 3, 6, tr.levels[:2], transpose)
		mixed.Levels = append(mixed.Levels, chain(t, 3, 3, 4, tr.levels[2:], transpose).Levels...)
		evChain, err := mixed.NewEvaluator(3, 3)
		require.NoError(t, err)
		evBig, err := Heuristic{DBs: []*DB{dBig}, Levels: 2, Transpose: transpose}.NewEvaluator(3, 3)
		require.NoError(t, err)
		above := 0
		for key, dist := range tr.dist {
			b, err := encode.FromKey(key, 3, 3)
			require.NoError(t, err)
			got := rootBound(ev, b)
			require.LessOrEqual(t, got, dist, "%s", b)
			require.Equal(t, rootBound(evChain, b), got, "transpose %v %s", transpose, b)
			if rootBound(evBig, b) == b.Manhattan()+4 && got > b.Manhattan()+4 {
				above++ // the small database's gap-4 level raised it past the big one's top
			}
		}
		assert.Positive(t, above, "transpose %v", transpose)
		for _, b := range boards(t, tr, 30, 11) {
			want := solve(t, b, mixed)
			got := solve(t, b, h)
			require.Equal(t, tr.dist[b.Key()], got.Length, "%s", b)
			require.Equal(t, want.Expanded, got.Expanded, "transpose %v %s", transpose, b)
		}
	}
	_, err := Heuristic{DBs: []*DB{dBig}, Levels: 3}.NewEvaluator(3, 3)
	assert.ErrorContains(t, err, "no gap database holds gap <= 4")
}

// A database is not read for a question its levels cannot answer: with
// gap <= 2 on 6 cells beside gap <= 4 on 4, "every entry at most 2?"
// reads the 4-cell table (and its transpose's) only; lower questions read
// both. Both paths: the loop the combined heuristics use and the
// evaluator's own.
func TestFewerLevelsNotReadAboveTheirTop(t *testing.T) {
	tr := truth3x3()
	dBig := build(t, 3, 3, lastCells(9, 6), tr.levels[:2])
	dSmall := build(t, 3, 3, lastCells(9, 4), tr.levels)
	goal := encode.Goal(3, 3)

	ev, err := Heuristic{DBs: []*DB{dBig, dSmall}, Levels: 3, NoFilter: true}.Looped().NewEvaluator(3, 3)
	require.NoError(t, err)
	le := ev.(*loopEvaluator)
	for _, tc := range []struct{ j, reads int }{{2, 1}, {1, 2}, {0, 2}} {
		before := le.reads
		assert.True(t, le.ask(tc.j, goal.Key()), "j=%d", tc.j)
		assert.Equal(t, int64(tc.reads), le.reads-before, "j=%d", tc.j)
	}

	ev, err = Heuristic{DBs: []*DB{dBig, dSmall}, Levels: 3, Transpose: true, NoFilter: true}.NewEvaluator(3, 3)
	require.NoError(t, err)
	e := ev.(*evaluator)
	require.Equal(t, goal.Manhattan(), rootBound(e, goal))
	for _, tc := range []struct{ j, reads int }{{2, 2}, {1, 4}} {
		before := e.reads
		assert.True(t, e.holds(uint16(tc.j), nil), "j=%d", tc.j)
		assert.Equal(t, int64(tc.reads), e.reads-before, "j=%d", tc.j)
	}
}

// A key file of several batches, damaged in the middle of one, is refused
// with the reader's error (the reading goroutine stops, nothing is kept);
// undamaged, every placement lands in the table.
func TestFromKeyFilesBatchesAndDamage(t *testing.T) {
	dir := t.TempDir()
	h := keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 0}
	var keys []uint64 // all 60,480 placements of 6 cells: about 4 batches
	pos := make([]uint8, 6)
	for r := 0; r < 60480; r++ {
		placement.Unrank(r, pos, 9)
		k := uint64(0)
		for _, v := range pos {
			k = k<<4 | uint64(v)
		}
		keys = append(keys, k)
	}
	require.Greater(t, len(keys), 3*batchKeys)
	p := filepath.Join(dir, h.Name()+".keys")
	require.NoError(t, keyset.WriteFile(p, h, keys))
	b, err := FromKeyFiles(context.Background(), []string{p}, 0, nil)
	require.NoError(t, err)
	for x := uint64(0); x < 60480; x++ {
		require.Equal(t, uint16(0), entryAt(b.Table(), x, b.Header().Bits, 1<<b.Header().Bits-1), x)
	}
	raw, err := os.ReadFile(p)
	require.NoError(t, err)
	raw[len(raw)*2/3] ^= 0x10
	require.NoError(t, os.WriteFile(p, raw, 0o644))
	_, err = FromKeyFiles(context.Background(), []string{p}, 0, nil)
	assert.ErrorIs(t, err, keyset.ErrFormat)
}
