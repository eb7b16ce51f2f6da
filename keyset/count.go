package keyset

// Count reads the file at path to the end, checking the order of its keys
// and its checksum, and returns its header and number of keys.
func Count(path string) (Header, uint64, error) {
	r, err := Open(path)
	if err != nil {
		return Header{}, 0, err
	}
	defer r.Close()
	var n uint64
	for {
		if _, ok := r.Next(); !ok {
			break
		}
		n++
	}
	return r.Header(), n, r.Err()
}
