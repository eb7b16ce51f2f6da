package bdd

import (
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
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
// random boards agree with a binary search of the keys. Skipped otherwise.
func TestFileAgreesWithKeys(t *testing.T) {
	bddPath, keyPath := os.Getenv("GAPSET_BDD"), os.Getenv("GAPSET_KEYS")
	if bddPath == "" || keyPath == "" {
		t.Skip("set GAPSET_BDD and GAPSET_KEYS")
	}
	s, err := Open(bddPath)
	if err != nil {
		t.Fatal(err)
	}
	h, keys, err := keyset.ReadAll(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !s.Contains(k) {
			t.Fatalf("member %#x missing", k)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000000; i++ {
		b := encode.Random(rng, h.Rows, h.Cols).Key()
		if member(keys, encode.Project(b, h.Cells)) != s.Contains(b) {
			t.Fatalf("board %#x disagrees", b)
		}
	}
}
