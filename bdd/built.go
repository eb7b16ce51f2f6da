package bdd

import "github.com/gapset/gapset/keyset"

// SetMeta is the metadata of a .bdd file holding the set of a key-set
// file with header h, in encoding enc.
func SetMeta(h keyset.Header, enc Encoding) Meta {
	return Meta{Rows: h.Rows, Cols: h.Cols, Cells: h.Cells, Gap: h.Gap, Exact: h.Exact, Approx: h.Approx, Encoding: enc}
}

// Save writes the built BDD of the set of a key-set file with header h, in
// encoding enc, to path, with the build time and the ZDD count.
func (b Built) Save(path string, h keyset.Header, enc Encoding) (Info, error) {
	m := SetMeta(h, enc)
	m.BuildTime, m.ZDDNodes, m.PeakMemory, m.OutOfCore = b.Took, b.ZDDNodes, b.Peak, b.BDD.Parts != nil
	return Save(path, b.BDD, m)
}
