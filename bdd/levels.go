package bdd

// LevelSizes counts the nodes on each level, the root's level first (the
// two terminals are on none).
func (d *Diagram) LevelSizes() []int {
	s := make([]int, d.Order.Vars())
	for _, nd := range d.Nodes[2:] {
		s[nd.Level]++
	}
	return s
}
