package heuristic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gapset/gapset/ida"
)

// Option names: the sources of Options a heuristic reads. The command
// line's flags carry the same names, so it can refuse a flag that no
// chosen heuristic reads.
const (
	OptKeys   = "keys"
	OptBDD    = "bdd"
	OptCells  = "cells"
	OptMaxGap = "max-gap"
	OptDense  = "dense"
	OptNoSkip = "no-skip"
	OptPDB    = "pdb"
	OptGapDB  = "gapdb"
)

// gapOptions are the options every gap-set heuristic reads.
var gapOptions = []string{OptKeys, OptBDD, OptCells, OptMaxGap, OptDense, OptNoSkip, OptGapDB}

// Entry is one registered heuristic name.
type Entry struct {
	Name string
	// Args describes the arguments after ':' ("K[/F]"); empty when the
	// name takes none.
	Args string
	// Usage is one line for help texts.
	Usage string
	// Options lists the options of Options the heuristic reads (OptKeys, ...).
	Options []string
	// Make builds the heuristic; args is the text after ':' (checked by
	// Make itself).
	Make func(r *Resolver, args string) (ida.Heuristic, error)
}

// Entries is the registry: every name a spec may use. Add a heuristic by
// adding an entry here (or a list of its own appended here).
func Entries() []Entry {
	es := []Entry{
		plain("md", "Manhattan distance", ida.Manhattan{}),
		plain("lc", "Manhattan distance plus linear conflicts", ida.LinearConflict{}),
		plain("wd", "walking distance", ida.WalkingDistance{}),
		plain("wd-noskip", "walking distance evaluated at every node", ida.WalkingDistance{NoSkip: true}),
		plain("id", "inversion distance", ida.InversionDistance{}),
		plain("wdid", "max of walking and inversion distance", ida.Max{Parts: []ida.Heuristic{ida.WalkingDistance{}, ida.InversionDistance{}}, Label: "wdid"}),
		plain("wdlc", "max of walking distance and linear conflicts", ida.Max{Parts: []ida.Heuristic{ida.WalkingDistance{}, ida.LinearConflict{}}, Label: "wdlc"}),
	}
	es = append(es, pdbEntries()...)
	es = append(es, gapEntries()...)
	es = append(es, combinedEntries()...)
	es = append(es, residualEntries()...)
	es = append(es, bothEntries()...)
	return es
}

func plain(name, usage string, h ida.Heuristic) Entry {
	return Entry{Name: name, Usage: usage, Make: func(*Resolver, string) (ida.Heuristic, error) { return h, nil }}
}

// Names lists the registered names, sorted, for help texts.
func Names() []string {
	var names []string
	for _, e := range Entries() {
		n := e.Name
		if e.Args != "" {
			n += "[:" + e.Args + "]"
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// NameLines is Names joined by ", " into lines of at most width
// characters (a longer name alone on a line), each after indent: the
// list the help texts show.
func NameLines(indent string, width int) string {
	var b strings.Builder
	names := Names()
	line := indent
	for i, it := range names {
		if i < len(names)-1 {
			it += ","
		}
		if line != indent && len(line)+1+len(it) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += it
	}
	b.WriteString(line)
	return b.String()
}

func lookup(name string) (Entry, error) {
	for _, e := range Entries() {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("unknown heuristic %s (choose %s, or max(a,b,...))", quote(name), strings.Join(Names(), ", "))
}
