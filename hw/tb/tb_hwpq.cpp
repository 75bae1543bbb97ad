// The hardware priority queue's testbench: the RTL (hw/rtl/hwpq_apb.v,
// verilated with -GDEPTH=HWPQ_TB_DEPTH) and the C model (hw/model) driven
// side by side through the same APB transfers. Every register read is
// answered by both and must agree; the first disagreement ends the run with
// the step, the register, both values and the last transfers.
//
//   tb_hwpq [--seed N] [--steps N] [--random-only]
//
// First the directed cases (which also check a few answers against values
// written here, so a wrong model cannot hide a wrong RTL there), then --steps
// random commands from --seed. --random-only leaves the directed cases out
// (to see what the random sequences find on their own).
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vhwpq_apb.h"
#include "verilated.h"

extern "C" {
#include "hwpq_model.h"
}

#ifndef HWPQ_TB_DEPTH
#error "HWPQ_TB_DEPTH (the RTL's DEPTH parameter) must be defined"
#endif

namespace {

const uint32_t kDepth = HWPQ_TB_DEPTH;

// splitmix64: small, seedable, the same sequence everywhere.
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next()
    {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t u32() { return static_cast<uint32_t>(next() >> 32); }
    // Uniform in [0, n) (n > 0); the bias of the modulo is negligible here.
    uint64_t below(uint64_t n) { return next() % n; }
    // True with probability num / den.
    bool chance(uint32_t num, uint32_t den) { return below(den) < num; }

private:
    uint64_t state_;
};

const char *reg_name(uint32_t offset)
{
    static const char *const names[] = {"ID",       "CONFIG",      "KEY",         "TIE_LO",
                                        "TIE_HI",   "HANDLE",      "CMD",         "STATUS",
                                        "HEAD_KEY", "HEAD_TIE_LO", "HEAD_TIE_HI", "HEAD_HANDLE"};
    if (offset % 4 == 0 && offset < HWPQ_REG_WINDOW) {
        return names[offset / 4];
    }
    return "(not decoded)";
}

const char *cmd_name(uint32_t cmd)
{
    switch (cmd) {
    case HWPQ_CMD_INSERT:
        return "insert";
    case HWPQ_CMD_REMOVE:
        return "remove";
    case HWPQ_CMD_POP:
        return "pop";
    case HWPQ_CMD_CLEAR:
        return "clear";
    default:
        return "bad command";
    }
}

struct Stats {
    uint64_t cycles = 0;
    uint64_t reads = 0;  // compared with the model
    uint64_t writes = 0;
    uint64_t expects = 0; // also compared with a value written in the bench
    uint64_t commands = 0;
    uint64_t inserts = 0, removes = 0, pops = 0, clears = 0, bad = 0;
    uint64_t refused[8] = {};
    uint64_t equal_key_inserts = 0;  // the key already queued
    uint64_t equal_entry_inserts = 0; // key and tie already queued
    uint64_t wrap_steps = 0;         // steps ending with the queue across the wrap
    uint64_t full_reached = 0, empty_reached = 0;
    uint64_t resets = 0;
    uint32_t max_count = 0;
};

class Bench {
public:
    Bench(int argc, char **argv, uint64_t seed) : ctx_(new VerilatedContext), seed_(seed)
    {
        ctx_->commandArgs(argc, argv);
        top_.reset(new Vhwpq_apb{ctx_.get()});
        top_->psel = 0;
        top_->penable = 0;
        top_->pwrite = 0;
        top_->paddr = 0;
        top_->pwdata = 0;
        top_->presetn = 1;
        top_->pclk = 0;
        top_->eval();
        reset();
    }
    ~Bench() { top_->final(); }

    Stats stats;
    hwpq_model_t model;

    void set_phase(const std::string &phase) { phase_ = phase; }
    void set_step(uint64_t step) { step_ = step; }

    // presetn low for two clocks, and the model as after reset.
    void reset()
    {
        top_->presetn = 0;
        top_->psel = 0;
        top_->penable = 0;
        clock();
        clock();
        top_->presetn = 1;
        if (!hwpq_model_init(&model, kDepth)) {
            fail("hwpq_model_init refused depth %u", kDepth);
        }
        stats.resets++;
        note("reset");
    }

    // A clock with the bus idle (psel 0, the other signals noise).
    void idle(Rng &rng)
    {
        top_->psel = 0;
        top_->penable = rng.chance(1, 2);
        top_->pwrite = rng.chance(1, 2);
        top_->paddr = rng.u32() & 0xFFFu;
        top_->pwdata = rng.u32();
        clock();
    }

