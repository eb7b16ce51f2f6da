// Package pdb builds, stores and looks up additive disjoint pattern databases
// for R x C sliding-tile puzzles.
//
// A pattern is a group of tiles. Its database holds, for every placement of
// the group's tiles, the fewest moves of those tiles (moves of other tiles
// are free) that bring them home, the blank's position taken into account.
// Because the groups of a partition are disjoint and each counts only its
// own tiles' moves, the values of all groups add up to an admissible bound.
package pdb

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/placement"
)

// Partition is a split of the tiles 1..n-1 of a rows x cols board into
// disjoint groups.
type Partition struct {
	Name       string
	Rows, Cols int
	Groups     [][]uint8
	// Blank selects the blank-aware databases of the groups (BuildBlank),
	// stored in files of their own (FileName).
	Blank bool
}

// named are the built-in partitions. Groups are compact blocks of the goal
// (blank in the last cell), the shapes that give additive databases most of
// their strength.
var named = map[string]struct {
	rows, cols int
	groups     string
}{
	// Two full rows, and the bottom two rows without the blank (the mirror
	// image of Korf and Felner's 7-8 split for a blank in the top-left).
	"7-8": {4, 4, "9,10,11,12,13,14,15/1,2,3,4,5,6,7,8"},
	// The two middle rows, and the top and bottom rows without the blank:
	// a second 7-8 split that cuts across the first (pdb78+78mid takes the
	// larger of the two).
	"7-8-mid": {4, 4, "5,6,7,8,9,10,11,12/1,2,3,4,13,14,15"},
	// Left and right 3x2 blocks of the top three rows, and the bottom row.
	"6-6-3": {4, 4, "1,2,5,6,9,10/3,4,7,8,11,12/13,14,15"},
	"5-5-5": {4, 4, "1,5,6,9,13/2,3,4,7,8/10,11,12,14,15"},
	// The two 5-5-5 "local" databases of the web page
	// "PDBを使った15パズル自動解答プログラム" (2000), shaped for the transposed
	// goal (groups B, A, C of its pictures DB1 and DB2).
	"local1": {4, 4, "1,6,7,10,11/2,3,4,8,12/5,9,13,14,15"},
	"local2": {4, 4, "1,2,3,5,9/4,6,7,10,13/8,11,12,14,15"},
	// 3x3 (8-puzzle) partitions for tests and small experiments.
	"4-4": {3, 3, "1,2,3,4/5,6,7,8"},
	"3-5": {3, 3, "1,2,3/4,5,6,7,8"},
}

// Names lists the built-in partition names.
func Names() []string {
	return []string{"7-8", "7-8-mid", "6-6-3", "5-5-5", "local1", "local2", "4-4", "3-5"}
}

// ParsePartition returns a built-in partition ("7-8", "6-6-3", "5-5-5" on
// 4x4; "4-4", "3-5" on 3x3), or parses an explicit one such as
// "1,2,3,4/5,6,7,8" for a rows x cols board (groups separated by '/'; a
// group may list ranges of tiles, "1-4/5-8" is the same partition).
func ParsePartition(s string, rows, cols int) (Partition, error) {
	if err := encode.CheckSize(rows, cols); err != nil {
		return Partition{}, err
	}
	spec := s
	if nm, ok := named[s]; ok {
		if nm.rows != rows || nm.cols != cols {
			return Partition{}, fmt.Errorf("partition %s is for %dx%d boards, not %dx%d", s, nm.rows, nm.cols, rows, cols)
		}
		spec = nm.groups
	} else if !strings.ContainsAny(s, ",/") {
		return Partition{}, fmt.Errorf("unknown partition %q (choose %s, or list groups like 1,2,3/4,5,6)", s, strings.Join(Names(), ", "))
	}
	n := rows * cols
	p := Partition{Name: s, Rows: rows, Cols: cols}
	seen := make([]bool, n)
	for _, gs := range strings.Split(spec, "/") {
		var g []uint8
		for _, f := range strings.Split(gs, ",") {
			lo, hi, isRange := strings.Cut(f, "-")
			a, err := strconv.Atoi(strings.TrimSpace(lo))
			b := a
			if err == nil && isRange {
				b, err = strconv.Atoi(strings.TrimSpace(hi))
			}
			if err != nil || b < a {
				return Partition{}, fmt.Errorf("partition %q: bad tile %q", s, f)
			}
			for v := a; v <= b; v++ {
				if v < 1 || v >= n {
					return Partition{}, fmt.Errorf("partition %q: tile %d outside 1..%d", s, v, n-1)
				}
				if seen[v] {
					return Partition{}, fmt.Errorf("partition %q: tile %d in two groups", s, v)
				}
				seen[v] = true
				g = append(g, uint8(v))
			}
		}
		p.Groups = append(p.Groups, g)
	}
	for t := 1; t < n; t++ {
		if !seen[t] {
			return Partition{}, fmt.Errorf("partition %q: tile %d in no group", s, t)
		}
	}
	return p, nil
}

// Entries is the number of placements of k tiles on n cells: n!/(n-k)!.
func Entries(n, k int) int { return int(placement.Size(n, k)) }
