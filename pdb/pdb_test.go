package pdb

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A group holding every tile is the whole puzzle: its database must be the
// exact distance of every board.
func TestFullGroupIsExactDistance(t *testing.T) {
	for _, sz := range [][2]int{{2, 3}, {3, 3}} {
		rows, cols := sz[0], sz[1]
		n := rows * cols
		group := make([]uint8, n-1)
		for i := range group {
			group[i] = uint8(i + 1)
		}
		table, step, err := Build(context.Background(), rows, cols, group, 1, nil)
		assert.Equal(t, 1, step, "the whole puzzle is consistent")
		require.NoError(t, err)
		dist := encode.Distances(rows, cols)
		pos := make([]uint8, n-1)
		for key, d := range dist {
			b, err := encode.FromKey(key, rows, cols)
			require.NoError(t, err)
			for c, tile := range b.Tiles {
				if tile != 0 {
					pos[tile-1] = uint8(c)
				}
			}
			require.Equal(t, d, int(table[placement.Rank(pos, n)]), "board %s", b)
		}
	}
}

// naiveGroupDistances is an independent reference: Dijkstra over explicit
// boards where non-group tiles are indistinguishable (written 255), with cost
// 1 for moving a group tile and 0 otherwise, keyed by the group's placement.
func naiveGroupDistances(rows, cols int, group []uint8) map[string]int {
	placement := map[string]int{}
	for st, d := range naiveStates(rows, cols, group) {
		var key []byte
		for _, t := range group {
			key = append(key, byte(strings.IndexByte(st, byte(t))))
		}
		if p, ok := placement[string(key)]; !ok || d < p {
			placement[string(key)] = d
		}
	}
	return placement
}

// naiveStates is that search's distance of every abstract board: a string
// of the cells, the group's tiles by number, the others 255, the blank 0.
func naiveStates(rows, cols int, group []uint8) map[string]int {
	n := rows * cols
	inGroup := map[uint8]bool{}
	for _, t := range group {
		inGroup[t] = true
	}
	start := make([]uint8, n)
	for c := 0; c < n-1; c++ {
		start[c] = 255
		if inGroup[uint8(c+1)] {
			start[c] = uint8(c + 1)
		}
	}
	start[n-1] = 0
	type item struct {
		s string
		d int
	}
	best := map[string]int{string(start): 0}
	deque := []item{{string(start), 0}}
	for len(deque) > 0 {
		it := deque[0]
		deque = deque[1:]
		if best[it.s] < it.d {
			continue
		}
		s := []byte(it.s)
		blank := strings.IndexByte(it.s, 0)
		for _, c := range encode.Neighbors(rows, cols, blank) {
			cost := 0
			if s[c] != 255 {
				cost = 1
			}
			s[blank], s[c] = s[c], 0
			ns := string(s)
			s[c], s[blank] = s[blank], 0
			if d, ok := best[ns]; !ok || it.d+cost < d {
				best[ns] = it.d + cost
				if cost == 0 {
					deque = append([]item{{ns, it.d}}, deque...)
				} else {
					deque = append(deque, item{ns, it.d + 1})
				}
			}
		}
	}
	return best
}

// naiveStep is the largest change of the naive values along one move of a
// group tile to a free neighbouring cell.
func naiveStep(rows, cols int, dist map[string]int) int {
	step := 0
	for key, d := range dist {
		pos := []byte(key)
		var used uint32
		for _, c := range pos {
			used |= 1 << c
		}
		for i, c := range pos {
			for _, x := range encode.Neighbors(rows, cols, int(c)) {
				if used&(1<<x) != 0 {
					continue
				}
				pos[i] = byte(x)
				e, ok := dist[string(pos)]
				pos[i] = c
				if ok {
					step = max(step, e-d, d-e)
				}
			}
		}
	}
	return step
}

