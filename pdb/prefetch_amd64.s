#include "textflag.h"

// func prefetchKids(base unsafe.Pointer, logSize uint, kids []child)
TEXT ·prefetchKids(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), AX
	MOVQ logSize+8(FP), CX
	MOVQ kids_base+16(FP), SI
	MOVQ kids_len+24(FP), DX
	TESTQ DX, DX
	JEQ done
loop:
	MOVQ (SI), BX
	SHLQ CX, BX
	PREFETCHT0 (AX)(BX*1)
	ADDQ $16, SI
	DECQ DX
	JNE loop
done:
	RET
