// Package heuristic turns a heuristic spec (a name such as "gap2:8/4" or
// "max(pdb78,gap0)") and the files it needs into an ida.Heuristic: it parses
// the spec, loads and validates gap sets and pattern databases once per
// Resolver, and builds the dense bit tables and filters that the gap
// heuristics put in front of their sets. The command line only maps its
// flags onto Options.
//
// # Grammar
//
//	whole = spec { "+fsm" | "+bpmx" }
//	spec  = name [ ":" args ] | "max(" spec { "," spec } ")"
//	name  = a registered name: letters, digits, '-', '+', '_' (md, gap2, pdb78-direct, pdb78+663)
//	args  = any bytes but blanks, ',', '(' and ')', read by the entry (gapG:K, gapG:K/F)
//
// The suffixes of a whole spec are search options, not bounds (Spec.Search):
// "+fsm" prunes duplicate move strings (ida.Options.FSM), "+bpmx" adds
// bidirectional pathmax (ida.Options.BPMX); the heuristic is an
// ida.Variant named with them ("pdb78-dual+bpmx+fsm"), so that bench
// reports it beside the plain one.
//
// Names: Names lists every registered one and Entries gives each its usage
// line and the options it reads; docs/heuristics.md in the repository is
// the reference that explains them all. The forms: bounds that read no
// files (md, lc, wd, ...), pattern databases read from Options.PDBDir
// (pdb78, pdb78-dual, ...), h_G:G on gap sets from Options.Keys, BDDs or
// Cells (gapG, gapG:K on the sets of K cells, gapG:K/F asking the sets of
// F cells first, gapGr asking about the transpose too), the two together
// (pdb78+gapG[r]), and max(a,b,...), the largest of the parts.
//
// A '+' inside a name is part of the name: "pdb78+663" is one registered
// heuristic (the max of the 7-8 and 6-6-3 databases), never an arithmetic
// sum, which would not be admissible. New heuristics are added as entries
// of the registry (see Entry and Entries), each saying which options it
// reads so that the command can refuse options no heuristic uses.
package heuristic
