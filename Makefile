# ioscope - see README.md.  `make run` builds and starts it, `make check` runs every test.
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
NPROC   := $(shell nproc 2>/dev/null || echo 1)
CC      ?= cc
VERSION := 0.1.0

PKGS       := ncursesw json-c
# cairo is not linked: src/record/cairo_lib.c opens it when a plot is made, so only
# `report -f svg|png` pays for loading it and its 25 libraries (docs/design.md).
# Without cairo's headers (or with HAVE_CAIRO=no) the plots are left out and say so
# (report_noplot.c).
HAVE_CAIRO := $(shell pkg-config --exists cairo 2>/dev/null && echo yes)
ifeq ($(HAVE_CAIRO),yes)
PLOT_OFF   := src/record/report_noplot.c src/cli/matrix_noplot.c
PLOT_CFLAGS := $(shell pkg-config --cflags cairo)
else
PLOT_OFF   := src/record/report_plot.c src/record/cairo_lib.c src/cli/matrix_plot.c
PLOT_CFLAGS :=
endif
# The eBPF block-layer view (--trace) is a shared object of its own, ioscope-trace.so,
# linked with libbpf and opened only by --trace (docs/design.md).  Its BPF programs are
# built with clang against the running kernel's BTF and embedded as a bpftool skeleton.
# Without libbpf, bpftool, clang or BTF (or with HAVE_BPF=no) the feature is left out
# and `ioscope --version` says so.
BPFTOOL    ?= $(shell command -v bpftool 2>/dev/null || ls /usr/sbin/bpftool 2>/dev/null)
HAVE_BPF   ?= $(shell pkg-config --exists libbpf 2>/dev/null && [ -n "$(BPFTOOL)" ] && \
                command -v clang >/dev/null && [ -r /sys/kernel/btf/vmlinux ] && echo yes)
LIBDIR     := $(PREFIX)/lib/ioscope
# The workload scripts (workloads/README.md), installed whole: they find their helpers
# (lib.sh, gentree.py, fileops.py) beside themselves.
WORKLOADS_DIR := $(PREFIX)/share/ioscope/workloads
# contrib/: the systemd units (debian/rules gives Debian's /lib/systemd/system) and the
# Grafana dashboard, installed as they are for the administrator to enable or import.
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
GRAFANA_DIR   := $(PREFIX)/share/ioscope/grafana
ifeq ($(HAVE_BPF),yes)
TRACE_CFLAGS := -DIOSCOPE_TRACE=1
TRACER     := $(BUILD)/opt/ioscope-trace.so $(BUILD)/san/ioscope-trace.so ioscope-trace.so
# the sanitized build with the tracer's fallback paths forced, for test_trace_fallback.sh
TRACER_NARROW := $(BUILD)/narrow/ioscope $(BUILD)/narrow/ioscope-trace.so
else
TRACE_CFLAGS :=
TRACER     :=
TRACER_NARROW :=
endif
# libmicrohttpd is not linked either: src/cli/prom_http.c opens it for --listen only.
# Without its headers (or with HAVE_MHD=no) --listen says it was built without it.
HAVE_MHD ?= $(shell pkg-config --exists libmicrohttpd 2>/dev/null && echo yes)
ifeq ($(HAVE_MHD),yes)
HTTP_OFF   := src/cli/prom_http_none.c
HTTP_CFLAGS := $(shell pkg-config --cflags libmicrohttpd)
else
HTTP_OFF   := src/cli/prom_http.c
HTTP_CFLAGS :=
endif
# Debian packages: what building needs, what running the tests needs on top.
BUILD_DEBS := build-essential pkg-config libncurses-dev libjson-c-dev libcairo2-dev \
              liblzma-dev zlib1g-dev libzstd-dev libbpf-dev bpftool clang libmicrohttpd-dev
