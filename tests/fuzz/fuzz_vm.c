/* fuzz_vm.c - our /proc/stat, vmstat, meminfo and pressure/io readers on
 * arbitrary bytes (the ones a fixture tree feeds). */
#include <stdint.h>
#include <string.h>

#include "vmsource.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vm_counters v;
	memset(&v, 0, sizeof v);
	const char *buf = (const char *)data;
	vm_parse_stat(buf, size, &v);
	vm_parse_vmstat(buf, size, &v);
	vm_parse_meminfo(buf, size, &v);
	vm_parse_psi(buf, size, &v);
	if (v.have_psi && !(v.psi_some_avg10 >= 0 && v.psi_some_avg10 <= 100))
		__builtin_trap();
	return 0;
}
