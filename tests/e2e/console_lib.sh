# Helpers for the console's end-to-end tests: a private tmux server (its own socket,
# killed at exit) whose one pane runs a clean bash, in which the tests start ioscope.
# Source after lib.sh.
TMUX_SOCK="ioscope-test-$$"
at_exit "tmux -L '$TMUX_SOCK' kill-server"
STATUS_FILE_N=0

tm() { tmux -L "$TMUX_SOCK" "$@"; }

# console_shell COLS LINES: a session "t" with a clean interactive bash.
console_shell() {
	local cols=$1 lines=$2
	mkdir -p "$TMP/xdg"
	printf 'set -g status off\nset -g default-terminal tmux-256color\nset -g history-limit 0\n' >"$TMP/tmux.conf"
	# A server killed just before may not be gone yet ("server exited unexpectedly"):
	# then again.  capture-pane drops trailing blanks: the prompt "$ " reads "$".
	local try
	for try in 1 2 3; do
		_console_new_session "$cols" "$lines" && wait_screen '^\$ ?$' 5 && return 0
		tm kill-server 2>/dev/null
		nap 0.3
	done
	return 1
}

_console_new_session() {
	local cols=$1 lines=$2
	tm -f "$TMP/tmux.conf" new-session -d -s t -x "$cols" -y "$lines" \
		env -i PATH="$PATH" HOME="$TMP" TERM="${CONSOLE_TERM:-tmux-256color}" LANG="${CONSOLE_LANG:-C.UTF-8}" XDG_CONFIG_HOME="$TMP/xdg" \
		XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}" LSAN_OPTIONS="${LSAN_OPTIONS:-}" \
		UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" ${CONSOLE_ENV:-} PS1='$ ' HISTFILE= \
		bash --norc --noprofile
}

# console_send TEXT...: keys into the pane (tmux key names, or literal text with -l)
console_send() { tm send-keys -t t "$@"; }

# console_run ARGS...: start ioscope in the pane; its stderr goes to $TMP/stderr.N and
# its exit status is printed as "EXIT=n" when it ends.
console_run() {
	STATUS_FILE_N=$((STATUS_FILE_N + 1))
	CONSOLE_STDERR="$TMP/stderr.$STATUS_FILE_N"
	console_send -l "${CONSOLE_CMD:-$IOSCOPE} $* 2>$CONSOLE_STDERR; echo EXIT=\$?"
	console_send Enter
}

# console_run_job ARGS...: the same as a plain job (no "; echo"), for job control tests;
# print its status afterwards with console_status.
console_run_job() {
	STATUS_FILE_N=$((STATUS_FILE_N + 1))
	CONSOLE_STDERR="$TMP/stderr.$STATUS_FILE_N"
	console_send -l "${CONSOLE_CMD:-$IOSCOPE} $* 2>$CONSOLE_STDERR"
	console_send Enter
}
console_status() { console_send -l 'echo EXIT=$?'; console_send Enter; }

screen() { tm capture-pane -p -t t; }

# console_click X Y: a left click at 0-based cell (X, Y), as an xterm (X10) mouse
# report, which is what ncurses asks for on tmux-256color (kmous=\E[M).
console_click() {
	local x y
	x=$(printf "\\$(printf '%03o' $(($1 + 33)))")
	y=$(printf "\\$(printf '%03o' $(($2 + 33)))")
	# each report in one piece: split up, a slow reader would see Esc and loose keys
	tm send-keys -t t -l $'\e[M '"$x$y"
	tm send-keys -t t -l $'\e[M#'"$x$y"
}

# The screen for a failure report: non-blank lines, prefixed with '# '.
show_screen() { screen | grep -v '^ *$' | sed 's/^/# /'; }

