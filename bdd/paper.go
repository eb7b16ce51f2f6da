package bdd

// PaperRow is one line of Table 1 of Hasegawa & Yamamoto: BDD file size in
// bytes, BDD nodes and patterns (members of the projected set).
type PaperRow struct {
	FileSize, Nodes, Patterns int64
}

// PaperTable1 returns the paper's Table 1 by set name (4x4 board). Gap2_12
// is absent: the paper could not build it with 64 GB.
func PaperTable1() map[string]PaperRow {
	return map[string]PaperRow{
		"Gap0_8":  {7870996, 1489108, 4233704},
		"Gap0_10": {54289825, 9965935, 23696364},
		"Gap0_12": {132693298, 24643389, 61559068},
		"Gap0":    {120098272, 24867599, 88728780},
		"Gap2_8":  {49439511, 8514680, 32844091},
		"Gap2_10": {527378793, 87720568, 256541479},
	}
}
