//go:build amd64 && !purego

#include "textflag.h"

// AVX2 loops of simd_amd64.go. Every function takes lengths its Go wrapper
// already checked and trimmed to whole iterations; the wrapper runs the
// remaining rows through the pure-Go loop.

// ---- mulConstAddAVX2: out = x*c ± y, 8 rows (two groups of 4) a loop ----
//
// Constants: Y11 the shift count (c a power of two) or c>>32 (otherwise),
// Y12 c, Y13 lo, Y14 hi; Y15 and Y10 accumulate the overflow flags of the
// two groups (sign bits; the range compares set all bits).

// LOAD2 loads four lanes of x and y at byte offset off of row R8.
#define LOAD2(off, xr, yr) \
	VMOVDQU off(SI)(R8*8), xr; \
	VMOVDQU off(DX)(R8*8), yr

// RANGE sets rr where x lies outside [lo, hi] (x*c overflows); clobbers tr.
#define RANGE(xr, rr, tr) \
	VPCMPGTQ Y14, xr, tr; \
	VPCMPGTQ xr, Y13, rr; \
	VPOR     tr, rr, rr

// MULGEN is pr = x*c mod 2^64 from 32-bit partial products:
// lo(x)*lo(c) + (hi(x)*lo(c) + lo(x)*hi(c)) << 32; clobbers xr and tr.
#define MULGEN(xr, pr, tr) \
	VPMULUDQ Y12, xr, pr; \
	VPSRLQ   $32, xr, tr; \
	VPMULUDQ Y12, tr, tr; \
	VPMULUDQ Y11, xr, xr; \
	VPADDQ   xr, tr, tr; \
	VPSLLQ   $32, tr, tr; \
	VPADDQ   tr, pr, pr

// ADDSTORE stores r = p + y (by mov: VMOVDQU, or VMOVNTDQ to an aligned
// output) and ORs the sign test (p^r)&(y^r) into rr; clobbers xr, yr, tr.
#define ADDSTORE(mov, off, xr, yr, pr, tr, rr) \
	VPADDQ  yr, pr, tr; \
	mov     tr, off(DI)(R8*8); \
	VPXOR   pr, tr, xr; \
	VPXOR   yr, tr, yr; \
	VPAND   xr, yr, yr; \
	VPOR    yr, rr, rr

// SUBSTORE stores r = p - y (by mov) and ORs the sign test (p^y)&(p^r)
// into rr; clobbers xr, yr, tr.
#define SUBSTORE(mov, off, xr, yr, pr, tr, rr) \
	VPSUBQ  yr, pr, tr; \
	mov     tr, off(DI)(R8*8); \
	VPXOR   pr, yr, xr; \
	VPXOR   pr, tr, yr; \
	VPAND   xr, yr, yr; \
	VPOR    yr, rr, rr

// SHIFTBODY and GENBODY are one 8-row iteration, x*c by a shift or by
// partial products, the sum or difference stored by STORE(mov, ...).
#define SHIFTBODY(STORE, mov) \
	LOAD2(0, Y0, Y1); \
	LOAD2(32, Y5, Y6); \
	RANGE(Y0, Y4, Y3); \
	RANGE(Y5, Y9, Y8); \
	VPSLLQ X11, Y0, Y2; \
	VPSLLQ X11, Y5, Y7; \
	STORE(mov, 0, Y0, Y1, Y2, Y3, Y4); \
	STORE(mov, 32, Y5, Y6, Y7, Y8, Y9); \
	VPOR   Y4, Y15, Y15; \
	VPOR   Y9, Y10, Y10; \
	ADDQ   $8, R8

#define GENBODY(STORE, mov) \
	LOAD2(0, Y0, Y1); \
	LOAD2(32, Y5, Y6); \
	RANGE(Y0, Y4, Y3); \
	RANGE(Y5, Y9, Y8); \
	MULGEN(Y0, Y2, Y3); \
	MULGEN(Y5, Y7, Y8); \
	STORE(mov, 0, Y0, Y1, Y2, Y3, Y4); \
	STORE(mov, 32, Y5, Y6, Y7, Y8, Y9); \
	VPOR   Y4, Y15, Y15; \
	VPOR   Y9, Y10, Y10; \
	ADDQ   $8, R8

