package pdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blankValue decodes entry (placement pos, blank) of a blank-aware table.
func blankValue(geo *encode.Geometry, group []uint8, nib []uint8, pos []uint8, blank int) int {
	n := geo.N
	var used uint32
	r, m := 0, 0
	for i, c := range pos {
		r, used = placement.Step(r, used, c, n-i)
		m += int(geo.Dist[group[i]][c])
	}
	return m + 2*int(nibble(nib, r*(n-len(pos))+placement.Digit(used, uint(blank))))
}

// Every entry of a blank-aware table is the naive search's distance of
// its (placement, blank) state, on boards and groups covering both word
// layouts and split blank regions.
func TestBlankMatchesNaiveSearch(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		group      []uint8
	}{
		{3, 3, []uint8{1, 2, 3}},
		{3, 3, []uint8{2, 5, 8}},
		{2, 4, []uint8{1, 2, 3, 5, 6}},
		{2, 3, []uint8{1, 5}},
		{2, 4, []uint8{3, 4, 7}},
		{2, 4, []uint8{1, 2, 6, 7}},
		{3, 4, []uint8{2, 6, 7}},
		{4, 4, []uint8{11, 12, 15}},
	} {
		geo, err := encode.NewGeometry(tc.rows, tc.cols)
		require.NoError(t, err)
		nib, err := BuildBlank(context.Background(), tc.rows, tc.cols, tc.group, 2, nil)
		require.NoError(t, err)
		n, k := tc.rows*tc.cols, len(tc.group)
		require.Len(t, nib, (BlankEntries(n, k)+1)/2)
		ref := naiveStates(tc.rows, tc.cols, tc.group)
		require.Len(t, ref, BlankEntries(n, k))
		pos := make([]uint8, k)
		for st, d := range ref {
			for i, tile := range tc.group {
				pos[i] = uint8(strings.IndexByte(st, byte(tile)))
			}
			blank := strings.IndexByte(st, 0)
			require.Equal(t, d, blankValue(geo, tc.group, nib, pos, blank), "%dx%d group %v placement %v blank %d", tc.rows, tc.cols, tc.group, pos, blank)
		}
	}
}

// A group that leaves fewer than two tiles out is refused, as is an empty
// group.
func TestBlankRefusesFullGroups(t *testing.T) {
	for _, g := range [][]uint8{{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7}} {
		_, err := BuildBlank(context.Background(), 3, 3, g, 1, nil)
		assert.ErrorContains(t, err, "two tiles outside the group")
	}
	_, err := BuildBlank(context.Background(), 3, 3, nil, 1, nil)
	assert.ErrorContains(t, err, "at least one tile")
}

// blankSet builds the blank-aware databases of a partition.
func blankSet(t testing.TB, name string, rows, cols int) *Databases {
	t.Helper()
	part, err := ParsePartition(name, rows, cols)
	require.NoError(t, err)
	part.Blank = true
	set, err := BuildSet(context.Background(), part, 2, nil)
	require.NoError(t, err)
	require.True(t, set.Blank)
	return set
}

// moveChanges adds to hist, for each move of the board, the change of
// value(board) it makes (the board is restored).
func moveChanges(b encode.Board, value func([]uint8) int, hist map[int]int) {
	h := value(b.Tiles)
	blank := b.Blank()
	for _, c := range encode.Neighbors(b.Rows, b.Cols, blank) {
		b.Tiles[blank], b.Tiles[c] = b.Tiles[c], 0
		hist[value(b.Tiles)-h]++
		b.Tiles[c], b.Tiles[blank] = b.Tiles[blank], 0
	}
}

