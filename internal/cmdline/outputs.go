package cmdline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/sysprobe"
)

// CheckOutFile refuses, before any work, an output file that cannot be
// written: anything but a regular file at the path (a directory, device,
// FIFO, socket or symlink, which the file writer would refuse at the end),
// or a parent that is missing or read-only.
func CheckOutFile(flag, path string) error {
	if path == "" {
		return BadInputf("%s FILE is required", flag)
	}
	if st, err := os.Lstat(path); err == nil && st.IsDir() {
		return BadInputf("%s %s is a directory, not a file", flag, Quote(path))
	}
	if err := atomicfile.Check(path); err != nil {
		return BadInputf("%s %s: %w", flag, Quote(path), notRegular(err))
	}
	return CheckWritableDir(flag, filepath.Dir(path))
}

// CheckOutFiles refuses, before any work, output files in an output
// directory (checked by CheckOutDir) that exist and are not regular files.
func CheckOutFiles(flag string, paths ...string) error {
	for _, p := range paths {
		if err := atomicfile.Check(p); err != nil {
			return BadInputf("%s: %s: %w", flag, Quote(p), notRegular(err))
		}
	}
	return nil
}

// notRegular says what is at the path, which the caller names already.
func notRegular(err error) error {
	var nr *atomicfile.NotRegularError
	if errors.As(err, &nr) {
		return fmt.Errorf("is %s, not a regular file; refusing to replace it", nr.Kind)
	}
	return err
}

// CheckOutDir refuses an output directory that is a file, or whose nearest
// existing ancestor is not a writable directory (it is created later).
func CheckOutDir(flag, dir string) error {
	if dir == "" {
		return BadInputf("%s DIR is required", flag)
	}
	d := dir
	for {
		st, err := os.Stat(d)
		if err == nil {
			if !st.IsDir() {
				return BadInputf("%s %s: %s is a file, not a directory", flag, Quote(dir), Quote(d))
			}
			return CheckWritableDir(flag, d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return BadInputf("%s %s: %v", flag, Quote(dir), err)
		}
		d = parent
	}
}

// CheckWritableDir refuses a directory that is missing, not a directory or
// not writable.
func CheckWritableDir(flag, dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return BadInputf("%s: directory %s does not exist", flag, Quote(dir))
	}
	if !st.IsDir() {
		return BadInputf("%s: %s is not a directory", flag, Quote(dir))
	}
	if syscall.Access(dir, 2 /* W_OK */) != nil {
		return BadInputf("%s: directory %s is not writable", flag, Quote(dir))
	}
	return nil
}

// CheckFreeDisk refuses to start a job whose estimated output does not fit
// on the disk of dir (the nearest existing ancestor).
func CheckFreeDisk(flag, dir string, need int64) error {
	// A directory still to be made is measured on its nearest existing
	// parent's file system, but named as the user gave it.
	for at := dir; ; {
		if d, err := sysprobe.FreeDisk(at); err == nil {
			free := d.Free
			if free < need {
				return BadInputf("%s %s: %d MiB free, the output needs about %d MiB", flag, Quote(dir), free>>20, need>>20)
			}
			return nil
		}
		parent := filepath.Dir(at)
		if parent == at {
			return nil
		}
		at = parent
	}
}
