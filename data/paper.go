package data

// The two tables of S. Hasegawa and O. Yamamoto, "BDDを用いた15パズルの
// ギャップ集合の効率的な表現について" (On an efficient method for representing
// the gap sets of the fifteen puzzle using BDD), Meijo University: the
// figures the project's BDDs and searches are compared with.

// Table1Row is one line of the paper's Table 1: the BDD's file size in
// bytes, its nodes, and its patterns (members of the projected set).
type Table1Row struct {
	FileSize, Nodes, Patterns int64
}

// PaperTable1 returns the paper's Table 1 by set name (4x4 board; "Gap0"
// is the whole board, "Gap0_8" its projection onto the last 8 cells).
// Gap2_12 is absent: the paper could not build it with 64 GB.
func PaperTable1() map[string]Table1Row {
	return map[string]Table1Row{
		"Gap0_8":  {7870996, 1489108, 4233704},
		"Gap0_10": {54289825, 9965935, 23696364},
		"Gap0_12": {132693298, 24643389, 61559068},
		"Gap0":    {120098272, 24867599, 88728780},
		"Gap2_8":  {49439511, 8514680, 32844091},
		"Gap2_10": {527378793, 87720568, 256541479},
	}
}

// Table2Row is one line of the paper's Table 2: a heuristic (the BDD sets
// it reads in parentheses) with its average nodes searched and seconds per
// instance.
type Table2Row struct {
	Heuristic string
	Nodes     float64
	Seconds   float64
}

// PaperTable2 returns the paper's Table 2 in its order, Manhattan distance
// first: averages over 300 random 15-puzzle instances, solved by a C
// program (GCC 4.2.1) on a 2.93 GHz Xeon.
func PaperTable2() []Table2Row {
	return []Table2Row{
		{"M(c)", 1.32e8, 51.8},
		{"h_G (Gap0_8)", 3.44e7, 22.3},
		{"h_G (Gap0_10)", 3.42e7, 23.9},
		{"h_G (Gap0_12)", 3.42e7, 23.6},
		{"h_G (Gap0)", 3.28e7, 12.9},
		{"h_G:2 (Gap0_8 / Gap2_8)", 8.65e6, 9.1},
		{"h_G:2 (Gap0_10 / Gap2_10)", 8.32e6, 10.9},
	}
}