    uint32_t read(uint32_t offset)
    {
        uint32_t rtl = apb(false, offset, noise_);
        uint32_t want = hwpq_model_read(&model, offset);
        stats.reads++;
        note("read  %-12s (0x%03x) -> 0x%08x", reg_name(offset), offset, rtl);
        if (rtl != want) {
            fail("read %s (offset 0x%03x): rtl 0x%08x, model 0x%08x", reg_name(offset), offset,
                 rtl, want);
        }
        return rtl;
    }

    // A read that must also give value (a directed case's own expectation).
    void expect(uint32_t offset, uint32_t value)
    {
        uint32_t got = read(offset);
        stats.expects++;
        if (got != value) {
            fail("read %s (offset 0x%03x): rtl and model 0x%08x, the case expects 0x%08x",
                 reg_name(offset), offset, got, value);
        }
    }

    void write(uint32_t offset, uint32_t value)
    {
        note("write %-12s (0x%03x) <- 0x%08x", reg_name(offset), offset, value);
        apb(true, offset, value);
        hwpq_model_write(&model, offset, value);
        stats.writes++;
    }

    // The state a command leaves: STATUS and the head.
    void check_state()
    {
        read(HWPQ_REG_STATUS);
        read(HWPQ_REG_HEAD_KEY);
        read(HWPQ_REG_HEAD_TIE_LO);
        read(HWPQ_REG_HEAD_TIE_HI);
        read(HWPQ_REG_HEAD_HANDLE);
    }

    void check_all()
    {
        for (uint32_t offset = 0; offset < HWPQ_REG_WINDOW; offset += 4) {
            read(offset);
        }
    }

    // Writes CMD, accounts for the command and checks the state it leaves.
    void command(uint32_t cmd)
    {
        uint32_t before = model.count;
        note("command %s", cmd_name(cmd));
        write(HWPQ_REG_CMD, cmd);
        stats.commands++;
        uint32_t error = model.error;
        if (error != HWPQ_ERR_NONE) {
            stats.refused[error & 7]++;
        }
        switch (cmd) {
        case HWPQ_CMD_INSERT:
            stats.inserts += error == HWPQ_ERR_NONE;
            break;
        case HWPQ_CMD_REMOVE:
            stats.removes += error == HWPQ_ERR_NONE;
            break;
        case HWPQ_CMD_POP:
            stats.pops += error == HWPQ_ERR_NONE;
            break;
        case HWPQ_CMD_CLEAR:
            stats.clears++;
            break;
        default:
            stats.bad++;
            break;
        }
        if (model.count > stats.max_count) {
            stats.max_count = model.count;
        }
        if (model.count == kDepth && before != kDepth) {
            stats.full_reached++;
        }
        if (model.count == 0 && before != 0) {
            stats.empty_reached++;
        }
        check_state();
    }

    // Insert of (key, tie, handle), every operand written.
    void insert(uint32_t key, uint64_t tie, uint32_t handle)
    {
        write(HWPQ_REG_KEY, key);
        write(HWPQ_REG_TIE_LO, static_cast<uint32_t>(tie));
        write(HWPQ_REG_TIE_HI, static_cast<uint32_t>(tie >> 32));
        write(HWPQ_REG_HANDLE, handle);
        insert_command();
    }

    // An insert of the operand registers, counted when it goes in onto a
    // key, or a key and tie, already queued.
    void insert_command()
    {
        uint64_t tie = (static_cast<uint64_t>(model.tie_hi) << 32) | model.tie_lo;
        bool key_seen = false, entry_seen = false;
        for (uint32_t i = 0; i < model.count; i++) {
            if (model.entries[i].key == model.key) {
                key_seen = true;
                entry_seen = entry_seen || model.entries[i].tie == tie;
            }
        }
        command(HWPQ_CMD_INSERT);
        if (model.error == HWPQ_ERR_NONE) {
            stats.equal_key_inserts += key_seen;
            stats.equal_entry_inserts += entry_seen;
        }
    }

    void remove(uint32_t handle)
    {
        write(HWPQ_REG_HANDLE, handle);
        command(HWPQ_CMD_REMOVE);
    }

    // Whether the queue's keys run across the 0xFFFFFFFF -> 0 wrap (the row
    // is sorted by wraparound difference, so a key below the head's,
    // unsigned, behind it means the wrap was crossed).
    bool across_wrap() const
    {
        for (uint32_t i = 1; i < model.count; i++) {
            if (model.entries[i].key < model.entries[0].key) {
                return true;
            }
        }
        return false;
    }

