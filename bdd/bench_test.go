package bdd

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Benchmarks on real gap sets read GAPSET_KEYS (a key-set file, e.g.
// /work/keys/g0_8.keys) and GAPSET_ORDER (default natural); without
// GAPSET_KEYS they use the 3x3 gap-at-most-2 set.
func benchKeys(b *testing.B) ([]uint64, keyset.Header) {
	if path := os.Getenv("GAPSET_KEYS"); path != "" {
		h, keys, err := keyset.ReadAll(path)
		if err != nil {
			b.Fatal(err)
		}
		return keys, h
	}
	_, g2 := sets3x3(b)
	return g2, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}
}

func benchOrder(b *testing.B, h keyset.Header) Order {
	name := os.Getenv("GAPSET_ORDER")
	if name == "" {
		name = "natural"
	}
	o, err := NamedOrder(name, h.Rows, h.Cols, h.Cells)
	if err != nil {
		b.Fatal(err)
	}
	return o
}

func BenchmarkBuild(b *testing.B) {
	keys, h := benchKeys(b)
	o := benchOrder(b, h)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := Build(keys, o, false)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(d.NodeCount()), "nodes")
	}
	b.ReportMetric(float64(len(keys))*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}

// GAPSET_BDD names a .bdd file to query instead (no build); it is loaded
// once per test binary.
var benchFile struct {
	once sync.Once
	set  *Set
	err  error
}

func benchSet(b *testing.B) (*Set, keyset.Header) {
	if path := os.Getenv("GAPSET_BDD"); path != "" {
		benchFile.once.Do(func() { benchFile.set, benchFile.err = Open(path) })
		if benchFile.err != nil {
			b.Fatal(benchFile.err)
		}
		s := benchFile.set
		in := s.Info()
		return s, keyset.Header{Rows: in.Rows, Cols: in.Cols, Cells: in.Cells, Gap: in.Gap}
	}
	keys, h := benchKeys(b)
	d, err := Build(keys, benchOrder(b, h), false)
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSet(d, Info{Order: d.Order})
	if err != nil {
		b.Fatal(err)
	}
	return s, h
}

