package bdd

import (
	"fmt"
	"math"
	"time"

	"github.com/gapset/gapset/keyset"
)

// BuildFromFile streams the sorted keys of a key-set file into a BDD (zdd:
// a ZDD) under o, without holding them in memory; the file is checked to
// its end (order, checksum).
func BuildFromFile(path string, o Order, zdd bool, progress Progress) (*Diagram, error) {
	return asDiagram(buildFromFile(path, o, zdd, Cells, 0, 0, progress))
}

// buildFromFile streams the file's keys (k cells of n) converted into enc,
// which must keep them increasing (Cells and Ranks do).
func buildFromFile(path string, o Order, zdd bool, enc Encoding, n, k int, progress Progress) (*LevelDiagram, error) {
	r, err := keyset.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	next := r.Next
	if enc != Cells {
		next = func() (uint64, bool) {
			key, ok := r.Next()
			return enc.Convert(key, n, k), ok
		}
	}
	d, err := buildStream(next, r.Header().Count, o, zdd, progress)
	if err != nil {
		return nil, err
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return d, nil
}

// FilePass reads a key-set file once per call, checking it to the end.
func FilePass(path string) KeyPass {
	return func(add func(uint64)) error {
		r, err := keyset.Open(path)
		if err != nil {
			return err
		}
		defer r.Close()
		for {
			k, ok := r.Next()
			if !ok {
				break
			}
			add(k)
		}
		return r.Err()
	}
}

// ConvertAll turns whole-board (cells) keys of k kept cells on an n-cell
// board into the encoding, in place.
func (e Encoding) ConvertAll(keys []uint64, n, k int) {
	if e == Cells {
		return
	}
	for i, key := range keys {
		keys[i] = e.Convert(key, n, k)
	}
}

// ConvertPass converts every key of a pass into the encoding.
func (e Encoding) ConvertPass(pass KeyPass, n, k int) KeyPass {
	return func(add func(uint64)) error {
		return pass(func(key uint64) { add(e.Convert(key, n, k)) })
	}
}

// CheckCount checks that d holds n members, by its stored count and by a
// walk of the diagram.
func (d *Diagram) CheckCount(n uint64) error { return checkCount(diagramView{d}, d.Count, n) }

// CheckRudd rebuilds the key-set file's set through rudd and compares its
// node count with d's (small sets: rudd holds every node in memory; its
// table is sized from d's count, so rudd's collector does not run when the
// counts agree).
func CheckRudd(path string, o Order, d interface{ NodeCount() int }) error {
	_, keys, err := keyset.ReadAll(path)
	if err != nil {
		return err
	}
	rb, err := buildRudd(keys, o, d.NodeCount())
	if err != nil {
		return err
	}
	if n := rb.NodeCount(); n != d.NodeCount() {
		return fmt.Errorf("rudd built %d nodes, our builder %d", n, d.NodeCount())
	}
	return nil
}

// KeysBuild says how BuildKeys and BuildKeyFile make a set's diagram.
type KeysBuild struct {
	Order    Order
	Encoding Encoding // of the diagram; the keys given are cells keys
	Count    uint64   // members expected (0: whatever the build counts)
	ZDD      bool     // also count the nodes of the set's ZDD
	Rudd     bool     // BuildKeyFile: read the keys whole and check the result against rudd
	MaxKeys  int      // BuildKeyFile, orders other than natural: keys held at once per pass (0: no limit)
	Progress Progress
}

// Built is a set's BDD (as the builder holds it: Save writes it as it
// is, Diagram converts it), its ZDD's node count when asked, and the time
// the BDD took.
type Built struct {
	BDD      *LevelDiagram
	ZDDNodes uint64
	Took     time.Duration
	Peak     int64 // the process's peak resident memory after the build (0 = unknown; the caller measures it)
}

// BuildKeys builds the diagram of sorted cells keys of k cells on an n-cell
// board; it converts them in place (the slice is consumed).
func BuildKeys(keys []uint64, n, k int, b KeysBuild) (Built, error) {
	start := time.Now()
	b.Encoding.ConvertAll(keys, n, k)
	d, err := buildInPlace(keys, b.Order, false, b.Progress)
	if err != nil {
		return Built{}, err
	}
	return b.finish(Built{BDD: d, Took: time.Since(start)}, func() (*LevelDiagram, error) {
		return buildPermuted(keys, b.Order, true, b.Progress)
	})
}

// BuildKeyFile builds the diagram of a key-set file's set of k cells on an
// n-cell board. The natural order streams the file in the cells and ranks
// encodings (the keys never sit in memory: ranks keep the keys' order, the
// Lehmer code being increasing in the tiles read row-major); other orders
// and encodings re-sort it in passes of at most MaxKeys keys, counting the
// ZDD in the same passes; Rudd reads it whole.
func BuildKeyFile(path string, n, k int, b KeysBuild) (Built, error) {
	if b.Rudd {
		_, keys, err := keyset.ReadAll(path)
		if err != nil {
			return Built{}, err
		}
		out, err := BuildKeys(keys, n, k, b)
		if err != nil {
			return Built{}, err
		}
		return out, CheckRudd(path, b.Order, out.BDD)
	}
	start := time.Now()
	if newPermuter(b.Order).identity && b.Encoding.KeepsOrder() {
		d, err := buildFromFile(path, b.Order, false, b.Encoding, n, k, b.Progress)
		if err != nil {
			return Built{}, err
		}
		return b.finish(Built{BDD: d, Took: time.Since(start)}, func() (*LevelDiagram, error) {
			return buildFromFile(path, b.Order, true, b.Encoding, n, k, b.Progress)
		})
	}
	pass := FilePass(path)
	if b.Encoding != Cells {
		pass = b.Encoding.ConvertPass(pass, n, k)
	}
	maxKeys := b.MaxKeys
	if maxKeys <= 0 {
		maxKeys = math.MaxInt
	}
	d, z, err := buildPasses(pass, b.Order, b.ZDD, maxKeys, b.Progress)
	if err != nil {
		return Built{}, err
	}
	out := Built{BDD: d, Took: time.Since(start)}
	if z != nil {
		out.ZDDNodes = uint64(z.NodeCount())
	}
	b.ZDD = false // counted in the passes
	return b.finish(out, nil)
}

// finish checks the member count and counts the ZDD nodes if asked.
func (b KeysBuild) finish(out Built, zdd func() (*LevelDiagram, error)) (Built, error) {
	want := b.Count
	if want == 0 {
		want = out.BDD.Count
	}
	if err := out.BDD.CheckCount(want); err != nil {
		return Built{}, err
	}
	if b.ZDD {
		z, err := zdd()
		if err != nil {
			return Built{}, err
		}
		out.ZDDNodes = uint64(z.NodeCount())
	}
	return out, nil
}