    void set_noise(uint32_t noise) { noise_ = noise; }

    [[noreturn]] void fail(const char *format, ...)
    {
        char message[256];
        va_list args;
        va_start(args, format);
        std::vsnprintf(message, sizeof(message), format, args);
        va_end(args);
        std::fprintf(stderr, "hwpq tb depth=%u seed=%" PRIu64 ": MISMATCH at step %" PRIu64
                             " (%s, cycle %" PRIu64 "): %s\n",
                     kDepth, seed_, step_, phase_.c_str(), stats.cycles, message);
        std::fprintf(stderr, "  model: count %u, error %u; entries (key tie handle), first first:\n",
                     model.count, model.error);
        for (uint32_t i = 0; i < model.count && i < 16; i++) {
            std::fprintf(stderr, "    [%u] 0x%08x 0x%016" PRIx64 " %u\n", i, model.entries[i].key,
                         model.entries[i].tie, model.entries[i].handle);
        }
        std::fprintf(stderr, "  last transfers, oldest first:\n");
        for (unsigned i = 0; i < kTrail; i++) {
            const std::string &line = trail_[(trail_next_ + i) % kTrail];
            if (!line.empty()) {
                std::fprintf(stderr, "    %s\n", line.c_str());
            }
        }
        top_->final();
        std::exit(1);
    }

private:
    static const unsigned kTrail = 24;

    void clock()
    {
        top_->pclk = 0;
        top_->eval();
        ctx_->timeInc(1);
        top_->pclk = 1;
        top_->eval();
        ctx_->timeInc(1);
        stats.cycles++;
    }

    // One APB transfer: the setup phase, then the access phase (pready is 1,
    // so one cycle), with prdata taken before the access phase's clock edge.
    uint32_t apb(bool is_write, uint32_t offset, uint32_t wdata)
    {
        top_->psel = 1;
        top_->penable = 0;
        top_->pwrite = is_write;
        top_->paddr = offset & 0xFFFu;
        top_->pwdata = wdata;
        clock();
        top_->penable = 1;
        top_->pclk = 0;
        top_->eval();
        uint32_t rdata = top_->prdata;
        if (top_->pready != 1 || top_->pslverr != 0) {
            fail("access phase at 0x%03x: pready %u pslverr %u", offset, top_->pready,
                 top_->pslverr);
        }
        clock();
        top_->penable = 0;
        return rdata;
    }

