//go:build !(linux || darwin || freebsd || dragonfly)

package sysprobe

import "errors"

type fsID struct{}

// FreeDisk has no free-space figure here (no statfs with a file system
// id): it fails with errors.ErrUnsupported.
func FreeDisk(dir string) (Disk, error) { return Disk{}, errors.ErrUnsupported }
