package verify

import (
	"context"
	"errors"
	"fmt"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/keyset"
)

// BDDKeys compares the members of the BDD at bddPath with the keys of the
// key-set file at keysPath, which must hold the same set (the file a build
// read, for one): the diagram is loaded (about 12 bytes a node), its
// members are listed in order and each is matched with the file's next key
// in the diagram's encoding, so both are read once and a missing, extra or
// changed member is found wherever it lies. It needs the natural order
// (the keys' own). progress, when set, hears the members compared so far
// now and then.
func BDDKeys(ctx context.Context, bddPath, keysPath string, progress func(done, total uint64)) (string, error) {
	r, err := keyset.Open(keysPath)
	if err != nil {
		return "", failedIf(err, keyset.ErrFormat)
	}
	defer r.Close()
	h := r.Header()
	in, err := bdd.ReadInfo(bddPath)
	if err != nil {
		return "", failedIf(err, bdd.ErrFormat)
	}
	switch {
	case in.ZDD:
		return "", fmt.Errorf("%w: %s holds a ZDD; only a BDD's members are compared with keys", ErrFailed, bddPath)
	case !in.Order.IsKeyOrder():
		return "", fmt.Errorf("%w: %s is in the order %q; only the natural order lists its members in the keys' order", ErrFailed, bddPath, in.Order.Name)
	case h.Rows != in.Rows || h.Cols != in.Cols || h.Cells != in.Cells:
		return "", fmt.Errorf("%w: %s holds %dx%d boards on %d cells, %s %dx%d on %d", ErrFailed, bddPath, in.Rows, in.Cols, in.Cells, keysPath, h.Rows, h.Cols, h.Cells)
	case h.Count != in.Count:
		return "", fmt.Errorf("%w: %s has %d members, %s %d keys", ErrFailed, bddPath, in.Count, keysPath, h.Count)
	}
	d, in, err := bdd.Load(bddPath)
	if errors.Is(err, bdd.ErrTooBig) {
		return "", err // the machine's limit, not the file's fault
	}
	if err != nil {
		return "", failed(err)
	}
	n := in.Rows * in.Cols
	var done uint64
	var diff error
	_, err = d.Members(func(m uint64) bool {
		key, ok := r.Next()
		if !ok {
			diff = fmt.Errorf("%w: %s ends after %d keys; %s has member %#x and more", ErrFailed, keysPath, done, bddPath, m)
			return false
		}
		if k := in.Encoding.Convert(key, n, in.Cells); k != m {
			diff = fmt.Errorf("%w: at member %d, %s has %#x and %s the key %#x (%#x in the diagram's encoding)", ErrFailed, done, bddPath, m, keysPath, key, k)
			return false
		}
		if done++; done%(1<<24) == 0 {
			if progress != nil {
				progress(done, in.Count)
			}
			if ctx.Err() != nil {
				diff = ctx.Err()
				return false
			}
		}
		return true
	})
	switch {
	case err != nil:
		return "", err
	case diff != nil:
		return "", diff
	}
	if key, ok := r.Next(); ok {
		return "", fmt.Errorf("%w: %s ends after %d members; %s has the key %#x and more", ErrFailed, bddPath, done, keysPath, key)
	}
	if err := r.Err(); err != nil {
		return "", failedIf(err, keyset.ErrFormat)
	}
	return fmt.Sprintf("%s: BDD of %s, %d members: the same set as %s", bddPath, in.Name(), done, keysPath), nil
}

// failedIf is failed for errors of the file's form, err as it is else.
func failedIf(err, form error) error {
	if errors.Is(err, form) {
		return failed(err)
	}
	return err
}
