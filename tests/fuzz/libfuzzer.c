/* A libFuzzer harness for one target, chosen at build time
 * (-DFUZZ_TARGET="\"nvbit\"", Makefile `fuzz`). */
#include <stddef.h>
#include <stdint.h>
#include "targets.h"

#ifndef FUZZ_TARGET
#error "build with -DFUZZ_TARGET=\"\\\"name\\\"\""
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run(FUZZ_TARGET, data, size);
    return 0;
}
