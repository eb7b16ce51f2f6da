package heuristic

import (
	"fmt"
	"slices"
	"strings"
)

// Spec is a parsed heuristic spec: a registered name with its arguments,
// or (Name "max") the largest of Parts, and the search options the whole
// spec ends with.
type Spec struct {
	Name  string
	Args  string // after ':' ("8/4" in gap2:8/4); empty when none
	Parts []Spec // the parts of max(...)
	// Search are the search options the spec ends with, in order: "fsm"
	// for "+fsm", "bpmx" for "+bpmx" (SearchOptions); nil when none.
	Search []string
}

// SearchOptions are the suffixes a whole spec may end with: not bounds but
// ways to search with one, "+fsm" (duplicate-move pruning) and "+bpmx"
// (bidirectional pathmax). "pdb78-dual+bpmx+fsm" is pdb78-dual searched
// with both, reported under that name.
var SearchOptions = []string{"fsm", "bpmx"}

// maxDepth bounds the nesting of max(...) so a hostile spec cannot exhaust
// the stack.
const maxDepth = 8

// maxSpecLen bounds a spec's length: real ones are a few dozen bytes.
const maxSpecLen = 1000

// String is the canonical form of the spec; Parse(s.String()) gives s back.
func (s Spec) String() string {
	suffix := ""
	for _, o := range s.Search {
		suffix += "+" + o
	}
	if s.Parts != nil {
		parts := make([]string, len(s.Parts))
		for i, p := range s.Parts {
			parts[i] = p.String()
		}
		return "max(" + strings.Join(parts, ",") + ")" + suffix
	}
	if s.Args != "" {
		return s.Name + ":" + s.Args + suffix
	}
	return s.Name + suffix
}

// searchSuffixes splits the search options off the end of text, keeping
// at least one byte before them.
func searchSuffixes(text string) (string, []string) {
	var opts []string
	for {
		found := false
		for _, o := range SearchOptions {
			if rest := strings.TrimSuffix(text, "+"+o); rest != text && rest != "" {
				text, found = rest, true
				opts = append([]string{o}, opts...)
				break
			}
		}
		if !found {
			return text, opts
		}
	}
}

// withSearch checks and records the search options of a spec.
func withSearch(sp Spec, opts []string, depth int) (Spec, error) {
	if len(opts) == 0 {
		return sp, nil
	}
	if depth > 0 {
		return Spec{}, fmt.Errorf("+%s applies to the whole spec, not to a part of max(...)", opts[0])
	}
	for i, o := range opts {
		if slices.Contains(opts[:i], o) {
			return Spec{}, fmt.Errorf("+%s given twice", o)
		}
	}
	sp.Search = opts
	return sp, nil
}

// Parse reads a spec by the grammar of the package doc. It checks syntax
// only; whether the names exist is the Resolver's job.
func Parse(text string) (Spec, error) {
	if len(text) > maxSpecLen {
		return Spec{}, fmt.Errorf("heuristic spec of %d bytes: at most %d", len(text), maxSpecLen)
	}
	p := parser{s: text}
	sp, err := p.spec(0)
	if err != nil {
		return Spec{}, fmt.Errorf("heuristic %s: %w", quote(text), err)
	}
	p.space()
	if p.i < len(p.s) {
		return Spec{}, fmt.Errorf("heuristic %s: unexpected %s at byte %d", quote(text), quote(p.s[p.i:]), p.i+1)
	}
	return sp, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *parser) spec(depth int) (Spec, error) {
	p.space()
	name := p.take(isNameByte)
	if name == "" {
		if p.i >= len(p.s) {
			return Spec{}, fmt.Errorf("empty name")
		}
		return Spec{}, fmt.Errorf("unexpected %s at byte %d", quote(p.s[p.i:]), p.i+1)
	}
	if name == "max" && p.i < len(p.s) && p.s[p.i] == '(' {
		if depth >= maxDepth {
			return Spec{}, fmt.Errorf("max(...) nested deeper than %d", maxDepth)
		}
		p.i++
		sp := Spec{Name: "max", Parts: []Spec{}}
		for {
			part, err := p.spec(depth + 1)
			if err != nil {
				return Spec{}, err
			}
			sp.Parts = append(sp.Parts, part)
			p.space()
			if p.i >= len(p.s) {
				return Spec{}, fmt.Errorf("max( without its closing parenthesis")
			}
			c := p.s[p.i]
			p.i++
			if c == ')' {
				break
			}
			if c != ',' {
				return Spec{}, fmt.Errorf("unexpected %q at byte %d in max(...)", c, p.i)
			}
		}
		if len(sp.Parts) < 2 {
			return Spec{}, fmt.Errorf("max(...) needs at least two parts")
		}
		var opts []string
		if suffix := p.take(isNameByte); suffix != "" {
			rest, o := searchSuffixes("x" + suffix)
			if rest != "x" {
				return Spec{}, fmt.Errorf("unexpected %s after max(...)", quote(suffix))
			}
			opts = o
		}
		return withSearch(sp, opts, depth)
	}
	sp := Spec{Name: name}
	var opts []string
	if p.i < len(p.s) && p.s[p.i] == ':' {
		p.i++
		sp.Args = p.take(isArgByte)
		if sp.Args == "" {
			return Spec{}, fmt.Errorf("%s: nothing after ':'", name)
		}
		sp.Args, opts = searchSuffixes(sp.Args)
	} else {
		sp.Name, opts = searchSuffixes(name)
	}
	return withSearch(sp, opts, depth)
}

func (p *parser) take(ok func(byte) bool) string {
	start := p.i
	for p.i < len(p.s) && ok(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '+' || c == '_'
}

// isArgByte accepts anything up to the next separator, so the entry's
// own check names a bad argument.
func isArgByte(c byte) bool { return c > ' ' && c != ',' && c != '(' && c != ')' }

// quote quotes s for an error message, cut to about 60 bytes so a huge
// argument is not echoed whole.
func quote(s string) string {
	const limit = 60
	if len(s) > limit {
		return fmt.Sprintf("%q...", s[:limit])
	}
	return fmt.Sprintf("%q", s)
}