// On every board of 3x3 and 2x4, for several partitions, with and without
// the transpose: the blank-aware sum is at most the BFS distance, at least
// the blank-minimised sum, has Manhattan distance's parity and changes by
// exactly one on every move; the search's tracker gives the lookup's value
// at every root.
func TestBlankUnitStepOnEveryBoard(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		part       string
	}{
		{3, 3, "4-4"},
		{3, 3, "3-5"},
		{3, 3, "1,5/2,3,6/4,7,8"},
		{2, 4, "1,2,3,4/5,6,7"},
		{2, 4, "1,2,5,6/3,4,7"},
		{2, 4, "1,5/2,6/3,7/4"},
	} {
		dist := encode.Distances(tc.rows, tc.cols)
		set := blankSet(t, tc.part, tc.rows, tc.cols)
		minimised := buildSet(t, tc.part, tc.rows, tc.cols)
		for _, transpose := range []bool{false, true} {
			if transpose && tc.rows != tc.cols {
				continue
			}
			name := fmt.Sprintf("%dx%d %s transpose %v", tc.rows, tc.cols, tc.part, transpose)
			look, err := set.NewLookup(transpose)
			require.NoError(t, err)
			low, err := minimised.NewLookup(transpose)
			require.NoError(t, err)
			h := &Heuristic{DBs: set, Transpose: transpose}
			require.NoError(t, UnitStep(h))
			tr, err := h.NewTracker(tc.rows, tc.cols)
			require.NoError(t, err)
			hist := map[int]int{}
			above := 0
			for key, d := range dist {
				b, err := encode.FromKey(key, tc.rows, tc.cols)
				require.NoError(t, err)
				v := look.Value(b.Tiles)
				require.LessOrEqual(t, v, d, "%s: board %s", name, b)
				w := low.Value(b.Tiles)
				require.GreaterOrEqual(t, v, w, "%s: board %s", name, b)
				if v > w {
					above++
				}
				require.Zero(t, (v-b.Manhattan())&1, "%s: board %s", name, b)
				moveChanges(b, look.Value, hist)
				p := ida.Position{Rows: b.Rows, Cols: b.Cols, Blank: b.Blank(), MD: b.Manhattan()}
				copy(p.Tiles[:], b.Tiles)
				tr.Reset(&p)
				require.Equal(t, v, tr.Bound(&p, 1<<30), "%s: board %s", name, b)
			}
			assert.Equal(t, []int{-1, 1}, keys(hist), "%s: changes along moves", name)
			assert.Positive(t, above, "%s: never above the blank-minimised sum", name)
		}
	}
}

func keys(m map[int]int) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// The tracker follows moves (with and without the children's entries
// prefetched first): along random walks its bound is the lookup's of the
// board reached, direct and transposed.
func TestBlankTrackerFollowsMoves(t *testing.T) {
	set := blankSet(t, "1,2,5/3,4,6,7,8", 3, 3)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, transpose := range []bool{false, true} {
		look, err := set.NewLookup(transpose)
		require.NoError(t, err)
		for _, noPre := range []bool{false, true} {
			h := &Heuristic{DBs: set, Transpose: transpose, NoPrefetch: noPre}
			tr, err := h.NewTracker(3, 3)
			require.NoError(t, err)
			pf, _ := tr.(ida.TrackerPrefetcher)
			for walk := 0; walk < 50; walk++ {
				b := encode.Random(rng, 3, 3)
				p := ida.Position{Rows: 3, Cols: 3, Blank: b.Blank(), MD: b.Manhattan()}
				copy(p.Tiles[:], b.Tiles)
				tr.Reset(&p)
				type move struct {
					tile     uint8
					from, to int
				}
				var path []move
				for step := 0; step < 40; step++ {
					nb := encode.Neighbors(3, 3, p.Blank)
					if pf != nil {
						cells := make([]uint8, len(nb))
						for i, c := range nb {
							cells[i] = uint8(c)
						}
						pf.Prefetch(&p, cells)
					}
					from := nb[rng.IntN(len(nb))]
					tile, to := p.Tiles[from], p.Blank
					p.Tiles[to], p.Tiles[from] = tile, 0
					p.Blank = from
					p.MD = boardMD(&p)
					p.Depth++
					tr.Move(&p, tile, from, to)
					path = append(path, move{tile, from, to})
					require.Equal(t, look.Value(p.Tiles[:9]), tr.Bound(&p, 1<<30), "transpose %v, walk %d step %d", transpose, walk, step)
				}
				for i := len(path) - 1; i >= 0; i-- { // undo back to the root
					m := path[i]
					p.Tiles[m.from], p.Tiles[m.to] = m.tile, 0
					p.Blank = m.to
					p.MD = boardMD(&p)
					p.Depth--
					tr.Undo(&p, m.tile, m.from, m.to)
				}
				require.Equal(t, look.Value(b.Tiles), tr.Bound(&p, 1<<30), "after the undos")
			}
		}
	}
}

func boardMD(p *ida.Position) int {
	b := encode.Board{Rows: p.Rows, Cols: p.Cols, Tiles: p.Tiles[:p.Rows*p.Cols]}
	return b.Manhattan()
}

