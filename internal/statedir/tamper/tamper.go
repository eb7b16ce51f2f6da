// Package tamper damages a state directory's manifests the ways the tamper
// campaigns of both enumerators try (cmd/gapset/tamper_test.go,
// cluster/pipeline/tamper_test.go): every field of the envelope and of its
// payload edited. Tests only; it lives outside a _test file so that the two
// modules share it.
package tamper

import (
	"encoding/json"
	"slices"
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
