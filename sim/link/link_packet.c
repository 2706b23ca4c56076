/* Packet arithmetic of the link: how many bytes cross the wire for a
 * payload.  A transfer is cut into packets of at most max_payload bytes;
 * each carries `header` bytes and is rounded up to whole flits.
 *   NVLink-like (thesis Table 6.3): 16 B flits, one 16 B header flit per
 *   payload of up to 128 B: 32 B -> 3 flits (66.7 %), 64 B -> 5 (80 %),
 *   128 B -> 9 (88.9 %), the table's 66/80/88 %.
 *   PCIe 3.0 writes and read requests (D2H): 256 B max payload (a common
 *   MPS setting), 24 B per TLP (16 B 4DW memory-request header, 4 B STP
 *   framing token with sequence number, 4 B LCRC), byte granularity:
 *   4 KiB -> 16 TLPs, 4480 B, 91.4 %; a read request is 24 B.
 *   PCIe 3.0 read completions (H2D): split at the 128 B read completion
 *   boundary, 20 B per CplD (12 B 3DW header + STP + LCRC): 4 KiB -> 32
 *   completions, 4736 B, 86.5 %.  (pcie-bench, Neugebauer et al. SIGCOMM
 *   2018, counts the same 24 B and 20 B.) */
#include "link_int.h"

uint64_t link_fmt_wire(const struct link_fmt *f, uint64_t payload)
{
    uint64_t full = payload / f->max_payload, rest = payload % f->max_payload;
    uint64_t one = (f->header + f->max_payload + f->flit - 1) / f->flit * f->flit;
    uint64_t wire = full * one;
    if (rest || !full)
        wire += (f->header + rest + f->flit - 1) / f->flit * f->flit;
    return wire;
}