// IDA* with the blank-aware databases finds the BFS lengths (the
// evaluator's skipping and the prefetch included).
func TestBlankSolvesOptimally(t *testing.T) {
	dist := encode.Distances(3, 3)
	set := blankSet(t, "4-4", 3, 3)
	for _, transpose := range []bool{false, true} {
		h := &Heuristic{DBs: set, Transpose: transpose}
		i := 0
		for key, d := range dist {
			if i++; i%97 != 0 {
				continue
			}
			b, _ := encode.FromKey(key, 3, 3)
			res, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err)
			require.Equal(t, d, res.Length, "board %s", b)
		}
	}
}

// UnitStep accepts Manhattan distance, blank-aware databases and maxima
// of them; it refuses the blank-minimised databases, the dual lookup and
// any other heuristic, each with ErrNotUnitStep and the reason.
func TestUnitStepRefuses(t *testing.T) {
	blank := blankSet(t, "4-4", 3, 3)
	minimised := buildSet(t, "4-4", 3, 3)
	ok := []ida.Heuristic{
		ida.Manhattan{},
		&Heuristic{DBs: blank},
		&Heuristic{DBs: blank, Transpose: true},
		ida.Max{Parts: []ida.Heuristic{ida.Manhattan{}, &Heuristic{DBs: blank, Transpose: true}}},
	}
	for _, h := range ok {
		assert.NoError(t, UnitStep(h), h.Name())
	}
	for _, tc := range []struct {
		h   ida.Heuristic
		why string
	}{
		{&Heuristic{DBs: minimised}, "minimum over the blank's cell"},
		{&Heuristic{DBs: minimised, Transpose: true}, "gapset pdb build --blank"},
		{&Heuristic{DBs: blank, Dual: true}, "dual boards"},
		{ida.LinearConflict{}, "lc is not known to have the property"},
		{ida.Max{Parts: []ida.Heuristic{&Heuristic{DBs: blank}, &Heuristic{DBs: minimised}}}, "minimum over the blank's cell"},
	} {
		err := UnitStep(tc.h)
		require.ErrorIs(t, err, ErrNotUnitStep, tc.h.Name())
		assert.ErrorContains(t, err, tc.why)
	}
}

// The 3x4 split of the issue: tiles 1-6 and 7-11.
func split3x4(t testing.TB, blank bool) Partition {
	t.Helper()
	part, err := ParsePartition("1-6/7-11", 3, 4)
	require.NoError(t, err)
	part.Blank = blank
	return part
}

// BuildFiles writes blank-aware files under their own names; Load reads
// them back as BuildBlankSet builds them, checks the small table whole
// (built again) and the large one by samples; the blank-minimised load
// of the same directory finds its own files missing; DiskNeed is the
// files' size; BuildMemory counts a byte an entry while the values are
// gathered.
func TestBlankFilesRoundTrip(t *testing.T) {
	part := split3x4(t, true)
	dir := t.TempDir()
	var written []Written
	require.NoError(t, BuildFiles(context.Background(), part, dir, 2, false, nil, func(w Written) { written = append(written, w) }))
	want, err := BuildSet(context.Background(), part, 2, nil)
	require.NoError(t, err)
	paths := part.Paths(dir)
	assert.Equal(t, "3x4-1-2-3-4-5-6-blank.pdb", filepath.Base(paths[0]))
	assert.Equal(t, "3x4-7-8-9-10-11-blank.pdb", filepath.Base(paths[1]))
	s, err := Load(dir, part)
	require.NoError(t, err)
	assert.True(t, s.Blank)
	assert.Equal(t, want.Nibbles, s.Nibbles)
	assert.Equal(t, []int{1, 1}, s.Steps)
	assert.Equal(t, paths[:1], s.Sampled, "3,991,680 entries are not built again at load; 665,280 are")
	var size int64
	geo, err := encode.NewGeometry(3, 4)
	require.NoError(t, err)
	for gi, w := range written {
		assert.Equal(t, paths[gi], w.Path)
		assert.Equal(t, BlankEntries(12, len(part.Groups[gi])), w.Entries)
		top := 0
		for i := 0; i < w.Entries; i++ {
			pos := make([]uint8, len(part.Groups[gi]))
			used := placement.Unrank(i/(12-len(pos)), pos, 12)
			top = max(top, blankValue(geo, part.Groups[gi], s.Nibbles[gi], pos, placement.SelectFree(used, i%(12-len(pos)))))
		}
		assert.Equal(t, top, w.Max)
		st, err := os.Stat(w.Path)
		require.NoError(t, err)
		size += st.Size()
	}
	assert.Equal(t, size, part.DiskNeed(t.TempDir(), false))
	assert.Equal(t, int64(665280*4+3991680), part.BuildMemory(false), "the 6-tile group: words of 4 bytes and a byte an entry")
	assert.Equal(t, int64(665280*4), split3x4(t, false).BuildMemory(true), "blank-minimised: the search table, given back as the result fills")

	_, err = Load(dir, split3x4(t, false))
	require.ErrorIs(t, err, ErrMissing)
	assert.NotContains(t, err.Error(), "--blank")
	_, err = Load(t.TempDir(), part)
	require.ErrorIs(t, err, ErrMissing)
	assert.ErrorContains(t, err, "gapset pdb build --partition 1-6/7-11 --rows 3 --cols 4 --blank --out")
}