# What `make deb` needs on top of BUILD_DEBS.
DEB_DEBS   := dpkg-dev debhelper fakeroot lintian
# What `make bench` compares ioscope with.
# (atop and iotop-c: the tasks cost)
BENCH_DEBS := sysstat jq prometheus-node-exporter atop iotop-c btop tmux
# What building the unit tests needs; then what some tests use (as an ordinary user, a test
# whose tool is missing skips and says so; root installs them all).  clang's fuzzer runtime,
# for `make fuzz` only, is versioned with clang and not one of its dependencies:
# tests/fuzz/runtime.sh names it.
CHECK_DEBS := libcmocka-dev libproc2-dev
TEST_DEBS  := tmux sysstat procps util-linux e2fsprogs xfsprogs btrfs-progs strace \
              valgrind python3 fio groff-base xz-utils gzip zstd \
              prometheus prometheus-node-exporter curl

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(PLOT_CFLAGS) $(HTTP_CFLAGS)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Wno-format-truncation
BASEFLAGS = -std=gnu11 -D_GNU_SOURCE -DIOSCOPE_VERSION='"$(VERSION)"' \
            -DIOSCOPE_THEMES_DIR='"$(PREFIX)/share/ioscope/themes"' \
            -DIOSCOPE_LIBDIR='"$(LIBDIR)"' -DIOSCOPE_WORKLOADS_DIR='"$(WORKLOADS_DIR)"' \
            $(TRACE_CFLAGS) -Iinclude $(PKG_CFLAGS) $(WARN)
# CPPFLAGS and LDFLAGS are empty but for the package build, which passes Debian's hardening
# flags (dpkg-buildflags) to the optimised build.
CFLAGS   ?= -O2 -g
SANFLAGS := -O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
# The sanitized ioscope links the sanitizers' runtimes statically: the same runtime, but no
# libasan.so to map and relocate at each start (18 of the 77 ms of CPU that `--version`
# took here; the e2e scripts start it some 1,800 times a run).  Its malloc and the other
# interceptors are still exported, so libraries opened later (cairo, libbpf through the
# tracer, libmicrohttpd) use them.  Not the unit suites and fuzz replays: each runs once,
# and a static link costs them 45 ms more than the start saves.  Not position-independent
# either: as a PIE its 110,000 relative relocations (the instrumented globals, the runtime's
# tables) were applied at each start, 14 % of its CPU and 730 of its 3,300 page faults.
SAN_LDFLAGS := -static-libasan -static-libubsan -no-pie
# The sanitized programs (ioscope, ~55 unit suites, the fuzz replays) are linked with gold
# where binutils has it: 0.12 s of CPU less a link than ld.bfd here, ~8 s a `make check`.
# (Its --trace names an archive's member as "lib.a(member)": link_from_archive reads both.)
SAN_LD   := $(if $(shell command -v ld.gold 2>/dev/null),-fuse-ld=gold)
LDLIBS   := $(PKG_LIBS) -lm