// Random boards: every query a fresh path through the diagram.
func BenchmarkContainsRandom(b *testing.B) {
	s, h := benchSet(b)
	rng := rand.New(rand.NewPCG(1, 1))
	qs := make([]uint64, 1<<16)
	for i := range qs {
		qs[i] = encode.Random(rng, h.Rows, h.Cols).Key()
	}
	hits := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s.Contains(qs[i&(len(qs)-1)]) {
			hits++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

// walk returns the keys of a random walk (no immediate move back), the
// query stream of a depth-first search.
func walk(h keyset.Header, n int) []uint64 {
	rng := rand.New(rand.NewPCG(2, 2))
	bd := encode.Random(rng, h.Rows, h.Cols)
	qs := make([]uint64, n)
	prev := -1
	for i := range qs {
		next, tiles := bd.Successors()
		j := rng.IntN(len(next))
		if tiles[j] == prev {
			j = (j + 1) % len(next)
		}
		bd, prev = next[j], tiles[j]
		qs[i] = bd.Key()
	}
	return qs
}

// IDA*-like stream through Contains (no state kept between queries).
func BenchmarkContainsWalk(b *testing.B) {
	s, h := benchSet(b)
	qs := walk(h, 1<<16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Contains(qs[i&(len(qs)-1)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

// The same stream through a Cursor, which restarts below the shared prefix.
func BenchmarkCursorWalk(b *testing.B) {
	s, h := benchSet(b)
	qs := walk(h, 1<<16)
	c := s.NewCursor()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Contains(qs[i&(len(qs)-1)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

// TestFileAgreesWithKeys checks a big .bdd file against its key file when
// both are named (GAPSET_BDD, GAPSET_KEYS): every member is found, and
// 2,000,000 random boards agree with the key file. The keys are streamed,
// not held (the whole gap <= 2 set is 10.7 GB of keys). Skipped otherwise.
func TestFileAgreesWithKeys(t *testing.T) {
	bddPath, keyPath := os.Getenv("GAPSET_BDD"), os.Getenv("GAPSET_KEYS")
	if bddPath == "" || keyPath == "" {
		t.Skip("set GAPSET_BDD and GAPSET_KEYS")
	}
	s, err := Open(bddPath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := agreesWithKeyFile(s, keyPath, 2000000)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d members found, 2000000 random boards agree", n)
}

// agreesWithKeyFile streams a key-set file past s: every key must be a
// member (asked through a Cursor: sorted keys share long prefixes), and
// random boards, sorted by their projected keys and merged with the
// stream, must be members exactly when the file holds them (asked through
// Set.Contains). It returns the number of keys read.
func agreesWithKeyFile(s *Set, path string, random int) (uint64, error) {
	r, err := keyset.Open(path)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	h := r.Header()
	rng := rand.New(rand.NewPCG(1, 2))
	type board struct{ proj, key uint64 }
	boards := make([]board, random)
	for i := range boards {
		b := encode.Random(rng, h.Rows, h.Cols).Key()
		boards[i] = board{encode.Project(b, h.Cells), b}
	}
	slices.SortFunc(boards, func(a, b board) int { return cmp.Compare(a.proj, b.proj) })
	c := s.NewCursor()
	var n uint64
	j := 0
	check := func(upTo uint64, last bool) error {
		for ; j < len(boards) && (last || boards[j].proj <= upTo); j++ {
			want := !last && boards[j].proj == upTo
			if s.Contains(boards[j].key) != want {
				return fmt.Errorf("board %#x: member %v in the BDD, %v in the key file", boards[j].key, !want, want)
			}
		}
		return nil
	}
	for {
		k, ok := r.Next()
		if !ok {
			break
		}
		n++
		if !c.Contains(k) {
			return n, fmt.Errorf("member %#x (key %d) missing", k, n)
		}
		if err := check(k, false); err != nil {
			return n, err
		}
	}
	if err := r.Err(); err != nil {
		return n, err
	}
	if n != h.Count {
		return n, fmt.Errorf("read %d keys, the header says %d", n, h.Count)
	}
	return n, check(0, true)
}

func TestAgreesWithKeyFile(t *testing.T) {
	g0, g2 := sets3x3(t)
	dir := t.TempDir()
	for _, enc := range []Encoding{Cells, Ranks, Tiles} {
		keys := slices.Clone(g2)
		enc.ConvertAll(keys, 9, 9)
		o, err := NamedOrder("reverse", 3, 3, 9)
		require.NoError(t, err)
		d, err := Build(keys, o, false)
		require.NoError(t, err)
		s, err := NewSet(d, Info{Rows: 3, Cols: 3, Cells: 9, Encoding: enc})
		require.NoError(t, err)
		path := filepath.Join(dir, "g2.keys")
		require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}, g2))
		n, err := agreesWithKeyFile(s, path, 20000)
		require.NoError(t, err, "%v", enc)
		assert.Equal(t, uint64(len(g2)), n)
		// a file with fewer keys: random members of the set not in it
		require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 0}, g0))
		_, err = agreesWithKeyFile(s, path, 20000)
		assert.ErrorContains(t, err, "member true in the BDD", "%v", enc)
		// a file with more keys: a member missing
		more := slices.Clone(g2)
		more = append(more, randomKeys(rand.New(rand.NewPCG(3, 3)), 3, 3, 9, 2000)...)
		slices.Sort(more)
		more = slices.Compact(more)
		require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 4}, more))
		_, err = agreesWithKeyFile(s, path, 20000)
		assert.ErrorContains(t, err, "missing", "%v", enc)
	}
}

// flatSetFor is benchSet's set with its nodes where the lean load leaves
// them (OpenWith with no room for a layout): GAPSET_BDD, or the 3x3 set
// saved to a temporary file.
func flatSetFor(b *testing.B) (*Set, keyset.Header) {
	path := os.Getenv("GAPSET_BDD")
	h := keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}
	if path == "" {
		keys, kh := benchKeys(b)
		d, err := Build(keys, benchOrder(b, kh), false)
		require.NoError(b, err)
		path = filepath.Join(b.TempDir(), "flat.bdd")
		_, err = Save(path, d, Meta{Rows: kh.Rows, Cols: kh.Cols, Cells: kh.Cells, Gap: kh.Gap})
		require.NoError(b, err)
		h = kh
	}
	in, err := ReadInfo(path)
	require.NoError(b, err)
	s, err := OpenWith(path, OpenOptions{Available: leanPeak(in.Nodes, in.Nodes)})
	require.NoError(b, err)
	require.Nil(b, s.cells, "flat")
	return s, keyset.Header{Rows: in.Rows, Cols: in.Cols, Cells: in.Cells, Gap: h.Gap}
}

// BenchmarkContainsWalk on the flat layout (a diagram too big for NewSet's).
func BenchmarkContainsWalkFlat(b *testing.B) {
	s, h := flatSetFor(b)
	qs := walk(h, 1<<16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Contains(qs[i&(len(qs)-1)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

// BenchmarkContainsRandom on the flat layout.
func BenchmarkContainsRandomFlat(b *testing.B) {
	s, h := flatSetFor(b)
	rng := rand.New(rand.NewPCG(1, 1))
	qs := make([]uint64, 1<<16)
	for i := range qs {
		qs[i] = encode.Random(rng, h.Rows, h.Cols).Key()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Contains(qs[i&(len(qs)-1)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

// BenchmarkMappedMembers lists the members of a mapped whole-board set
// (the 4x4 ball, ranks, natural order), as verify --keys does: the cost
// a member of the walk, the nodes in cache.
func BenchmarkMappedMembers(b *testing.B) {
	_, mapPath := mappedCase(b, b.TempDir(), ball4x4(b), 4, 4, 16, Ranks, false)
	s, err := Open(mapPath)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var n int
	for b.Loop() { // b.Loop starts the timer itself
		if _, err := s.Members(func(uint64) bool { n++; return true }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/member")
}
