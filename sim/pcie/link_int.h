/* Inside of the link (sim/pcie); other folders include pcie.h. */
#ifndef UVMSIM_LINK_INT_H
#define UVMSIM_LINK_INT_H

#include "pcie.h"

struct link_fmt { uint64_t max_payload, header, flit; };
uint64_t link_fmt_wire(const struct link_fmt *f, uint64_t payload);

#endif