// The generator's values and step equal the naive search's, on boards and
// groups covering both word layouts, split blank regions and a 4x4 pattern.
func TestBuildMatchesNaiveSearch(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		group      []uint8
	}{
		{3, 3, []uint8{1, 2, 3}},
		{3, 3, []uint8{2, 5, 8}},
		{2, 3, []uint8{1, 5}},
		{2, 4, []uint8{3, 4, 7}},
		{2, 4, []uint8{1, 2, 6, 7}},
		{3, 4, []uint8{2, 6, 7}},
		{4, 4, []uint8{11, 12, 15}},
		{4, 4, []uint8{1, 6, 11}},
	} {
		n := tc.rows * tc.cols
		table, step, err := Build(context.Background(), tc.rows, tc.cols, tc.group, 2, nil)
		require.NoError(t, err)
		ref := naiveGroupDistances(tc.rows, tc.cols, tc.group)
		require.Len(t, ref, len(table))
		for key, d := range ref {
			pos := []uint8(key)
			require.Equal(t, d, int(table[placement.Rank(pos, n)]), "group %v placement %v", tc.group, pos)
		}
		assert.Equal(t, naiveStep(tc.rows, tc.cols, ref), step, "%dx%d group %v", tc.rows, tc.cols, tc.group)
		assert.GreaterOrEqual(t, step, 1)
	}
}

func buildSet(t testing.TB, name string, rows, cols int) *Databases {
	t.Helper()
	part, err := ParsePartition(name, rows, cols)
	require.NoError(t, err)
	set, err := BuildSet(context.Background(), part, 2, nil)
	require.NoError(t, err)
	return set
}

// Every 3x3 board: the additive bound (direct, transposed, with the dual
// lookup) never exceeds the true distance, dominates Manhattan distance, and
// IDA* with it finds the BFS length. The dual lookup never lowers the bound
// and raises it on some boards.
func TestAdditiveOn3x3IsAdmissibleAndOptimal(t *testing.T) {
	dist := encode.Distances(3, 3)
	for _, name := range []string{"4-4", "3-5", "1,5/2,3,6/4,7,8"} {
		set := buildSet(t, name, 3, 3)
		for _, v := range []struct{ refl, dual bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
			h := &Heuristic{DBs: set, Transpose: v.refl, Dual: v.dual}
			base := &Heuristic{DBs: set, Transpose: v.refl}
			tr, err := h.NewTracker(3, 3) // Reset makes it reusable
			require.NoError(t, err)
			exact, solved, raised := 0, 0, 0
			for key, d := range dist {
				b, _ := encode.FromKey(key, 3, 3)
				p := ida.Position{Rows: 3, Cols: 3, Blank: b.Blank(), MD: b.Manhattan()}
				copy(p.Tiles[:], b.Tiles)
				tr.Reset(&p)
				got := tr.Bound(&p, 1<<30)
				w, err := base.Value(b)
				require.NoError(t, err)
				if key%1000 == 0 { // the convenience path agrees
					x, err := h.Value(b)
					require.NoError(t, err)
					require.Equal(t, got, x)
				}
				if got > d || got < b.Manhattan() || got < w {
					t.Fatalf("%s %+v %s: bound %d, distance %d, manhattan %d, without dual %d", name, v, b, got, d, b.Manhattan(), w)
				}
				if got == d {
					exact++
				}
				if got > w {
					raised++
				}
				if (exact+int(key>>8))%40 == 0 {
					res, err := ida.Solve(b, h, ida.Options{})
					require.NoError(t, err)
					require.Equal(t, d, res.Length, "%s", b)
					solved++
				}
			}
			assert.Greater(t, exact, 0)
			assert.Greater(t, solved, 1000)
			if v.dual {
				assert.Greater(t, raised, 1000, "%s %+v", name, v)
			}
		}
	}
}

// The transpose must help somewhere: the transposed bound beats the direct one
// on some board and is never worse in the max.
func TestTransposeAddsInformation(t *testing.T) {
	set := buildSet(t, "4-4", 3, 3)
	direct, refl := &Heuristic{DBs: set}, &Heuristic{DBs: set, Transpose: true}
	rng := rand.New(rand.NewPCG(1, 2))
	better := 0
	for i := 0; i < 2000; i++ {
		b := encode.Random(rng, 3, 3)
		vd, _ := direct.Value(b)
		vr, _ := refl.Value(b)
		require.GreaterOrEqual(t, vr, vd)
		if vr > vd {
			better++
		}
	}
	assert.Greater(t, better, 0)
}

