/* test_http_deadline.c - --listen's connections (http_deadline.h): a connection past its
 * deadline is shut down however its bytes trickle, a renewed one is not, a removed
 * one never is, no more than max are tracked, and one beyond open_max shuts down the
 * connection idle the longest, else the busy one whose step began first.  Socket pairs
 * stand for clients. */
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
	struct http_deadlines *d = http_deadlines_start(4, 4, STEP_MS, &err);
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
	struct http_deadlines *d = http_deadlines_start(4, 4, STEP_MS, &err);
	assert_non_null(d);
	struct pair p = pair_new();
	struct http_deadline_slot *s = http_deadlines_add(d, p.server);
	assert_non_null(s);
	sleep_ms(2 * STEP_MS / 3);
	http_deadlines_step(d, s, false);       /* the request came whole */
	assert_false(ended_within(&p, 2 * STEP_MS / 3));
	assert_true(ended_within(&p, 2 * STEP_MS));
	http_deadlines_remove(d, s);
	http_deadlines_stop(d);
	pair_close(&p);
}

static void removed_is_never(void **state)
{
	struct error err;
	struct http_deadlines *d = http_deadlines_start(1, 1, STEP_MS, &err);
	assert_non_null(d);
	struct pair p = pair_new(), q = pair_new();
	struct http_deadline_slot *s = http_deadlines_add(d, p.server);
	assert_non_null(s);
	struct pair r = pair_new();
	assert_null(http_deadlines_add(d, r.server));    /* one slot only: shut down */
	assert_true(ended_within(&r, 0));
	http_deadlines_remove(d, s);
	assert_false(ended_within(&p, 2 * STEP_MS));
	/* the slot is free again */
	assert_non_null(http_deadlines_add(d, q.server));
	assert_true(ended_within(&q, 2 * STEP_MS));
	http_deadlines_stop(d);
	pair_close(&p);
	pair_close(&q);
	pair_close(&r);
}

#define OPEN_MAX 3

/* OPEN_MAX open; the one made busy (its request came) and then idle again (its response
 * went) is idle since later than the others, though it came first. */
static void fill(struct http_deadlines *d, struct pair *p, struct http_deadline_slot **s)
{
	for (int i = 0; i < OPEN_MAX; i++) {
		p[i] = pair_new();
		s[i] = http_deadlines_add(d, p[i].server);
		assert_non_null(s[i]);
		sleep_ms(5);
	}
	http_deadlines_step(d, s[0], false);
	sleep_ms(5);
	http_deadlines_step(d, s[0], true);
}

static void beyond_open_max_idle_longest_goes(void **state)
{
	struct error err;
	struct http_deadlines *d = http_deadlines_start(OPEN_MAX, OPEN_MAX + 2, 60000, &err);
	assert_non_null(d);
	struct pair p[OPEN_MAX + 2];
	struct http_deadline_slot *s[OPEN_MAX + 2];
	fill(d, p, s);
	for (int i = 0; i < OPEN_MAX; i++)
		assert_false(ended_within(&p[i], 0));
	/* a fourth: p[1] has waited for a request the longest */
	p[OPEN_MAX] = pair_new();
	s[OPEN_MAX] = http_deadlines_add(d, p[OPEN_MAX].server);
	assert_non_null(s[OPEN_MAX]);
	assert_true(ended_within(&p[1], 0));
	assert_false(ended_within(&p[0], 0));
	assert_false(ended_within(&p[2], 0));
	assert_false(ended_within(&p[OPEN_MAX], 0));
	/* a fifth, while the server has not yet closed p[1]: then p[2] */
	p[OPEN_MAX + 1] = pair_new();
	assert_non_null(http_deadlines_add(d, p[OPEN_MAX + 1].server));
	assert_true(ended_within(&p[2], 0));
	assert_false(ended_within(&p[0], 0));
	assert_false(ended_within(&p[OPEN_MAX], 0));
	for (int i = 0; i < OPEN_MAX + 2; i++)
		pair_close(&p[i]);
	http_deadlines_stop(d);
}

static void busy_goes_only_when_none_is_idle(void **state)
{
	struct error err;
	struct http_deadlines *d = http_deadlines_start(OPEN_MAX, OPEN_MAX + 2, 60000, &err);
	assert_non_null(d);
	struct pair p[OPEN_MAX + 2];
	struct http_deadline_slot *s[OPEN_MAX + 2];
	fill(d, p, s);
	http_deadlines_step(d, s[1], false);
	http_deadlines_step(d, s[2], false);
	/* s[0] is the one idle: it goes, though the busy ones waited longer */
	p[OPEN_MAX] = pair_new();
	s[OPEN_MAX] = http_deadlines_add(d, p[OPEN_MAX].server);
	assert_true(ended_within(&p[0], 0));
	assert_false(ended_within(&p[1], 0));
	/* the new one is busy too: of the busy, p[1] began its step first */
	http_deadlines_step(d, s[OPEN_MAX], false);
	http_deadlines_remove(d, s[0]);           /* the server closed it */
	p[OPEN_MAX + 1] = pair_new();
	assert_non_null(http_deadlines_add(d, p[OPEN_MAX + 1].server));
	assert_true(ended_within(&p[1], 0));
	assert_false(ended_within(&p[2], 0));
	assert_false(ended_within(&p[OPEN_MAX], 0));
	assert_false(ended_within(&p[OPEN_MAX + 1], 0));
	for (int i = 0; i < OPEN_MAX + 2; i++)
		pair_close(&p[i]);
	http_deadlines_stop(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(past_deadline_is_shut_down),
		cmocka_unit_test(renewed_is_not),
		cmocka_unit_test(removed_is_never),
		cmocka_unit_test(beyond_open_max_idle_longest_goes),
		cmocka_unit_test(busy_goes_only_when_none_is_idle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