    void note(const char *format, ...)
    {
        char line[160];
        va_list args;
        va_start(args, format);
        std::vsnprintf(line, sizeof(line), format, args);
        va_end(args);
        trail_[trail_next_] = "step " + std::to_string(step_) + ": " + line;
        trail_next_ = (trail_next_ + 1) % kTrail;
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vhwpq_apb> top_;
    uint64_t seed_;
    uint64_t step_ = 0;
    std::string phase_ = "start";
    uint32_t noise_ = 0;
    std::string trail_[kTrail];
    unsigned trail_next_ = 0;
};

uint32_t handle_bits()
{
    uint32_t bits = 1;
    while ((1u << bits) < kDepth) {
        bits++;
    }
    return bits;
}

const uint32_t kHandleBits = handle_bits();
const uint32_t kHandles = 1u << kHandleBits;

// ---- directed cases ----

void directed(Bench &b)
{
    const uint32_t mask = kHandles - 1;
    const uint32_t empty_status = HWPQ_STATUS_EMPTY;
    uint64_t step = 0;
    auto phase = [&](const char *name) {
        b.set_phase(std::string("directed: ") + name);
        b.set_step(++step);
    };

    phase("after reset");
    b.expect(HWPQ_REG_ID, HWPQ_ID);
    b.expect(HWPQ_REG_CONFIG, kDepth | (kHandleBits << 16));
    b.expect(HWPQ_REG_STATUS, empty_status);
    for (uint32_t offset = HWPQ_REG_KEY; offset < HWPQ_REG_WINDOW; offset += 4) {
        if (offset != HWPQ_REG_STATUS) {
            b.expect(offset, 0);
        }
    }

    phase("operand registers read back, CMD reads 0");
    b.write(HWPQ_REG_KEY, 0xDEADBEEF);
    b.write(HWPQ_REG_TIE_LO, 0x01234567);
    b.write(HWPQ_REG_TIE_HI, 0x89ABCDEF);
    b.write(HWPQ_REG_HANDLE, 1);
    b.expect(HWPQ_REG_KEY, 0xDEADBEEF);
    b.expect(HWPQ_REG_TIE_LO, 0x01234567);
    b.expect(HWPQ_REG_TIE_HI, 0x89ABCDEF);
    b.expect(HWPQ_REG_HANDLE, 1);
    b.expect(HWPQ_REG_CMD, 0);

    phase("handle masking");
    b.write(HWPQ_REG_HANDLE, 0xFFFFFFFF);
    b.expect(HWPQ_REG_HANDLE, mask);
    b.write(HWPQ_REG_HANDLE, 0xA5A5A5A0u | (mask & 5));
    b.expect(HWPQ_REG_HANDLE, (0xA5A5A5A0u | (mask & 5)) & mask);
    // Inserted with high bits, found and removed without them and with others.
    b.insert(100, 7, 0xFFFF0000u | (mask & 3));
    b.expect(HWPQ_REG_HEAD_HANDLE, mask & 3);
    b.remove(mask & 3);
    b.expect(HWPQ_REG_STATUS, empty_status);
    b.insert(100, 7, mask & 3);
    b.remove(0x80000000u | (mask & 3));
    b.expect(HWPQ_REG_STATUS, empty_status);

    phase("empty edges");
    b.command(HWPQ_CMD_POP);
    b.expect(HWPQ_REG_STATUS, empty_status | (HWPQ_ERR_EMPTY << HWPQ_STATUS_ERROR_SHIFT));
    b.remove(0);
    b.expect(HWPQ_REG_STATUS, empty_status | (HWPQ_ERR_NOT_FOUND << HWPQ_STATUS_ERROR_SHIFT));
    b.command(HWPQ_CMD_CLEAR);
    b.expect(HWPQ_REG_STATUS, empty_status);
    // One in, one out: the head zeros again.
    b.insert(0xFFFFFFFF, ~0ull, mask);
    b.expect(HWPQ_REG_STATUS, 1 | (kDepth == 1 ? HWPQ_STATUS_FULL : 0));
    b.expect(HWPQ_REG_HEAD_KEY, 0xFFFFFFFF);
    b.expect(HWPQ_REG_HEAD_TIE_HI, 0xFFFFFFFF);
    b.command(HWPQ_CMD_POP);
    b.expect(HWPQ_REG_STATUS, empty_status);
    b.expect(HWPQ_REG_HEAD_KEY, 0);
    b.expect(HWPQ_REG_HEAD_TIE_LO, 0);
    b.expect(HWPQ_REG_HEAD_TIE_HI, 0);
    b.expect(HWPQ_REG_HEAD_HANDLE, 0);

    phase("fill to full, full edges");
    // Keys falling, so each insert goes in front: every cell shifts.
    for (uint32_t i = 0; i < kDepth; i++) {
        b.insert(1000 - i, i, i);
        b.expect(HWPQ_REG_HEAD_HANDLE, i);
    }
    b.expect(HWPQ_REG_STATUS, kDepth | HWPQ_STATUS_FULL);
    // Full and duplicate: FULL comes first.
    b.insert(5, 0, 0);
    b.expect(HWPQ_REG_STATUS,
             kDepth | HWPQ_STATUS_FULL | (HWPQ_ERR_FULL << HWPQ_STATUS_ERROR_SHIFT));
    if (kHandles > kDepth) {
        b.insert(5, 0, kDepth); // a handle not queued
        b.expect(HWPQ_REG_STATUS,
                 kDepth | HWPQ_STATUS_FULL | (HWPQ_ERR_FULL << HWPQ_STATUS_ERROR_SHIFT));
    }
    // Out again, in order; the last cell's leave zeros behind.
    for (uint32_t i = 0; i < kDepth; i++) {
        b.expect(HWPQ_REG_HEAD_HANDLE, kDepth - 1 - i);
        b.command(HWPQ_CMD_POP);
    }
    b.expect(HWPQ_REG_STATUS, empty_status);
    // Keys rising: each insert goes to the back, the last one to the last cell.
    for (uint32_t i = 0; i < kDepth; i++) {
        b.insert(2000 + i, 0, i);
    }
    b.expect(HWPQ_REG_HEAD_HANDLE, 0);
    // Remove the back, then the front, then (if any) one in the middle.
    b.remove(kDepth - 1);
    b.remove(kDepth - 1);
    b.expect(HWPQ_REG_STATUS,
             (kDepth - 1) | (kDepth == 1 ? HWPQ_STATUS_EMPTY : 0) |
                 (HWPQ_ERR_NOT_FOUND << HWPQ_STATUS_ERROR_SHIFT));
    b.insert(3000, 0, kDepth - 1);
    b.remove(0);
    if (kDepth > 2) {
        b.remove(kDepth / 2);
        b.remove(kDepth / 2);
    }
    b.command(HWPQ_CMD_CLEAR);
    b.expect(HWPQ_REG_STATUS, empty_status);
    b.expect(HWPQ_REG_HEAD_KEY, 0);

    phase("duplicate handle");
    b.insert(10, 0, 1 & mask);
    b.insert(20, 0, 1 & mask);
    b.expect(HWPQ_REG_STATUS, kDepth == 1 ? 1 | HWPQ_STATUS_FULL | (HWPQ_ERR_FULL << HWPQ_STATUS_ERROR_SHIFT)
                                          : 1 | (HWPQ_ERR_DUPLICATE << HWPQ_STATUS_ERROR_SHIFT));
    b.insert(5, 0, 1 & mask); // would go in front
    b.expect(HWPQ_REG_HEAD_KEY, 10);
    b.command(HWPQ_CMD_CLEAR);

    phase("bad commands");
    if (kDepth > 1) {
        b.insert(42, 42, 1);
    }
    const uint32_t bad[] = {0, 5, 6, 7, 8, 0x101, 0x102, 0x80000001u, 0x10000003u, 0xFFFFFFFFu};
    for (uint32_t cmd : bad) {
        b.write(HWPQ_REG_HANDLE, 1);
        b.command(cmd);
        b.expect(HWPQ_REG_STATUS, (kDepth > 1 ? 1u : HWPQ_STATUS_EMPTY) |
                                      (HWPQ_ERR_BAD_COMMAND << HWPQ_STATUS_ERROR_SHIFT));
    }
    b.command(HWPQ_CMD_CLEAR); // clears the error too
    b.expect(HWPQ_REG_STATUS, empty_status);

    if (kDepth >= 4) {
        phase("equal keys: first in, first out");
        for (uint32_t i = 0; i < kDepth; i++) {
            b.insert(77, 9, (i * 5 + 3) & mask);
        }
        for (uint32_t i = 0; i < kDepth; i++) {
            b.expect(HWPQ_REG_HEAD_HANDLE, (i * 5 + 3) & mask);
            b.command(HWPQ_CMD_POP);
        }
        // Equals behind a smaller and in front of a larger one.
        b.insert(77, 8, 0);
        b.insert(77, 10, 1);
        b.insert(77, 9, 2);
        b.insert(77, 9, 3);
        b.expect(HWPQ_REG_HEAD_HANDLE, 0);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_HANDLE, 2);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_HANDLE, 3);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_HANDLE, 1);
        b.command(HWPQ_CMD_CLEAR);

