package bdd

// Encodings of whole-board sets. The key of a board holds the tile on each
// cell (cell c in nibble n-1-c); the "tiles" encoding holds instead the cell
// of each tile (tile t, 0 the blank, in nibble n-1-t): the inverse
// permutation. Both are keys of n nibbles, so every order, builder, file
// and query works on either; a file records which one it holds and Set
// converts each query.

// Encoding names.
const (
	EncodingCells = "cells"
	EncodingTiles = "tiles"
)

// TileKey converts a whole board's key (n cells) into the tiles encoding.
// It is its own inverse on keys of boards (permutations of 0..n-1).
func TileKey(key uint64, n int) uint64 {
	var out uint64
	for c := n - 1; c >= 0; c-- {
		t := key & 15
		key >>= 4
		out |= uint64(c) << (4 * uint(n-1-int(t)))
	}
	return out
}
