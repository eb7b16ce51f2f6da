// Package infile is the one way gapset opens a file it reads whole or
// maps: regular files only, opened without waiting, and read whole only up
// to a bound the caller takes from what the file can hold.
//
// A FIFO with no writer makes open(2) wait for ever, a device such as
// /dev/zero never ends, and a file read whole costs its size in memory
// before any check of its content can refuse it. So Open refuses anything
// but a regular file, and opens even that without blocking (a path that
// turns into a FIFO between a check and the open is refused, not waited
// for); ReadAll refuses a file longer than its bound before reading it, and
// stops reading at the bound should it grow meanwhile. A test refuses
// os.ReadFile and io.ReadAll anywhere else in both modules.
package infile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is what Open's refusal of a special file is (errors.Is).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooBig is what ReadAll's refusal of a file past its bound is
// (errors.Is).
var ErrTooBig = errors.New("too big")

// NotRegularError is the refusal of a path that is not a regular file.
type NotRegularError struct {
	Path string
	Kind string // "a FIFO", "a directory", ... (Kind)
}

func (e *NotRegularError) Error() string {
	return e.Path + " is " + e.Kind + ", not a regular file"
}

// Is makes errors.Is(err, ErrNotRegular) hold.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Kind names what a mode is ("a FIFO", "a symbolic link", ...), for the
// messages that refuse it.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

// Check refuses a path (symbolic links followed) that is not a regular
// file, without opening it.
func Check(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Kind: Kind(st.Mode())}
	}
	return nil
}

// Open opens a regular file for reading (symbolic links followed) and
// refuses anything else without waiting on it.
func Open(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &NotRegularError{Path: path, Kind: Kind(st.Mode())}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadAll reads the regular file at path whole, refusing one of more than
// max bytes (ErrTooBig); what names the kind of file in that message ("an
// order file").
func ReadAll(path, what string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > max {
		return nil, tooBig(path, what, max)
	}
	// The size is a hint (a /proc file says 0): the limit is what holds.
	b := make([]byte, 0, min(st.Size(), max)+1)
	return readUpTo(f, b, path, what, max)
}

// ReadAllFrom reads r to its end, refusing more than max bytes (ErrTooBig);
// name and what name the stream and its kind in that message.
func ReadAllFrom(r io.Reader, name, what string, max int64) ([]byte, error) {
	return readUpTo(r, make([]byte, 0, min(max, 64<<10)+1), name, what, max)
}

func readUpTo(r io.Reader, b []byte, name, what string, max int64) ([]byte, error) {
	lr := &io.LimitedReader{R: r, N: max + 1}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			return nil, tooBig(name, what, max)
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func tooBig(name, what string, max int64) error {
	return fmt.Errorf("%s: %w for %s (more than %s)", name, ErrTooBig, what, Size(max))
}

// Size writes a byte count for a message: "256 bytes", "64 KiB", "256 MiB".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
