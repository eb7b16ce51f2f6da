// Package tamper damages a state directory's manifests the ways the tamper
// campaigns of both enumerators try (cmd/gapset/tamper_test.go,
// cluster/pipeline/tamper_test.go): every field of the envelope and of its
// payload edited. Tests only; it lives outside a _test file so that the two
// modules share it.
package tamper

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/gapset/gapset/internal/statedir"
)

// Fields lists the fields of the manifest b that Edit can change: the
// envelope's, and the payload's as "payload.NAME", sorted.
func Fields(b []byte) ([]string, error) {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	var fs []string
	for k, v := range m {
		fs = append(fs, k)
		if p, ok := v.(map[string]any); ok && k == "payload" {
			for f := range p {
				fs = append(fs, "payload."+f)
			}
		}
	}
	slices.Sort(fs)
	return fs, nil
}

// Edit returns the manifest b with one field (as Fields names it) changed:
// a number plus one, a flag negated, a string extended, a list shortened
// (an empty one given an element), an object emptied.
func Edit(b []byte, field string) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	in, name := m, field
	if p, ok := m["payload"].(map[string]any); ok && len(field) > len("payload.") && field[:len("payload.")] == "payload." {
		in, name = p, field[len("payload."):]
	}
	switch v := in[name].(type) {
	case float64:
		in[name] = v + 1
	case bool:
		in[name] = !v
	case string:
		in[name] = v + "0"
	case []any:
		if len(v) > 0 {
			in[name] = v[:len(v)-1]
		} else {
			in[name] = []any{1}
		}
	case map[string]any:
		if len(v) > 0 {
			in[name] = map[string]any{}
		} else {
			in[name] = map[string]any{"1": 1}
		}
	default:
		in[name] = 7
	}
	return json.Marshal(m)
}

// DropPart returns the manifest b with one part dropped from the first
// split run under the payload's field (a list or object, walked in order)
// that has several, the run's count lowered by the part's, and the
// manifest sealed again: a forgery that adds up, which only the layer
// counts recorded apart from the runs can tell. ok is false when no run
// there has several parts.
func DropPart(b []byte, field string) (out []byte, ok bool, err error) {
	var env struct {
		Format  int            `json:"format"`
		Payload map[string]any `json:"payload"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, false, err
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			parts, _ := v["parts"].([]any)
			n, isRun := v["n"].(float64)
			if last := len(parts) - 1; isRun && last > 0 {
				if p, _ := parts[last].(map[string]any); p != nil {
					pn, _ := p["n"].(float64)
					v["n"], v["parts"] = n-pn, parts[:last]
					return true
				}
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if walk(v[k]) {
					return true
				}
			}
		case []any:
			for _, x := range v {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	if !walk(env.Payload[field]) {
		return nil, false, nil
	}
	out, err = statedir.Seal(env.Format, env.Payload)
	return out, err == nil, err
}
