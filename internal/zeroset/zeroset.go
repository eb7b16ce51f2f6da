// Package zeroset enumerates the Gap0 set (configurations that reach the goal
// by Manhattan transitions alone) and its projections onto the last k cells.
//
// It is an interim stand-in so that the demo, the benchmarks and the tests of
// the gap-set heuristics have sets before the project's enumerator (package
// gapset) carries them: one layered reverse search, nothing more. Layer m
// holds the members with Manhattan distance m; it comes from layer m-1 alone
// by reverse moves that raise the distance by one, deduplicated by sorting.
package zeroset

import (
	"context"
	"fmt"
	"slices"

	"github.com/gapset/gapset/encode"
)

// Progress reports one finished layer.
type Progress struct {
	Layer int // Manhattan distance of the layer
	Size  int // members in the layer
	Total int // members so far
}

// Sets returns, for each k in cells, the sorted distinct projections of Gap0
// onto the last k cells (k = rows*cols: the whole set).
func Sets(ctx context.Context, rows, cols int, cells []int, progress func(Progress)) (map[int][]uint64, error) {
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, err
	}
	n := rows * cols
	for _, k := range cells {
		if k < 1 || k > n {
			return nil, fmt.Errorf("cells %d out of range 1..%d", k, n)
		}
	}
	var md [encode.MaxCells][encode.MaxCells]int8 // md[tile][cell]
	for t := 1; t < n; t++ {
		for c := 0; c < n; c++ {
			md[t][c] = int8(abs(c/cols-(t-1)/cols) + abs(c%cols-(t-1)%cols))
		}
	}
	nbrs := make([][]int, n)
	for c := range nbrs {
		nbrs[c] = encode.Neighbors(rows, cols, c)
	}
	shift := func(c int) uint { return uint(4 * (n - 1 - c)) }

	// Projections are deduplicated when their slice doubles, so memory
	// stays near the projected set's size; the whole set (k = n) needs no
	// deduplication, its layers being disjoint.
	out := make(map[int][]uint64, len(cells))
	lastCompact := make(map[int]int, len(cells))
	var scratch []uint64
	dedup := func(s []uint64) []uint64 {
		s, scratch = radixSort(s, scratch)
		return compact(s)
	}
	addLayer := func(layer []uint64) {
		for _, k := range cells {
			mask := encode.ProjectMask(k)
			s := out[k]
			for _, key := range layer {
				s = append(s, key&mask)
			}
			if k < n && len(s) > 2*lastCompact[k]+1<<20 {
				s = slices.Clone(dedup(s))
				lastCompact[k] = len(s)
			}
			out[k] = s
		}
	}

	layer := []uint64{encode.Goal(rows, cols).Key()}
	total := 0
	var next []uint64
	for m := 0; len(layer) > 0; m++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		total += len(layer)
		addLayer(layer)
		if progress != nil {
			progress(Progress{Layer: m, Size: len(layer), Total: total})
		}
		next = next[:0]
		for _, key := range layer {
			blank := 0
			for c := 0; c < n; c++ {
				if key>>shift(c)&15 == 0 {
					blank = c
					break
				}
			}
			for _, c := range nbrs[blank] {
				t := key >> shift(c) & 15
				// reverse move: tile t goes from c into the blank's cell
				if md[t][blank] == md[t][c]+1 {
					next = append(next, key&^(15<<shift(c))|t<<shift(blank))
				}
			}
		}
		sorted, rest := radixSort(next, layer)
		// sorted is next or the old layer's memory; rest is the other one
		layer, next = compact(sorted), rest
	}
	scratch = nil
	for _, k := range cells {
		out[k] = slices.Clip(dedup(out[k]))
		scratch = nil
	}
	return out, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
