package search

import (
	"fmt"
	"math/bits"
)

// Dedup selects how a search recognises states it has seen.
type Dedup int

const (
	// Map uses Go's built-in map.
	Map Dedup = iota
	// Open is open addressing with linear probing, as in the web page
	// "第4章: 幅優先探索" that solves the 2x3 puzzle with hashing: a state's
	// hash picks a slot and a taken slot sends it to the next one. The table
	// doubles when half full.
	Open
	// Linear scans every stored state (the first programs of M. Hiroi's breadth-first search pages); its cost
	// grows with the square of the states stored. Kept for measuring.
	Linear
)

var dedupNames = []string{Map: "map", Open: "open", Linear: "linear"}

func (d Dedup) String() string {
	if d >= 0 && int(d) < len(dedupNames) {
		return dedupNames[d]
	}
	return fmt.Sprintf("Dedup(%d)", int(d))
}

// ParseDedup reads a Dedup name: map, open or linear.
func ParseDedup(s string) (Dedup, error) {
	for i, n := range dedupNames {
		if s == n {
			return Dedup(i), nil
		}
	}
	return 0, fmt.Errorf("unknown duplicate detection %q (choose map, open or linear)", s)
}

// index maps each stored state to a number (its queue entry).
type index[S comparable] interface {
	// findOrAdd returns the number stored for s and true, or stores v for s
	// and returns v and false.
	findOrAdd(s S, v int32) (int32, bool)
}

func newIndex[S comparable](d Dedup, hash func(S) uint64, hint int) (index[S], error) {
	switch d {
	case Map:
		return make(mapIndex[S], hint), nil
	case Open:
		return newOpenIndex(hash, hint), nil
	case Linear:
		return &linearIndex[S]{}, nil
	}
	return nil, fmt.Errorf("unknown duplicate detection %d", int(d))
}

type mapIndex[S comparable] map[S]int32

func (m mapIndex[S]) findOrAdd(s S, v int32) (int32, bool) {
	if old, ok := m[s]; ok {
		return old, true
	}
	m[s] = v
	return v, false
}

type linearIndex[S comparable] struct {
	states []S
	values []int32
}

func (l *linearIndex[S]) findOrAdd(s S, v int32) (int32, bool) {
	for i, t := range l.states {
		if t == s {
			return l.values[i], true
		}
	}
	l.states = append(l.states, s)
	l.values = append(l.values, v)
	return v, false
}

// openIndex is open addressing with linear probing. A slot's value is stored
// plus one, so the zero slot is empty.
type openIndex[S comparable] struct {
	hash  func(S) uint64
	slots []openSlot[S]
	shift uint // 64 - log2(len(slots))
	count int
}

type openSlot[S comparable] struct {
	state S
	v1    int32
}

func newOpenIndex[S comparable](hash func(S) uint64, hint int) *openIndex[S] {
	size := 16
	for size < 2*hint {
		size *= 2
	}
	return &openIndex[S]{hash: hash, slots: make([]openSlot[S], size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

// slot spreads the hash over the table by Fibonacci hashing: packed keys of
// boards differ mostly in their low bits.
func (o *openIndex[S]) slot(s S) int {
	return int((o.hash(s) * 0x9e3779b97f4a7c15) >> o.shift)
}

func (o *openIndex[S]) findOrAdd(s S, v int32) (int32, bool) {
	mask := len(o.slots) - 1
	for i := o.slot(s); ; i = (i + 1) & mask {
		sl := &o.slots[i]
		if sl.v1 == 0 {
			sl.state, sl.v1 = s, v+1
			o.count++
			if 2*o.count > len(o.slots) {
				o.grow()
			}
			return v, false
		}
		if sl.state == s {
			return sl.v1 - 1, true
		}
	}
}

func (o *openIndex[S]) grow() {
	old := o.slots
	o.slots = make([]openSlot[S], 2*len(old))
	o.shift--
	mask := len(o.slots) - 1
	for _, sl := range old {
		if sl.v1 == 0 {
			continue
		}
		i := o.slot(sl.state)
		for o.slots[i].v1 != 0 {
			i = (i + 1) & mask
		}
		o.slots[i] = sl
	}
}
