package bdd

import (
	"fmt"

	"github.com/gapset/gapset/keyset"
)

// BuildFromFile streams the sorted keys of a key-set file into a BDD (zdd:
// a ZDD) under o, without holding them in memory; the file is checked to
// its end (order, checksum).
func BuildFromFile(path string, o Order, zdd bool, progress Progress) (*Diagram, error) {
	r, err := keyset.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d, err := BuildStream(r.Next, r.Header().Count, o, zdd, progress)
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
func (d *Diagram) CheckCount(n uint64) error {
	if d.Count != n {
		return fmt.Errorf("built %d members from a file of %d keys", d.Count, n)
	}
	if c, err := d.SatCount(); err != nil || c != n {
		return fmt.Errorf("BDD holds %d members, the file %d keys (%v)", c, n, err)
	}
	return nil
}

// CheckRudd rebuilds the key-set file's set through rudd and compares its
// node count with d's (small sets: rudd holds every node in memory).
func CheckRudd(path string, o Order, d *Diagram) error {
	_, keys, err := keyset.ReadAll(path)
	if err != nil {
		return err
	}
	rb, err := BuildRudd(keys, o)
	if err != nil {
		return err
	}
	if n := rb.NodeCount(); n != d.NodeCount() {
		return fmt.Errorf("rudd built %d nodes, our builder %d", n, d.NodeCount())
	}
	return nil
}
