package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// checkOutFile refuses, before any work, an output file that cannot be
// written: a directory, or a parent that is missing or read-only.
func checkOutFile(flag, path string) error {
	if path == "" {
		return badInputf("%s FILE is required", flag)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return badInputf("%s %s is a directory, not a file", flag, quoteArg(path))
	}
	return checkWritableDir(flag, filepath.Dir(path))
}

// checkOutDir refuses an output directory that is a file, or whose nearest
// existing ancestor is not a writable directory (it is created later).
func checkOutDir(flag, dir string) error {
	if dir == "" {
		return badInputf("%s DIR is required", flag)
	}
	d := dir
	for {
		st, err := os.Stat(d)
		if err == nil {
			if !st.IsDir() {
				return badInputf("%s %s: %s is a file, not a directory", flag, quoteArg(dir), quoteArg(d))
			}
			return checkWritableDir(flag, d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return badInputf("%s %s: %v", flag, quoteArg(dir), err)
		}
		d = parent
	}
}

func checkWritableDir(flag, dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return badInputf("%s: directory %s does not exist", flag, quoteArg(dir))
	}
	if !st.IsDir() {
		return badInputf("%s: %s is not a directory", flag, quoteArg(dir))
	}
	if syscall.Access(dir, 2 /* W_OK */) != nil {
		return badInputf("%s: directory %s is not writable", flag, quoteArg(dir))
	}
	return nil
}

// checkFreeDisk refuses to start a job whose estimated output does not fit
// on the disk of dir (the nearest existing ancestor).
func checkFreeDisk(flag, dir string, need int64) error {
	for {
		var fs syscall.Statfs_t
		if err := syscall.Statfs(dir, &fs); err == nil {
			free := int64(fs.Bavail) * int64(fs.Bsize)
			if free < need {
				return badInputf("%s %s: %d MiB free, the output needs about %d MiB", flag, quoteArg(dir), free>>20, need>>20)
			}
			return nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// fmtBytes is for messages.
func fmtBytes(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }
