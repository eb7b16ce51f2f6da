package bdd

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/slowtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wideKeys is a synthetic set whose level 27 is wide: prefix p (27 bits)
// continues with 0 and a (14 bits) or 1 and b, where (a, b) = (p mod 2^13,
// p >> 13) differs for every p; the suffixes a and b are 2^14 singletons
// below. A prefix with a = b has the same child on both sides and no node
// of its own (the reduction rule), so the level holds wideWidth(w) nodes.
// 2w keys of 42 bits, in increasing order.
func wideKeys(w uint64, each func(key uint64)) {
	for p := range w {
		each(p<<15 | p&(1<<13-1))
		each(p<<15 | 1<<14 | p>>13)
	}
}

// wideWidth is the nodes of wideKeys(w)'s level 27: the prefixes but those
// p = b*2^13 + b (b < 2^13) with a = b.
func wideWidth(w uint64) int {
	same := 0
	for b := uint64(0); b < 1<<13 && b<<13|b < w; b++ {
		same++
	}
	return int(w) - same
}

// A level wider than 2^26 nodes (the old builder's limit) is built, laid
// into the query structure, and answers membership like the key set:
// 1.3e8 keys, 1.4e8 nodes, about 2.5 GB: opt in with GAPSET_SLOW=1.
func TestLevelWiderThan2To26(t *testing.T) {
	slowtest.Skip(t, "build a level wider than 2^26 nodes (several GB)")
	w := uint64(1)<<26 + 1<<14
	start := time.Now()
	ld := buildWide(t, w)
	t.Logf("built %d nodes in %v", ld.NodeCount(), time.Since(start))
	sizes := ld.LevelSizes()
	assert.Equal(t, wideWidth(w), sizes[27], "level 27")
	assert.Greater(t, sizes[27], 1<<26)
	require.NoError(t, ld.CheckCount(2*w))
	d := ld.Diagram()
	ld = nil
	runtime.GC()
	s, err := NewSet(d, Info{})
	require.NoError(t, err)
	t.Logf("query structure after %v", time.Since(start))
	d = nil
	runtime.GC()
	rng := rand.New(rand.NewPCG(3, 4))
	wrong := 0
	check := func(key uint64, want bool) {
		if s.Contains(key) != want {
			if wrong++; wrong < 10 {
				t.Errorf("key %#x: member %v, want %v", key, !want, want)
			}
		}
	}
	for range 1 << 16 {
		p := rng.Uint64N(w)
		a, bb := p&(1<<13-1), p>>13
		check(p<<15|a, true)
		check(p<<15|1<<14|bb, true)
		// one suffix bit off, or a prefix beyond w: not members
		x := rng.Uint64N(14)
		check(p<<15|(a^1<<x)&(1<<14-1), false)
		check(p<<15|1<<14|(bb^1<<x)&(1<<14-1), false)
		check((w+rng.Uint64N(1<<27-w))<<15|a, false)
	}
	assert.Zero(t, wrong)
}

// The synthetic set's level is as wide as wideWidth says, on a small
// width built in a moment.
func TestWideKeysWidth(t *testing.T) {
	for _, w := range []uint64{1, 5, 1<<13 + 3, 1<<16 + 1<<13 + 7} {
		ld := buildWide(t, w)
		assert.Equal(t, wideWidth(w), ld.LevelSizes()[27], "w=%d", w)
		require.NoError(t, ld.CheckCount(2*w))
	}
}

// buildWide builds wideKeys(w) in memory, natural order over 42 bits.
func buildWide(t *testing.T, w uint64) *LevelDiagram {
	t.Helper()
	o := Order{Name: "natural", Bits: make([]uint8, 42)}
	for i := range o.Bits {
		o.Bits[i] = uint8(41 - i)
	}
	b, err := NewBuilder(o, false)
	require.NoError(t, err)
	wideKeys(w, func(k uint64) {
		if err == nil {
			err = b.AddPermuted(k)
		}
	})
	require.NoError(t, err)
	ld, err := b.Finish()
	require.NoError(t, err)
	return ld
}
