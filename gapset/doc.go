// Package gapset enumerates gap sets: the configurations of an R x C
// sliding-tile board whose optimal solution is longer than their Manhattan
// distance by at most a given gap (G0 = gap 0: solved by Manhattan moves
// alone), projected onto the last k cells as Hasegawa & Yamamoto's
// Gap0_8 ... Gap2_12 are. The search runs backwards from the goal layer by
// layer of Manhattan distance: Sets keeps everything in memory (small boards
// and the 4x4 G0), Enumerate spills sorted runs to disk and writes key-set
// files (package keyset), and DepthFirst is the paper's depth-first order,
// kept as a cross-check on small boards.
//
// Enumerate's layers are stored split by key range: part p of a
// layer holds its keys whose top PrefixBits bits (of the 4N-bit key) are
// p, as a sorted run of its own (uvarint deltas, or raw little-endian
// keys), and an empty part has no file. The parts of a step are
// expanded, sorted, de-duplicated, subtracted and written on as many
// goroutines as there are workers. Projection runs are split alike
// (more coarsely), and a resumable run's checkpoint names every part
// file in its manifest; docs/enumeration-layout.md describes the files.
package gapset
