#!/bin/bash
# The Debian package `make deb` builds (docs/packaging.md): what it holds and where, what it
# depends on, and that the binary in it runs from a scratch root (dpkg -x).  Building takes
# minutes, more than `make check` can spend: the package is built here only with
# IOSCOPE_TEST_DEB=1; otherwise a package newer than every source is checked, or the test
# skips and says so.
. "$(dirname "$0")/lib.sh"
cd "$IOSCOPE_TOP" || exit 1

version=$(sed -n 's/^VERSION *:= *//p' Makefile)
changelog=$(sed -n '1s/^ioscope (\([^)]*\)).*/\1/p' debian/changelog)
name="debian/changelog has the Makefile's VERSION"
[ -n "$version" ] && [ "$version" = "$changelog" ] && ok "$name" \
	|| fail "$name" "Makefile $version, changelog $changelog"

needs "Debian package" dpkg dpkg-deb
arch=$(dpkg --print-architecture)
deb="${BUILD:-build}/deb/ioscope_${version}_$arch.deb"
if [ "${IOSCOPE_TEST_DEB:-}" = 1 ]; then
	name="make deb builds the package and lintian finds no error in it"
	log="$TMP/make-deb.log"
	make -s deb >"$log" 2>&1 || { fail "$name" "$(tail -20 "$log")"; exit 0; }
	ok "$name"
elif [ ! -f "$deb" ]; then
	skip "Debian package" "no $deb (make deb builds it; IOSCOPE_TEST_DEB=1 builds it here)"
	exit 0
else
	newer=$(find Makefile debian/control debian/rules debian/changelog debian/copyright \
		debian/source src include man themes workloads contrib \
		-newer "$deb" -type f -print -quit)
	if [ -n "$newer" ]; then
		skip "Debian package" \
			"$deb is older than $newer (make deb rebuilds it; IOSCOPE_TEST_DEB=1 here)"
		exit 0
	fi
fi

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$TMP/contents"
missing=""
for f in /usr/bin/ioscope /usr/lib/ioscope/ioscope-trace.so /usr/share/man/man1/ioscope.1.gz \
	/usr/share/ioscope/themes/default.theme /usr/share/ioscope/workloads/untar.sh \
	/usr/share/ioscope/workloads/lib.sh /lib/systemd/system/ioscope-exporter.service \
	/lib/systemd/system/ioscope-textfile.service /usr/share/ioscope/grafana/ioscope.json \
	/usr/share/doc/ioscope/copyright; do
	grep -qxF "$f" "$TMP/contents" || missing="$missing $f"
done
name="the package holds every installed file in Debian's places"
[ -z "$missing" ] && ok "$name" || fail "$name" "missing:$missing"
themes=$(ls themes/*.theme | wc -l)
[ "$(grep -c '^/usr/share/ioscope/themes/.*\.theme$' "$TMP/contents")" = "$themes" ] \
	&& ok "the package holds all $themes themes" || fail "the package holds all $themes themes"

depends=$(dpkg-deb -f "$deb" Depends) recommends=$(dpkg-deb -f "$deb" Recommends)
grep -q libncursesw <<<"$depends" && grep -q libjson-c <<<"$depends" \
	&& ! grep -qE 'libbpf|microhttpd|cairo' <<<"$depends" \
	&& ok "Depends: the linked libraries only" \
	|| fail "Depends: the linked libraries only" "$depends"
missing=""
for p in libbpf1 libmicrohttpd12 libcairo2 zlib1g liblzma5 libzstd1; do
	grep -qE "(^|, )$p( |,|$)" <<<"$recommends" || missing="$missing $p"
done
name="Recommends: the libraries loaded when used"
[ -z "$missing" ] && ok "$name" || fail "$name" "missing$missing in: $recommends"

root="$TMP/root"
dpkg-deb -x "$deb" "$root" || { fail "dpkg -x unpacks the package"; exit 0; }
units="$root/lib/systemd/system"
grep -q '^ExecStart=/usr/bin/ioscope ' "$units/ioscope-exporter.service" \
	&& grep -q '^ExecStart=/usr/bin/ioscope ' "$units/ioscope-textfile.service" \
	&& ok "the systemd units run /usr/bin/ioscope" \
	|| fail "the systemd units run /usr/bin/ioscope" "$(grep -h ExecStart "$units"/*.service)"
# PREFIX=/usr compiled in: the tracer, themes and workloads are looked for where they are.
bin="$root/usr/bin/ioscope"
grep -qF /usr/lib/ioscope "$bin" && ! grep -qF /usr/local/ "$bin" \
	&& ok "the binary looks in /usr, not /usr/local" \
	|| fail "the binary looks in /usr, not /usr/local"

name="the packaged ioscope --version names its version and the tracer"
out=$("$bin" --version 2>"$TMP/version.err"); rc=$?
[ $rc -eq 0 ] && grep -qx "ioscope $version" <<<"$out" \
	&& grep -qx 'tracing (--trace): built in' <<<"$out" \
	&& ok "$name" || fail "$name" "exit $rc: $out $(cat "$TMP/version.err")"
"$bin" --batch -c 1 -i 0.2 >"$TMP/batch.out" 2>"$TMP/batch.err"; rc=$?
[ $rc -eq 0 ] && [ -s "$TMP/batch.out" ] && ok "the packaged ioscope runs a one-sample batch" \
	|| fail "the packaged ioscope runs a one-sample batch" \
		"exit $rc: $(head -5 "$TMP/batch.err")"
