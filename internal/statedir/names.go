package statedir

import (
	"fmt"
	"strings"
)

// The names of the run files in a state directory, and the rules of which
// layers a step reads (docs/enumeration-layout.md). `gapset enumerate`
// puts a sequence number before each name (its runs live in one
// directory); the cluster puts them in one directory per step.

// Part is part p's file of the split run named base.
func Part(base string, p int) string { return fmt.Sprintf("%s.p%03d", base, p) }

// Layer names level j's layer at step d.
func Layer(j, d int) string { return fmt.Sprintf("L%d-%d", j, d) }

// Projection names a projection run onto k cells of compaction tier t.
func Projection(k, t int) string { return fmt.Sprintf("p%d-t%d", k, t) }

// ProjectionSet names a projection run onto a set of k cells that are not
// the last k (cells: the set's mask, bit c cell c) of compaction tier t.
func ProjectionSet(k int, cells uint16, t int) string {
	return fmt.Sprintf("p%dc%04X-t%d", k, cells, t)
}

// Candidates names the candidates of level j at step d (scratch).
func Candidates(j, d int) string { return fmt.Sprintf("c%d-%d", j, d) }

// StepDir is step d's directory in the cluster's work directory; its
// ScratchDir holds the pieces read within the step.
func StepDir(d int) string    { return fmt.Sprintf("d%06d", d) }
func ScratchDir(d int) string { return StepDir(d) + "/tmp" }

// LowerStep is the step of level i's layer that level j's layer at step d
// subtracts (i < j: the same Manhattan distance, a smaller gap), or -1
// when there is none.
func LowerStep(i, j, d int) int {
	if s := d - 2*(j-i); s >= 0 {
		return s
	}
	return -1
}

// Needed tells whether level i's layer at step s (of levels levels) is
// still read after step d has been found: by the next step's expansion, by
// the subtractions of the steps to come (until step s + 2(levels-1-i)), or
// by the whole-board key-set file (whole).
func Needed(levels, i, s, d int, whole bool) bool {
	return whole || s >= d || s+2*(levels-1-i) >= d+1
}

// IsState tells a run that belongs to the state (a Layer, a Projection)
// from the scratch of one step (Candidates, pieces), by its name's start.
func IsState(name string) bool { return strings.HasPrefix(name, "L") || strings.HasPrefix(name, "p") }

// Table names the bit table of the projection onto a set of k cells
// (cells: the set's mask): one bit per pattern, written whole at each
// checkpoint of a run that keeps its projections as tables.
func Table(k int, cells uint16) string { return fmt.Sprintf("p%dc%04X-table", k, cells) }