        phase("equal keys ordered by tie (unsigned, 64 bits)");
        b.insert(500, 0x8000000000000000ull, 0); // negative if signed
        b.insert(500, 0x0000000100000000ull, 1); // high word only
        b.insert(500, 0x00000000FFFFFFFFull, 2); // low word only
        b.insert(500, 0, 3);
        b.expect(HWPQ_REG_HEAD_HANDLE, 3);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_HANDLE, 2);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_HANDLE, 1);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_HANDLE, 0);
        b.expect(HWPQ_REG_HEAD_TIE_HI, 0x80000000u);
        b.command(HWPQ_CMD_CLEAR);

        phase("keys across the wrap");
        // 0x7FFFFEFF is 2^31 - 1 after 0xFFFFFF00: the window's far end.
        b.insert(0x00000100, 0, 0);
        b.insert(0x7FFFFEFF, 0, 1);
        b.insert(0xFFFFFFFF, 0, 2);
        b.insert(0xFFFFFF00, 0, 3);
        b.expect(HWPQ_REG_HEAD_KEY, 0xFFFFFF00);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_KEY, 0xFFFFFFFF);
        b.insert(0x00000000, 0, 3);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_KEY, 0x00000000);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_KEY, 0x00000100);
        b.command(HWPQ_CMD_POP);
        b.expect(HWPQ_REG_HEAD_KEY, 0x7FFFFEFF);
        b.command(HWPQ_CMD_CLEAR);
        // Across the signed edge: 0x7FFFFFF0 before 0x80000010.
        b.insert(0x80000010, 0, 0);
        b.insert(0x7FFFFFF0, 0, 1);
        b.expect(HWPQ_REG_HEAD_KEY, 0x7FFFFFF0);
        b.remove(1);
        b.expect(HWPQ_REG_HEAD_KEY, 0x80000010);
        b.command(HWPQ_CMD_CLEAR);

        phase("clear");
        for (uint32_t i = 0; i < kDepth; i++) {
            b.insert(i * 3, i, i);
        }
        b.command(HWPQ_CMD_CLEAR);
        b.check_all();
        b.expect(HWPQ_REG_STATUS, empty_status);
        b.expect(HWPQ_REG_HEAD_TIE_LO, 0);
        b.insert(1, 1, 1); // a handle queued before the clear is free again
        b.expect(HWPQ_REG_STATUS, 1);
        b.command(HWPQ_CMD_CLEAR);
        b.command(HWPQ_CMD_CLEAR);
    }

    phase("offsets not decoded, read-only registers");
    b.insert(0x1234, 0x5678, 0);
    b.write(HWPQ_REG_KEY, 0x11111111);
    const uint32_t undecoded[] = {0x001, 0x002, 0x003, 0x005, 0x009, 0x00A, 0x015, 0x019, 0x01B,
                                  0x030, 0x034, 0x03C, 0x040, 0x080, 0x100, 0x7FC, 0x800, 0x808,
                                  0x818, 0xFF8, 0xFFC, 0xFFF};
    for (uint32_t offset : undecoded) {
        b.expect(offset, 0);
        // CMD values: an insert or a clear must not happen.
        b.write(offset, (offset & 8) ? HWPQ_CMD_CLEAR : HWPQ_CMD_INSERT);
        b.write(offset, 0xFFFFFFFF);
    }
    const uint32_t read_only[] = {HWPQ_REG_ID,          HWPQ_REG_CONFIG,      HWPQ_REG_STATUS,
                                  HWPQ_REG_HEAD_KEY,    HWPQ_REG_HEAD_TIE_LO, HWPQ_REG_HEAD_TIE_HI,
                                  HWPQ_REG_HEAD_HANDLE};
    for (uint32_t offset : read_only) {
        b.write(offset, 0x00000004);
    }
    b.expect(HWPQ_REG_KEY, 0x11111111);
    b.expect(HWPQ_REG_HEAD_KEY, 0x1234);
    b.expect(HWPQ_REG_STATUS, 1 | (kDepth == 1 ? HWPQ_STATUS_FULL : 0));
    b.expect(HWPQ_REG_ID, HWPQ_ID);
    b.check_all();
    b.command(HWPQ_CMD_CLEAR);

    phase("reset in the middle");
    b.insert(9, 9, 0);
    b.reset();
    b.check_all();
    b.expect(HWPQ_REG_STATUS, empty_status);
    b.expect(HWPQ_REG_KEY, 0);
}

