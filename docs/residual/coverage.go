//go:build ignore

// coverage.go samples the patterns a projection of R<=0 relative to
// pdb78b holds, before (or without) enumerating it: for each of N uniform
// random patterns on the given cells of the 4x4 board it solves the
// pattern's boards (every arrangement of the other cells, the solvable
// half) with pdb78b until one has optimum = h (the pattern is in the
// projection) or none has (it is not: every board of it gets h + 2).
// From the repository root (PDB holds the blank-aware 7-8 databases):
//
//	go run docs/residual/coverage.go PDB N CELLS    # CELLS: 6,7,...,15
package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/heuristic"
	"github.com/gapset/gapset/ida"
)

func perms(a []uint8, k int, f func([]uint8) bool) bool {
	if k == len(a) {
		return f(a)
	}
	for i := k; i < len(a); i++ {
		a[k], a[i] = a[i], a[k]
		if perms(a, k+1, f) {
			a[k], a[i] = a[i], a[k]
			return true
		}
		a[k], a[i] = a[i], a[k]
	}
	return false
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run docs/residual/coverage.go PDB N CELLS")
		os.Exit(2)
	}
	pdbDir, nS := os.Args[1], os.Args[2]
	var cells []int
	for _, s := range strings.Split(os.Args[3], ",") {
		c, err := strconv.Atoi(s)
		if err != nil || c < 0 || c > 15 {
			fmt.Fprintf(os.Stderr, "coverage: cell %q: want 0..15\n", s)
			os.Exit(2)
		}
		cells = append(cells, c)
	}
	n, err := strconv.Atoi(nS)
	if err != nil || n < 1 {
		fmt.Fprintf(os.Stderr, "coverage: N %q: want a positive count\n", nS)
		os.Exit(2)
	}
	r := heuristic.New(heuristic.Options{Rows: 4, Cols: 4, PDBDir: pdbDir})
	base, err := r.Base("pdb78b")
	if err != nil {
		fmt.Fprintln(os.Stderr, "coverage:", err)
		os.Exit(2)
	}
	in := map[int]bool{}
	for _, c := range cells {
		in[c] = true
	}
	var free []int
	for c := 0; c < 16; c++ {
		if !in[c] {
			free = append(free, c)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2)) // fixed: a larger N extends a smaller one's sample
	covered, solves := 0, 0
	for i := 0; i < n; i++ {
		b := encode.Random(rng, 4, 4)
		var rest []uint8
		for _, c := range free {
			rest = append(rest, b.Tiles[c])
		}
		found := perms(rest, 0, func(p []uint8) bool {
			x := b.Clone()
			for j, c := range free {
				x.Tiles[c] = p[j]
			}
			if !x.Solvable() {
				return false
			}
			h := base.H(x.Key())
			res, err := ida.Solve(x, base.Heuristic, ida.Options{MaxNodes: 1 << 30})
			if err != nil {
				fmt.Fprintln(os.Stderr, "coverage:", err)
				os.Exit(1)
			}
			solves++
			return res.Length == h
		})
		if found {
			covered++
		}
		fmt.Fprintf(os.Stderr, "%d/%d covered %d solves %d\n", i+1, n, covered, solves)
	}
	fmt.Printf("cells %v patterns %d covered %d (%.1f%%) solves %d\n", cells, n, covered, 100*float64(covered)/float64(n), solves)
}
