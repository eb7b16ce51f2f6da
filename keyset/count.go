package keyset

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
)

// ReadHeader reads the header of the file at path, of any cells and base
// (checked as OpenResidual checks it; the keys are not read).
func ReadHeader(path string) (Header, error) {
	r, err := OpenResidual(path)
	if err != nil {
		return Header{}, err
	}
	defer r.Close()
	return r.Header(), nil
}

// Count reads the file at path (of any cells and base) to the end,
// checking the order of its keys and its checksum, and returns its header
// and number of keys.
func Count(path string) (Header, uint64, error) {
	r, err := OpenResidual(path)
	if err != nil {
		return Header{}, 0, err
	}
	defer r.Close()
	var n uint64
	for {
		if _, ok := r.Next(); !ok {
			break
		}
		n++
	}
	return r.Header(), n, r.Err()
}

// WriteCount describes the file at path, counted by Count, as `gapset
// count` prints it: a line of text, or (format "json") a JSON object.
func WriteCount(w io.Writer, format, path string, h Header, n uint64) error {
	if format == "json" {
		m := map[string]any{"file": path, "name": h.Name(), "rows": h.Rows, "cols": h.Cols,
			"cells": h.Cells, "gap": h.Gap, "exact": h.Exact, "packed": h.Packed, "count": n, "checksum": "ok"}
		if h.CellSet != 0 {
			m["cell_set"] = h.CellSet.String()
		}
		if !h.Base.IsZero() {
			m["base"] = h.Base.Spec
			m["base_digest"] = hex.EncodeToString(h.Base.Digest[:])
		}
		return json.NewEncoder(w).Encode(m)
	}
	packed, set, base := "", "", ""
	if !h.Base.IsZero() {
		base = fmt.Sprintf(" base %s %x", h.Base.Spec, h.Base.Digest)
	}
	if h.Packed {
		packed = " packed"
	}
	if h.CellSet != 0 {
		set = " (" + h.CellSet.String() + ")"
	}
	_, err := fmt.Fprintf(w, "%s: %s %dx%d cells %d%s gap %d exact %t count %d checksum ok%s%s\n",
		path, h.Name(), h.Rows, h.Cols, h.Cells, set, h.Gap, h.Exact, n, packed, base)
	return err
}
