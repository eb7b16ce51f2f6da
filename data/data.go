// Package data holds what the project checks itself against and runs on:
// the shipped instance files, embedded so that the demo and tests run on a
// fresh machine with no files prepared, and the published figures.
//
//   - korf100.txt: Korf's 100 random 15-puzzle instances (1985), rewritten for
//     the goal with the blank in the last cell; one line per board, id first.
//     KorfLength gives their published optimal lengths.
//   - random300.txt: 300 boards drawn uniformly from the solvable 15-puzzle
//     configurations by `gapset gen --count 300 --seed 2012` (the workload of
//     the paper's Table 2).
//   - hard80.txt: the seventeen 15-puzzle configurations that need 80 moves,
//     the most any needs (the complete breadth-first search of R. E. Korf and
//     P. Schultze, "Large-scale parallel breadth-first search", AAAI 2005,
//     found exactly 17 at depth 80; OEIS A089484). Sixteen were taken from
//     a public list (blank in the first cell, goal with the blank last, as
//     here); the seventeenth is the transpose of one of them, and the
//     seventeen are closed under the transpose (TestHard80). Every one was
//     solved in 80 moves by this toolkit (`gapset solve -H pdb78+fsm -i
//     data/hard80.txt`; NOTES.md, 2026-11-27).
//   - PaperTable1 and PaperTable2: the BDD sizes and the search figures of
//     Hasegawa & Yamamoto's paper.
//
// Tests read instances through this package, never through a path.
package data

import (
	_ "embed"
	"strings"

	"github.com/gapset/gapset/encode"
)

//go:embed korf100.txt
var korf100 string

//go:embed random300.txt
var random300 string

//go:embed hard80.txt
var hard80 string

// Hard80 returns the seventeen configurations that need 80 moves.
func Hard80() []encode.Instance { return mustRead(hard80, "hard80.txt") }

// Korf100 returns Korf's 100 instances in order (instance i at index i-1).
func Korf100() []encode.Instance { return mustRead(korf100, "korf100.txt") }

// Random300 returns the 300 random instances.
func Random300() []encode.Instance { return mustRead(random300, "random300.txt") }

// mustRead parses an embedded file; the files are fixed and tested, so a
// failure is a build defect.
func mustRead(src, name string) []encode.Instance {
	insts, err := encode.ReadInstances(strings.NewReader(src), name, 4, 4)
	if err != nil {
		panic("embedded " + name + ": " + err.Error())
	}
	return insts
}
