package gapset

import "github.com/gapset/gapset/keyset"

// WriteFile writes the set as a key-set file with header h (through a
// temporary file renamed into place, as keyset.Create does).
func (b *Bits) WriteFile(path string, h keyset.Header) error {
	w, err := keyset.Create(path, h)
	if err != nil {
		return err
	}
	if err := b.Each(w.AddSorted); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}