// korfQuick are Korf instances solved in a moment with any database here;
// data.KorfLength has their published optimal lengths.
var korfQuick = []int{12, 42, 55, 79, 97}

// 5-5-5 is small enough to build in a test (about a second). The easy Korf
// instances have published lengths; random walks are checked against the
// Manhattan-only optimum; skipping changes neither nodes nor lengths.
func TestPDB555On15Puzzle(t *testing.T) {
	set := buildSet(t, "5-5-5", 4, 4)
	for _, refl := range []bool{false, true} {
		h := &Heuristic{DBs: set, Transpose: refl}
		noSkip := &Heuristic{DBs: set, Transpose: refl, NoSkip: true}
		for _, id := range korfQuick {
			b := data.KorfInstance(id).Board
			res, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err)
			require.Equal(t, data.KorfLength(id), res.Length, "korf %d", id)
			res2, err := ida.Solve(b, noSkip, ida.Options{})
			require.NoError(t, err)
			require.Equal(t, res.Length, res2.Length)
			require.Equal(t, res.Expanded, res2.Expanded, "korf %d: skipping changed the nodes", id)
			require.Equal(t, res.Generated, res2.Generated)
			require.Equal(t, res.Iterations, res2.Iterations)
			// Every generated node and the root is either checked or skipped.
			assert.Equal(t, res.Generated+1, res.Counters["checks"]+res.Counters["skipped"])
			assert.Zero(t, res2.Counters["skipped"])
			assert.Equal(t, res2.Generated+1, res2.Counters["checks"])
		}
	}
	rng := rand.New(rand.NewPCG(5, 5))
	h := &Heuristic{DBs: set, Transpose: true}
	for i := 0; i < 20; i++ {
		b := encode.Goal(4, 4)
		for j := 0; j < 60; j++ {
			_, tiles := b.Successors()
			require.NoError(t, b.Move(tiles[rng.IntN(len(tiles))]))
		}
		want, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
		require.NoError(t, err)
		got, err := ida.Solve(b, h, ida.Options{})
		require.NoError(t, err)
		require.Equal(t, want.Length, got.Length, "%s", b)
		assert.LessOrEqual(t, got.Expanded, want.Expanded)
	}
}

func TestFileRoundTripAndCorruption(t *testing.T) {
	dir := t.TempDir()
	part, err := ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	_, err = Load(dir, part)
	require.ErrorIs(t, err, ErrMissing)
	assert.Contains(t, err.Error(), "gapset pdb build --partition 4-4 --rows 3 --cols 3 --out "+dir)

	set := buildSet(t, "4-4", 3, 3)
	for i, g := range part.Groups {
		require.NoError(t, Write(filepath.Join(dir, FileName(3, 3, g)), 3, 3, g, set.Tables[i], set.Steps[i]))
	}
	got, err := Load(dir, part)
	require.NoError(t, err)
	require.Equal(t, set.Tables, got.Tables)
	require.Equal(t, set.Steps, got.Steps)
	entries, _ := os.ReadDir(dir)
	require.Len(t, entries, 2, "no temporary files left")

	path := filepath.Join(dir, FileName(3, 3, part.Groups[0]))
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, "header too short"},
		{"truncated", good[:len(good)-1], "truncated"},
		{"trailing", append(append([]byte(nil), good...), 0), "trailing"},
		{"magic", flip(good, 0), "not a pattern database"},
		{"version", flip(good, 7), "version"},
		{"rows", flip(good, 8), "holds group"},
		{"tiles", flip(good, 13), "holds group"},
		{"entries", flip(good, 28), "entries"},
		{"payload", flip(good, headerSize+100), "checksum"},
		{"crc", flip(good, 36), "checksum"},
	} {
		require.NoError(t, os.WriteFile(path, tc.data, 0o644))
		_, err := Load(dir, part)
		require.ErrorIs(t, err, ErrCorrupt, tc.name)
		assert.Contains(t, err.Error(), tc.msg, tc.name)
		assert.Contains(t, err.Error(), "gapset pdb build", tc.name)
	}
	// Another group's file under this name is refused too.
	other := filepath.Join(dir, FileName(3, 3, part.Groups[1]))
	data, _ := os.ReadFile(other)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	_, err = Load(dir, part)
	require.ErrorIs(t, err, ErrCorrupt)
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x41
	return c
}

