//go:build linux || darwin || freebsd || dragonfly

package sysprobe

import "syscall"

// fsID names a file system (statfs's f_fsid).
type fsID = syscall.Fsid

// FreeDisk reads the free space of the file system holding dir.
func FreeDisk(dir string) (Disk, error) {
	var s syscall.Statfs_t
	if err := syscall.Statfs(dir, &s); err != nil {
		return Disk{}, err
	}
	return Disk{Free: int64(s.Bavail) * int64(s.Bsize), fs: s.Fsid}, nil
}
