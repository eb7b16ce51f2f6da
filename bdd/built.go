package bdd

import (
	"context"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/keyset"
)

// SetMeta is the metadata of a .bdd file holding the set of a key-set
// file with header h, in encoding enc.
func SetMeta(h keyset.Header, enc Encoding) Meta {
	return Meta{Rows: h.Rows, Cols: h.Cols, Cells: h.Cells, Gap: h.Gap, Exact: h.Exact, Approx: h.Approx, Encoding: enc}
}

// Save writes the built BDD of the set of a key-set file with header h, in
// encoding enc, to path, with the build time and the ZDD count.
func (b Built) Save(path string, h keyset.Header, enc Encoding) (Info, error) {
	return b.SaveAll(context.Background(), path, "", h, enc)
}

// SaveAll is Save, and with mapped (not "") the mapped form too
// (WriteMapped): both files are written whole, then take their names
// together unless ctx is done first (atomicfile.CommitAll), so that an
// interrupt finds both or neither.
func (b Built) SaveAll(ctx context.Context, path, mapped string, h keyset.Header, enc Encoding) (Info, error) {
	m := SetMeta(h, enc)
	m.BuildTime, m.ZDDNodes, m.PeakMemory, m.OutOfCore = b.Took, b.ZDDNodes, b.Peak, b.BDD.Parts != nil
	f, in, err := encodeTo(path, b.BDD, m)
	if err != nil {
		return Info{}, err
	}
	files := []*atomicfile.File{f}
	if mapped != "" {
		mf, err := mappedTo(mapped, b.BDD, in)
		if err != nil {
			f.Abort()
			return Info{}, err
		}
		files = append(files, mf)
	}
	if err := atomicfile.CommitAll(ctx, files...); err != nil {
		return Info{}, err
	}
	return in, nil
}
