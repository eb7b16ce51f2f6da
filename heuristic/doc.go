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
// Names, with the options each reads (Names lists every registered one;
// other entries, such as dual lookups and gap+pdb combinations, follow the
// same forms):
//
//	md, lc, wd, wd-noskip, id, wdid, wdlc   no files
//	pdb78, pdb663, pdb555, pdb78-direct, pdb78-noskip, pdb78-noprefetch, pdb78-compact, pdb78-dual, pdb663-dual, pdb78+663, pdb44
//	                                         databases in Options.PDBDir
//	gap0, gap2, gap4, gap6, gap8            h_G:G: sets of gap 0, 2, ..., G from
//	                                         Options.Keys, BDDs or Cells
//	gapG:K                                  the same on the sets of K cells (a level
//	                                         with none: its set on the most cells below K)
//	gapG:K/F                                the same, asking the sets of F
//	                                         cells first as a filter
//	gap0r ... gap8r (also :K, :K/F)         the same, a board passing a level only
//	                                         when its transpose does too (square boards)
//	max(a,b,...)                            the largest of the parts (admissible
//	                                         when every part is)
//
// A '+' inside a name is part of the name: "pdb78+663" is one registered
// heuristic (the max of the 7-8 and 6-6-3 databases), never an arithmetic
// sum, which would not be admissible. New heuristics are added as entries
// of the registry (see Entry and Entries), each saying which options it
// reads so that the command can refuse options no heuristic uses.
package heuristic