// A load refuses the other kind's file under a name, and damage behind a
// recomputed checksum: the goal's entries (always checked), an entry of
// the small table (built again), a jump along moves in the large one
// (sampled: every entry of a placement raised).
func TestBlankLoadRefuses(t *testing.T) {
	part := split3x4(t, true)
	plain := split3x4(t, false)
	dir := t.TempDir()
	require.NoError(t, BuildFiles(context.Background(), part, dir, 2, false, nil, nil))
	require.NoError(t, BuildFiles(context.Background(), plain, dir, 2, true, nil, nil))
	bpaths, ppaths := part.Paths(dir), plain.Paths(dir)
	good := make([][]byte, 2)
	for i, p := range bpaths {
		var err error
		good[i], err = os.ReadFile(p)
		require.NoError(t, err)
	}
	restore := func() {
		for i, p := range bpaths {
			require.NoError(t, os.WriteFile(p, good[i], 0o644))
		}
	}
	// the kinds swapped
	plainFile, err := os.ReadFile(ppaths[1])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bpaths[1], plainFile, 0o644))
	_, err = Load(dir, part)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "format version 2, want 3 (a blank-aware database)")
	restore()
	require.NoError(t, os.WriteFile(ppaths[1], good[1], 0o644))
	_, err = Load(dir, plain)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "format version 3 (a blank-aware database)")

	nibs := make([][]uint8, 2)
	for gi, g := range part.Groups {
		nibs[gi], err = BuildBlank(context.Background(), 3, 4, g, 2, nil)
		require.NoError(t, err)
	}
	damage := func(gi int, change func(nib []uint8)) error {
		restore()
		nib := append([]uint8(nil), nibs[gi]...)
		change(nib)
		require.NoError(t, WriteBlank(context.Background(), bpaths[gi], 3, 4, part.Groups[gi], nib))
		_, err := Load(dir, part)
		return err
	}
	setEntry := func(nib []uint8, i int, e uint8) {
		nib[i>>1] = nib[i>>1]&^(15<<(uint(i&1)<<2)) | e<<(uint(i&1)<<2)
	}
	// the goal with the blank in its home region, raised
	g0 := part.Groups[0]
	home := make([]uint8, len(g0))
	var used uint32
	for i, tl := range g0 {
		home[i] = tl - 1
		used |= 1 << (tl - 1)
	}
	goal := placement.Rank(home, 12)*(12-len(g0)) + placement.Digit(used, 11)
	err = damage(0, func(nib []uint8) { setEntry(nib, goal, 1) })
	require.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "with the group home and the blank on cell 11 the entry is 2")
	// the small table: one entry raised by 2
	err = damage(1, func(nib []uint8) { setEntry(nib, 5000, nibble(nib, 5000)+1) })
	require.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "the table built again has")
	// the large table: the entries of every placement with tile 1 on
	// cells 6-11 raised by 2: some moves of tile 1 across that border
	// change the value by 3, and the samples meet them
	err = damage(0, func(nib []uint8) {
		pos := make([]uint8, len(g0))
		for r := 0; r < Entries(12, len(g0)); r++ {
			placement.Unrank(r, pos, 12)
			if pos[0] < 6 {
				continue
			}
			for j := 0; j < 12-len(g0); j++ {
				i := r*(12-len(g0)) + j
				setEntry(nib, i, min(nibble(nib, i)+1, 15))
			}
		}
	})
	require.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "not one apart")
	restore()
	_, err = Load(dir, part)
	require.NoError(t, err)
}