func TestParsePartition(t *testing.T) {
	p, err := ParsePartition("7-8", 4, 4)
	require.NoError(t, err)
	require.Len(t, p.Groups, 2)
	assert.Len(t, p.Groups[0], 7)
	p, err = ParsePartition("7-8-mid", 4, 4)
	require.NoError(t, err)
	assert.Equal(t, [][]uint8{{5, 6, 7, 8, 9, 10, 11, 12}, {1, 2, 3, 4, 13, 14, 15}}, p.Groups)
	for _, bad := range []string{"7-9", "1,2/2,3,4,5,6,7,8", "1,2,3", "1,2,3/4,5,6,7,x", "0,1,2,3/4,5,6,7,8"} {
		_, err := ParsePartition(bad, 3, 3)
		assert.Error(t, err, bad)
	}
	_, err = ParsePartition("7-8", 3, 3)
	assert.ErrorContains(t, err, "4x4")
	// ranges of tiles
	p, err = ParsePartition("1-6/7-11", 3, 4)
	require.NoError(t, err)
	assert.Equal(t, [][]uint8{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11}}, p.Groups)
	p, err = ParsePartition("1,5-6/2-4,7-8", 3, 3)
	require.NoError(t, err)
	assert.Equal(t, [][]uint8{{1, 5, 6}, {2, 3, 4, 7, 8}}, p.Groups)
	for _, bad := range []string{"1-3-4/5-8", "4-1/5-8", "1-/2-8", "-1/2-8", "1-4/4-8", "1-4/5-9", "1-4/5-7"} {
		_, err := ParsePartition(bad, 3, 3)
		assert.Error(t, err, bad)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(magic))
	f.Add(append([]byte(magic), make([]byte, 40)...))
	group := []uint8{1, 2}
	// valid files of both codings
	table, step, err := Build(context.Background(), 3, 3, group, 1, nil)
	if err != nil {
		f.Fatal(err)
	}
	geo, _ := encode.NewGeometry(3, 3)
	nib, err := compactTable(geo, group, table, 1)
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	for name, write := range map[string]func(string) error{
		"bytes":   func(p string) error { return Write(p, 3, 3, group, table, step) },
		"compact": func(p string) error { return WriteCompact(p, 3, 3, group, nib, step) },
	} {
		p := filepath.Join(dir, name)
		if err := write(p); err != nil {
			f.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := decode(strings.NewReader(string(data)), "fuzz", 3, 3, group, nil, nil, false)
		table, compact := st.data, st.compact
		want := Entries(9, 2)
		if compact {
			want = (want + 1) / 2
		}
		if err == nil && len(table) != want {
			t.Fatalf("accepted a table of %d bytes (compact %t)", len(table), compact)
		}
	})
}

// The parallel build gives the sequential build's tables and steps.
func TestParallelBuildMatchesSequential(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		group      []uint8
	}{
		{3, 3, []uint8{1, 2, 3}},
		{3, 3, []uint8{1, 2, 3, 4, 5, 6, 7, 8}},
		{3, 4, []uint8{2, 5, 6, 11}},
		{3, 4, []uint8{1, 2, 3, 4, 5}},
	} {
		want, wstep, err := Build(context.Background(), tc.rows, tc.cols, tc.group, 1, nil)
		require.NoError(t, err)
		for _, w := range []int{2, 3} {
			got, step, err := Build(context.Background(), tc.rows, tc.cols, tc.group, w, nil)
			require.NoError(t, err)
			require.Equal(t, wstep, step)
			require.Equal(t, want, got, "group %v, %d workers", tc.group, w)
		}
	}
}

