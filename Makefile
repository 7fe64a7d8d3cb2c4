# ioscope - see README.md.  `make run` builds and starts it, `make check` runs every test.
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc
VERSION := 0.1.0

PKGS       := ncursesw json-c
# Opened at run time, never linked (include/dynlib.h), so only their headers are used:
# libproc2 is the reference the tests check our vm readers against (src/sources/vm.c).
DL_PKGS    := libproc2
# cairo is not linked: src/record/cairo_lib.c opens it when a plot is made, so only
# `report -f svg|png` pays for loading it and its 25 libraries (docs/design.md).
# Without cairo's headers (or with HAVE_CAIRO=no) the plots are left out and say so
# (report_noplot.c).
HAVE_CAIRO := $(shell pkg-config --exists cairo 2>/dev/null && echo yes)
ifeq ($(HAVE_CAIRO),yes)
PLOT_OFF   := src/record/report_noplot.c
PLOT_CFLAGS := $(shell pkg-config --cflags cairo)
else
PLOT_OFF   := src/record/report_plot.c src/record/cairo_lib.c
PLOT_CFLAGS :=
endif
# Debian packages: what building needs, what running the tests needs on top.
BUILD_DEBS := build-essential pkg-config libncurses-dev libproc2-dev libjson-c-dev libcairo2-dev \
              liblzma-dev zlib1g-dev libzstd-dev
# What `make bench` compares ioscope with (atop and iotop-c: the tasks cost).
BENCH_DEBS := sysstat jq atop iotop-c
TEST_DEBS  := libcmocka-dev tmux sysstat procps util-linux e2fsprogs xfsprogs btrfs-progs strace \
              clang libclang-rt-14-dev valgrind python3 fio groff-base xz-utils gzip zstd

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) $(DL_PKGS) 2>/dev/null) $(PLOT_CFLAGS)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Wno-format-truncation
BASEFLAGS = -std=gnu11 -D_GNU_SOURCE -DIOSCOPE_VERSION='"$(VERSION)"' \
            -DIOSCOPE_THEMES_DIR='"$(PREFIX)/share/ioscope/themes"' -Iinclude $(PKG_CFLAGS) $(WARN)
CFLAGS   ?= -O2 -g
SANFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
LDLIBS   := $(PKG_LIBS) -lm

SRC      := $(filter-out $(PLOT_OFF),$(sort $(wildcard src/*/*.c)))
MAIN_SRC := src/cli/main.c
LIB_SRC  := $(filter-out $(MAIN_SRC),$(SRC))
HDRS     := $(wildcard include/*.h)

OBJ      := $(LIB_SRC:%.c=$(BUILD)/opt/%.o)
SAN_OBJ  := $(LIB_SRC:%.c=$(BUILD)/san/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/san/tests/%)

.PHONY: all run deps test-deps check bench fuzz fuzz-run install clean
all: ioscope

ioscope: $(BUILD)/opt/ioscope
	cp $< $@

$(BUILD)/opt/ioscope: $(OBJ) $(BUILD)/opt/$(MAIN_SRC:.c=.o)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/opt/%.o: %.c $(HDRS)
	@mkdir -p $(@D)
	@echo "CC      $<"
	@$(CC) $(BASEFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c $(HDRS)
	@mkdir -p $(@D)
	@echo "CC san  $<"
	@$(CC) $(BASEFLAGS) $(SANFLAGS) -c -o $@ $<

$(BUILD)/san/ioscope: $(SAN_OBJ) $(BUILD)/san/$(MAIN_SRC:.c=.o)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/san/tests/%: tests/unit/%.c $(SAN_OBJ) tests/unit/unit.h
	@mkdir -p $(@D)
	@echo "TEST    $<"
	@$(CC) $(BASEFLAGS) $(SANFLAGS) -Itests/unit -o $@ $< $(SAN_OBJ) $(LDLIBS) -lcmocka

# Builds and starts the console; installs missing Debian packages first when root.
# The build runs in a second make: pkg-config's flags are read when make starts, and
# on a fresh machine the libraries arrive only with `deps`.
run: deps
	@$(MAKE) --no-print-directory all
	./ioscope

deps:
	@tests/deps.sh $(BUILD_DEBS)

test-deps:
	@tests/deps.sh $(BUILD_DEBS) $(TEST_DEBS)

# Every test, under ASan+UBSan; the last line is "N passed, N failed[, N skipped]".
# T=pattern runs only the tests whose name contains it.
check: test-deps
	@$(MAKE) --no-print-directory all $(BUILD)/san/ioscope $(UNIT_BIN)
	@BUILD=$(BUILD) tests/run.sh

bench: deps
	@tests/deps.sh $(BENCH_DEBS)
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) tests/bench/run.sh

FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_SECONDS ?= 60
$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB_SRC) $(HDRS)
	@mkdir -p $(@D)
	@echo "FUZZ    $<"
	@clang $(BASEFLAGS) -Wno-unknown-warning-option -Wno-unused-function -O1 -g -fsanitize=fuzzer,address,undefined -o $@ $< $(LIB_SRC) $(LDLIBS)

# Builds the libFuzzer targets and runs each for FUZZ_SECONDS on its corpus.
fuzz: test-deps
	@$(MAKE) --no-print-directory fuzz-run

fuzz-run: $(FUZZ_BIN)
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/ioscope/themes
	install -m 0755 ioscope $(DESTDIR)$(PREFIX)/bin/ioscope
	install -m 0644 man/ioscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/ioscope.1
	install -m 0644 themes/*.theme $(DESTDIR)$(PREFIX)/share/ioscope/themes/

clean:
	rm -rf $(BUILD) ioscope
