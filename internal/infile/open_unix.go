//go:build unix

package infile

import (
	"os"
	"syscall"
)

// openNoWait opens path for reading with O_NONBLOCK, so that a FIFO
// without a writer does not hold the open; a regular file reads as it
// would without the flag.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
