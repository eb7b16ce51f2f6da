package gapset

import (
	"context"

	"github.com/gapset/gapset/keyset"
)

// WriteFile writes the set as a key-set file with header h (through a
// temporary file renamed into place, as keyset.Create does); once ctx is
// done it is not renamed (atomicfile.File.CommitContext).
func (b *Bits) WriteFile(ctx context.Context, path string, h keyset.Header) error {
	w, err := keyset.Create(path, h)
	if err != nil {
		return err
	}
	if err := b.Each(w.AddSorted); err != nil {
		w.Abort()
		return err
	}
	f, err := w.Finish()
	if err != nil {
		return err
	}
	return f.CommitContext(ctx)
}
