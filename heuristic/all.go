package heuristic

import (
	"fmt"

	"github.com/gapset/gapset/ida"
)

// ResolveAll builds the heuristics of several specs, in order, and refuses
// two of one name (a benchmark keys its records by the name).
func (r *Resolver) ResolveAll(specs []string) ([]ida.Heuristic, error) {
	var hs []ida.Heuristic
	seen := map[string]bool{}
	for _, s := range specs {
		h, err := r.Resolve(s)
		if err != nil {
			return nil, err
		}
		if seen[h.Name()] {
			return nil, fmt.Errorf("heuristic %q given twice", h.Name())
		}
		seen[h.Name()] = true
		hs = append(hs, h)
	}
	return hs, nil
}