// TestPDB78FromEnv checks built 7-8 databases (opt-in: building them takes
// minutes): GAPSET_PDB78_DIR=DIR go test -run PDB78 ./pdb/
func TestPDB78FromEnv(t *testing.T) {
	dir := os.Getenv("GAPSET_PDB78_DIR")
	if dir == "" {
		t.Skip("set GAPSET_PDB78_DIR to a directory made by gapset pdb build --partition 7-8")
	}
	part, err := ParsePartition("7-8", 4, 4)
	require.NoError(t, err)
	set, err := Load(dir, part)
	require.NoError(t, err)
	h := &Heuristic{DBs: set, Transpose: true}
	for _, id := range append([]int{1, 2, 3}, korfQuick...) {
		res, err := ida.Solve(data.KorfInstance(id).Board, h, ida.Options{})
		require.NoError(t, err)
		require.Equal(t, data.KorfLength(id), res.Length, "korf %d", id)
	}
	b, err := encode.Parse("0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", 4, 4)
	require.NoError(t, err)
	res, err := ida.Solve(b, h, ida.Options{})
	require.NoError(t, err)
	require.Equal(t, 80, res.Length)
	// Random walks: the Manhattan-only optimum.
	rng := rand.New(rand.NewPCG(78, 78))
	for i := 0; i < 20; i++ {
		b := randomWalkBoard(rng, 80)
		want, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
		require.NoError(t, err)
		got, err := ida.Solve(b, h, ida.Options{})
		require.NoError(t, err)
		require.Equal(t, want.Length, got.Length, "%s", b)
	}
}

func randomWalkBoard(rng *rand.Rand, n int) encode.Board {
	b := encode.Goal(4, 4)
	for j := 0; j < n; j++ {
		_, tiles := b.Successors()
		_ = b.Move(tiles[rng.IntN(len(tiles))])
	}
	return b
}

// The tracker follows moves and undos: along random walks that go down and
// back up, its bound equals a fresh tracker's on the same board (direct,
// transposed and dual boards), the ranks it keeps equal the ranks computed
// from the cells, and rankDelta (what Prefetch keeps for a child, and Move
// reads when the parent was prefetched) predicts the rank after the move.
func TestTrackingMatchesFromScratch(t *testing.T) {
	for _, c := range []struct {
		part       string
		rows, cols int
		refl, dual bool
	}{{"4-4", 3, 3, true, true}, {"1,5/2,3,6/4,7,8", 3, 3, true, true}, {"3-5", 3, 3, false, false}, {"5-5-5", 4, 4, true, false}} {
		set := buildSet(t, c.part, c.rows, c.cols)
		h := &Heuristic{DBs: set, Transpose: c.refl, Dual: c.dual}
		tr, err := h.NewTracker(c.rows, c.cols)
		require.NoError(t, err)
		pt := tr.(*tracker)
		n := c.rows * c.cols
		rng := rand.New(rand.NewPCG(3, 4))
		for walk := 0; walk < 100; walk++ {
			b := encode.Random(rng, c.rows, c.cols)
			p := ida.Position{Rows: c.rows, Cols: c.cols, Blank: b.Blank(), MD: b.Manhattan()}
			copy(p.Tiles[:], b.Tiles)
			tr.Reset(&p)
			type mv struct {
				tile     uint8
				from, to int
			}
			var path []mv
			for step := 0; step < 40; step++ {
				if len(path) > 0 && rng.IntN(3) == 0 { // undo the last move
					m := path[len(path)-1]
					path = path[:len(path)-1]
					p.Tiles[m.from], p.Tiles[m.to] = m.tile, 0
					p.Blank = m.to
					p.Depth--
					tr.Undo(&p, m.tile, m.from, m.to)
				} else {
					nb := encode.Neighbors(c.rows, c.cols, p.Blank)
					if rng.IntN(2) == 0 { // Move then reads the rank changes Prefetch kept
						var cells []uint8
						for _, x := range nb {
							cells = append(cells, uint8(x))
						}
						pt.Prefetch(&p, cells)
					}
					from := nb[rng.IntN(len(nb))]
					m := mv{p.Tiles[from], from, p.Blank}
					g := int(pt.grpOf[m.tile])
					next := pt.rk[g] + pt.rankDelta(g, int(pt.idxIn[m.tile]), m.from, m.to, &p.Tiles)
					p.Tiles[m.to], p.Tiles[from] = m.tile, 0
					p.Blank = from
					p.Depth++
					tr.Move(&p, m.tile, m.from, m.to)
					require.Equal(t, next, pt.rk[g], "%s: rankDelta", c.part)
					path = append(path, m)
				}
				for g := range pt.groups {
					require.Equal(t, pt.index(g, &pt.pos), pt.rk[g], "%s group %d", c.part, g)
					require.Equal(t, pt.index(g, &pt.rpos), pt.rr[g], "%s transposed group %d", c.part, g)
				}
				cur := encode.Board{Rows: c.rows, Cols: c.cols, Tiles: append([]uint8(nil), p.Tiles[:n]...)}
				p.MD = cur.Manhattan()
				want, err := h.Value(cur)
				require.NoError(t, err)
				require.Equal(t, want, tr.Bound(&p, 1<<30), "%s walk %d step %d %v", c.part, walk, step, p.Tiles[:n])
			}
		}
	}
}