// func mulConstAddAVX2(x, y, out []int64, c, lo, hi, shift int64, sub, nt bool) (overflow bool)
//
// nt: out is 32-byte aligned and larger than the caches; the results go
// straight to memory (VMOVNTDQ), without first reading each output line
// into the cache (the write-allocate) or evicting x and y from it.
TEXT ·mulConstAddAVX2(SB), NOSPLIT, $0-113
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	MOVQ         y_base+24(FP), DX
	MOVQ         out_base+48(FP), DI
	VPBROADCASTQ c+72(FP), Y12
	VPBROADCASTQ lo+80(FP), Y13
	VPBROADCASTQ hi+88(FP), Y14
	VPXOR        Y15, Y15, Y15
	VPXOR        Y10, Y10, Y10
	XORQ         R8, R8
	MOVQ         shift+96(FP), AX
	MOVBLZX      sub+104(FP), BX
	MOVBLZX      nt+105(FP), R9
	TESTQ        AX, AX
	JLT          general
	MOVQ         AX, X11
	TESTQ        R9, R9
	JNZ          ntshift
	TESTQ        BX, BX
	JNZ          subshift

addshift:
	CMPQ R8, CX
	JGE  done
	SHIFTBODY(ADDSTORE, VMOVDQU)
	JMP  addshift

subshift:
	CMPQ R8, CX
	JGE  done
	SHIFTBODY(SUBSTORE, VMOVDQU)
	JMP  subshift

ntshift:
	TESTQ BX, BX
	JNZ   ntsubshift

ntaddshift:
	CMPQ R8, CX
	JGE  ntdone
	SHIFTBODY(ADDSTORE, VMOVNTDQ)
	JMP  ntaddshift

ntsubshift:
	CMPQ R8, CX
	JGE  ntdone
	SHIFTBODY(SUBSTORE, VMOVNTDQ)
	JMP  ntsubshift

general:
	VPSRLQ $32, Y12, Y11
	TESTQ  R9, R9
	JNZ    ntgen
	TESTQ  BX, BX
	JNZ    subgen

addgen:
	CMPQ R8, CX
	JGE  done
	GENBODY(ADDSTORE, VMOVDQU)
	JMP  addgen

subgen:
	CMPQ R8, CX
	JGE  done
	GENBODY(SUBSTORE, VMOVDQU)
	JMP  subgen

ntgen:
	TESTQ BX, BX
	JNZ   ntsubgen

ntaddgen:
	CMPQ R8, CX
	JGE  ntdone
	GENBODY(ADDSTORE, VMOVNTDQ)
	JMP  ntaddgen

ntsubgen:
	CMPQ R8, CX
	JGE  ntdone
	GENBODY(SUBSTORE, VMOVNTDQ)
	JMP  ntsubgen

ntdone:
	// Non-temporal stores are weakly ordered: fence them before anything
	// the caller stores (publishing the array to another goroutine).
	SFENCE

done:
	VPOR      Y10, Y15, Y15
	VMOVMSKPD Y15, AX
	TESTL     AX, AX
	SETNE     overflow+112(FP)
	VZEROUPPER
	RET

// ---- addSubInt64AVX2: out = a ± b, 8 rows a loop ----
//
// Y15 and Y10 accumulate the sign tests of the two groups: (a^s)&(b^s)
// for a sum, (a^b)&(a^s) for a difference.

// func addSubInt64AVX2(a, b, out []int64, sub bool) (overflow bool)
TEXT ·addSubInt64AVX2(SB), NOSPLIT, $0-81
	MOVQ    a_base+0(FP), SI
	MOVQ    a_len+8(FP), CX
	MOVQ    b_base+24(FP), DX
	MOVQ    out_base+48(FP), DI
	MOVBLZX sub+72(FP), BX
	VPXOR   Y15, Y15, Y15
	VPXOR   Y10, Y10, Y10
	XORQ    R8, R8
	TESTQ   BX, BX
	JNZ     vvsub

