#!/bin/sh
# Installs the Debian packages named as arguments that are missing: with apt-get
# when run as root, otherwise prints the exact command to run.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "installing:$missing" >&2
	apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null \
		|| { echo "apt-get install failed for:$missing" >&2; exit 1; }
else
	echo "missing Debian packages; run as root:" >&2
	echo "  apt-get install$missing" >&2
	exit 1
fi
