#!/bin/sh
# Synthesises the hardware priority queue (hw/rtl, top hwpq_apb: the APB3
# wrapper and the core) with yosys at several depths and writes a markdown
# table: yosys's generic synthesis (cells, flip-flops, and the longest
# combinational path in cells, `ltp -noff`) and synth_ice40 (LUT4s, flip-flops
# and carry cells).
#
#   hw/synth/synth.sh [--depths "8 16 32 64"] [--out FILE] [--yosys PROGRAM]
#
# The default output is docs/results/hwpq_synth.md. The build's
# hwpq_synth_smoke test runs this at depth 4 into the build tree.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
depths="8 16 32 64"
out="$root/docs/results/hwpq_synth.md"
yosys=yosys
command_line="hw/synth/synth.sh"

while [ $# -gt 0 ]; do
    case "$1" in
    --depths)
        [ $# -ge 2 ] || { echo "synth.sh: --depths needs a list" >&2; exit 2; }
        depths=$2
        command_line="$command_line --depths \"$2\""
        shift 2
        ;;
    --out)
        [ $# -ge 2 ] || { echo "synth.sh: --out needs a file" >&2; exit 2; }
        out=$2
        command_line="$command_line --out $2"
        shift 2
        ;;
    --yosys)
        [ $# -ge 2 ] || { echo "synth.sh: --yosys needs a program" >&2; exit 2; }
        yosys=$2
        shift 2
        ;;
    *)
        echo "usage: $0 [--depths \"8 16 32 64\"] [--out FILE] [--yosys PROGRAM]" >&2
        exit 2
        ;;
    esac
done

command -v "$yosys" >/dev/null 2>&1 || {
    echo "synth.sh: $yosys not found (the Debian package 'yosys')" >&2
    exit 1
}

rtl="$root/hw/rtl/hwpq_core.v $root/hw/rtl/hwpq_apb.v"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

version=$("$yosys" -V)

# The sum of the counts of stat's cell types matching an awk pattern.
cells() { # stat-file pattern
    awk -v pattern="$2" '$1 ~ pattern { n += $2 } END { print n + 0 }' "$1"
}

rows=""
for depth in $depths; do
    echo "synth.sh: depth $depth" >&2
    read_rtl="read_verilog $rtl; chparam -set DEPTH $depth hwpq_apb"
    "$yosys" -q -l "$tmp/generic_$depth.log" -p "$read_rtl; synth -top hwpq_apb -flatten; check -assert; tee -q -o $tmp/generic_$depth.stat stat; tee -q -o $tmp/generic_$depth.ltp ltp -noff" >/dev/null
    "$yosys" -q -l "$tmp/ice40_$depth.log" -p "$read_rtl; synth_ice40 -top hwpq_apb; check -assert; tee -q -o $tmp/ice40_$depth.stat stat" >/dev/null

    handle_bits=1
    while [ $((1 << handle_bits)) -lt "$depth" ]; do
        handle_bits=$((handle_bits + 1))
    done
    generic_cells=$(awk '/Number of cells:/ { n = $4 } END { print n + 0 }' "$tmp/generic_$depth.stat")
    generic_ffs=$(cells "$tmp/generic_$depth.stat" '^\\$_.*DFF')
    levels=$(sed -n 's/.*Longest topological path in .* (length=\([0-9]*\)).*/\1/p' "$tmp/generic_$depth.ltp")
    # Where that path starts and ends (ltp's first node and the flip-flop it
    # ends at), as register names without the bit.
    path_from=$(sed -n 's/^ *0: \\\([^ ]*\).*/\1/p' "$tmp/generic_$depth.ltp" | head -n 1)
    path_to=$(sed -n 's/^ *ff: \\\([^ ]*\).*/\1/p' "$tmp/generic_$depth.ltp" | head -n 1)
    luts=$(cells "$tmp/ice40_$depth.stat" '^SB_LUT4$')
    ice40_ffs=$(cells "$tmp/ice40_$depth.stat" '^SB_DFF')
    carries=$(cells "$tmp/ice40_$depth.stat" '^SB_CARRY$')
    # The queue's own state: valid, key, tie and handle per cell.
    cell_bits=$((depth * (1 + 32 + 64 + handle_bits)))
    # yosys's own warnings fail the run (ABC's note that a network has no
    # flip-flops, from synth_ice40's flip-flop mapping, is not one).
    warnings=$(cat "$tmp/generic_$depth.log" "$tmp/ice40_$depth.log" | grep -i warning | grep -v '^ABC: ' || true)
    if [ -n "$warnings" ]; then
        echo "synth.sh: yosys warned at depth $depth:" >&2
        echo "$warnings" >&2
        exit 1
    fi
    rows="$rows| $depth | $handle_bits | $cell_bits | $generic_cells | $generic_ffs | $levels | \`${path_from:-?}\` to \`${path_to:-?}\` | $luts | $ice40_ffs | $carries |
"
done

mkdir -p "$(dirname "$out")"
{
    echo "# Hardware priority queue: synthesis"
    echo
    echo "Made by \`$command_line\` (from the repository's root) with $version."
    echo "Top \`hwpq_apb\` (hw/rtl: the APB3 wrapper and the shift-register core), keys 32 bits,"
    echo "ties 64 bits, HANDLE_BITS at its default; every command completes in one clock."
    echo
    echo "Per depth, yosys runs \`read_verilog hw/rtl/hwpq_core.v hw/rtl/hwpq_apb.v; chparam -set DEPTH <depth> hwpq_apb\`, then"
    echo
    echo "- generic: \`synth -top hwpq_apb -flatten; stat; ltp -noff\` (cells are yosys's"
    echo "  internal gates; *logic depth* is the longest path between flip-flops and ports"
    echo "  in those cells);"
    echo "- iCE40: \`synth_ice40 -top hwpq_apb; stat\`."
    echo
    echo "*Cell state bits* is the queue's storage, DEPTH x (valid + key + tie + handle); the"
    echo "other flip-flops are the operand registers (32 + 64 + handle bits), the count and the error."
    echo
    echo "| DEPTH | handle bits | cell state bits | generic cells | generic FFs | logic depth (ltp -noff) | longest path | iCE40 LUT4 | iCE40 FFs | iCE40 SB_CARRY |"
    echo "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
    printf '%s' "$rows"
} >"$out"
echo "synth.sh: wrote $out" >&2
