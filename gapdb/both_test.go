package gapdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// levelFile writes the keys of whole 3x3 boards projected onto cells (a
// cell set, or the last ones) as a key-set file of the given gap and base
// in dir.
func levelFile(t *testing.T, dir string, cells encode.CellSet, base keyset.Base, gap int, keys []uint64) string {
	t.Helper()
	h := keyset.Header{Rows: 3, Cols: 3, Cells: cells.Len(), Gap: gap, Base: base}
	if cells != encode.LastCells(9, cells.Len()) {
		h.CellSet = cells
	}
	p := filepath.Join(dir, h.Name()+map[bool]string{true: "-gap", false: "-res"}[base.IsZero()]+".keys")
	pr := cells.Projector(9)
	proj := map[uint64]bool{}

	for _, k := range keys {
		proj[pr.Gather(k)] = true
	}
	var ks []uint64
	for k := range proj {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	require.NoError(t, keyset.WriteFile(p, h, ks))
	return p
}

var testBase = keyset.Base{Spec: "pdbb:4-4", Digest: [32]byte{7, 7}}

// bothFiles writes the gap levels of 3x3 (gap <= 0, 2, 4) and stand-in
// residual levels of testBase (r <= 0: gap <= 2, r <= 2: gap <= 4: they
// hold the boards of gap 0, as residual levels do) on cells.
func bothFiles(t *testing.T, dir string, cells encode.CellSet) (gaps, res []string) {
	tr := truth3x3()
	for i, l := range tr.levels {
		gaps = append(gaps, levelFile(t, dir, cells, keyset.Base{}, 2*i, l))
	}
	for i, l := range tr.levels[1:] {
		res = append(res, levelFile(t, dir, cells, testBase, 2*i, l))
	}
	return gaps, res
}

func openBuilt(t *testing.T, paths []string, filter int) *DB {
	t.Helper()
	b, err := FromKeyFiles(context.Background(), paths, filter, nil)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "x.gapdb")
	require.NoError(t, b.Write(context.Background(), out))
	d, err := Open(out)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	return d
}

// Gap level files and residual level files of one base on the same cells,
// given together in any order, make one database whose every entry holds
// the gap database's entry and the residual database's entry of the same
// files, and whose filter holds both their filters, nibble by nibble; it
// records the base, both maxima and which file is which, is recounted by
// Recount, and the gap and residual readers refuse it.
func TestBothDatabaseHoldsBothLevels(t *testing.T) {
	for _, c := range []struct {
		cells  encode.CellSet
		filter int
	}{{encode.LastCells(9, 6), 3}, {encode.CellSetOf([]int{0, 2, 4, 6, 8}), 2}, {encode.LastCells(9, 6), 0}} {
		dir := t.TempDir()
		gaps, res := bothFiles(t, dir, c.cells)
		gd, rd := openBuilt(t, gaps, c.filter), openBuilt(t, res, c.filter)
		mixed := []string{res[1], gaps[2], gaps[0], res[0], gaps[1]}
		d := openBuilt(t, mixed, c.filter)
		require.True(t, d.Both())
		assert.Equal(t, testBase, d.Base)
		assert.Equal(t, 4, d.MaxGap())
		assert.Equal(t, 2, d.ResMaxGap())
		assert.Equal(t, gd.Bits+rd.Bits, d.Bits)
		assert.Contains(t, d.Name(), "BothDB4+2_")
		assert.Equal(t, gd.Counts, d.Counts)
		assert.Equal(t, rd.Counts, d.ResCounts)
		var res2 []bool
		for _, s := range d.Sources {
			res2 = append(res2, s.Res)
		}
		assert.Equal(t, []bool{true, false, false, true, false}, res2)
		for x := uint64(0); x < d.Entries; x++ {
			if d.At(x) != gd.At(x) || d.ResAt(x) != rd.At(x) {
				require.Equal(t, [2]int{gd.At(x), rd.At(x)}, [2]int{d.At(x), d.ResAt(x)}, "entry %d", x)
			}
		}
		if c.filter > 0 {
			require.Len(t, d.Filter(), 2*len(gd.Filter()))
			for m := uint64(0); m < 2*uint64(len(gd.Filter())); m++ {
				require.Equal(t, nibble(gd.Filter(), m), nibble(d.Filter(), 2*m), "gap filter %d", m)
				require.Equal(t, nibble(rd.Filter(), m), nibble(d.Filter(), 2*m+1), "residual filter %d", m)
			}
		}
		for key := range truth3x3().dist {
			require.Equal(t, gd.Floor(key), d.Floor(key))
			require.Equal(t, rd.Floor(key), d.ResFloor(key))
		}
		require.NoError(t, d.Recount())
		var sum bytes.Buffer
		require.NoError(t, Summarize(d.Path, d.Header).Write(&sum, "md"))
		assert.Contains(t, sum.String(), "gap <= 4 and r <= 2 (base pdbb:4-4)")
		assert.Contains(t, sum.String(), "r<=2 ")

		_, err := Heuristic{DBs: []*DB{d}, Levels: 3}.NewEvaluator(3, 3)
		assert.ErrorContains(t, err, "holds both levels in one entry")
		_, err = Residual{Base: stubTracker{}, BaseID: testBase, DBs: []*DB{d}, Levels: 2}.NewEvaluator(3, 3)
		assert.ErrorContains(t, err, "holds both levels in one entry")
		_, err = Both{Base: stubTracker{}, BaseID: testBase, DBs: []*DB{rd}, Levels: 1, ResLevels: 1}.NewEvaluator(3, 3)
		assert.ErrorContains(t, err, "holds one kind of level")
		_, err = Both{Base: stubTracker{}, BaseID: keyset.Base{Spec: "pdbb:3-5", Digest: [32]byte{8}}, DBs: []*DB{d}, Levels: 1, ResLevels: 1}.NewEvaluator(3, 3)
		assert.ErrorContains(t, err, "not of the base pdbb:3-5")
		_, err = Both{Base: stubTracker{}, BaseID: testBase, DBs: []*DB{d}, Levels: 3, ResLevels: 3}.NewEvaluator(3, 3)
		assert.ErrorContains(t, err, "no database of both levels holds gap <= 4 and r <= 4")
	}
}

