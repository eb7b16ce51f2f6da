package pdb

// knownDigests are the SHA-256 digests of the files gapset builds for the
// groups of the named partitions, by file name (" compact": the --compact
// file; "-blank.pdb": the --blank file, of the partitions blankDigested
// names). TestKnownDigests builds the small ones again and checks them;
// GAPSET_SLOW=1 also the 7- and 8-tile groups (minutes), and prints the
// table.
var knownDigests = map[string]string{
	"3x3-1-2-3-4-blank.pdb":               "c0ab86b90e5a25fe1de414e3221898db0a13e47cabd9938d7e0f5f5de3286173",
	"3x3-1-2-3-blank.pdb":                 "7a3295612b9cdbfb021199c9096e9133043743dcf6bde27dfc2088a138efba2c",
	"3x3-4-5-6-7-8-blank.pdb":             "0b1254fc8391974c113a87c8754e033659a5391454b02dec92a0a07759d0b624",
	"3x3-5-6-7-8-blank.pdb":               "71f6ee4c3ffe3c918e3ee125f6013fcf72577b8af5cdda19ed14e8468f8b3b35",
	"4x4-1-2-3-4-5-6-7-8-blank.pdb":       "08bc44ec7c01ed2770dbdfeb04b116444553e4cd0744e9e566dca7ddcdc17447",
	"4x4-9-10-11-12-13-14-15-blank.pdb":   "a8bea4549e2707f3d38176d9242f0d2ddc7a551482817f4a7c1881ac22c5625c",
	"3x3-1-2-3-4.pdb compact":             "3a08e95e7e559b6115eefd75273fa9501bf09fe6871864a11169826c6492b0fa",
	"3x3-1-2-3-4.pdb":                     "d2856f71155315bb8ceb6c9190ef324a1429cbb79a05fb54c93990fb89b15d90",
	"3x3-1-2-3.pdb compact":               "2daa4bd33cc9d9958d938eab2551202c5bd83ee9c89dea1ab7cbd3c1ba0db146",
	"3x3-1-2-3.pdb":                       "be7e480d0ac34029a01563865429b07c7c08cb44334e9b8cdf35d5be0241aa71",
	"3x3-4-5-6-7-8.pdb compact":           "f7641c5c5bcbb8296d8301ca457a5b97bece793dba3dd440307293ecea5cc919",
	"3x3-4-5-6-7-8.pdb":                   "be7a95bb5e0452fb67b1a95bc12e6239758c5bee61fd0a8dfc17c69d5a1f7df1",
	"3x3-5-6-7-8.pdb compact":             "afa51a1eb2388b97b260309ac03d24ac1acaa891fbd9645b6fdd834d1cccaf91",
	"3x3-5-6-7-8.pdb":                     "2eb6ab50f3280ccf8e821a83131db33b547fff54bd10879b82fecef0c72e4f19",
	"4x4-1-2-3-4-13-14-15.pdb compact":    "588fb6c1f56b99d930934e8721a054aa5676c6c426977afe1a5bd9270855ea34",
	"4x4-1-2-3-4-13-14-15.pdb":            "08113dcc44ef34686048500416a41720240dfbc5e6b9291adb3b5d90ed1e353d",
	"4x4-1-2-3-4-5-6-7-8.pdb compact":     "3061518449ce3dcefd836ab40a9b7c762a21f9f2f39c01da3200e6bccc2b534d",
	"4x4-1-2-3-4-5-6-7-8.pdb":             "4e17ed1ff2cf6416ebde4a5c77ebcc1ce41ffa7cdad77a7ec4fc81bf5fb731f4",
	"4x4-1-2-3-5-9.pdb compact":           "34308dc44dc4539db0f8266ec003fd12e785cb8506c7ec116a6b12e7b0959aff",
	"4x4-1-2-3-5-9.pdb":                   "1a17c84a4ede206f185419b50283bacb0a7f554345b1b0e4880d9b0195ae2bf5",
	"4x4-1-2-5-6-9-10.pdb compact":        "8424ecb1c5f3478c3eceecf040952350165df5524ce9fa9032fb8caca52dada6",
	"4x4-1-2-5-6-9-10.pdb":                "b33cda2897dff8516d7a8dc7c9ac6462f077022a86fc4efeefd9f789707f92fd",
	"4x4-1-5-6-9-13.pdb compact":          "db691b59831c251ef5e86371f185da201a6b20aace6823f38009f2e4571d0191",
	"4x4-1-5-6-9-13.pdb":                  "b09ffaa377802ec416bf00316803fe555a859ce1e611b07d4e38725b3135e495",
	"4x4-1-6-7-10-11.pdb compact":         "8973c091b64bf5230c9e3d5590443b22ae6d6af096dc28f57fc53ce3ad48f7a3",
	"4x4-1-6-7-10-11.pdb":                 "8b4f2431686b8f44740080a4b724ff07dd0e37ce80e5d08e154036205b7b3172",
	"4x4-10-11-12-14-15.pdb compact":      "5ce1feaa54b4a43fcc86b65f1e34e2bd39bd33de5cf229430fb57b3e94060166",
	"4x4-10-11-12-14-15.pdb":              "be5d43e1856b6d6f17575baa34e662377d1151eaecdd4d8979d788aa40e0c1ac",
	"4x4-13-14-15.pdb compact":            "e87604f56a5cd81348eb50aad6b0d3f2d343b73e3ed2c379330171fac4b2980e",
	"4x4-13-14-15.pdb":                    "c7b9922b9ae9d4a14c0537ec1dd8d8dac5c9acdec1d7be125684c4b1e6381a94",
	"4x4-2-3-4-7-8.pdb compact":           "1780354d3824c91dfef4159350f8adac13030b620fd2f27ff2d2910dccb47a83",
	"4x4-2-3-4-7-8.pdb":                   "df6b5dfbb4b76f0515bfcc98b057b8e99838e749fd4b7374523f0f74b7c8bb59",
	"4x4-2-3-4-8-12.pdb compact":          "1d4f39b4654e65ea464c443bea5d6aeaefc44e9ffc51de8cacc280a99415ac9f",
	"4x4-2-3-4-8-12.pdb":                  "348894b81b71f96d0f877468af51ed1bbd408851f13310fc7cda33230053d634",
	"4x4-3-4-7-8-11-12.pdb compact":       "7ffd92306890d20cccabe3cf057b472ef51916a19f3d2a53977735b5f121402c",
	"4x4-3-4-7-8-11-12.pdb":               "ffc1b1560b149d9fe2da509b3bc38e970216fa6077344b74956baa72d2897b11",
	"4x4-4-6-7-10-13.pdb compact":         "5ab679785f7e3fad1f65525d5e6252b76a170b36bd64a04cabe8632e7cc20546",
	"4x4-4-6-7-10-13.pdb":                 "ed8ffea7fd338fe07955cb943485e2b84f614377c3d35b57f4be0f39fb0b9f75",
	"4x4-5-6-7-8-9-10-11-12.pdb compact":  "703db2530d495f8316cb399174f687511b2541f96c1fe9acdb1d690fb06d161e",
	"4x4-5-6-7-8-9-10-11-12.pdb":          "e8d4120470620e1995ff37bae8bcb63e1e31af8f8a042b36acc6524a99c925e4",
	"4x4-5-9-13-14-15.pdb compact":        "4d639eeb9c87032612c90776f8ddc81b8cbf523c3805eb85ca38dbbd004f4528",
	"4x4-5-9-13-14-15.pdb":                "c2618e72dd3db1e955cbab1fe22a6decc491e1b5ffe9d4c0b4a686b369299f21",
	"4x4-8-11-12-14-15.pdb compact":       "f35b1d1de7e9a1b6d6ebdd50312370248f294da204c9339febfc85b3b1e16748",
	"4x4-8-11-12-14-15.pdb":               "d356eb9fb05f83549af35d94ad7fc58baf81b4a03ff56b84e2d076213e984193",
	"4x4-9-10-11-12-13-14-15.pdb compact": "c4f1b76d8dc0d3ed6e2ef01e52c15d23b9bba69f531cf78b5f46079d295e9997",
	"4x4-9-10-11-12-13-14-15.pdb":         "288205b5b783cd0eac72fc6a19bcff757dd7782a2d0c4480e4dcc36f727e9f6b",
}

// blankDigested are the named partitions whose blank-aware files have
// digests here (the 7-8 ones built on 2026-12-02: 1,637 s of wall on a
// loaded machine, 296 s of user CPU, 6.1 GB peak).
var blankDigested = []string{"4-4", "3-5", "7-8"}