// The build's rank changes (a tile's weight along a row, column along a
// column) equal rank of the moved placement for every move of every tile on
// random placements.
func TestRankDeltaMatchesRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sz := range [][3]int{{3, 3, 4}, {4, 4, 7}, {4, 4, 8}, {3, 5, 7}, {2, 4, 3}, {5, 3, 6}, {2, 8, 9}} {
		rows, cols, k := sz[0], sz[1], sz[2]
		n := rows * cols
		g := newGrid(rows, cols)
		weight := make([]int, k)
		for i, w := k-1, 1; i >= 0; i-- {
			weight[i] = w
			w *= n - i
		}
		pos := make([]uint8, k)
		for trial := 0; trial < 2000; trial++ {
			r := rng.IntN(Entries(n, k))
			used := placement.Unrank(r, pos, n)
			var w worker
			for i, c := range pos {
				w.wAt[c] = weight[i]
			}
			for i := range pos {
				a := int(pos[i])
				for to := g.nb[a] &^ used; to != 0; to &= to - 1 {
					b := bits.TrailingZeros32(to)
					var got int
					switch b - a {
					case 1, -1:
						got = r + (b-a)*w.wAt[a]
					case cols:
						got = r + w.column(w.wAt[a], a, cols)
					case -cols:
						got = r - w.column(w.wAt[a], b, cols)
					}
					pos[i] = uint8(b)
					require.Equal(t, placement.Rank(pos, n), got, "%dx%d %v tile %d %d->%d", rows, cols, pos, i, a, b)
					pos[i] = uint8(a)
				}
			}
		}
	}
}

// prefetchKids reads child.r at offset 0 of 16-byte children.
func TestChildLayout(t *testing.T) {
	var c child
	assert.Equal(t, uintptr(16), unsafe.Sizeof(c))
	assert.Equal(t, uintptr(0), unsafe.Offsetof(c.r))
	st := make([]uint64, 100)
	prefetchKids(unsafe.Pointer(&st[0]), 3, []child{{r: 0}, {r: 99}}) // must not fault
}

// marks.any sees exactly the marked ranges, across word boundaries.
func TestMarks(t *testing.T) {
	const unit = 1 << markShift
	m := newMarks(300 * unit)
	assert.False(t, m.any(0, 300*unit))
	m.set(70*unit + 3)
	m.set(128 * unit)
	for _, tc := range []struct {
		lo, hi int
		want   bool
	}{
		{0, 70 * unit, false}, {0, 70*unit + 1, true}, {70*unit + unit - 1, 128 * unit, true},
		{71 * unit, 128 * unit, false}, {71 * unit, 128*unit + 1, true}, {128*unit + unit, 300 * unit, false},
		{60 * unit, 200 * unit, true},
	} {
		assert.Equal(t, tc.want, m.any(tc.lo, tc.hi), "[%d, %d)", tc.lo, tc.hi)
	}
	m.clear()
	assert.False(t, m.any(0, 300*unit))
}