# The waits below poll the pane every 0.1 s.  A poll whose screen is the one grep read at the
# last poll tells the same, so grep runs only on a screen that changed (a console redraws
# every interval; the waits are polled ten times a second), and the pause is nap's: each
# process started costs ~9 ms of CPU on this VM, and a poll was three (tmux, grep, sleep).
# _pane_grep ARGS...: grep over $_PANE, capture-pane's output byte for byte (a here-string
# adds the newline that the capture's last line had; no output is no line at all).
_pane_grep() {
	if [ -z "$_PANE" ]; then grep "$@" </dev/null; else grep "$@" <<<"${_PANE%$'\n'}"; fi
}
# _pane_poll MODE PATTERN SECONDS: until the pane shows a line matching PATTERN (MODE E: a
# regex, grep -E; F: a fixed string, grep -F), or, MODE gone, until none matches the regex.
# SECONDS is SECONDS*10 polls, and for what should come (E, F) at least 1.6*SECONDS of wall
# time: what the polls took with three processes each (4.1-4.8 s for 3 s, on a quiet
# machine), so no wait gives up sooner than then.  What should go (gone) has its polls
# only (4.1 s for 3 s): a limit on how long the product may take, not made looser.
_pane_poll() {
	local mode=$1 pat=$2 secs=$3 i _PANE last= read=no found floor=1600000
	[ "$mode" = gone ] && floor=0
	local end=$((${EPOCHREALTIME/./} + secs * floor))
	for ((i = 0; i < secs * 10 || ${EPOCHREALTIME/./} < end; i++)); do
		_PANE=$(screen; echo .)
		_PANE=${_PANE%.}
		if [ "$read" = no ] || [ "$_PANE" != "$last" ]; then
			case $mode in
			F) _pane_grep -qF -- "$pat" && found=yes || found=no ;;
			*) LC_ALL=C.UTF-8 _pane_grep -qE -- "$pat" && found=yes || found=no ;;
			esac
			[ "$mode" = gone ] && [ "$found" = no ] && return 0
			[ "$mode" != gone ] && [ "$found" = yes ] && return 0
			last=$_PANE read=yes
		fi
		nap 0.1
	done
	return 1
}

# wait_screen REGEX [SECONDS]: until the pane shows a line matching (grep -E).
wait_screen() { _pane_poll E "$1" "${2:-10}"; }

# wait_for TEXT [SECONDS]: until the pane shows TEXT (a fixed string, grep -F).
wait_for() { _pane_poll F "$1" "${2:-10}"; }

# wait_gone REGEX [SECONDS]
wait_gone() { _pane_poll gone "$1" "${2:-10}"; }

# screen_check NAME REGEX [SECONDS]: ok when the pane shows it, else the screen as the reason.
screen_check() {
	if wait_screen "$2" "${3:-10}"; then ok "$1"; else fail "$1" "no /$2/ on screen:"; show_screen; fi
}

# The pane's size as "COLSxLINES".
pane_size() { tm display -p -t t '#{pane_width}x#{pane_height}'; }

# console_resize COLS LINES
console_resize() { tm resize-window -t t -x "$1" -y "$2"; }

# The ioscope process running in the pane (for signals), empty when none.
console_pid() { pgrep -f -n -P "$(tm display -p -t t '#{pane_pid}')" -- "ioscope" || true; }

# console_up: the console is still there: its process runs and its header is on screen.
# A check that something is NOT on screen proves nothing unless this holds too.
console_up() { [ -n "$(console_pid)" ] && screen | grep -q '^ioscope '; }

# gone_check NAME REGEX [SECONDS]: ok when REGEX leaves the screen of a console still up.
gone_check() {
	if wait_gone "$2" "${3:-3}" && console_up; then ok "$1"; else fail "$1" "still /$2/ or no console:"; show_screen; fi
}

# table_row N: the Nth device row of the table (1 = first under the "Device" header),
# wherever the table starts on this terminal.
table_row() { screen | awk -v n="$1" '/^Device / { t = 1; next } t && ++i == n { print; exit }'; }

# No sanitizer or valgrind report in ioscope's stderr.
stderr_clean() { ! grep -qE 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$CONSOLE_STDERR"; }

# ended_check NAME: the console of the last console_run ended with status 0 and no
# sanitizer report (ASan's exit code is 86, UBSan's non-zero: both show in EXIT= too).
ended_check() {
	if wait_screen "^EXIT=[0-9]+$" 5 && screen | grep -qx "EXIT=0"; then ok "$1: exits 0"; else
		fail "$1: exits 0" "$(screen | grep 'EXIT=' || echo 'still running')"; fi
	stderr_clean && ok "$1: no sanitizer report" || { fail "$1: no sanitizer report"; head -30 "$CONSOLE_STDERR"; }
}

# The shell in the pane is back and the terminal is sane: echo works, canonical mode on.
shell_is_clean() {
	local tag="clean-$RANDOM"
	console_send -l "stty -a | tr ';' '\\n' | grep -Ewo -- '-?(icanon|echo)' | tr '\\n' ' '; echo $tag"
	console_send Enter
	wait_screen "^-?icanon.*$tag\$" 5 || return 1
	screen | grep -qE -- "^icanon echo $tag\$"
}
