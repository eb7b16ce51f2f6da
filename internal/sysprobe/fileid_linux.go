//go:build linux

package sysprobe

import (
	"fmt"
	"io/fs"
	"syscall"
)

// FileIdentity names a file's state as the file system keeps it: device,
// inode, size, and the modification and status-change times. Any write to
// the file, or a rename over it, changes it; the status-change time cannot
// be set back by a user, so a file whose identity is unchanged holds the
// same bytes. ok is false where the system gives no such figures.
func FileIdentity(fi fs.FileInfo) (id string, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d:%d.%09d:%d.%09d", st.Dev, st.Ino, st.Size,
		st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), true
}
