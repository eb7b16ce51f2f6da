package encode

import "fmt"

// Key packs a board into 64 bits, 4 bits per cell, holding the tile number
// (blank 0), with cell 0 in the most significant nibble of the board's cells.
// For a 4x4 board this is exactly the paper's encoding: cell 0 in bits 63..60,
// cell 15 in bits 3..0. Smaller boards use the low 4*R*C bits the same way.
func (b Board) Key() uint64 { return KeyOf(b.Tiles) }

// FromKey unpacks a key made by Key. It validates the result as a board.
func FromKey(key uint64, rows, cols int) (Board, error) {
	if err := CheckSize(rows, cols); err != nil {
		return Board{}, err
	}
	n := rows * cols
	if n < 16 && key>>(4*uint(n)) != 0 {
		return Board{}, fmt.Errorf("key %#x has bits beyond a %dx%d board", key, rows, cols)
	}
	tiles := make([]int, n)
	for c := n - 1; c >= 0; c-- {
		tiles[c] = int(key & 15)
		key >>= 4
	}
	return New(rows, cols, tiles)
}

// ProjectMask returns the mask that keeps the last k cells of a key: the low
// 4k bits. k = 16 keeps everything.
func ProjectMask(k int) uint64 {
	if k >= 16 {
		return ^uint64(0)
	}
	return 1<<(4*uint(k)) - 1
}

// Project keeps the contents of the last k cells of a key (cells n-k..n-1 in
// row-major order), as the paper's 8/10/12-piece sets do.
func Project(key uint64, k int) uint64 { return key & ProjectMask(k) }
