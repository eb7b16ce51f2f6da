// Package statedir is the one home of what gapset's resumable state on
// disk shares between `gapset enumerate` (its checkpoint) and
// `gapset-cluster enumerate` (its work directory): the marker that tells a
// state directory the run made from anything else, the lock that keeps a
// second process out (lock_*.go), the manifest's sealed envelope
// (manifest.go), the checksums of its files, the names of its run files
// and the rules of which layers a step reads (names.go), and the count of
// its bytes on the disk (disk.go).
//
// A run removes what it finds in its state directory (the runs of a step
// that did not complete, everything with --fresh, the whole directory when
// done), so it must never take a directory it did not make for its own:
// Open refuses a symlink, a file, and a directory without the marker, and
// makes a new one with the marker inside before anything else is written
// there. --fresh does not remove a directory without the marker either: the
// user renames or removes it.
package statedir

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
)

// MarkerName is the file that makes a directory a run's state directory.
const MarkerName = "gapset-state"

// ErrForeign is what Open's refusals are (errors.Is): the path is not a
// state directory the run made.
var ErrForeign = errors.New("not a gapset state directory")

// ErrDamaged is what the refusals of damaged state are (errors.Is).
var ErrDamaged = errors.New("damaged state")

// Damaged is a refusal of a damaged state directory: one line naming the
// problem, and the way out.
func Damaged(dir, format string, a ...any) error {
	return &damagedError{fmt.Sprintf("%s: damaged: %s (give --fresh to start over)", dir, fmt.Sprintf(format, a...))}
}

type damagedError struct{ msg string }

func (e *damagedError) Error() string        { return e.msg }
func (e *damagedError) Is(target error) bool { return target == ErrDamaged }

type foreignError struct{ msg string }

func (e *foreignError) Error() string        { return e.msg }
func (e *foreignError) Is(target error) bool { return target == ErrForeign }

// Marker is the marker file's content for a state directory of this kind;
// it says what the directory is to a person who finds it.
func Marker(kind string) []byte {
	return []byte("gapset " + kind + ": resumable state, removed by gapset when the run completes\n")
}

// Open makes sure dir is a state directory of this kind made by a gapset
// run: absent, it is made (the marker written inside before it takes its
// name, so that it never exists without one); present, it must be a real
// directory (not a symlink) holding the marker. It returns whether dir was
// made. Nothing is removed or written in a directory it refuses.
func Open(dir, kind string) (made bool, err error) {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true, create(dir, kind)
	}
	if err != nil {
		return false, err
	}
	how := ""
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		how = "is a symbolic link"
	case !st.IsDir():
		how = "is not a directory"
	default:
		b, err := readMarker(filepath.Join(dir, MarkerName))
		how = CheckMarker(b, err, kind)
	}
	if how == "" {
		return false, nil
	}
	return false, Foreign(dir, how, kind)
}

// Foreign is the refusal (ErrForeign) of a state location that is not a
// kind's made by gapset, how saying what it is.
func Foreign(dir, how, kind string) error {
	return &foreignError{fmt.Sprintf("%s %s: refusing to use it as the %s (--fresh does not remove it either; remove or rename it, or give another directory)", dir, how, kind)}
}

// CheckMarker says what is wrong with a marker read as b (err: it could
// not be read), or "" when it is a kind's.
func CheckMarker(b []byte, err error, kind string) string {
	switch {
	case err != nil:
		return "holds no " + MarkerName + " marker (not made by gapset, or by an older version)"
	case !bytes.Equal(b, Marker(kind)):
		return "holds a " + MarkerName + " marker of another kind"
	}
	return ""
}

// readMarker reads a marker that is a regular file of at most a line.
func readMarker(path string) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, ErrForeign
	}
	return infile.ReadAll(path, "a state marker", 256)
}

// create makes dir whole, the marker inside before it takes its name.
func create(dir, kind string) error {
	return atomicfile.MakeDir(dir, func(tmp string) error {
		return atomicfile.WriteFile(filepath.Join(tmp, MarkerName), Marker(kind))
	})
}

// Keep reports whether a name in a state directory belongs to the
// directory itself (the marker, the lock), not to the run's state:
// clearing the state keeps it.
func Keep(name string) bool { return name == MarkerName || name == LockName }

// RemoveExcept removes the entries of dir not named in keep (the state a
// checkpoint no longer names, a level that did not complete).
func RemoveExcept(dir string, keep map[string]bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// table is CRC-32C's (hardware-accelerated on amd64 and arm64).
var table = crc32.MakeTable(crc32.Castagnoli)

// Update adds b to a running CRC-32C.
func Update(crc uint32, b []byte) uint32 { return crc32.Update(crc, table, b) }

// FileSum returns a file's size and CRC-32C, reading it whole; a path that
// is not a regular file (a symlink, a directory) is refused.
func FileSum(path string) (int64, uint32, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return 0, 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, 0, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	h := crc32.New(table)
	n, err := io.Copy(h, f)
	return n, h.Sum32(), err
}

// CheckFile refuses a state file (in dir, for the message) whose size or
// CRC-32C is not the one recorded.
func CheckFile(dir, path string, size int64, sum uint32) error {
	n, got, err := FileSum(path)
	switch {
	case err != nil:
		return Damaged(dir, "%s is missing or unreadable", filepath.Base(path))
	case n != size:
		return Damaged(dir, "%s has %d bytes, the manifest says %d", filepath.Base(path), n, size)
	case got != sum:
		return Damaged(dir, "%s fails its checksum", filepath.Base(path))
	}
	return nil
}
