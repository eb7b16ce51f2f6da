// Package bdd stores gap sets as binary decision diagrams (or zero-suppressed
// ones, ZDDs) over the bits of their 64-bit board keys, as Hasegawa &
// Yamamoto do: it builds a reduced diagram bottom-up from sorted keys (in one
// go, in passes, or streamed from a key-set file), writes and reads the
// diagram file (format.go: a header with the variable order and counts,
// nodes children-first, a CRC-32C trailer), and answers membership queries
// from a compact read-only node array (Set, Open). The variable order decides
// the diagram's size; NamedOrder lists the ones tried. The rudd library is
// used only as an independent cross-check of the builder (BuildRudd) and for
// set operations on small sets (Rudd). rudd frees nodes through Go
// finalizers that race with its own operations, so Rudd switches them off:
// a Rudd's nodes stay in memory until it and every Rudd sharing its BDD are
// garbage, only bdd/rudd.go may import rudd, and a Rudd, like rudd, is for
// one goroutine at a time.
package bdd