SRC      := $(filter-out $(PLOT_OFF) $(HTTP_OFF) src/trace/%,$(sort $(wildcard src/*/*.c)))
MAIN_SRC := src/cli/main.c
LIB_SRC  := $(filter-out $(MAIN_SRC),$(SRC))
HDRS     := $(wildcard include/*.h src/*/*.h)
FOLDER_INC := -Isrc/core -Isrc/sources -Isrc/record -Isrc/control -Isrc/ui -Isrc/cli

OBJ      := $(LIB_SRC:%.c=$(BUILD)/opt/%.o)
SAN_OBJ  := $(LIB_SRC:%.c=$(BUILD)/san/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/san/tests/%)

.PHONY: all run deps test-deps check check-build check-build-compiled bench fuzz fuzz-run install deb clean
all: ioscope $(TRACER)

ioscope: $(BUILD)/opt/ioscope
	cp $< $@

# The tracer: vmlinux.h from the kernel's BTF, the BPF object, its skeleton, the .so
# (found next to the ioscope binary that opens it, or in LIBDIR once installed).
$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(@D)
	@echo "BTF     $@"
	@$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

BPF_CC = clang -g -O2 -target bpf -D__TARGET_ARCH_$(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/') \
	-I$(BUILD)/bpf -mcpu=v3 -Isrc/trace -Wall -Werror
TRACER_CC = $(CC) $(BASEFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -fPIC -shared -fvisibility=hidden \
	-Isrc/trace $(shell pkg-config --cflags libbpf)
TRACER_SRC := src/trace/tracer.c src/core/trace.c

$(BUILD)/bpf/blk.bpf.o: src/trace/blk.bpf.c src/trace/blk_maps.h $(BUILD)/bpf/vmlinux.h
	@echo "BPF     $<"
	@$(BPF_CC) -c -o $@ $<

%/blk.skel.h: %/blk.bpf.o
	@$(BPFTOOL) gen skeleton $< name blk_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/opt/ioscope-trace.so: $(TRACER_SRC) src/trace/blk_maps.h include/trace.h \
		$(BUILD)/bpf/blk.skel.h
	@mkdir -p $(@D)
	@echo "CC so   $@"
	@$(TRACER_CC) -I$(BUILD)/bpf -o $@ $(TRACER_SRC) $(shell pkg-config --libs libbpf)

# Every disk counted in the hash maps, every request in flight past two in the LRU map:
# paths that a machine with fewer than 32 queues and few requests in flight never takes.
$(BUILD)/narrow/blk.bpf.o: src/trace/blk.bpf.c src/trace/blk_maps.h $(BUILD)/bpf/vmlinux.h
	@mkdir -p $(@D)
	@echo "BPF     $< (fallback paths forced)"
	@$(BPF_CC) -DBLK_QUEUES_IN_ARRAYS=0 -DBLK_SLOT_BITS=1 -c -o $@ $<

$(BUILD)/narrow/ioscope-trace.so: $(TRACER_SRC) src/trace/blk_maps.h include/trace.h \
		$(BUILD)/narrow/blk.skel.h
	@echo "CC so   $@"
	@$(TRACER_CC) -I$(BUILD)/narrow -o $@ $(TRACER_SRC) $(shell pkg-config --libs libbpf)

$(BUILD)/narrow/ioscope: $(BUILD)/san/ioscope
	@mkdir -p $(@D)
	cp $< $@

$(BUILD)/san/ioscope-trace.so: $(BUILD)/opt/ioscope-trace.so
	@mkdir -p $(@D)
	cp $< $@

ioscope-trace.so: $(BUILD)/opt/ioscope-trace.so
	cp $< $@

$(BUILD)/opt/ioscope: $(OBJ) $(BUILD)/opt/$(MAIN_SRC:.c=.o)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Each object depends on the headers it includes, as the compiler lists them (-MMD -MP):
# touching one header rebuilds what uses it, not the whole tree twice.
DEPFLAGS = -MMD -MP

$(BUILD)/opt/%.o: %.c
	@mkdir -p $(@D)
	@echo "CC      $<"
	@$(CC) $(BASEFLAGS) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c
	@mkdir -p $(@D)
	@echo "CC san  $<"
	@$(CC) $(BASEFLAGS) $(SANFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/san/ioscope: $(SAN_OBJ) $(BUILD)/san/$(MAIN_SRC:.c=.o)
	$(CC) $(SANFLAGS) $(SAN_LDFLAGS) $(SAN_LD) -o $@ $^ $(LDLIBS)

# The unit suites and the fuzz targets link the library from an archive: each takes only the
# objects it uses (20 of 160 on average), which halves the time their ~55 links take.  The
# archive is thin (T: it names the objects, copies none), so making it again costs nothing
# (and is done when the Makefile changes: an archive of before is made thin at once).
define archive
@rm -f $@
@$(AR) rcsT $@ $(filter %.o,$^)
endef
SAN_LIB  := $(BUILD)/san/libioscope.a
$(SAN_LIB): $(SAN_OBJ) Makefile
	$(archive)

# A unit suite or fuzz replay is compiled apart from its link, and linked from the archive
# taking what it uses: the linker's --trace names those objects, and $@.link.d makes them
# the program's prerequisites (an empty rule each, for an object whose source went away).
# So a header edit recompiles the programs that include it, and a library edit relinks the
# programs that took the object edited, not every one of them.  The archive itself is only
# an order-only prerequisite: made again before the links, never a reason to relink.
# (Should --trace name no object of the archive, the archive is the prerequisite, as before.)
# The programs' own objects and their dependency files are in obj/, apart from the .d files
# that a build with an older Makefile wrote for the programs themselves.
define link_from_archive
@echo "LINK    $@"
@$(CC) $(SANFLAGS) $(SAN_LD) -o $@ $(1) $(SAN_LIB) $(LDLIBS) $(2) -Wl,--trace >$@.trace
@sed -n 's|^\(.*\.a(\)\{0,1\}\($(BUILD)/san/src/.*\.o\))\{0,1\}$$|\2|p' $@.trace | grep . >$@.took || \
	echo '$(SAN_LIB)' >$@.took
@{ printf '%s:' '$@'; tr '\n' ' ' <$@.took; echo; sed 's/$$/:/' $@.took; } >$@.link.d
@rm -f $@.trace $@.took
endef

UNIT_OBJ := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/san/tests/obj/%.o)
$(BUILD)/san/tests/obj/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	@echo "CC test $<"
	@$(CC) $(BASEFLAGS) $(SANFLAGS) $(DEPFLAGS) -Itests/unit $(FOLDER_INC) -c -o $@ $<

$(UNIT_BIN): $(BUILD)/san/tests/%: $(BUILD)/san/tests/obj/%.o | $(SAN_LIB)
	$(call link_from_archive,$<,-lcmocka)

# libproc2 is the reference our vm readers are checked against (tests/unit/libproc2_ref.h),
# linked into that test only: ioscope never loads it.
$(BUILD)/san/tests/test_vm: LDLIBS += $(shell pkg-config --libs libproc2 2>/dev/null)

-include $(OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(BUILD)/opt/$(MAIN_SRC:.c=.d) $(BUILD)/san/$(MAIN_SRC:.c=.d) \
	$(UNIT_OBJ:.o=.d) $(UNIT_BIN:=.link.d)

# Builds and starts the console; installs missing Debian packages first when root.
# The build runs in a second make: pkg-config's flags are read when make starts, and
# on a fresh machine the libraries arrive only with `deps`.
run: deps
	@$(MAKE) --no-print-directory all
	./ioscope

deps:
	@tests/deps.sh $(BUILD_DEBS)

test-deps:
	@tests/deps.sh $(BUILD_DEBS) $(CHECK_DEBS) -- $(TEST_DEBS)

# Every test, under ASan+UBSan; the last line is "N passed, N failed[, N skipped]".
# T=pattern runs only the tests whose name contains it.
# The build runs a job per CPU: two builds of the tree (optimised, sanitized), the
# tracers, the unit suites and the fuzz targets' corpus replays linked from the sanitized
# archive.  (Built beside the first e2e scripts instead, by the job that runs them, the
# unit suites' compiler made those scripts' timings fail: tests/run.sh only makes sure
# they are up to date, for a run of tests/run.sh alone.)
# The list of what to build is the second make's own: on a fresh machine libbpf arrives
# with test-deps, after this make has read HAVE_BPF (and found it empty).
check: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) check-build
	@BUILD=$(BUILD) tests/run.sh

bench: deps
	@tests/deps.sh $(BENCH_DEBS)
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) tests/bench/run.sh

FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
# The regression pass of `make check` runs each target over its corpus through a small
# driver (tests/fuzz/replay_main.c), linked with the library the unit suites use: it needs
# no coverage instrumentation, so the library is not compiled a second time with clang.
FUZZ_REPLAY_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/san/fuzz/%)
FUZZ_REPLAY_OBJ := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/san/fuzz/obj/%.o) \
	$(BUILD)/san/fuzz/obj/replay_main.o
$(BUILD)/san/fuzz/obj/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	@echo "CC fuzz $< (corpus replay)"
	@$(CC) $(BASEFLAGS) $(FOLDER_INC) $(SANFLAGS) $(DEPFLAGS) -c -o $@ $<
$(FUZZ_REPLAY_BIN): $(BUILD)/san/fuzz/%: $(BUILD)/san/fuzz/obj/%.o \
		$(BUILD)/san/fuzz/obj/replay_main.o | $(SAN_LIB)
	$(call link_from_archive,$< $(BUILD)/san/fuzz/obj/replay_main.o,)
-include $(FUZZ_REPLAY_OBJ:.o=.d) $(FUZZ_REPLAY_BIN:=.link.d)
# what `make check` builds
check-build: all $(BUILD)/san/ioscope $(TRACER_NARROW) check-build-compiled
# the unit suites and fuzz replays alone (tests/run.sh makes them up to date)
check-build-compiled: $(UNIT_BIN) $(FUZZ_REPLAY_BIN)
FUZZ_SECONDS ?= 60
# The library is compiled once for every target, instrumented for the fuzzer but without
# its main, into an archive.
FUZZ_OBJ := $(LIB_SRC:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_LIB := $(BUILD)/fuzz/libioscope.a
FUZZ_FLAGS = $(BASEFLAGS) $(FOLDER_INC) -Wno-unknown-warning-option -Wno-unused-function -O1 -g \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined

$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "CC fuzz $<"
	@clang $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_OBJ)
	$(archive)

$(FUZZ_BIN): $(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB)
	@echo "FUZZ    $<"
	@clang $(FUZZ_FLAGS) -fsanitize=fuzzer $(DEPFLAGS) -o $@ $< $(FUZZ_LIB) $(LDLIBS)

-include $(FUZZ_OBJ:.o=.d) $(FUZZ_BIN:=.d)

# Builds the libFuzzer targets and runs each for FUZZ_SECONDS on its corpus.
# clang comes with BUILD_DEBS, so its runtime's name is known only once they are in.
fuzz: test-deps
	@tests/deps.sh $$(tests/fuzz/runtime.sh --deb)
	@why=$$(tests/fuzz/runtime.sh) || { echo "make fuzz: $$why" >&2; exit 1; }
	@$(MAKE) --no-print-directory fuzz-run

fuzz-run: $(FUZZ_BIN)
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

# From the build tree, not ./ioscope: `make deb` installs a build of its own (PREFIX=/usr,
# BUILD=debian/build) and leaves the developer's binary alone.  The systemd units run the
# installed binary: their ExecStart names PREFIX/bin.
install: $(BUILD)/opt/ioscope $(if $(TRACER),$(BUILD)/opt/ioscope-trace.so)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/ioscope/themes
	install -m 0755 $(BUILD)/opt/ioscope $(DESTDIR)$(PREFIX)/bin/ioscope
	$(if $(TRACER),install -d $(DESTDIR)$(LIBDIR) && install -m 0644 $(BUILD)/opt/ioscope-trace.so $(DESTDIR)$(LIBDIR)/ioscope-trace.so)
	install -m 0644 man/ioscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/ioscope.1
	install -m 0644 themes/*.theme $(DESTDIR)$(PREFIX)/share/ioscope/themes/
	install -d $(DESTDIR)$(WORKLOADS_DIR)
	for f in workloads/*; do install -m $$([ -x "$$f" ] && echo 0755 || echo 0644) "$$f" \
		$(DESTDIR)$(WORKLOADS_DIR)/ || exit 1; done
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR) $(DESTDIR)$(GRAFANA_DIR)
	for f in contrib/systemd/*.service; do u=$(DESTDIR)$(SYSTEMD_UNIT_DIR)/$${f##*/}; \
		sed 's|/usr/local/bin/|$(PREFIX)/bin/|' "$$f" >"$$u" && chmod 0644 "$$u" || exit 1; done
	install -m 0644 contrib/grafana/ioscope.json $(DESTDIR)$(GRAFANA_DIR)/ioscope.json

# The Debian package (debian/, docs/packaging.md): dpkg-buildpackage writes it to the
# parent directory, from where it is moved to $(BUILD)/deb.
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
DEB_FILES := ioscope_$(VERSION)_$(DEB_ARCH).deb ioscope-dbgsym_$(VERSION)_$(DEB_ARCH).deb \
             ioscope_$(VERSION)_$(DEB_ARCH).buildinfo ioscope_$(VERSION)_$(DEB_ARCH).changes
deb: deps
	@tests/deps.sh $(DEB_DEBS)
	dpkg-buildpackage -us -uc -b -J
	@mkdir -p $(BUILD)/deb
	mv $(addprefix ../,$(DEB_FILES)) $(BUILD)/deb/
	lintian $(BUILD)/deb/ioscope_$(VERSION)_$(DEB_ARCH).deb

clean:
	rm -rf $(BUILD) ioscope ioscope-trace.so
