/* Announcements: a burst is capped per interval and the rest counted (issue 23 item 9);
 * changes about to be made come apart. */
#include "unit.h"

#include <errno.h>
#include <json-c/json.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "announce.h"
#include "session_log.h"

struct fixture {
	char dir[64];                       /* $XDG_RUNTIME_DIR of the test */
	struct sockaddr_un to;              /* the listener's socket */
	int sock;                           /* ours, to send from */
	struct announce_listener *l;
	struct event_list got;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	assert_non_null(f);
	snprintf(f->dir, sizeof f->dir, "/tmp/ioscope-announce.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(setenv("XDG_RUNTIME_DIR", f->dir, 1), 0);
	struct error err = { "" };
	f->l = announce_listen(&session_log_announce_codec, &err);
	assert_non_null(f->l);
	f->to.sun_family = AF_UNIX;
	snprintf(f->to.sun_path, sizeof f->to.sun_path, "%s/ioscope/%ld.sock", f->dir,
		 (long)getpid());
	f->sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	assert_true(f->sock >= 0);
	event_list_init(&f->got);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	announce_close(f->l);
	close(f->sock);
	event_list_free(&f->got);
	char path[128];
	snprintf(path, sizeof path, "%s/ioscope", f->dir);
	rmdir(path);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* What `ioscope mark TEXT` sends. */
static char *mark_message(const char *text)
{
	struct event ev;
	event_own(&ev, EVENT_USER_MARK, "user", "mark");
	event_set_new_value(&ev, "%s", text);
	json_object *o = session_log_event(&ev, 0);
	assert_non_null(o);
	char *msg = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	event_free(&ev);
	return msg;
}

/* Send n marks; when the socket's queue is full, the listener takes what waits (as
 * the console and batch do whenever it is readable).  Returns how many were taken. */
static size_t send_marks(struct fixture *f, int n)
{
	size_t taken = 0;
	for (int i = 0; i < n; i++) {
		char text[32];
		snprintf(text, sizeof text, "burst %d", i);
		char *msg = mark_message(text);
		while (sendto(f->sock, msg, strlen(msg), 0, (struct sockaddr *)&f->to,
			      sizeof f->to) < 0) {
			assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
			int r = announce_take_events(f->l, &(struct announce_lists){ .made = &f->got });
			assert_true(r >= 0);
			taken += (size_t)r;
		}
		free(msg);
	}
	int r = announce_take_events(f->l, &(struct announce_lists){ .made = &f->got });
	assert_true(r >= 0);
	return taken + (size_t)r;
}

static void test_burst_capped_and_counted(void **state)
{
	struct fixture *f = *state;
	size_t taken = send_marks(f, ANNOUNCE_TAKE_MAX + 40);
	assert_int_equal(taken, ANNOUNCE_TAKE_MAX);
	assert_int_equal(f->got.count, ANNOUNCE_TAKE_MAX);
	assert_string_equal(f->got.items[0].new_value, "burst 0");
	assert_string_equal(f->got.items[ANNOUNCE_TAKE_MAX - 1].by, "ioscope");
	char note[160] = "";
	assert_true(announce_interval_end(f->l, note, sizeof note));
	assert_non_null(strstr(note, "40 announcements dropped"));
	/* the next interval takes again, and has nothing to say */
	event_list_clear(&f->got);
	assert_int_equal(send_marks(f, 3), 3);
	assert_string_equal(f->got.items[2].new_value, "burst 2");
	assert_false(announce_interval_end(f->l, note, sizeof note));
	assert_false(announce_interval_end(NULL, note, sizeof note));
}

static void send_change(struct fixture *f, enum announce_phase phase)
{
	struct event ev;
	event_own(&ev, EVENT_SCHEDULER, "loop0", "scheduler");
	event_set_new_value(&ev, "kyber");
	json_object *o = session_log_announce_codec.encode(&ev, phase);
	assert_non_null(o);
	const char *msg = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_true(sendto(f->sock, msg, strlen(msg), 0, (struct sockaddr *)&f->to, sizeof f->to) >= 0);
	json_object_put(o);
	event_free(&ev);
}

/* A change about to be made, and one withdrawn, come apart from the changes made
 * (expect.h); a listener that does not hold observations drops them. */
static void test_pending_apart(void **state)
{
	struct fixture *f = *state;
	struct event_list pending, withdrawn;
	event_list_init(&pending);
	event_list_init(&withdrawn);
	struct announce_lists to = { &f->got, &pending, &withdrawn };
	send_change(f, ANNOUNCE_PENDING);
	send_change(f, ANNOUNCE_MADE);
	send_change(f, ANNOUNCE_WITHDRAWN);
	assert_int_equal(announce_take_events(f->l, &to), 3);
	assert_int_equal(pending.count, 1);
	assert_int_equal(withdrawn.count, 1);
	assert_int_equal(f->got.count, 1);
	assert_string_equal(pending.items[0].new_value, "kyber");
	assert_string_equal(pending.items[0].by, "ioscope");
	assert_string_equal(withdrawn.items[0].new_value, "kyber");
	send_change(f, ANNOUNCE_PENDING);
	send_change(f, ANNOUNCE_WITHDRAWN);
	assert_int_equal(announce_take_events(f->l, &(struct announce_lists){ .made = &f->got }), 0);
	assert_int_equal(f->got.count, 1);
	event_list_free(&pending);
	event_list_free(&withdrawn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_burst_capped_and_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_apart, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