// A build of both levels is refused (ErrLevels) when the two key sets are
// of other cells, when residual files are of two bases, when a level of
// either kind is missing or repeated, and when either kind has more levels
// than an entry's field holds.
func TestBothBuildRefusals(t *testing.T) {
	dir := t.TempDir()
	gaps, res := bothFiles(t, dir, encode.LastCells(9, 6))
	other := t.TempDir()
	_, resOther := bothFiles(t, other, encode.CellSetOf([]int{0, 1, 2, 3, 4, 5}))
	twoBases := levelFile(t, t.TempDir(), encode.LastCells(9, 6), keyset.Base{Spec: "pdbb:3-5", Digest: [32]byte{8}}, 2, truth3x3().levels[2])
	// 16 levels of a kind (r <= 0..30, gap <= 0..30): one more than an
	// entry's field holds (before: exit 1, an internal error)
	var res16, gaps16 []string
	for g := 0; g <= 30; g += 2 {
		res16 = append(res16, levelFile(t, t.TempDir(), encode.LastCells(9, 6), testBase, g, truth3x3().levels[0]))
		gaps16 = append(gaps16, levelFile(t, t.TempDir(), encode.LastCells(9, 6), keyset.Base{}, g, truth3x3().levels[0]))
	}
	for _, c := range []struct {
		paths []string
		msg   string
	}{
		{append(slices.Clone(gaps), resOther...), "one database holds the levels of one projection"},
		{append(slices.Clone(gaps), res[0], twoBases), "one database holds the levels of one base"},
		{append(slices.Clone(gaps), res[1]), "no level file of r 0"},
		{append(gaps[1:], res...), "no level file of gap 0"},
		{append(slices.Clone(gaps), res[0], res[0]), "both of r 0"},
		{append(slices.Clone(gaps), res16...), "16 residual levels"},
		{res16, "16 levels"},
		{append(slices.Clone(res), gaps16...), "16 levels"},
	} {
		_, err := PlanKeyFiles(c.paths, -1)
		assert.ErrorIs(t, err, ErrLevels, c.msg)
		assert.ErrorContains(t, err, c.msg)
	}
}

// Damage is found at load: a header of both levels edited (the version,
// the flags, L_R, a residual count, a level file's kind; its CRC made
// again) and a table whose
// residual field holds another level on a board of gap 0 (its CRCs made
// again by the build itself: the walks find it).
func TestBothDamageFoundAtLoad(t *testing.T) {
	dir := t.TempDir()
	gaps, res := bothFiles(t, dir, encode.LastCells(9, 6))
	d := openBuilt(t, append(gaps, res...), 3)
	raw, err := os.ReadFile(d.Path)
	require.NoError(t, err)
	assert.Equal(t, uint16(3), binary.LittleEndian.Uint16(raw[8:]))
	assert.Equal(t, byte(3), raw[61])
	assert.Equal(t, byte(2), raw[62])
	hl, err := HeaderLen(raw)
	require.NoError(t, err)
	resCounts := hl - 4 - 4*len(d.ChunkCRCs) - countsLen
	for name, edit := range map[string]func(b []byte){
		"version 2":        func(b []byte) { b[8] = 2 },
		"residual flag":    func(b []byte) { b[61] = 2 },
		"both flag":        func(b []byte) { b[61] = 1 },
		"no residual":      func(b []byte) { b[62] = 0 },
		"more residual":    func(b []byte) { b[62] = 3 },
		"a residual count": func(b []byte) { b[resCounts]++ },
		"a file's kind":    func(b []byte) { b[fixedLen+1] ^= 4 },
	} {
		bad := slices.Clone(raw)
		edit(bad)
		if n, err := HeaderLen(bad); err == nil && n <= len(bad) {
			binary.LittleEndian.PutUint32(bad[n-4:], crc32.Checksum(bad[:n-4], castagnoli))
		}
		p := filepath.Join(t.TempDir(), "bad.gapdb")
		require.NoError(t, os.WriteFile(p, bad, 0o644))
		_, err := Open(p)
		assert.ErrorIs(t, err, ErrFormat, name)
	}

	b, err := FromKeyFiles(context.Background(), append(gaps, res...), 0, nil)
	require.NoError(t, err)
	goal := encode.Goal(3, 3).Key()
	x := b.proj.index(goal)
	e := entryAt(b.table, x, b.h.Bits, b.mask)
	b.put(x, e|1<<b.gbits) // residual level 1 at the goal
	p := filepath.Join(t.TempDir(), "walk.gapdb")
	require.NoError(t, b.Write(context.Background(), p))
	_, err = Open(p)
	assert.ErrorIs(t, err, ErrFormat)
	assert.ErrorContains(t, err, "at residual level 1")
}

// stubTracker is a base tracker of value 0 for refusals that come before
// any search.
type stubTracker struct{}

func (stubTracker) NewTracker(int, int) (ida.Tracker, error) { return nil, nil }
func (stubTracker) TrackerInfo() (int, bool)                 { return 1, false }