// ---- random sequences ----

// A window of keys for one filling of the queue: every key in
// [base, base + span], span < 2^31, so that the order stays total.
struct Window {
    uint32_t base = 0;
    uint32_t span = 0;
    uint32_t hot_keys[6] = {};
    uint64_t hot_ties[4] = {};
};

Window new_window(Rng &rng)
{
    Window w;
    const uint32_t spans[] = {0, 3, 63, 4095, 0xFFFFFu, 0x7FFFFFFFu};
    switch (rng.below(5)) {
    case 0: // across the wrap, small
        w.span = spans[1 + rng.below(3)];
        w.base = 0u - 1u - static_cast<uint32_t>(rng.below(w.span + 1ull));
        break;
    case 1: // across the wrap, the widest window
        w.span = 0x7FFFFFFFu;
        w.base = 0u - 1u - static_cast<uint32_t>(rng.below(w.span + 1ull));
        break;
    case 2: // across the signed edge
        w.span = spans[rng.below(6)];
        w.base = 0x80000000u - static_cast<uint32_t>(rng.below(w.span + 1ull));
        break;
    default:
        w.span = spans[rng.below(6)];
        w.base = rng.u32();
        break;
    }
    for (uint32_t &key : w.hot_keys) {
        key = w.base + static_cast<uint32_t>(rng.below(w.span + 1ull));
    }
    const uint64_t ties[] = {0, 1, 2, 0xFFFFFFFFull, 0x100000000ull, 0x8000000000000000ull,
                             0xFFFFFFFFFFFFFFFFull};
    for (uint64_t &tie : w.hot_ties) {
        tie = rng.chance(1, 2) ? ties[rng.below(7)] : rng.next();
    }
    return w;
}

uint32_t draw_key(Rng &rng, const Window &w)
{
    switch (rng.below(10)) {
    case 0:
        return w.base;
    case 1:
        return w.base + w.span;
    case 2:
    case 3:
    case 4:
    case 5:
        return w.hot_keys[rng.below(6)];
    default:
        return w.base + static_cast<uint32_t>(rng.below(w.span + 1ull));
    }
}

