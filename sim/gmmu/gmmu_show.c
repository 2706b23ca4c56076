/* Read-only views of the GMMU for the stepper (uvmsim step: show gmmu,
 * faultbuf, page).  The walker and fault-buffer views are the watchdog's
 * dump (walker.c); the page view reads one PTE without creating it. */
#include <stdio.h>
#include "gmmu_internal.h"

void gmmu_describe(const struct gmmu *g, FILE *out)
{
    fprintf(out, "  gmmu: %s walker, %u of %u walk threads busy, %llu walks parked on faults\n",
            g->fixed ? "fixed-latency" : "memory", g->nwalkers - g->nfree, g->nwalkers,
            (unsigned long long)g->parked);
    g->comp.ops->dump((struct component *)&g->comp, out);
}

void gmmu_describe_faults(const struct gmmu *g, FILE *out)
{
    fprintf(out, "  fault buffer: %u of %u entries, %u faults waiting for room; "
            "%llu accesses parked in %zu uTLB fault records\n", g->fb.n, g->fb.cap, g->fb.nwait,
            (unsigned long long)g->parked, (size_t)g->nrecs);
    for (uint32_t i = 0; i < g->fb.n; i++) {
        const struct fault_entry *f = &g->fb.e[(g->fb.head + i) % g->fb.cap];
        char tb[TIME_STR_MAX];
        fprintf(out, "    entry %u: page %#llx, %s%s, SM %u, logged at %s\n", i,
                (unsigned long long)f->vpn, req_kind_name(f->access),
                f->protection ? " (protection)" : "", f->sm, time_str(tb, f->t));
    }
}

void gmmu_describe_page(const struct gmmu *g, uint64_t vpn, FILE *out)
{
    const struct pte *p = pt_find(&g->pt, vpn);
    fprintf(out, "  page %#llx (address %#llx): ", (unsigned long long)vpn,
            (unsigned long long)(vpn << PAGE_SHIFT));
    if (!p || !(p->flags & (PTE_PRESENT | PTE_REMOTE))) {
        fputs("not mapped", out);
    } else {
        fprintf(out, "%s, frame %llu, %u KiB page%s%s", p->flags & PTE_PRESENT ? "resident in GPU memory"
                : "mapped remote (host memory)", (unsigned long long)pte_pfn(p),
                1u << ((p->shift ? p->shift : PAGE_SHIFT) - 10),
                p->flags & PTE_READONLY ? ", read-only" : "", p->flags & PTE_DIRTY ? ", dirty" : "");
    }
    const struct fault_page *fp = p && (p->flags & PTE_RECS) ? fp_find(&g->fpages, vpn) : NULL;
    for (const struct fault_rec *f = fp ? fp->recs : NULL; f; f = f->next)
        fprintf(out, "; SM %u's uTLB holds %u %s access(es) parked on its fault (%s)", f->sm, f->n,
                f->write ? "write" : "read", f->logged ? "in the fault buffer" : "waiting for buffer room");
    char tb[TIME_STR_MAX];
    if (fp && fp->recs) fprintf(out, "; first fault at %s", time_str(tb, fp->t_fault));
    fputc('\n', out);
}
