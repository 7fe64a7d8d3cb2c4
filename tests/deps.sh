#!/bin/sh
# deps.sh NEEDED... [-- WANTED...]: the Debian packages that are missing, installed with
# apt-get when run as root.  As another user a missing NEEDED package (nothing can be
# built without it) fails with the exact apt-get line to run; a missing WANTED package
# (only some tests use it) is listed and does not fail: the tests that need it skip and
# say why, so that `make check` runs as an ordinary user on any machine that can build.
installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed'; }

needed="" wanted="" group=needed
for p in "$@"; do
	[ "$p" = -- ] && { group=wanted; continue; }
	installed "$p" && continue
	case $group in
	needed) needed="$needed $p" ;;
	wanted) wanted="$wanted $p" ;;
	esac
done
[ -z "$needed$wanted" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "installing:$needed$wanted" >&2
	apt-get update -qq >/dev/null && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $needed $wanted >/dev/null \
		|| { echo "apt-get install failed for:$needed$wanted" >&2; exit 1; }
	exit 0
fi
if [ -n "$wanted" ]; then
	echo "not installed (the tests that need them skip and say so):$wanted" >&2
	echo "  as root: apt-get install$wanted" >&2
fi
if [ -n "$needed" ]; then
	echo "missing Debian packages needed to build; run as root:" >&2
	echo "  apt-get install$needed" >&2
	exit 1
fi
exit 0
