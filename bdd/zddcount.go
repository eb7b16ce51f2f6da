package bdd

import (
	"errors"
	"fmt"
	"os"

	"github.com/gapset/gapset/internal/errmark"
)

// StoreZDDCount counts the ZDD nodes of the set of d, loaded from path with
// header in, and checks the ZDD holds the same members. With write it
// rewrites the file with the count in its header (a temporary file, then
// rename) unless the header holds it already; it refuses a header holding
// another count and checks that the rewritten file has the same nodes and
// payload size (an older version's file is rewritten in the current one). saving, if set, is called before the file is rewritten.
func StoreZDDCount(path string, d *Diagram, in Info, write bool, saving func()) (uint64, error) {
	nz, n, err := d.ZDDSize()
	if err != nil || n != in.Count {
		return 0, fmt.Errorf("%s: the ZDD holds %d members, the BDD %d (%v)", path, n, in.Count, err)
	}
	zn := uint64(nz)
	if !write || zn == in.ZDDNodes {
		return zn, nil
	}
	if in.ZDDNodes != 0 {
		return 0, fmt.Errorf("%s: header says %d ZDD nodes, the conversion gives %d", path, in.ZDDNodes, zn)
	}
	if saving != nil {
		saving()
	}
	meta := in.Meta()
	meta.ZDDNodes = zn
	out, err := Save(path, d, meta)
	if err != nil {
		return 0, err
	}
	if out.Nodes != in.Nodes || out.PayloadSize != in.PayloadSize {
		return 0, fmt.Errorf("%s: rewritten with %d nodes, %d payload bytes (was %d, %d)", path, out.Nodes, out.PayloadSize, in.Nodes, in.PayloadSize)
	}
	return zn, nil
}

// ErrZDDInput marks the files CountZDD refuses: damaged, missing, or
// holding a ZDD already (bad input; the text unchanged, errmark).
var ErrZDDInput = errors.New("bad zdd input")

// CountZDD is gapset zdd on one .bdd file: it loads it (a ZDD already is
// refused), counts its ZDD nodes and, with write, stores the count in it
// (StoreZDDCount); status hears each stage. It returns the line gapset zdd
// prints.
func CountZDD(path string, write bool, status func(string)) (string, error) {
	status(path + ": loading")
	d, in, err := Load(path)
	if err != nil {
		return "", errmark.If(err, ErrZDDInput, ErrFormat, os.ErrNotExist)
	}
	if in.ZDD {
		return "", errmark.As(fmt.Errorf("%s holds a ZDD already", path), ErrZDDInput)
	}
	status(fmt.Sprintf("%s: converting %d BDD nodes", path, in.Nodes))
	zn, err := StoreZDDCount(path, d, in, write, func() { status(path + ": saving") })
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s order=%s patterns=%d nodes=%d zdd_nodes=%d %s", in.Name(), in.Order.Name, in.Count, in.Nodes, zn, path), nil
}