// On 3x4 with the split 1-6 / 7-11, over 20,000 uniform random boards and
// every move from each: the blank-aware sum changes by exactly one on
// every move, has Manhattan distance's parity and is at least the
// blank-minimised sum; on 40 of the boards it is at most the optimal
// length (found by IDA* with the blank-minimised databases) and IDA* with
// it finds the same length.
func TestBlank3x4Sample(t *testing.T) {
	blank, err := BuildSet(context.Background(), split3x4(t, true), 2, nil)
	require.NoError(t, err)
	minimised, err := BuildSet(context.Background(), split3x4(t, false), 2, nil)
	require.NoError(t, err)
	look, err := blank.NewLookup(false)
	require.NoError(t, err)
	low, err := minimised.NewLookup(false)
	require.NoError(t, err)
	hist := map[int]int{}
	above := 0
	for i, in := range encode.RandomInstances(52, 20000, 3, 4) {
		b := in.Board
		v, w := look.Value(b.Tiles), low.Value(b.Tiles)
		require.GreaterOrEqual(t, v, w, "board %s", b)
		if v > w {
			above++
		}
		require.Zero(t, (v-b.Manhattan())&1, "board %s", b)
		moveChanges(b, look.Value, hist)
		if i < 40 {
			ref, err := ida.Solve(b, &Heuristic{DBs: minimised}, ida.Options{})
			require.NoError(t, err)
			require.LessOrEqual(t, v, ref.Length, "board %s", b)
			got, err := ida.Solve(b, &Heuristic{DBs: blank}, ida.Options{})
			require.NoError(t, err)
			require.Equal(t, ref.Length, got.Length, "board %s", b)
		}
	}
	assert.Equal(t, []int{-1, 1}, keys(hist), "changes along moves")
	assert.Positive(t, above)
	t.Logf("blank-aware above the blank-minimised sum on %d of 20,000 boards", above)
}

// The blank-minimised databases of the same split are not unit-step:
// over the moves of 20,000 uniform random boards their sum changes by an
// odd number (it has Manhattan distance's parity), by 3 or more on some
// moves; UnitStep refuses them. The test logs the shares (the figures of
// docs/pattern-databases.md).
func TestBlankMinimisedJumps(t *testing.T) {
	minimised, err := BuildSet(context.Background(), split3x4(t, false), 2, nil)
	require.NoError(t, err)
	low, err := minimised.NewLookup(false)
	require.NoError(t, err)
	hist := map[int]int{}
	for _, in := range encode.RandomInstances(53, 20000, 3, 4) {
		moveChanges(in.Board, low.Value, hist)
	}
	total, jumps := 0, 0
	for d, c := range hist {
		require.NotZero(t, d&1, "a change of %d", d)
		total += c
		if d >= 3 || d <= -3 {
			jumps += c
		}
	}
	assert.Positive(t, jumps)
	var lines []string
	for _, d := range keys(hist) {
		lines = append(lines, fmt.Sprintf("%+d: %d (%.2f%%)", d, hist[d], 100*float64(hist[d])/float64(total)))
	}
	t.Logf("changes of the blank-minimised sum over %d moves: %s; by 3 or more: %.2f%%", total, strings.Join(lines, ", "), 100*float64(jumps)/float64(total))
	err = UnitStep(&Heuristic{DBs: minimised})
	require.ErrorIs(t, err, ErrNotUnitStep)
	assert.ErrorContains(t, err, fmt.Sprintf("by 3 or more (a group's value by up to %d)", minimised.Step()))
}

// The blank-aware files of a named partition are checked whole by their
// digests: none is listed as sampled, each is recorded as hashed against
// its digest, and a file whose table differs (checksum recomputed) is
// refused.
func TestBlankNamedFilesCheckedWhole(t *testing.T) {
	part, err := ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	part.Blank = true
	dir := t.TempDir()
	require.NoError(t, BuildFiles(context.Background(), part, dir, 1, false, nil, nil))
	v := OpenVerified(filepath.Join(t.TempDir(), "record"))
	s, err := LoadVerified(dir, part, v)
	require.NoError(t, err)
	assert.Empty(t, s.Sampled)
	assert.Len(t, v.known, 2, "both files hashed and found equal to their digests")
	nib := append([]uint8(nil), s.Nibbles[1]...)
	nib[len(nib)-1] ^= 0x11
	require.NoError(t, WriteBlank(context.Background(), part.Paths(dir)[1], 3, 3, part.Groups[1], nib))
	_, err = Load(dir, part)
	assert.ErrorIs(t, err, ErrCorrupt)
}
