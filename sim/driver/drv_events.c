/* The driver's event subscriptions (drv_events.h). */
#include "drv_events.h"

void drv_events_subscribe(struct drv_events *ev, unsigned mask, drv_event_fn fn, void *ctx)
{
    for (unsigned k = 0; k < DRV_EV_KINDS; k++) {
        if (!(mask >> k & 1)) continue;
        SIM_ASSERT(ev->n[k] < DRV_EV_MAX_SUBS, "driver", 0,
                   "more than %d subscribers to driver event %u", DRV_EV_MAX_SUBS, k);
        ev->sub[k][ev->n[k]++] = (struct drv_sub){ fn, ctx };
    }
}