uint64_t draw_tie(Rng &rng, const Window &w)
{
    switch (rng.below(8)) {
    case 0:
    case 1:
    case 2:
        return w.hot_ties[rng.below(4)];
    case 3:
    case 4:
        return rng.below(4);
    case 5:
        return rng.u32(); // high word 0
    case 6:
        return static_cast<uint64_t>(rng.u32()) << 32; // low word 0
    default:
        return rng.next();
    }
}

// A handle with, sometimes, garbage above the handle's bits.
uint32_t dirty(Rng &rng, uint32_t handle)
{
    if (kHandleBits < 32 && rng.chance(1, 8)) {
        return handle | (rng.u32() << kHandleBits);
    }
    return handle;
}

uint32_t queued_handle(Rng &rng, const hwpq_model_t &m)
{
    return m.entries[rng.below(m.count)].handle;
}

// A handle not queued, when there is one.
uint32_t free_handle(Rng &rng, const hwpq_model_t &m)
{
    static bool used[HWPQ_MODEL_MAX_DEPTH * 2];
    std::memset(used, 0, kHandles * sizeof(used[0]));
    for (uint32_t i = 0; i < m.count; i++) {
        used[m.entries[i].handle] = true;
    }
    uint32_t start = static_cast<uint32_t>(rng.below(kHandles));
    for (uint32_t i = 0; i < kHandles; i++) {
        uint32_t handle = (start + i) % kHandles;
        if (!used[handle]) {
            return handle;
        }
    }
    return start;
}

enum Mode { FILL, DRAIN, MIXED };

void random_steps(Bench &b, Rng &rng, uint64_t steps)
{
    Window w = new_window(rng);
    Mode mode = FILL;
    const uint32_t bad[] = {0, 5, 6, 7, 0x101, 0x104, 0x80000002u, 0xFFFFFFFFu};
    for (uint64_t step = 1; step <= steps; step++) {
        b.set_step(step);
        hwpq_model_t &m = b.model;
        if (m.count == 0 && rng.chance(1, 2)) {
            w = new_window(rng);
        }
        // Filling runs until the queue is full, draining until it is empty
        // (no clear or reset while filling, so deep queues fill too); the
        // mixed mode, which stays around where it started, ends at random.
        if (mode == FILL && m.count == kDepth) {
            mode = rng.chance(1, 2) ? DRAIN : MIXED;
        } else if (mode == DRAIN && m.count == 0) {
            mode = rng.chance(2, 3) ? FILL : MIXED;
        } else if (mode == MIXED && rng.chance(1, 64)) {
            mode = rng.chance(1, 2) ? FILL : DRAIN;
        }
        uint32_t insert_share = mode == FILL ? 70 : mode == DRAIN ? 15 : 45;
        uint32_t roll = static_cast<uint32_t>(rng.below(1000));
        if (mode == FILL && roll < 10) {
            roll += 20; // a bad command instead
        }
        uint32_t op_roll = static_cast<uint32_t>(rng.below(100));
        b.set_noise(rng.u32());
        if (rng.chance(1, 16)) {
            b.idle(rng);
        }
        if (roll < 3) {
            b.set_phase("random: reset");
            b.reset();
            b.check_all();
        } else if (roll < 10) {
            b.set_phase("random: clear");
            b.command(HWPQ_CMD_CLEAR);
        } else if (roll < 30) {
            b.set_phase("random: bad command");
            b.command(rng.chance(1, 2) ? bad[rng.below(8)] : rng.u32() | 8u);
        } else if (roll < 60) {
            b.set_phase("random: reads and ignored writes");
            uint32_t offset = rng.chance(1, 2) ? static_cast<uint32_t>(rng.below(HWPQ_REG_WINDOW / 4)) * 4
                                               : rng.u32() & 0xFFFu;
            if (rng.chance(1, 4)) {
                // Only where the write is ignored: not an operand, not CMD.
                if (offset < HWPQ_REG_KEY || offset > HWPQ_REG_CMD) {
                    b.write(offset, rng.chance(1, 2) ? rng.u32() : HWPQ_CMD_INSERT);
                }
            }
            b.read(offset);
            b.check_state();
        } else if (op_roll < insert_share) {
            b.set_phase("random: insert");
            uint32_t key = draw_key(rng, w);
            uint64_t tie = draw_tie(rng, w);
            uint32_t handle = m.count > 0 && rng.chance(1, 10) ? queued_handle(rng, m)
                              : rng.chance(1, 10)             ? static_cast<uint32_t>(rng.below(kHandles))
                                                              : free_handle(rng, m);
            // Mostly every operand written; sometimes one left as it was.
            if (rng.chance(15, 16)) {
                b.write(HWPQ_REG_KEY, key);
            }
            if (rng.chance(15, 16)) {
                b.write(HWPQ_REG_TIE_LO, static_cast<uint32_t>(tie));
            }
            if (rng.chance(15, 16)) {
                b.write(HWPQ_REG_TIE_HI, static_cast<uint32_t>(tie >> 32));
            }
            if (rng.chance(15, 16)) {
                b.write(HWPQ_REG_HANDLE, dirty(rng, handle));
            }
            // Keep the keys in the window even when KEY was not written.
            uint32_t queued_key = m.key;
            if (static_cast<uint32_t>(queued_key - w.base) > w.span) {
                b.write(HWPQ_REG_KEY, key);
            }
            b.insert_command();
        } else if (op_roll < insert_share + (100 - insert_share) / 2) {
            b.set_phase("random: remove");
            uint32_t handle = m.count > 0 && rng.chance(3, 4) ? queued_handle(rng, m)
                                                               : static_cast<uint32_t>(rng.below(kHandles));
            if (rng.chance(15, 16)) {
                b.write(HWPQ_REG_HANDLE, dirty(rng, handle));
            }
            b.command(HWPQ_CMD_REMOVE);
        } else {
            b.set_phase("random: pop");
            b.command(HWPQ_CMD_POP);
        }
        b.stats.wrap_steps += b.across_wrap();
    }
}

