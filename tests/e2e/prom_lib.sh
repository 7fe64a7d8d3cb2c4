# Helpers of the Prometheus export tests (docs/fleet.md).  Source after lib.sh.

# A TCP port nobody listens on now (the kernel's pick).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http URL [SECONDS]: until URL answers.
wait_http() {
	local i
	for i in $(seq 1 $((${2:-10} * 10))); do
		curl -sf -o /dev/null "$1" && return 0
		sleep 0.1
	done
	return 1
}

# A process's stderr says nothing (no sanitizer report, no warning).
quiet() { [ ! -s "$1" ]; }

# textfile_exporter DIR LOG: node_exporter with its textfile collector only, reading DIR,
# logging to LOG, on a free port of 127.0.0.1 (printed); stopped at exit.
textfile_exporter() {
	local port
	port=$(free_port)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$1" >"$2" 2>&1 &
	at_exit "kill $!"
	echo "$port"
}
