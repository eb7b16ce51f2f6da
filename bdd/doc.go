// Package bdd stores gap sets as binary decision diagrams (or zero-suppressed
// ones, ZDDs) over the bits of their 64-bit board keys, as Hasegawa &
// Yamamoto do: it builds a reduced diagram bottom-up from sorted keys (in one
// go, in passes, or streamed from a key-set file), writes and reads the
// diagram file (format.go: a header with the variable order and counts,
// nodes children-first, a CRC-32C trailer), and answers membership queries
// from a compact read-only node array (Set, Open). The variable order decides
// the diagram's size; NamedOrder lists the ones tried. The rudd library is
// used only as an independent cross-check of the builder (BuildRudd).
package bdd
