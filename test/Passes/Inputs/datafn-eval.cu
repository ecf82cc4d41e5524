// One kernel whose data expressions use every operator of the spec language,
// over parameters of several integer types, for
// test/Passes/io-builder-datafn-eval.test, which compares the generated data
// function with klaraptor::evaluate on many inputs.
#define KLARAPTOR(spec) __attribute__((annotate(spec)))

__global__ void KLARAPTOR(
    "klaraptor v1\nkernel everything\nloc datafn-eval.cu:8:5\n"
    "param 0 a i64\nparam 1 b u32\nparam 2 c i16\nparam 3 d i8\n"
    "param 4 g u64\nparam 5 h i32\n"
    "data add ($0 + $5)\n"
    "data sub ($0 - $4)\n"
    "data mul ($0 * $5)\n"
    "data div ($0 / $5)\n"
    "data rem ($0 % $2)\n"
    "data neg (-$0)\n"
    "data not (!$3)\n"
    "data cmp (((($1 < $2) + ($1 <= $5)) + (($0 > $3) * 2)) + "
    "((($4 >= $1) + ($2 == $3)) + ($5 != $0)))\n"
    "data and (($5 != 0) && (($0 / $5) > 2))\n"
    "data or (($2 == 0) || (($0 % $2) == 1))\n"
    "data cdiv ceildiv($0, $5)\n"
    "data cdiv2 ceildiv(($1 * $3), ($2 - 1))\n"
    "data mn min($0, $1, $2, 7)\n"
    "data mx max($3, ($4 / 3), -5)\n"
    "data nest ceildiv((($0 % 1000) * ($1 % 1000)), max($3, 1)) - min($5, 0)\n"
    "block bx\ngrid ceildiv(add, bx)\ncandidates pow2\n")
everything(long a, unsigned b, short c, signed char d, unsigned long g, int h) {}
