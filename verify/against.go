package verify

import (
	"context"
	"errors"
	"fmt"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/keyset"
)

// BDDKeysStarting says what BDDKeys does with the diagram at bddPath
// before it compares a member (its progress hears 0 then): load it, or
// check its mapped form in one pass.
func BDDKeysStarting(bddPath string) string {
	if bdd.IsMapped(bddPath) {
		return "checking the mapped " + bddPath + " (one pass over it; then walked where it lies)"
	}
	return "loading " + bddPath + " (about 12 bytes a node, 4 minutes a billion nodes)"
}

// BDDKeys compares the members of the BDD at bddPath with the keys of the
// key-set file at keysPath, which must hold the same set (the file a build
// read, for one): the diagram is loaded (about 12 bytes a node; its
// mapped form, bdd.WriteMapped, is walked where it lies instead), its
// members are listed in order and each is matched with the file's next key
// in the diagram's encoding, so both are read once and a missing, extra or
// changed member is found wherever it lies. It needs the natural order
// (the keys' own) and an encoding that keeps the keys' order (cells or
// ranks: Encoding.KeepsOrder); others are refused with ErrUnsupported. A
// difference is named once the key file's end and checksum are checked,
// so damage to the key file is not blamed on the diagram. progress, when
// set, hears 0 before the diagram loads, then the members compared so far
// now and then.
func BDDKeys(ctx context.Context, bddPath, keysPath string, progress func(done, total uint64)) (string, error) {
	r, err := keyset.Open(keysPath)
	if err != nil {
		return "", failedIf(err, keyset.ErrFormat)
	}
	defer r.Close()
	h := r.Header()
	var in bdd.Info
	var mapped *bdd.Set // the mapped form: walked where it lies, not loaded
	if bdd.IsMapped(bddPath) {
		if progress != nil {
			progress(0, h.Count) // the mapping's check: a pass over the file
		}
		if mapped, err = bdd.Open(bddPath); err != nil {
			return "", failedIf(err, bdd.ErrMapped)
		}
		defer mapped.Close()
		in = mapped.Info()
	} else if in, err = bdd.ReadInfo(bddPath); err != nil {
		return "", failedIf(err, bdd.ErrFormat)
	}
	switch {
	case in.ZDD:
		return "", fmt.Errorf("%w: %s holds a ZDD; only a BDD's members are compared with keys", ErrUnsupported, bddPath)
	case !in.Order.IsKeyOrder():
		return "", fmt.Errorf("%w: %s is in the order %q; only the natural order lists its members in the keys' order", ErrUnsupported, bddPath, in.Order.Name)
	case !in.Encoding.KeepsOrder():
		return "", fmt.Errorf("%w: %s is in the %s encoding, which does not keep the keys' order; only cells and ranks are compared", ErrUnsupported, bddPath, in.Encoding)
	case h.Rows != in.Rows || h.Cols != in.Cols || h.Cells != in.Cells:
		return "", fmt.Errorf("%w: %s holds %dx%d boards on %d cells, %s %dx%d on %d", ErrFailed, bddPath, in.Rows, in.Cols, in.Cells, keysPath, h.Rows, h.Cols, h.Cells)
	case h.Count != in.Count:
		return "", fmt.Errorf("%w: %s has %d members, %s %d keys", ErrFailed, bddPath, in.Count, keysPath, h.Count)
	}
	members := func(yield func(uint64) bool) (bool, error) { return mapped.Members(yield) }
	if mapped == nil {
		if progress != nil {
			progress(0, in.Count) // the load: minutes for a diagram of a billion nodes
		}
		d, loaded, err := bdd.Load(bddPath)
		if errors.Is(err, bdd.ErrTooBig) {
			return "", err // the machine's limit, not the file's fault
		}
		if err != nil {
			return "", failed(err)
		}
		in, members = loaded, d.Members
	}
	n := in.Rows * in.Cols
	var done uint64
	var diff error
	_, err = members(func(m uint64) bool {
		key, ok := r.Next()
		if !ok {
			diff = r.Err() // damaged: the header's count (the diagram's) was not reached
			if diff == nil {
				diff = fmt.Errorf("%w: %s ends after %d keys; %s has member %#x and more", ErrFailed, keysPath, done, bddPath, m)
			}
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
	case diff != nil && errors.Is(diff, ErrFailed):
		// a difference: the key file read to its end first, so that damage
		// past it (its checksum) is named rather than blamed on the diagram
		for i := uint64(1); ; i++ {
			if _, ok := r.Next(); !ok {
				break
			}
			if i%(1<<24) == 0 && ctx.Err() != nil {
				return "", ctx.Err()
			}
		}
		if err := r.Err(); err != nil {
			return "", failedIf(err, keyset.ErrFormat)
		}
		return "", diff
	case diff != nil:
		return "", failedIf(diff, keyset.ErrFormat)
	}
	if key, ok := r.Next(); ok {
		return "", fmt.Errorf("%w: %s ends after %d members; %s has the key %#x and more", ErrFailed, bddPath, done, keysPath, key)
	}
	if err := r.Err(); err != nil {
		return "", failedIf(err, keyset.ErrFormat)
	}
	return fmt.Sprintf("%s: BDD of %s, %d members: the same set as %s", bddPath, in.Name(), done, keysPath), nil
}

// ErrUnsupported is wrapped by BDDKeys' refusal of a diagram whose
// members it cannot list in the keys' order (bad input, not a bad file).
var ErrUnsupported = errors.New("not comparable with a key file")

// failedIf is failed for errors of the file's form, err as it is else.
func failedIf(err, form error) error {
	if errors.Is(err, form) {
		return failed(err)
	}
	return err
}
