/* HTML text pieces every page and plot writes (page_run.c, page_sweep.c,
 * svg.c): here, below all of them, so the plots do not reach into a page. */
#include <math.h>
#include "rpt_int.h"

void html_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

void html_num(FILE *f, double v)
{
    if (isnan(v)) fputs("&ndash;", f);
    else if (v == floor(v) && fabs(v) < 1e15) fprintf(f, "%.0f", v);
    else if (fabs(v) >= 1e4 && fabs(v) < 1e15) fprintf(f, "%.1f", v);
    else fprintf(f, "%.4g", v);
}