[[noreturn]] void usage(const char *program)
{
    std::fprintf(stderr, "usage: %s [--seed N] [--steps N] [--random-only]\n", program);
    std::exit(2);
}

uint64_t number(const char *program, const char *text)
{
    char *end = nullptr;
    unsigned long long value = std::strtoull(text, &end, 0);
    if (end == text || *end != '\0') {
        usage(program);
    }
    return value;
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    uint64_t steps = 100000;
    bool random_only = false;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = number(argv[0], argv[++i]);
        } else if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            steps = number(argv[0], argv[++i]);
        } else if (std::strcmp(argv[i], "--random-only") == 0) {
            random_only = true;
        } else if (std::strncmp(argv[i], "+verilator+", 11) != 0) {
            usage(argv[0]);
        }
    }

    Bench b(argc, argv, seed);
    if (!random_only) {
        directed(b);
    }
    Stats directed_stats = b.stats;
    Rng rng(seed);
    random_steps(b, rng, steps);

    const Stats &s = b.stats;
    std::printf("hwpq tb depth=%u handle_bits=%u seed=%" PRIu64 ": ", kDepth, kHandleBits, seed);
    if (random_only) {
        std::printf("no directed cases, ");
    } else {
        std::printf("directed cases (%" PRIu64 " reads, %" PRIu64
                    " against the case's own values), then ",
                    directed_stats.reads, directed_stats.expects);
    }
    std::printf("%" PRIu64 " random steps; in all:\n", steps);
    std::printf("  %" PRIu64 " inserts (%" PRIu64 " onto an equal key, %" PRIu64
                " onto an equal key and tie), %" PRIu64 " removes, %" PRIu64 " pops, %" PRIu64
                " clears, %" PRIu64 " bad commands\n",
                s.inserts, s.equal_key_inserts, s.equal_entry_inserts, s.removes, s.pops, s.clears,
                s.bad);
    std::printf("  refused: %" PRIu64 " full, %" PRIu64 " duplicate, %" PRIu64 " not found, %" PRIu64
                " empty, %" PRIu64 " bad command\n",
                s.refused[HWPQ_ERR_FULL], s.refused[HWPQ_ERR_DUPLICATE],
                s.refused[HWPQ_ERR_NOT_FOUND], s.refused[HWPQ_ERR_EMPTY],
                s.refused[HWPQ_ERR_BAD_COMMAND]);
    std::printf("  %" PRIu64 " commands; queue filled %" PRIu64 " times (deepest %u), emptied %" PRIu64
                " times, %" PRIu64 " steps ended across the key wrap, %" PRIu64 " resets\n",
                s.commands, s.full_reached, s.max_count, s.empty_reached, s.wrap_steps, s.resets);
    std::printf("  %" PRIu64 " register reads compared, %" PRIu64 " writes, %" PRIu64
                " clocks: all reads agree\n",
                s.reads, s.writes, s.cycles);
    return 0;
}
