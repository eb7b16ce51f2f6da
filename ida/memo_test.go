package ida

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingSet holds the keys whose masked value is divisible by 3 and
// counts the questions that reach it.
type countingSet struct{ asked int }

func (c *countingSet) Contains(key uint64) bool {
	c.asked++
	return (key&0xffffffffff)%3 == 0
}

// TestMemoGrowsAndAnswersAlike: a memo starts small, grows to its largest
// size only after enough misses, never past it, and every answer is the
// set's, before, during and after growing.
func TestMemoGrowsAndAnswersAlike(t *testing.T) {
	for _, tc := range []struct {
		cells    int
		wantBits uint
	}{{16, memoBits}, {12, memoFirstBits}} {
		e := &gapEval{}
		set := &countingSet{}
		m := newMemo(0xffffffffff, tc.cells)
		require.Len(t, m.keys, 1<<memoFirstBits)
		// a key sequence with repeats: each key is asked twice in a row
		for i := uint64(0); i < 1<<20; i++ {
			key := i/2*0x9E3779B1 + i/2<<44 // the bits above the mask vary too
			assert.Equal(t, (key&0xffffffffff)%3 == 0, e.ask(set, &m, key), "key %x", key)
			if i == 2*growMisses<<memoFirstBits-1 {
				assert.Len(t, m.keys, 1<<memoFirstBits, "grew before its misses outnumbered its entries")
			}
		}
		assert.Len(t, m.keys, 1<<tc.wantBits, "cells %d", tc.cells)
		assert.Equal(t, int64(1<<19), e.hits, "the second of each pair is a hit")
		assert.Equal(t, 1<<19, set.asked)
	}
}
