// The hardware priority queue as an AMBA APB3 slave: hwpq_core behind the
// register map of hw/include/hwpq_regs.h, answering as hwpq_model_read and
// hwpq_model_write (hw/model/hwpq_model.c) do.
//
// The bus never waits (pready 1) and never errs (pslverr 0). The decode is
// on the whole 12-bit offset: an offset that is not a register's (unaligned,
// or at HWPQ_REG_WINDOW and above) reads 0 and ignores writes, as do writes
// to the read-only registers. A write to CMD hands the value to the core in
// the write's access cycle: the command completes at that clock edge, so the
// next transfer reads its effect. CMD reads 0. HANDLE keeps only the handle's
// bits (the value written masked to HANDLE_BITS). Synchronous, active-low
// reset (presetn): queue empty, operand registers 0, error NONE.
module hwpq_apb #(
    parameter DEPTH = 16,  // 1..65535 (STATUS's count and CONFIG's depth are 16 bits)
    parameter HANDLE_BITS = (DEPTH > 2) ? $clog2(DEPTH) : 1
) (
    input  wire        pclk,
    input  wire        presetn,
    input  wire        psel,
    input  wire        penable,
    input  wire        pwrite,
    input  wire [11:0] paddr,
    input  wire [31:0] pwdata,
    output reg  [31:0] prdata,
    output wire        pready,
    output wire        pslverr
);
    // hwpq_regs.h
    localparam [11:0] REG_ID = 12'h000;
    localparam [11:0] REG_CONFIG = 12'h004;
    localparam [11:0] REG_KEY = 12'h008;
    localparam [11:0] REG_TIE_LO = 12'h00C;
    localparam [11:0] REG_TIE_HI = 12'h010;
    localparam [11:0] REG_HANDLE = 12'h014;
    localparam [11:0] REG_CMD = 12'h018;
    localparam [11:0] REG_STATUS = 12'h01C;
    localparam [11:0] REG_HEAD_KEY = 12'h020;
    localparam [11:0] REG_HEAD_TIE_LO = 12'h024;
    localparam [11:0] REG_HEAD_TIE_HI = 12'h028;
    localparam [11:0] REG_HEAD_HANDLE = 12'h02C;
    localparam [31:0] ID = 32'h48575051;  // "HWPQ"
    localparam [31:0] CONFIG = (DEPTH % 65536) + (HANDLE_BITS % 256) * 65536;

    assign pready = 1'b1;
    assign pslverr = 1'b0;

    wire write = psel & penable & pwrite;

    // ---- the operand registers ----
    reg [31:0]            key_q;
    reg [31:0]            tie_lo_q;
    reg [31:0]            tie_hi_q;
    reg [HANDLE_BITS-1:0] handle_q;

    always @(posedge pclk) begin
        if (!presetn) begin
            key_q <= 32'd0;
            tie_lo_q <= 32'd0;
            tie_hi_q <= 32'd0;
            handle_q <= {HANDLE_BITS{1'b0}};
        end else if (write) begin
            case (paddr)
                REG_KEY: key_q <= pwdata;
                REG_TIE_LO: tie_lo_q <= pwdata;
                REG_TIE_HI: tie_hi_q <= pwdata;
                REG_HANDLE: handle_q <= pwdata[HANDLE_BITS-1:0];
                default: ;
            endcase
        end
    end

    // ---- the queue ----
    wire [31:0]            head_key;
    wire [63:0]            head_tie;
    wire [HANDLE_BITS-1:0] head_handle;
    wire [15:0]            count;
    wire                   empty;
    wire                   full;
    wire [2:0]             error;

    hwpq_core #(
        .DEPTH(DEPTH),
        .HANDLE_BITS(HANDLE_BITS)
    ) u_core (
        .clk(pclk),
        .rst_n(presetn),
        .cmd_valid(write && paddr == REG_CMD),
        .cmd(pwdata),
        .in_key(key_q),
        .in_tie({tie_hi_q, tie_lo_q}),
        .in_handle(handle_q),
        .head_key(head_key),
        .head_tie(head_tie),
        .head_handle(head_handle),
        .count(count),
        .empty(empty),
        .full(full),
        .error(error)
    );

    // ---- reads ----
    // The handles, zero-extended to the bus.
    wire [31:0] handle_reg;
    wire [31:0] head_handle_reg;
    generate
        if (HANDLE_BITS < 32) begin : g_handle_narrow
            assign handle_reg = {{(32 - HANDLE_BITS){1'b0}}, handle_q};
            assign head_handle_reg = {{(32 - HANDLE_BITS){1'b0}}, head_handle};
        end else begin : g_handle_wide
            assign handle_reg = handle_q[31:0];
            assign head_handle_reg = head_handle[31:0];
        end
    endgenerate

    wire [31:0] status = {5'd0, error, 6'd0, full, empty, count};

    always @(*) begin
        prdata = 32'd0;
        if (psel && !pwrite) begin
            case (paddr)
                REG_ID: prdata = ID;
                REG_CONFIG: prdata = CONFIG;
                REG_KEY: prdata = key_q;
                REG_TIE_LO: prdata = tie_lo_q;
                REG_TIE_HI: prdata = tie_hi_q;
                REG_HANDLE: prdata = handle_reg;
                REG_STATUS: prdata = status;
                REG_HEAD_KEY: prdata = head_key;
                REG_HEAD_TIE_LO: prdata = head_tie[31:0];
                REG_HEAD_TIE_HI: prdata = head_tie[63:32];
                REG_HEAD_HANDLE: prdata = head_handle_reg;
                default: prdata = 32'd0;  // CMD, and offsets not decoded
            endcase
        end
    end
endmodule
