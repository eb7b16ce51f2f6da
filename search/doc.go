// Package search is the generic search core behind the small puzzles of M.
// Hiroi's breadth-first search pages and the 2x3 hashing page "第4章:
// 幅優先探索" (the 6-puzzle, oshidori, the 2x3 and 3x3 sliding boards):
// breadth-first search with parent links, bidirectional breadth-first search
// in one queue, farthest positions, and iterative deepening with an optional
// admissible lower bound.
//
// A puzzle is a Problem over a comparable state type S: it lists the states
// one move away and hashes a state. The algorithms know nothing else about
// it. Duplicate detection is switchable (Dedup) between a linear scan, open
// addressing with linear probing and Go's map, so the speed-ups those pages
// report for hashing can be measured on the same search.
//
// Every algorithm reports the work it did in the same terms: Generated counts
// successor states produced (after the never-undo rule, when it is on),
// Stored counts distinct states entered into the queue (the start, and the
// goal for bidirectional search, included), Expanded counts states whose
// successors were listed.
package search
