//go:build unix

package gapset

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockName is the file a running enumeration holds locked in its
// checkpoint directory: two processes must never resume one checkpoint.
const lockName = "lock"

// lockDir locks dir for this process (released by the returned function,
// or by the kernel when the process ends, however it ends).
func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if err == syscall.EWOULDBLOCK {
			return nil, fmt.Errorf("%w: checkpoint %s is in use by another running enumeration", ErrArgs, dir)
		}
		return nil, err
	}
	return func() { f.Close() }, nil
}