vvadd:
	CMPQ    R8, CX
	JGE     vvdone
	LOAD2(0, Y0, Y1)
	LOAD2(32, Y5, Y6)
	VPADDQ  Y1, Y0, Y2
	VPADDQ  Y6, Y5, Y7
	VMOVDQU Y2, 0(DI)(R8*8)
	VMOVDQU Y7, 32(DI)(R8*8)
	VPXOR   Y0, Y2, Y0
	VPXOR   Y1, Y2, Y1
	VPAND   Y0, Y1, Y1
	VPOR    Y1, Y15, Y15
	VPXOR   Y5, Y7, Y5
	VPXOR   Y6, Y7, Y6
	VPAND   Y5, Y6, Y6
	VPOR    Y6, Y10, Y10
	ADDQ    $8, R8
	JMP     vvadd

vvsub:
	CMPQ    R8, CX
	JGE     vvdone
	LOAD2(0, Y0, Y1)
	LOAD2(32, Y5, Y6)
	VPSUBQ  Y1, Y0, Y2
	VPSUBQ  Y6, Y5, Y7
	VMOVDQU Y2, 0(DI)(R8*8)
	VMOVDQU Y7, 32(DI)(R8*8)
	VPXOR   Y0, Y1, Y1
	VPXOR   Y0, Y2, Y0
	VPAND   Y0, Y1, Y1
	VPOR    Y1, Y15, Y15
	VPXOR   Y5, Y6, Y6
	VPXOR   Y5, Y7, Y5
	VPAND   Y5, Y6, Y6
	VPOR    Y6, Y10, Y10
	ADDQ    $8, R8
	JMP     vvsub

vvdone:
	VPOR      Y10, Y15, Y15
	VMOVMSKPD Y15, AX
	TESTL     AX, AX
	SETNE     overflow+80(FP)
	VZEROUPPER
	RET

// ---- cmpInt64VSAVX2: 32 rows a loop, one uint32 of result bits each ----

// MASK32 packs the sign bits of Y0..Y7 (4 rows each) into 32 bits, flips
// them by R9 and stores them at DI.
#define MASK32 \
	VMOVMSKPD Y0, AX; \
	VMOVMSKPD Y1, BX; SHLL $4, BX; ORL BX, AX; \
	VMOVMSKPD Y2, BX; SHLL $8, BX; ORL BX, AX; \
	VMOVMSKPD Y3, BX; SHLL $12, BX; ORL BX, AX; \
	VMOVMSKPD Y4, BX; SHLL $16, BX; ORL BX, AX; \
	VMOVMSKPD Y5, BX; SHLL $20, BX; ORL BX, AX; \
	VMOVMSKPD Y6, BX; SHLL $24, BX; ORL BX, AX; \
	VMOVMSKPD Y7, BX; SHLL $28, BX; ORL BX, AX; \
	XORL      R9, AX; \
	MOVL      AX, (DI)

// func cmpInt64VSAVX2(a []int64, y int64, op int64, flip uint32, out []byte)
TEXT ·cmpInt64VSAVX2(SB), NOSPLIT, $0-72
	MOVQ         a_base+0(FP), SI
	MOVQ         a_len+8(FP), CX
	VPBROADCASTQ y+24(FP), Y15
	MOVQ         op+32(FP), DX
	MOVL         flip+40(FP), R9
	MOVQ         out_base+48(FP), DI
	CMPQ         DX, $1
	JEQ          gt
	CMPQ         DX, $2
	JEQ          eq

lt: // y > a
	CMPQ     CX, $32
	JLT      cmpdone
	VPCMPGTQ 0(SI), Y15, Y0
	VPCMPGTQ 32(SI), Y15, Y1
	VPCMPGTQ 64(SI), Y15, Y2
	VPCMPGTQ 96(SI), Y15, Y3
	VPCMPGTQ 128(SI), Y15, Y4
	VPCMPGTQ 160(SI), Y15, Y5
	VPCMPGTQ 192(SI), Y15, Y6
	VPCMPGTQ 224(SI), Y15, Y7
	MASK32
	ADDQ     $256, SI
	ADDQ     $4, DI
	SUBQ     $32, CX
	JMP      lt

gt: // a > y
	CMPQ     CX, $32
	JLT      cmpdone
	VMOVDQU  0(SI), Y0
	VMOVDQU  32(SI), Y1
	VMOVDQU  64(SI), Y2
	VMOVDQU  96(SI), Y3
	VMOVDQU  128(SI), Y4
	VMOVDQU  160(SI), Y5
	VMOVDQU  192(SI), Y6
	VMOVDQU  224(SI), Y7
	VPCMPGTQ Y15, Y0, Y0
	VPCMPGTQ Y15, Y1, Y1
	VPCMPGTQ Y15, Y2, Y2
	VPCMPGTQ Y15, Y3, Y3
	VPCMPGTQ Y15, Y4, Y4
	VPCMPGTQ Y15, Y5, Y5
	VPCMPGTQ Y15, Y6, Y6
	VPCMPGTQ Y15, Y7, Y7
	MASK32
	ADDQ     $256, SI
	ADDQ     $4, DI
	SUBQ     $32, CX
	JMP      gt

