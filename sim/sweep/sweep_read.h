/* The sweep-file reader shared by sweep_file.c and sweep_axes.c. */
#ifndef UVMSIM_SWEEP_READ_H
#define UVMSIM_SWEEP_READ_H

#include <yaml.h>
#include "sweep_int.h"

struct rd {
    const char *file;
    yaml_document_t *doc;
    struct cfg_error *err;
    struct config *scratch;         /* validates values, knows the keys */
    struct sweep *s;
    struct sweep_spec *sp;
    size_t cap_axes;
};

struct sweep_loc rd_loc(const yaml_node_t *n);
const char *rd_scalar(const yaml_node_t *n);
/* "a mapping", "a sequence" or "a scalar", for messages. */
const char *rd_kind(const yaml_node_t *n);
yaml_node_t *rd_node(struct rd *r, yaml_node_item_t i);
/* V is a scalar the schema accepts for KEY, on one line. */
bool rd_check_value(struct rd *r, const char *key, yaml_node_t *v);
bool rd_expect_mapping(struct rd *r, yaml_node_t *n, const char *what);

/* Nested mappings flatten to dotted keys, as in config files; LEAF gets
 * every known key with its value node. */
typedef bool (*leaf_fn)(struct rd *r, const char *path, yaml_node_t *k,
                        yaml_node_t *v, void *ctx);
bool rd_walk(struct rd *r, yaml_node_t *map, const char *prefix, leaf_fn leaf,
             void *ctx);

/* sweep_axes.c: the sections that make axes, and the rules on them. */
bool rd_axes_leaf(struct rd *r, const char *path, yaml_node_t *k,
                  yaml_node_t *v, void *ctx);
bool rd_zip(struct rd *r, yaml_node_t *n);
bool rd_seeds(struct rd *r, yaml_node_t *k, yaml_node_t *n);
bool rd_exclude(struct rd *r, yaml_node_t *n);
bool rd_name(struct rd *r, yaml_node_t *n);
/* Index of the axis KEY, SIZE_MAX when it is none. */
size_t rd_axis_index(const struct sweep *s, const char *key);

#endif
