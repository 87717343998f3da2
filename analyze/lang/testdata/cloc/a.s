	MOVQ AX, BX // c \

	// x
TEXT ·f(SB), $0
