// The hardware priority queue's core: a shift-register priority queue (the
// "shift register" architecture of Moon, Shin and Rexford, 1997).
//
// DEPTH cells hold the queue as a sorted row, cell 0 first; the queued
// entries fill cells 0..count-1 and every other cell is all zeros (valid 0),
// so the head reads 0 when the queue is empty. Every cell compares the
// command's operand with its own entry in parallel, and every command moves
// the row in the one clock edge that accepts it:
//
//   insert  Cell i's "new entry comes before mine" (new_before[i]; 1 in an
//           empty cell) is 0..0 1..1 along the row. A cell whose bit is 1
//           takes its left neighbour's entry when the neighbour's bit is 1
//           too, and the new entry when it is the first 1: the entries behind
//           the insertion point shift one cell right. "Before" is strict, so
//           an entry equal to others in key and tie goes behind them (FIFO).
//   remove  Cell i's handle compare (match[i]) meets a parallel-prefix OR
//           (log2(DEPTH) levels): every cell at or behind the match takes its
//           right neighbour's entry, the last cell zeros.
//   pop     Every cell takes its right neighbour's entry.
//   clear   Every cell zeros.
//
// Order (hw/include/hwpq_regs.h): a before b when (int32)(a.key - b.key) < 0,
// on equal keys when a.tie < b.tie (unsigned). The keys queued must lie in a
// window of 2^31 (the largest minus the smallest, modulo 2^32, below 2^31) for
// that order to be a total order and the row to stay sorted.
//
// A refused command changes no cell and leaves its reason in error: insert
// FULL (checked first), then DUPLICATE (handle already queued); remove
// NOT_FOUND; pop EMPTY; any cmd value but 1..4 BAD_COMMAND. An accepted one
// leaves NONE. Synchronous, active-low reset.
module hwpq_core #(
    parameter DEPTH = 16,  // 1..65535 (count is 16 bits)
    // The fewest bits that number DEPTH entries, at least 1 (the C model's
    // rule, hw/model/hwpq_model.c).
    parameter HANDLE_BITS = (DEPTH > 2) ? $clog2(DEPTH) : 1
) (
    input  wire                   clk,
    input  wire                   rst_n,
    // A command (HWPQ_CMD_*) and its operands, taken at the clock edge when
    // cmd_valid is 1.
    input  wire                   cmd_valid,
    input  wire [31:0]            cmd,
    input  wire [31:0]            in_key,
    input  wire [63:0]            in_tie,
    input  wire [HANDLE_BITS-1:0] in_handle,
    // The first entry (all zeros when the queue is empty).
    output wire [31:0]            head_key,
    output wire [63:0]            head_tie,
    output wire [HANDLE_BITS-1:0] head_handle,
    output wire [15:0]            count,
    output wire                   empty,
    output wire                   full,
    // The last command's HWPQ_ERR_*.
    output reg  [2:0]             error
);
    localparam KB = 32;  // key bits
    localparam TB = 64;  // tie bits
    localparam HB = HANDLE_BITS;
    localparam COUNT_BITS = $clog2(DEPTH + 1);

    localparam [31:0] CMD_INSERT = 32'd1;
    localparam [31:0] CMD_REMOVE = 32'd2;
    localparam [31:0] CMD_POP = 32'd3;
    localparam [31:0] CMD_CLEAR = 32'd4;

    localparam [2:0] ERR_NONE = 3'd0;
    localparam [2:0] ERR_FULL = 3'd1;
    localparam [2:0] ERR_DUPLICATE = 3'd2;
    localparam [2:0] ERR_NOT_FOUND = 3'd3;
    localparam [2:0] ERR_EMPTY = 3'd4;
    localparam [2:0] ERR_BAD_COMMAND = 3'd5;

    // The cells, cell i at [i*width +: width].
    reg  [DEPTH-1:0]    valid_q;
    reg  [DEPTH*KB-1:0] key_q;
    reg  [DEPTH*TB-1:0] tie_q;
    reg  [DEPTH*HB-1:0] handle_q;
    reg  [COUNT_BITS-1:0] count_q;

    wire [DEPTH-1:0]    valid_d;
    wire [DEPTH*KB-1:0] key_d;
    wire [DEPTH*TB-1:0] tie_d;
    wire [DEPTH*HB-1:0] handle_d;

    wire [DEPTH-1:0] new_before;  // the operand comes before cell i's entry
    wire [DEPTH-1:0] match;       // cell i holds the operand's handle

    // ---- the command, decoded and checked ----
    wire is_insert = cmd == CMD_INSERT;
    wire is_remove = cmd == CMD_REMOVE;
    wire is_pop = cmd == CMD_POP;
    wire is_clear = cmd == CMD_CLEAR;

    // behind[i] = |match[i:0]: cell i is the match's or behind it.
    reg  [DEPTH-1:0] behind;
    wire found = behind[DEPTH-1];

    assign full = valid_q[DEPTH-1];
    assign empty = ~valid_q[0];

    wire do_insert = cmd_valid & is_insert & ~full & ~found;
    wire do_remove = cmd_valid & is_remove & found;
    wire do_pop = cmd_valid & is_pop & ~empty;
    wire do_clear = cmd_valid & is_clear;

    genvar i;

    // A parallel-prefix OR (Kogge-Stone): log2(DEPTH) levels of 2-input ORs.
    // Within a level, j runs down so that behind[j - span] is still the
    // previous level's.
    integer span, j;
    always @(*) begin
        behind = match;
        for (span = 1; span < DEPTH; span = span * 2) begin
            for (j = DEPTH - 1; j >= span; j = j - 1) begin
                behind[j] = behind[j] | behind[j - span];
            end
        end
    end

    // ---- the cells ----
    generate
        for (i = 0; i < DEPTH; i = i + 1) begin : g_cell
            wire          v = valid_q[i];
            wire [KB-1:0] k = key_q[i*KB +: KB];
            wire [TB-1:0] t = tie_q[i*TB +: TB];
            wire [HB-1:0] h = handle_q[i*HB +: HB];

            // The compare: by the key's wraparound difference, then the tie.
            wire [KB-1:0] diff = in_key - k;
            assign new_before[i] =
                ~v | diff[KB-1] | ((diff == {KB{1'b0}}) & (in_tie < t));
            assign match[i] = v & (h == in_handle);

            // The neighbours: the left one's compare and entry (insert), the
            // right one's entry (remove, pop); zeros past the ends.
            wire          left_before;
            wire          left_v;
            wire [KB-1:0] left_k;
            wire [TB-1:0] left_t;
            wire [HB-1:0] left_h;
            wire          right_v;
            wire [KB-1:0] right_k;
            wire [TB-1:0] right_t;
            wire [HB-1:0] right_h;
            if (i == 0) begin : g_first
                assign left_before = 1'b0;
                assign left_v = 1'b0;
                assign left_k = {KB{1'b0}};
                assign left_t = {TB{1'b0}};
                assign left_h = {HB{1'b0}};
            end else begin : g_left
                assign left_before = new_before[i-1];
                assign left_v = valid_q[i-1];
                assign left_k = key_q[(i-1)*KB +: KB];
                assign left_t = tie_q[(i-1)*TB +: TB];
                assign left_h = handle_q[(i-1)*HB +: HB];
            end
            if (i == DEPTH - 1) begin : g_last
                assign right_v = 1'b0;
                assign right_k = {KB{1'b0}};
                assign right_t = {TB{1'b0}};
                assign right_h = {HB{1'b0}};
            end else begin : g_right
                assign right_v = valid_q[i+1];
                assign right_k = key_q[(i+1)*KB +: KB];
                assign right_t = tie_q[(i+1)*TB +: TB];
                assign right_h = handle_q[(i+1)*HB +: HB];
            end

            wire take_left = do_insert & new_before[i] & left_before;
            wire take_new = do_insert & new_before[i] & ~left_before;
            wire take_right = do_pop | (do_remove & behind[i]);

            assign valid_d[i] = do_clear ? 1'b0 : take_left ? left_v :
                                take_new ? 1'b1 : take_right ? right_v : v;
            assign key_d[i*KB +: KB] = do_clear ? {KB{1'b0}} : take_left ? left_k :
                                       take_new ? in_key : take_right ? right_k : k;
            assign tie_d[i*TB +: TB] = do_clear ? {TB{1'b0}} : take_left ? left_t :
                                       take_new ? in_tie : take_right ? right_t : t;
            assign handle_d[i*HB +: HB] = do_clear ? {HB{1'b0}} : take_left ? left_h :
                                          take_new ? in_handle : take_right ? right_h : h;
        end
    endgenerate

    // ---- the error code and the count ----
    reg [2:0] error_d;
    always @(*) begin
        if (is_insert) begin
            error_d = full ? ERR_FULL : found ? ERR_DUPLICATE : ERR_NONE;
        end else if (is_remove) begin
            error_d = found ? ERR_NONE : ERR_NOT_FOUND;
        end else if (is_pop) begin
            error_d = empty ? ERR_EMPTY : ERR_NONE;
        end else if (is_clear) begin
            error_d = ERR_NONE;
        end else begin
            error_d = ERR_BAD_COMMAND;
        end
    end

    always @(posedge clk) begin
        if (!rst_n) begin
            valid_q <= {DEPTH{1'b0}};
            key_q <= {DEPTH*KB{1'b0}};
            tie_q <= {DEPTH*TB{1'b0}};
            handle_q <= {DEPTH*HB{1'b0}};
            count_q <= {COUNT_BITS{1'b0}};
            error <= ERR_NONE;
        end else begin
            valid_q <= valid_d;
            key_q <= key_d;
            tie_q <= tie_d;
            handle_q <= handle_d;
            if (do_clear) begin
                count_q <= {COUNT_BITS{1'b0}};
            end else if (do_insert) begin
                count_q <= count_q + 1'b1;
            end else if (do_remove | do_pop) begin
                count_q <= count_q - 1'b1;
            end
            if (cmd_valid) begin
                error <= error_d;
            end
        end
    end

    assign head_key = key_q[KB-1:0];
    assign head_tie = tie_q[TB-1:0];
    assign head_handle = handle_q[HB-1:0];

    generate
        if (COUNT_BITS < 16) begin : g_count_narrow
            assign count = {{(16 - COUNT_BITS){1'b0}}, count_q};
        end else begin : g_count_wide
            assign count = count_q[15:0];
        end
    endgenerate
endmodule