eq:
	CMPQ     CX, $32
	JLT      cmpdone
	VPCMPEQQ 0(SI), Y15, Y0
	VPCMPEQQ 32(SI), Y15, Y1
	VPCMPEQQ 64(SI), Y15, Y2
	VPCMPEQQ 96(SI), Y15, Y3
	VPCMPEQQ 128(SI), Y15, Y4
	VPCMPEQQ 160(SI), Y15, Y5
	VPCMPEQQ 192(SI), Y15, Y6
	VPCMPEQQ 224(SI), Y15, Y7
	MASK32
	ADDQ     $256, SI
	ADDQ     $4, DI
	SUBQ     $32, CX
	JMP      eq

cmpdone:
	VZEROUPPER
	RET

// ---- compactInt64AVX2: the kept rows of whole 64-row words ----
//
// Per group of 4 rows, the group's 4 bits of the word select a row of
// compact4 (the dword indices of the kept lanes, in order); VPERMD moves
// the kept lanes to the front and all 32 bytes are stored at the output
// position, which then advances by the group's popcount (the caller
// leaves room for the 3 lanes past the last kept row).

// COMPACT4 handles the 4 rows at byte offset off of SI with the low 4 bits
// of AX, then shifts AX by 4.
#define COMPACT4(off) \
	LEAQ    0(AX*4), R9; \
	ANDQ    $60, R9; \
	POPCNTQ R9, R11; \
	VMOVDQU (R10)(R9*8), Y1; \
	VPERMD  off(SI), Y1, Y2; \
	VMOVDQU Y2, (DI)(DX*8); \
	ADDQ    R11, DX; \
	SHRQ    $4, AX

// COPY4 copies the 4 rows at byte offset off of SI to the output position.
#define COPY4(off) \
	VMOVDQU off(SI), Y0; \
	VMOVDQU Y0, off(DI)(DX*8)

// func compactInt64AVX2(src []int64, keep []uint64, out []int64) (k int)
TEXT ·compactInt64AVX2(SB), NOSPLIT, $0-80
	MOVQ src_base+0(FP), SI
	MOVQ keep_base+24(FP), R12
	MOVQ keep_len+32(FP), CX
	MOVQ out_base+48(FP), DI
	LEAQ compact4<>(SB), R10
	XORQ DX, DX

word:
	TESTQ   CX, CX
	JZ      compactdone
	MOVQ    (R12), AX
	POPCNTQ AX, BX
	CMPQ    BX, $64
	JEQ     full
	TESTQ   AX, AX
	JZ      next
	COMPACT4(0)
	COMPACT4(32)
	COMPACT4(64)
	COMPACT4(96)
	COMPACT4(128)
	COMPACT4(160)
	COMPACT4(192)
	COMPACT4(224)
	COMPACT4(256)
	COMPACT4(288)
	COMPACT4(320)
	COMPACT4(352)
	COMPACT4(384)
	COMPACT4(416)
	COMPACT4(448)
	COMPACT4(480)
	JMP     next

full:
	COPY4(0)
	COPY4(32)
	COPY4(64)
	COPY4(96)
	COPY4(128)
	COPY4(160)
	COPY4(192)
	COPY4(224)
	COPY4(256)
	COPY4(288)
	COPY4(320)
	COPY4(352)
	COPY4(384)
	COPY4(416)
	COPY4(448)
	COPY4(480)
	ADDQ $64, DX

next:
	ADDQ $512, SI
	ADDQ $8, R12
	DECQ CX
	JMP  word

compactdone:
	MOVQ DX, k+72(FP)
	VZEROUPPER
	RET

