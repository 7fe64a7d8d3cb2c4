/* test_http_deadline.c - --listen's deadlines (http_deadline.h): a connection past its
 * deadline is shut down however its bytes trickle, a renewed one is not, a removed
 * one never is, and no more than max are tracked.  Socket pairs stand for clients. */
#include "unit.h"

#include <poll.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http_deadline.h"

#define STEP_MS 300

struct pair {
	int server, client;
};

static struct pair pair_new(void)
{
	int fds[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
	return (struct pair){ fds[0], fds[1] };
}

static void pair_close(struct pair *p)
{
	close(p->server);
	close(p->client);
}

/* Whether the client sees its connection ended (EOF) within ms. */
static bool ended_within(const struct pair *p, int ms)
{
	struct pollfd pfd = { .fd = p->client, .events = POLLIN };
	if (poll(&pfd, 1, ms) <= 0)
		return false;
	char c;
	return recv(p->client, &c, 1, MSG_DONTWAIT) == 0;
}

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	nanosleep(&t, NULL);
}

static void past_deadline_is_shut_down(void **state)
{
	struct error err;
	struct http_deadlines *d = http_deadlines_start(4, STEP_MS, &err);
	assert_non_null(d);
	struct pair p = pair_new();
	assert_non_null(http_deadlines_add(d, p.server));
	/* a byte now and then changes nothing: the deadline is not an idle timeout */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(send(p.client, "a", 1, 0), 1);
		sleep_ms(STEP_MS / 4);
	}
	assert_false(ended_within(&p, 0));
	assert_true(ended_within(&p, 2 * STEP_MS));
	http_deadlines_stop(d);
	pair_close(&p);
}

static void renewed_is_not(void **state)
{
	struct error err;
	struct http_deadlines *d = http_deadlines_start(4, STEP_MS, &err);
	assert_non_null(d);
	struct pair p = pair_new();
	struct http_deadline_slot *s = http_deadlines_add(d, p.server);
	assert_non_null(s);
	sleep_ms(2 * STEP_MS / 3);
	http_deadlines_renew(d, s);     /* the request came whole */
	assert_false(ended_within(&p, 2 * STEP_MS / 3));
	assert_true(ended_within(&p, 2 * STEP_MS));
	http_deadlines_remove(d, s);
	http_deadlines_stop(d);
	pair_close(&p);
}

static void removed_is_never(void **state)
{
	struct error err;
	struct http_deadlines *d = http_deadlines_start(1, STEP_MS, &err);
	assert_non_null(d);
	struct pair p = pair_new(), q = pair_new();
	struct http_deadline_slot *s = http_deadlines_add(d, p.server);
	assert_non_null(s);
	assert_null(http_deadlines_add(d, q.server));    /* one slot only */
	http_deadlines_remove(d, s);
	assert_false(ended_within(&p, 2 * STEP_MS));
	/* the slot is free again */
	assert_non_null(http_deadlines_add(d, q.server));
	assert_true(ended_within(&q, 2 * STEP_MS));
	http_deadlines_stop(d);
	pair_close(&p);
	pair_close(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(past_deadline_is_shut_down),
		cmocka_unit_test(renewed_is_not),
		cmocka_unit_test(removed_is_never),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
