package bdd

import (
	"errors"
	"slices"
)

// Progress reports building progress: keys added so far of total (total 0
// when unknown).
type Progress func(stage string, done, total uint64)

// BuildInPlace builds the BDD (or ZDD) of keys under any order, reusing
// the keys' memory: on return keys holds the sorted permuted bit strings,
// which BuildPermuted can take again (for the ZDD of the same set).
func BuildInPlace(keys []uint64, o Order, zdd bool, progress Progress) (*Diagram, error) {
	return asDiagram(buildInPlace(keys, o, zdd, progress))
}

func buildInPlace(keys []uint64, o Order, zdd bool, progress Progress) (*LevelDiagram, error) {
	b, err := NewBuilder(o, zdd)
	if err != nil {
		return nil, err
	}
	if !b.Natural() {
		for i, k := range keys {
			keys[i] = b.Permute(k)
		}
		if progress != nil {
			progress("sorting", 0, uint64(len(keys)))
		}
		sortUint64(keys)
	} else if !slices.IsSorted(keys) {
		for i, k := range keys {
			keys[i] = k & b.mask
		}
		sortUint64(keys)
	}
	return feed(b, keys, progress, "building")
}

// BuildPermuted builds from bit strings already permuted and sorted (as
// BuildInPlace leaves them).
func BuildPermuted(sorted []uint64, o Order, zdd bool, progress Progress) (*Diagram, error) {
	return asDiagram(buildPermuted(sorted, o, zdd, progress))
}

func buildPermuted(sorted []uint64, o Order, zdd bool, progress Progress) (*LevelDiagram, error) {
	b, err := NewBuilder(o, zdd)
	if err != nil {
		return nil, err
	}
	stage := "building BDD"
	if zdd {
		stage = "building ZDD"
	}
	return feed(b, sorted, progress, stage)
}

func feed(b *Builder, s []uint64, progress Progress, stage string) (*LevelDiagram, error) {
	for i, k := range s {
		if err := b.AddPermuted(k); err != nil {
			return nil, err
		}
		if progress != nil && i&(1<<20-1) == 0 {
			progress(stage, uint64(i), uint64(len(s)))
		}
	}
	return b.Finish()
}

// BuildStream builds from a stream of strictly increasing keys (a key-set
// file) without holding the keys: the natural order only, since other
// orders need the keys re-sorted. next returns false at the end.
func BuildStream(next func() (uint64, bool), total uint64, o Order, zdd bool, progress Progress) (*Diagram, error) {
	return asDiagram(buildStream(next, total, o, zdd, progress))
}

func buildStream(next func() (uint64, bool), total uint64, o Order, zdd bool, progress Progress) (*LevelDiagram, error) {
	b, err := NewBuilder(o, zdd)
	if err != nil {
		return nil, err
	}
	if !b.Natural() {
		return nil, errors.New("streaming build needs the natural order (other orders sort the keys in memory)")
	}
	stage := "building BDD"
	if zdd {
		stage = "building ZDD"
	}
	var i uint64
	for {
		k, ok := next()
		if !ok {
			break
		}
		if err := b.AddPermuted(k & b.mask); err != nil {
			return nil, err
		}
		if progress != nil && i&(1<<20-1) == 0 {
			progress(stage, i, total)
		}
		i++
	}
	return b.Finish()
}