// compact4 row m: the dword indices (2j, 2j+1) of each set bit j of m, in
// order, then zeros.
DATA compact4<>+0(SB)/8, $0x0000000000000000
DATA compact4<>+8(SB)/8, $0x0000000000000000
DATA compact4<>+16(SB)/8, $0x0000000000000000
DATA compact4<>+24(SB)/8, $0x0000000000000000
DATA compact4<>+32(SB)/8, $0x0000000100000000
DATA compact4<>+40(SB)/8, $0x0000000000000000
DATA compact4<>+48(SB)/8, $0x0000000000000000
DATA compact4<>+56(SB)/8, $0x0000000000000000
DATA compact4<>+64(SB)/8, $0x0000000300000002
DATA compact4<>+72(SB)/8, $0x0000000000000000
DATA compact4<>+80(SB)/8, $0x0000000000000000
DATA compact4<>+88(SB)/8, $0x0000000000000000
DATA compact4<>+96(SB)/8, $0x0000000100000000
DATA compact4<>+104(SB)/8, $0x0000000300000002
DATA compact4<>+112(SB)/8, $0x0000000000000000
DATA compact4<>+120(SB)/8, $0x0000000000000000
DATA compact4<>+128(SB)/8, $0x0000000500000004
DATA compact4<>+136(SB)/8, $0x0000000000000000
DATA compact4<>+144(SB)/8, $0x0000000000000000
DATA compact4<>+152(SB)/8, $0x0000000000000000
DATA compact4<>+160(SB)/8, $0x0000000100000000
DATA compact4<>+168(SB)/8, $0x0000000500000004
DATA compact4<>+176(SB)/8, $0x0000000000000000
DATA compact4<>+184(SB)/8, $0x0000000000000000
DATA compact4<>+192(SB)/8, $0x0000000300000002
DATA compact4<>+200(SB)/8, $0x0000000500000004
DATA compact4<>+208(SB)/8, $0x0000000000000000
DATA compact4<>+216(SB)/8, $0x0000000000000000
DATA compact4<>+224(SB)/8, $0x0000000100000000
DATA compact4<>+232(SB)/8, $0x0000000300000002
DATA compact4<>+240(SB)/8, $0x0000000500000004
DATA compact4<>+248(SB)/8, $0x0000000000000000
DATA compact4<>+256(SB)/8, $0x0000000700000006
DATA compact4<>+264(SB)/8, $0x0000000000000000
DATA compact4<>+272(SB)/8, $0x0000000000000000
DATA compact4<>+280(SB)/8, $0x0000000000000000
DATA compact4<>+288(SB)/8, $0x0000000100000000
DATA compact4<>+296(SB)/8, $0x0000000700000006
DATA compact4<>+304(SB)/8, $0x0000000000000000
DATA compact4<>+312(SB)/8, $0x0000000000000000
DATA compact4<>+320(SB)/8, $0x0000000300000002
DATA compact4<>+328(SB)/8, $0x0000000700000006
DATA compact4<>+336(SB)/8, $0x0000000000000000
DATA compact4<>+344(SB)/8, $0x0000000000000000
DATA compact4<>+352(SB)/8, $0x0000000100000000
DATA compact4<>+360(SB)/8, $0x0000000300000002
DATA compact4<>+368(SB)/8, $0x0000000700000006
DATA compact4<>+376(SB)/8, $0x0000000000000000
DATA compact4<>+384(SB)/8, $0x0000000500000004
DATA compact4<>+392(SB)/8, $0x0000000700000006
DATA compact4<>+400(SB)/8, $0x0000000000000000
DATA compact4<>+408(SB)/8, $0x0000000000000000
DATA compact4<>+416(SB)/8, $0x0000000100000000
DATA compact4<>+424(SB)/8, $0x0000000500000004
DATA compact4<>+432(SB)/8, $0x0000000700000006
DATA compact4<>+440(SB)/8, $0x0000000000000000
DATA compact4<>+448(SB)/8, $0x0000000300000002
DATA compact4<>+456(SB)/8, $0x0000000500000004
DATA compact4<>+464(SB)/8, $0x0000000700000006
DATA compact4<>+472(SB)/8, $0x0000000000000000
DATA compact4<>+480(SB)/8, $0x0000000100000000
DATA compact4<>+488(SB)/8, $0x0000000300000002
DATA compact4<>+496(SB)/8, $0x0000000500000004
DATA compact4<>+504(SB)/8, $0x0000000700000006
GLOBL compact4<>(SB), RODATA|NOPTR, $512
