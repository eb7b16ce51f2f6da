package encode

import (
	"iter"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Random draws a board uniformly from the solvable R x C configurations:
// a uniform permutation (Fisher-Yates), with the two first non-blank tiles
// swapped when it is unsolvable. Swapping two tiles flips the parity and is a
// bijection between the two halves, so the result stays uniform.
func Random(rng *rand.Rand, rows, cols int) Board {
	n := rows * cols
	b := Board{Rows: rows, Cols: cols, Tiles: make([]uint8, n)}
	for i := range b.Tiles {
		b.Tiles[i] = uint8(i)
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		b.Tiles[i], b.Tiles[j] = b.Tiles[j], b.Tiles[i]
	}
	if !b.Solvable() {
		i, j := 0, 1
		if b.Tiles[i] == 0 {
			i = 2
		} else if b.Tiles[j] == 0 {
			j = 2
		}
		b.Tiles[i], b.Tiles[j] = b.Tiles[j], b.Tiles[i]
	}
	return b
}

// RandomInstances draws n boards with Random, numbered 1..n, from a
// generator seeded with seed: the same seed gives the same list (the one
// `gapset gen --seed` writes).
func RandomInstances(seed uint64, n, rows, cols int) []Instance {
	return slices.Collect(RandomSeq(seed, n, rows, cols))
}

// RandomSeq yields the boards of RandomInstances one at a time, so that a
// list too long to hold (gen -n 2000000000) is written as it is drawn.
func RandomSeq(seed uint64, n, rows, cols int) iter.Seq[Instance] {
	return func(yield func(Instance) bool) {
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		for i := 0; i < n; i++ {
			if !yield(Instance{ID: strconv.Itoa(i + 1), Board: Random(rng, rows, cols)}) {
				return
			}
		}
	}
}
